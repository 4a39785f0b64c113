"""`dicesheets validate`: the checks of catalog files and the rehearsal of every product."""
