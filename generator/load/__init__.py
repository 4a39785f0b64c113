"""The edge that reads: catalog entries, YAML and user files, the solver cache → frozen inputs."""
