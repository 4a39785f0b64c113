"""`dicesheets serve`: the web page (Starlette app, forms that follow the CLI, a build pool)."""
