"""Bad input and faults: one line, exit 2, nothing written outside --out (issue 13, per cause)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.core.resources import catalog_dir, templates_dir

KNIFFEL = (catalog_dir() / "kniffel" / "kniffel.yaml").read_text(encoding="utf-8")


def one_line_error(result, *needles: str) -> str:
    """The single stderr line of a failed run (exit 2), checked to contain every needle."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("dicesheets: error: "), err
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in err, err
    return err


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


def user_rules(tmp_path: Path, rule_id: str) -> Path:
    cat = tmp_path / "cat"
    (cat / "kniffel").mkdir(parents=True)
    text = KNIFFEL.replace("id: kniffel", f"id: {json.dumps(rule_id)}", 1)
    assert text != KNIFFEL
    (cat / "kniffel" / "kniffel.yaml").write_text(text, encoding="utf-8")
    return cat


# 1. ids that reach a file name
@pytest.mark.parametrize("rule_id", ["../../escaped", "/tmp/abs-escaped", "a/b", ".hidden", "A B"])
@pytest.mark.parametrize("command", [["kniffel", "block"], ["kniffel", "odds", "--games", "1000"]])
def test_an_unsafe_rule_set_id_is_refused_and_nothing_is_written(
    run_cli, tmp_path: Path, rule_id: str, command: list[str]
) -> None:
    cat = user_rules(tmp_path, rule_id)
    (tmp_path / "out").mkdir()
    before = files_under(tmp_path.parent)
    result = run_cli(*command, "--catalog", cat, "--out", "out/")
    one_line_error(result, "kniffel.yaml:", "key 'id'", "expected an id")
    assert files_under(tmp_path.parent) == before
    assert not Path("/tmp/abs-escaped-block-de.pdf").exists()


def test_resolve_out_refuses_a_default_name_with_a_folder_part(tmp_path: Path) -> None:
    from generator.core.errors import UserError
    from generator.io.writer import resolve_out

    for name in ("../x.pdf", "a/b.pdf", ".x.pdf", "x\x00.pdf"):
        with pytest.raises(UserError, match="unsafe output file name"):
            resolve_out(tmp_path, name)


# 2. init --force never writes through a link
def test_init_force_replaces_links_instead_of_writing_through_them(run_cli, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    folder = tmp_path / "starter"
    (folder / "kniffel").mkdir(parents=True)
    (folder / "kniffel" / "kniffel.yaml").symlink_to(victim)
    (folder / "README.txt").symlink_to(victim)
    result = run_cli("init", folder, "--force")
    assert result.exit_code == 0, result.output
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not (folder / "kniffel" / "kniffel.yaml").is_symlink()
    assert "categories" in (folder / "kniffel" / "kniffel.yaml").read_text(encoding="utf-8")
    assert not [p for p in folder.rglob("*.tmp")]


def test_init_refuses_a_linked_sub_folder(run_cli, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = tmp_path / "starter"
    folder.mkdir()
    (folder / "kniffel").symlink_to(elsewhere)
    result = run_cli("init", folder, "--force")
    one_line_error(result, "argument DIR", "is a link")
    assert list(elsewhere.iterdir()) == []


# 3. output names that collide
@pytest.mark.parametrize(
    "args",
    [
        ["kniffel", "block", "--out", "x.json"],
        ["worksheet", "--problems", "3", "--out", "w.pdf", "--key-file", "w.json"],
        ["worksheet", "--problems", "3", "--out", "w.pdf", "--key-file", "./w.pdf"],
    ],
)
def test_colliding_output_names_are_refused_before_anything_is_lost(
    run_cli, tmp_path: Path, args: list[str]
) -> None:
    for name in ("x.json", "w.json", "w.pdf"):
        (tmp_path / name).write_text("old", encoding="utf-8")
    result = run_cli(*args)
    err = one_line_error(result)
    assert "manifest" in err or "written twice" in err
    for name in ("x.json", "w.json", "w.pdf"):
        assert (tmp_path / name).read_text(encoding="utf-8") == "old"


# 4. and 15. control characters and NUL in YAML
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("rules: kniffel\x01\n", "U+0001"),
        ("rules: kniffel\nplayers: [\x00]\n", "U+0000"),
        ('rules: "kniffel\\0"\nplayers: []\n', "U+0000"),
    ],
)
def test_control_characters_in_yaml_are_one_line(
    run_cli, tmp_path: Path, text: str, needle: str
) -> None:
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    one_line_error(run_cli("kniffel", "score", "game.yaml"), "game.yaml:", needle)
    result = run_cli("validate", "game.yaml")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert needle in result.stderr


