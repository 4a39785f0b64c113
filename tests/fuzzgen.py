"""A seeded generator of hostile command lines and input files for the fuzz test.

Every command comes from the registry and its options from the click command made of it
(so a new command or option is fuzzed without touching this file); values are drawn per
option type and name from pools of valid, boundary and hostile values. Input files of
every kind are the shipped ones and small valid examples, mutated (lines dropped or
doubled, numbers made negative, huge or fractional, values turned into text or lists,
control characters, truncation, non-UTF-8 bytes, alias bombs, deep nesting, values that
contain themselves, one bad byte in UTF-8), plus user catalogs with mutated YAML and
hostile templates — among them every filter, operator and string or list method of the
sandbox against the size limits (`size_attacks`). Texts carry invisible format
characters (U+202E …), numbers non-ASCII digits, and `--out` names special files (a
FIFO, a device node, standard output) that must survive every run.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import click

from generator import registry
from generator.cli import cli
from generator.core.resources import catalog_dir, templates_dir

# not one-shot commands: a server and a file watcher never end by themselves
SKIPPED_COMMANDS = {"serve"}
SKIPPED_OPTIONS = {"--watch", "--help", "--version"}

INTS = ["-1", "0", "1", "2", "3", "5", "7", "100", "1000", "999999999999", "4294967296", "x",
        "1.5", "", "-0", "٣", "²", "１"]  # fmt: skip
# invisible format characters (Unicode Cf): a name that reads reversed, hidden letters
FORMAT_CHARS = ["\u202eanuZ", "Zo\u200bë", "\u2066Ben\u2069", "\ufeffCem", "An\u00adna",
                "\u200d", "\u202e"]  # fmt: skip
FLOATS = ["0", "0.5", "-1", "1e308", "nan", "inf", "x"]
TEXTS = ["", "x", "Zoë,Łukasz,Ömer", "a\nb", "a\tb", "ü" * 300, "9" * 400, "../../etc/passwd",
         "/tmp", "%s%n{0}", "{{ 7*7 }}", ",,,", "-", "--out", "a" * 5000,
         *FORMAT_CHARS]  # fmt: skip
BY_NAME = {
    "rules": ["kniffel", "yahtzee", "nope", "../kniffel/kniffel", "KNIFFEL", "@rules"],
    "profile": ["classic", "einmaleins", "plus-minus", "challenge", "nope", "../x", "@profile"],
    "names": [
        "Anna,Jörg",
        "Anna,,Ben",
        "Zoë",
        ",",
        "A" * 300,
        "a\nb,c",
        "1,2,3,4,5,6,7,8,9",
        ",".join(FORMAT_CHARS[:4]),
        "\u202e,Ben",
    ],
    "title": ["Klasse 3b", "", "x" * 2000, "Zoë\nŁukasz", "\u202e\u0000"[:1], "Klasse\u200b 3b"],
    "klass": ["3b", "3\u202eb", "\u200b"],
    "date": ["1.2.2026", "\u2066heute\u2069"],
    "filled": ["Einser=3", "Einser=3,Kniffel=0", "Einser=99", "x=1", "=", "Einser=3,Einser=3"],
    "roll": [
        "1 3 3 4 6",
        "13346",
        "7 7 7 7 7",
        "",
        "1 2 3 4 5 6",
        "3 5 1 6 2 2",
        "a b",
        "1 2 3 4 ²",
        "١ ٢ ٣ ٤ ٥",
        "12345²",
        "1 2 3 4 5 ²",
    ],
    "task": ["nope", "", "x" * 100],
    "targets": ["1-40", "5", "0-1000000", "a", "1,2,5-9", "9-1", "-"],
    "ops": ["+-", "*/", "+-*/", "x", "", "−×÷:"],
    "family": ["koepfchen", "24", "nope", "../x"],
    "target": ["8", "24", "0", "-1", "1000001", "x", ""],
    "spec": ["mixed", "nope", "@spec"],
    "game": ["kribbeln", "koepfchen", "nope"],
}
KNIFFEL_GAME = """rules: kniffel
players:
  - name: Zoë
    games:
      - {Einser: 3, Zweier: 6, Dreier: 9, Vierer: 12, Fünfer: 15, Sechser: 18,
         Dreierpasch: 20, Viererpasch: 0, Full House: 25, Kleine Straße: 30,
         Große Straße: 0, Kniffel: 50, Chance: 22}
