"""Words from templates: the sandbox, the languages and the texts of every page."""