def test_a_nul_in_a_profile_path_value_is_one_line(run_cli, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text('sections:\n  - {family: "koepfchen\\0/../x", level: 1, problems: 3}\n')
    one_line_error(run_cli("worksheet", "--spec", "spec.yaml"), "spec.yaml:2", "U+0000")


# 5. seeds
@pytest.mark.parametrize(
    "command",
    [
        ["kniffel", "solve", "--games", "100"],
        ["kniffel", "odds", "--games", "100"],
        ["kribbeln", "simulate", "--games", "10"],
        ["koepfchen", "analyze", "--games", "10"],
        ["report", "--game", "koepfchen"],
        ["all"],
        ["worksheet"],
        ["kribbeln", "block"],
        ["koepfchen", "board"],
        ["kniffel", "block"],
    ],
)
@pytest.mark.parametrize("seed", ["-1", str(2**32), "1.5"])
def test_every_command_takes_the_same_seed_type(run_cli, command: list[str], seed: str) -> None:
    one_line_error(run_cli(*command, "--seed", seed), "--seed")


def test_one_seed_type_everywhere() -> None:
    import click

    from generator.cli import COMMANDS, cli
    from generator.cli.options import SEED

    seen = 0
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        subs = command.commands.values() if isinstance(command, click.Group) else [command]
        for sub in subs:
            for param in sub.params:
                if param.name == "seed":
                    assert param.type is SEED, sub.name
                    seen += 1
    assert seen >= 10


# 6. OS errors
def test_os_errors_are_one_line_naming_the_path(run_cli, tmp_path: Path) -> None:
    long_name = "x" * 300 + ".pdf"
    one_line_error(run_cli("kniffel", "block", "--out", long_name), "File name too long")
    one_line_error(run_cli("kniffel", "block", "--out", "/proc/self/x.pdf"))
    one_line_error(run_cli("init", "/proc/self/starter"))
    (tmp_path / "file").write_text("x", encoding="utf-8")
    one_line_error(run_cli("all", "--out", "file/sub"))
    (tmp_path / "dice.yaml").mkdir()
    one_line_error(run_cli("kribbeln", "row", "--dice", "dice.yaml"))


def test_a_png_folder_that_cannot_be_written_is_refused_before_the_pdf(
    run_cli, tmp_path: Path
) -> None:
    (tmp_path / "blocker").write_text("x", encoding="utf-8")
    result = run_cli("kniffel", "block", "--out", "out/", "--png", "blocker/pngs")
    one_line_error(result, "--png")
    assert not (tmp_path / "out").exists()


def test_a_full_disk_is_one_line(run_cli, tmp_path: Path, monkeypatch) -> None:
    import errno

    from generator.io import writer as output

    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    one_line_error(run_cli("kniffel", "block", "--out", "b.pdf"), "No space left")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


# 7. undecodable argument bytes
def test_undecodable_argument_bytes_are_one_line(run_cli) -> None:
    latin1 = os.fsdecode("J\xf6rg".encode("latin-1"))
    one_line_error(run_cli("kniffel", "block", "--names", latin1), "argument 4", "0xf6")
    one_line_error(run_cli("kniffel", "score", latin1 + ".yaml"), "not UTF-8")


# 8. a deeply nested or huge --block manifest
def test_deep_or_huge_block_manifests_are_one_line(run_cli, tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    one_line_error(run_cli("kribbeln", "simulate", "--block", "deep.json"), "deep.json")
    (tmp_path / "big.json").write_bytes(b" " * 6_000_000)
    one_line_error(run_cli("kribbeln", "simulate", "--block", "big.json"), "larger than")


# 9. and 10. template errors and limits
TEMPLATE_FAULTS = [
    ('{{ "".__class__ }}', "not allowed"),
    ('{% include "missing.j2" %}', "does not exist"),
    ("{{ 1 / 0 }}", "ZeroDivisionError"),
    ("{% macro m(a) %}{% endmacro %}{{ m(1, 2, 3) }}", "takes not more than 1"),
    ('{{ "x" * 10**9 }}', "too big"),
    ('{{ "%0999999999d" % 1 }}', "format width"),
    ('{{ "%0999999999d"|format(1) }}', "format width"),
    ('{{ "{:999999999}".format(1) }}', "format width"),
    ('{{ "x"|center(10**9) }}', "above the limit"),
    ('{{ "x".rjust(10**9) }}', "above the limit"),
    ("{{ lipsum(10**6) }}", "lipsum"),
    ("{{ range(10**9)|list }}", "range"),
    ("{{ 7 ** 100000 }}", "power"),
    ('{% set s = "x" * 100000 %}{{ s + s + s }}', "too big"),
    (
        '{% macro m() %}{% for i in range(9999) %}{{ "%030d" % i }}{% endfor %}{% endmacro %}'
        "{{ m() }}",
        "longer than",
    ),
]


@pytest.mark.parametrize(("body", "needle"), TEMPLATE_FAULTS)
def test_template_faults_are_one_line_with_file_and_line(
    run_cli, tmp_path: Path, body: str, needle: str
) -> None:
    templates = tmp_path / "cat" / "templates" / "de"
    templates.mkdir(parents=True)
    shipped = (templates_dir() / "de" / "kniffel_block.j2").read_text(encoding="utf-8")
    lines = shipped.count("\n") + 1
    (templates / "kniffel_block.j2").write_text(shipped + "\n" + body + "\n", encoding="utf-8")
    err = one_line_error(run_cli("kniffel", "block", "--catalog", "cat"), needle)
    assert f"kniffel_block.j2:{lines + 1}" in err or f"kniffel_block.j2:{lines}" in err, err
    assert not (tmp_path / "output").exists()
    result = run_cli("validate", "--catalog", "cat")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output


def test_a_template_that_runs_too_long_is_stopped(run_cli, tmp_path: Path, monkeypatch) -> None:
    from generator.text import templating

    monkeypatch.setattr(templating, "MAX_STEPS", 50_000)
    templates = tmp_path / "cat" / "templates" / "de"
    templates.mkdir(parents=True)
    loop = "{% for a in 'abcdefghij' * 1000 %}{% for b in 'abcdefghij' * 1000 %}"
    loop += "{% endfor %}{% endfor %}"
    (templates / "kniffel_block.j2").write_text(loop, encoding="utf-8")
    one_line_error(run_cli("kniffel", "block", "--catalog", "cat"), "ran more than 50,000 lines")


def test_a_non_utf8_template_is_one_line(run_cli, tmp_path: Path) -> None:
    templates = tmp_path / "cat" / "templates" / "de"
    templates.mkdir(parents=True)
    (templates / "kniffel_block.j2").write_bytes(b"{% macro x() %}\xff{% endmacro %}")
    one_line_error(run_cli("kniffel", "block", "--catalog", "cat"), "kniffel_block.j2", "UTF-8")
    result = run_cli("validate", "--catalog", "cat")
    assert result.exit_code == 2 and "UTF-8" in result.stderr and "Traceback" not in result.output


# 11. alias bombs: the expanded size counts
def test_an_alias_bomb_under_the_alias_limit_is_refused(run_cli, tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    one_line_error(run_cli("kniffel", "score", "bomb.yaml"), "aliases are expanded")


# 14. links out of a user catalog, long values, values with line breaks
def test_links_out_of_a_user_catalog_are_refused(run_cli, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret words\n" * 10, encoding="utf-8")
    cat = tmp_path / "cat"
    (cat / "templates" / "de").mkdir(parents=True)
    (cat / "templates" / "de" / "kniffel_block.j2").symlink_to(secret)
    (cat / "kniffel").mkdir()
    (cat / "kniffel" / "kniffel.yaml").symlink_to(secret)
    for args in (["kniffel", "block"], ["kniffel", "solve", "--games", "100"]):
        err = one_line_error(run_cli(*args, "--catalog", "cat"), "out of the")
        assert "secret" not in err.replace(str(tmp_path), "")
    result = run_cli("validate", "--catalog", "cat")
    assert result.exit_code == 2 and "top secret" not in result.output
    assert "out of the catalog folder" in result.stderr


def test_a_link_inside_the_catalog_is_fine(run_cli, tmp_path: Path) -> None:
    cat = tmp_path / "cat"
    (cat / "kniffel").mkdir(parents=True)
    (cat / "kniffel" / "real.yaml").write_text(KNIFFEL, encoding="utf-8")
    (cat / "kniffel" / "kniffel.yaml").symlink_to(cat / "kniffel" / "real.yaml")
    assert run_cli("kniffel", "block", "--catalog", "cat", "--out", "o/").exit_code == 0


def test_long_values_and_line_breaks_stay_on_one_short_line(run_cli, tmp_path: Path) -> None:
    huge = "x" * 1_000_000
    (tmp_path / "game.yaml").write_text(f"rules: {huge}\n", encoding="utf-8")
    err = one_line_error(run_cli("kniffel", "score", "game.yaml"))
    assert len(err) < 500
    err = one_line_error(run_cli("kniffel", "block", "--rules", "a\nb\rc" + huge))
    assert len(err) < 500 and "a\\nb\\rc" in err
    for args in (
        ["kniffel", "block", "--players", "a\nb"],
        ["kniffel", "block", "--paper", "a\nb"],
    ):
        assert "a\\nb" in one_line_error(run_cli(*args))
    from generator.core.errors import UserError

    assert "\n" not in str(UserError("line 1\nline 2\u2028x", where="w\n"))


# 11. every size the user sets has a limit, stated in --help
def _int_options():
    import click

    from generator.cli import COMMANDS, cli

    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        subs = command.commands.items() if isinstance(command, click.Group) else [(name, command)]
        for sub_name, sub in subs:
            for param in sub.params:
                if isinstance(param, click.Option) and isinstance(
                    param.type, click.types.IntParamType
                ):
                    yield f"{name} {sub_name}".strip(), param


def test_every_whole_number_option_states_its_limits_in_help() -> None:
    import re

    import click

    unstated = []
    for command, param in _int_options():
        bounded = isinstance(param.type, click.IntRange)
        if not bounded and not re.search(r"\d[\d,]*\s*[–-]\s*\d", param.help or ""):
            unstated.append(f"{command} {param.opts[0]}")
    assert unstated == []


@pytest.mark.parametrize(
    "args",
    [
        ["kniffel", "block", "--copies", "1001"],
        ["kniffel", "solve", "--games", "1000001"],
        ["kniffel", "odds", "--games", "1000001"],
        ["kribbeln", "simulate", "--games", "1000001"],
        ["koepfchen", "analyze", "--games", "1000001"],
        ["kribbeln", "block", "--pages", "101"],
        ["report", "--game", "kribbeln", "--games", "1000001"],
        ["worksheet", "--problems", "101"],
        ["preview", "x.pdf", "--png", "p", "--dpi", "601"],
    ],
)
def test_sizes_above_their_limit_are_refused(run_cli, tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.4\n")
    one_line_error(run_cli(*args), args[-2])


# 12. concurrent writers replace the PDF and its manifest as a pair
def test_concurrent_writers_never_mix_a_pdf_and_another_runs_manifest(
    tmp_path: Path, monkeypatch
) -> None:
    import threading
    import time

    from generator.io import files as writer

    real_replace = os.replace

    def slow_replace(src, dst):  # widen the window between the two renames
        real_replace(src, dst)
        time.sleep(0.002)

    monkeypatch.setattr(writer.os, "replace", slow_replace)
    pdf, manifest = tmp_path / "x.pdf", tmp_path / "x.json"
    mixed = 0
    for round_ in range(25):
        threads = [
            threading.Thread(
                target=writer.write_files_atomic,
                args=([(pdf, f"pdf {round_} {t}".encode()), (manifest, f"{round_} {t}".encode())],),
            )
            for t in range(3)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        mixed += pdf.read_bytes() != b"pdf " + manifest.read_bytes()
    assert mixed == 0
    assert not list(tmp_path.glob("*.tmp"))


def test_a_failed_write_removes_the_folders_it_made(run_cli, tmp_path: Path) -> None:
    result = run_cli("kniffel", "block", "--out", "made/deeper/" + "x" * 300 + "/")
    one_line_error(result, "File name too long")
    assert sorted(tmp_path.iterdir()) == []


def test_a_batch_line_without_end_is_refused(run_cli) -> None:
    one_line_error(run_cli("numbers", "solve", "--batch", "/dev/zero"), "--batch", "longer than")


@pytest.mark.parametrize(("sig", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_that_a_library_turns_into_another_error_still_ends_the_run(
    run_cli, tmp_path: Path, monkeypatch, sig: str, code: int
) -> None:
    import signal

    from generator.render import draw

    def render_and_lose_the_signal(doc):
        try:  # ReportLab catches the interrupt deep inside and raises a KeyError instead
            os.kill(os.getpid(), getattr(signal, sig))
        except BaseException:
            raise KeyError("font") from None

    monkeypatch.setattr(draw, "render_pdf", render_and_lose_the_signal)
    result = run_cli("kniffel", "block", "--out", "b.pdf")
    assert result.exit_code == code
    assert "Traceback" not in result.output and "interrupted" in result.stderr
    assert sorted(tmp_path.iterdir()) == []