"""
KRIBBELN_GAME = "names: [Anna, Ben]\nrows:\n" + "".join(
    f"  - [{20 + i}, {'X' if i % 3 else 18 + i}]\n" for i in range(10)
)
HOSTILE_TEMPLATE_LINES = [
    '{{ "".__class__.__mro__ }}', '{% include "missing.j2" %}', "{{ 1 / 0 }}",
    '{{ "x" * 10**9 }}', '{{ "%0999999999d" % 1 }}', "{{ lipsum(10**6) }}",
    '{{ "x"|center(10**9) }}', "{{ range(10**9)|list }}", "{% macro %}", "{{ undefined_name }}",
    "{% for i in range(9999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}",
    "{% macro m(a) %}{{ m(a) }}{% endmacro %}{{ m(1) }}", "{{ 7 ** 7 ** 7 }}",
]  # fmt: skip
# a long text and a long list of long texts: what every size attack starts from
SIZE_SETUP = "{% set big = 'x' * 150000 %}{% set many = ['x' * 150000] * 150000 %}"
SIZE_ARGS = ["", "big", "many", "10000", "'x', big", "big, big", "'', big", "many, many"]
OPERATORS = ["~", "+", "*", "%", "**", "//", "/", "-", "in", "=="]


def size_attacks() -> list[str]:
    """Template lines that would make a text far past the limit, one per filter, operator
    and string, list or dict method of the sandbox (each starting with SIZE_SETUP).

    Taken from the environment itself, so a filter added later is attacked too.
    """
    from generator.text.words import make_environment

    env = make_environment()
    lines = []
    for name in sorted(env.filters):
        for value in ("big", "many", "(big ~ '\\n') * 10000"):
            for args in ("", "(big)", "(10000)", "(big, big)", "('x', big)"):
                lines.append(f"{{{{ ({value})|{name}{args} }}}}")
            lines.append(f"{{{{ ({value})|map('{name}')|list|join }}}}")
    for op in OPERATORS:
        for left, right in (("big", "big"), ("many", "many"), ("big", "10000"), ("many", "3")):
            lines.append(f"{{{{ {left} {op} {right} }}}}")
    lines.append("{{ '%s' * 5000 % ((big,) * 5000) }}")
    for kind, value in ((str, "big"), (list, "many"), (dict, "{1: big}")):
        for method in sorted(m for m in dir(kind) if not m.startswith("_")):
            for args in SIZE_ARGS:
                lines.append(f"{{% set v = {value} %}}{{{{ v.{method}({args}) }}}}")
    lines.append("{% set l = [big] %}{% for i in range(40) %}{{ l.extend(l) or '' }}{% endfor %}")
    lines.append("{% for i in range(9999) %}{{ big }}{% endfor %}")
    return [SIZE_SETUP + line for line in lines]


def _mutate_text(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    kind = rng.randrange(14)
    if not lines:
        return text + "\x00"
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines[i] = re.sub(r"\d+", lambda m: rng.choice(["-1", "0", "1e9", "2.5", "99999999"]),
                          lines[i], count=1)  # fmt: skip
    elif kind == 3:
        lines[i] = re.sub(r":\s*(\S.*)$", lambda m: rng.choice([": [1, 2]", ": {a: 1}", ": ~",
                          ': "x"', ": yes", ": ''"]), lines[i], count=1)  # fmt: skip
    elif kind == 4:
        lines[i] += rng.choice(["\x01", "\x7f", "\u2028", '"\\0"', "\t", "\ufeff"])
    elif kind == 5:
        return text[: rng.randrange(len(text) + 1)]
    elif kind == 6:
        lines.insert(0, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]")
        lines.insert(1, "a1: &a1 [" + ", ".join(["*a0"] * 10) + "]")
        lines.insert(2, "a2: &a2 [" + ", ".join(["*a1"] * 10) + "]")
        lines.insert(3, "a3: [" + ", ".join(["*a2"] * 90) + "]")
    elif kind == 7:
        lines[i] = "[" * 60 + lines[i]
    elif kind == 8:
        lines[i] = lines[i].replace(":", "", 1)
    elif kind == 9:
        lines[i] = "  " + lines[i]
    elif kind == 10:
        lines[i] = lines[i] + " # " + "x" * rng.choice([10, 100_000])
    elif kind == 12:  # a value that contains itself (allowed by YAML, endless when expanded)
        lines.insert(i, rng.choice(["r0: &r0 [*r0]", "r1: &r1 {a: *r1}", "r2: &r2 [1, [2, *r2]]"]))
    elif kind == 13:
        lines[i] = re.sub(r"[A-Za-zäöü]", lambda m: m.group() + rng.choice(FORMAT_CHARS[-2:]),
                          lines[i], count=1)  # fmt: skip
    else:
        lines[i] = re.sub(r"\b[a-z_]+\b", "id: ../../escape", lines[i], count=1)
    return "\n".join(lines) + "\n"


def _mutate(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.08:
        return data[:20] + b"\xff\xfe" + data[20:]
    if rng.random() < 0.05:  # one bad byte in an otherwise valid UTF-8 file, late on
        at = data.rfind(b"\n", 0, max(1, len(data) - 2)) + 1
        return data[:at] + b"J\xf6rg " + data[at:]
    return _mutate_text(data.decode("utf-8"), rng).encode("utf-8", "surrogatepass")


def mutated(data: bytes, rng: random.Random) -> bytes:
    """`data` with one to three mutations on top of each other (the files campaign)."""
    for _ in range(rng.randrange(1, 4)):
        try:
            data = _mutate(data, rng)
        except UnicodeDecodeError:  # (a byte mutation came first: keep it as it is)
            break
    return data


class Inputs:
    """The pool of input files and catalog folders (made once, reused by every input)."""

    def __init__(self, root: Path, rng: random.Random, block_manifest: bytes | None) -> None:
        self.root = root
        self.files: dict[str, list[Path]] = {}
        root.mkdir(parents=True, exist_ok=True)
        shipped = {p.relative_to(catalog_dir()).as_posix(): p.read_bytes()
                   for p in sorted(catalog_dir().rglob("*.yaml"))}  # fmt: skip
        examples = {
            "kniffel-game": KNIFFEL_GAME.encode(),
            "kribbeln-game": KRIBBELN_GAME.encode(),
            "pages": b"sheets:\n  - [a, b, c, d, e, f]\n",
            "roster": "Zoë\nŁukasz\n\nNguyễn Văn An\n".encode(),
            "batch": b"3 3 8 8 -> 24\n1, 2, 3, 4 -> 24 # c\nx -> y\n",
            "block": block_manifest or b"{}",
        }
        n = 0
        for name, data in [*shipped.items(), *examples.items()]:
            kind = name.split("/")[0] if "/" in name else name
            variants = [data] + [_mutate(data, rng) for _ in range(4)]
            for v in variants:
                n += 1
                suffix = ".json" if name == "block" else ".txt" if name in ("roster", "batch") \
                    else ".yaml"  # fmt: skip
                path = root / f"in{n}-{kind}{suffix}"
                path.write_bytes(v)
                self.files.setdefault(kind, []).append(path)
                self.files.setdefault("any", []).append(path)
        deep = root / "deep.json"
        deep.write_text("[" * 50_000)
        self.files["block"].append(deep)
        odd = root / "a folder.yaml"
        odd.mkdir()
        fifo = root / "fifo.yaml"
        os.mkfifo(fifo)
        self.odd = [odd, fifo, Path("/dev/zero"), root / "missing.yaml", Path("/proc/self/status")]
        self.special_outs = self._special_outs()
        self.pdf = root / "doc.pdf"
        self.catalogs = [self._catalog(i, rng, shipped) for i in range(8)]

    def _special_outs(self) -> dict[Path, int]:
        """Output targets that are no regular files (path → file type), kept by every run.

        A FIFO with a reader that drains it for ever (a writer into it never waits), and
        as root a node of the null device (written into it would be lost, replaced it
        would be a file: the type check sees it).
        """
        import stat
        import threading

        fifo = self.root / "out-fifo.csv"
        os.mkfifo(fifo)

        def drain() -> None:
            while True:
                with open(fifo, "rb") as handle:
                    handle.read()

        threading.Thread(target=drain, daemon=True).start()
        found = {fifo: stat.S_IFIFO}
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            node = self.root / "out-null"
            os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))
            found[node] = stat.S_IFCHR
        return found

    def _catalog(self, i: int, rng: random.Random, shipped: dict[str, bytes]) -> Path:
        folder = self.root / f"catalog{i}"
        (folder / "templates" / "de").mkdir(parents=True)
        (folder / "templates" / "en").mkdir(parents=True)
        for rel in rng.sample(sorted(shipped), 2):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_mutate(shipped[rel], rng) if i else shipped[rel])
        for path in rng.sample(sorted(templates_dir().glob("*/*.j2")), 3):
            text = path.read_text(encoding="utf-8")
            lines = text.splitlines()
            at = rng.randrange(len(lines) + 1)
            hostile = HOSTILE_TEMPLATE_LINES if rng.random() < 0.5 else ATTACKS
            lines.insert(at, rng.choice(hostile))
            mutated = "\n".join(lines) + "\n"
            (folder / "templates" / path.parent.name / path.name).write_text(mutated)
        if i % 4 == 3:  # a link out of the catalog
            (folder / "kniffel").mkdir(exist_ok=True)
            link = folder / "kniffel" / "linked.yaml"
            if not link.exists():
                link.symlink_to(self.root / "in1-kniffel.yaml")
        return folder

    def pick(self, kind: str, rng: random.Random) -> str:
        if rng.random() < 0.15:
            # a batch is a stream on purpose (`--batch <(…)`): a FIFO without writer waits
            odd = [p for p in self.odd if not (kind == "batch" and p.name == "fifo.yaml")]
            return str(rng.choice(odd))
        pool = self.files.get(kind) or self.files["any"]
        return str(rng.choice(pool))


ATTACKS = size_attacks()
FILE_KINDS = {
    "dice_file": "kribbeln", "tasks_file": "kribbeln", "balance_file": "kribbeln",
    "pages_file": "pages", "block_file": "block", "roster": "roster", "batch": "batch",
}  # fmt: skip
ARGUMENT_KINDS = {("kniffel", "score"): "kniffel-game", ("kribbeln", "score"): "kribbeln-game",
                  ("validate", "validate"): "any"}  # fmt: skip


def leaf_commands() -> Iterator[tuple[list[str], click.Command]]:
    """(words, command) for every command of the registry, as the CLI made it."""
    ctx = click.Context(cli)
    for path in sorted(registry.COMMANDS):
        words = path.split()
        if words[0] in SKIPPED_COMMANDS:
            continue
        command = cli.get_command(ctx, words[0])
        if isinstance(command, click.Group):
            command = command.commands[words[1]]
        assert command is not None, path
        yield words, command


def _value(words: list[str], param: click.Parameter, inputs: Inputs, rng: random.Random) -> str:
    name = param.name or ""
    kind = param.type
    if name == "out" or "--out" in getattr(param, "opts", ()) or name == "target":
        if rng.random() < 0.15:
            # (standard output by a name that cannot be renamed onto: never /dev/stdout)
            return str(rng.choice([*inputs.special_outs, "/proc/self/fd/1", "-"]))
        return rng.choice(OUTS)
    if name == "key_file" or "--key-file" in getattr(param, "opts", ()):
        return rng.choice(["out/k.pdf", "out/a.json", "out/a.pdf", "out/", "out/k/"])
    if name == "png" or "--png" in getattr(param, "opts", ()):
        return rng.choice(["png/", "out/png", "out/a.pdf", "png/" + "p" * 300])
    if name == "catalog":
        return str(rng.choice(inputs.catalogs)) if rng.random() < 0.9 else str(inputs.odd[1])
    if name == "folder" and words[0] == "init":
        return rng.choice(["out/init", "out/", "out/a.pdf"])
    if name == "folder":
        return str(rng.choice(inputs.catalogs))
    if name in FILE_KINDS:
        return inputs.pick(FILE_KINDS[name], rng)
    if name == "pdf":
        return str(inputs.pdf) if rng.random() < 0.7 else inputs.pick("any", rng)
    if name in BY_NAME:
        value = rng.choice(BY_NAME[name])
        if value.startswith("@"):  # a user's file in place of a catalog name
            return inputs.pick({"@rules": "kniffel", "@profile": "koepfchen",
                                "@spec": "worksheet"}[value], rng)  # fmt: skip
        return value
    if isinstance(kind, click.Choice):
        return rng.choice([*kind.choices, "nope"]) if rng.random() < 0.9 else "A4"
    if isinstance(kind, click.types.IntParamType):
        return rng.choice(INTS)
    if isinstance(kind, click.types.FloatParamType):
        return rng.choice(FLOATS)
    return rng.choice(TEXTS)


OUTS = ["out/", "out/a.pdf", "out/a.json", "out/sub/deep/", "out/x" + "y" * 300 + ".pdf",
        "out/a.pdf/b.pdf", "out", "out/.pdf", "out/a b ü.pdf"]  # fmt: skip
# sizes that would make a valid run slow (a million games): always drawn from the pool
ALWAYS = {"games", "copies", "pages", "problems", "versions", "players", "dpi"}


def command_line(inputs: Inputs, rng: random.Random, commands: list) -> list[str]:
    """One random command line."""
    words, command = rng.choice(commands)
    args = list(words)
    for param in command.params:
        if isinstance(param, click.Option):
            flag = param.opts[0]
            if flag in SKIPPED_OPTIONS or (param.name == "as_json" and rng.random() < 0.5):
                continue
            if param.name not in ALWAYS and rng.random() < 0.55:
                continue
            if param.is_flag:
                args.append(rng.choice(param.opts + param.secondary_opts))
            else:
                args += [flag, _value(words, param, inputs, rng)]
        elif isinstance(param, click.Argument):
            if param.nargs == -1:
                kind = ARGUMENT_KINDS.get((words[0], words[-1]))
                count = rng.randrange(0, 4 if kind else 7)
                args += [inputs.pick(kind, rng) if kind else rng.choice([*INTS, "3", "4", "6"])
                         for _ in range(count)]  # fmt: skip
            else:
                kind = ARGUMENT_KINDS.get((words[0], words[-1]), "any")
                args.append(_value(words, param, inputs, rng) if param.name in ("pdf", "folder")
                            else inputs.pick(kind, rng))  # fmt: skip
    if words == ["all"]:
        args += ["--seed", "-1"]  # the whole default set takes seconds: only its refusals
    return args
