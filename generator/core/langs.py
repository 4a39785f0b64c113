"""The languages the sheets are written in (`generator.text.words` needs Jinja2, this not)."""

LANGS = ("de", "en")
