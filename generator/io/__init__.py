"""The edge: catalog resolution, YAML loading with positions, the solver cache, the writer."""
