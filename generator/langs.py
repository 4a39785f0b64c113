"""The languages the sheets are written in (apart from `generator.text`, which needs Jinja2)."""

LANGS = ("de", "en")
