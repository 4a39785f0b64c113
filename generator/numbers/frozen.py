"""`Frozen`: the value classes of a solve, like frozen dataclasses but without `dataclasses`.

`numbers solve` is a whole process a user waits for: importing `dataclasses` (which
imports `inspect`, `ast`, `dis`, `tokenize` …) took 6 ms, and making each class with it
another 0.3 ms — together longer than solving a Countdown puzzle. So the classes a solve loads
(`Rules`, `Puzzle`, `Solution`, the written `Num` and `BinOp`) keep their fields in
`__slots__`, set once, and are compared, hashed, shown and pickled by them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms); mypy reads True
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Frozen:
    """A value: its fields are `_fields` (also its `__slots__`), in the order `__init__` takes them.

    Equal exactly when the class and the `_compared` fields (all fields unless a class
    says otherwise) are equal; assigning to a field afterwards raises `AttributeError`
    (as `dataclasses.FrozenInstanceError` does). `repr` shows the compared fields.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...] | None] = None

    def _set(self, **fields: Any) -> None:
        """Set the fields once, from `__init__`."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._compared or self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        names = self._compared or self._fields
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy rebuild it through __init__ (there is no __dict__ to restore)
        return (type(self), tuple(getattr(self, name) for name in self._fields))
