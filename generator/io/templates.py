"""The run's templates, read at the edge: a catalog's `templates/` folders over the shipped
ones, compiled through the bytecode cache beside the solver cache."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import jinja2
import jinja2.bccache

from generator.core.resources import templates_dir
from generator.core.store import key_for
from generator.io.cache import cache_dir, read_entry, store_entry
from generator.io.userfiles import confined, read_text
from generator.text.templating import COMPILED
from generator.text.words import MAX_TEMPLATE_BYTES, SETTINGS, Templates


class BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates in the dicesheets cache folder (25 ms of compiling per start saved).

    Jinja2 recompiles a template whose source changed (each entry carries the source's
    checksum). The entries are stored like every cache entry (`generator.io.cache`):
    regular files only, a checksum of the content, written atomically; a damaged one is
    compiled anew and a folder that cannot be written only costs time. Two caches of one
    folder are equal, so the environments compiled over them are shared.
    """

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BytecodeCache) and other.directory == self.directory

    def __hash__(self) -> int:
        return hash(self.directory)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        payload = read_entry(Path(self._get_cache_filename(bucket)))
        if payload is None:
            return
        try:
            bucket.bytecode_from_string(payload)
        except Exception:  # a sound checksum over bytes Jinja2 cannot load: compile anew
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        store_entry(Path(self._get_cache_filename(bucket)), bucket.bytecode_to_string())


def bytecode_cache() -> BytecodeCache:
    """The compiled-template cache under `$DICESHEETS_CACHE` (see `generator.io.cache`)."""
    # what the compiled code depends on besides the source: Jinja2 and the settings
    key = key_for("templates", jinja2.__version__, SETTINGS, COMPILED)[:16]
    return BytecodeCache(str(cache_dir() / "templates" / key))


def read_templates(folders: Sequence[Path]) -> Templates:
    """The `<lang>/<name>.j2` files of `folders` (earlier folders win), then the shipped ones,
    with the disk's compiled-template cache.

    A user's template must be a regular UTF-8 file inside its folder (a link out of
    the catalog is refused) of at most MAX_TEMPLATE_BYTES.
    """
    found: dict[str, tuple[str, str, str]] = {}
    for folder in [*folders, templates_dir()]:
        for path in sorted(folder.glob("*/*.j2")) if folder.is_dir() else ():
            name = path.relative_to(folder).as_posix()
            if name not in found:
                confined(path, folder)
                found[name] = (name, str(path), read_text(path, str(path), MAX_TEMPLATE_BYTES))
    return Templates(tuple(found[name] for name in sorted(found)), bytecode_cache())
