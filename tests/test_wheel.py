"""A non-editable install works: the wheel carries templates, catalog and fonts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(ROOT)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (found,) = out.glob("dicesheets-*.whl")
    return found


def test_wheel_contains_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "generator/fonts/DejaVuSans.ttf" in names
    assert "generator/fonts/LICENSE-DejaVu.txt" in names
    assert "generator/_data/task_catalog/kniffel/kniffel.yaml" in names
    assert "generator/_data/templates/de/kniffel_block.j2" in names
    # the docs ship too: every page the README links, with its pictures and examples
    docs = {Path(n).name for n in names if n.startswith("generator/_data/docs/")}
    assert {"rules.md", "kniffel.md", "performance.md", "koepfchen-board.png"} <= docs
    assert {"kniffel-game.yaml", "kribbeln-seed-1.json"} <= docs


def test_wheel_installs_into_a_fresh_venv_and_generates(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    site = Path(
        subprocess.check_output(
            [
                str(env_dir / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            text=True,
        ).strip()
    )
    # install the wheel by unpacking it (no network); dependencies come from the test venv
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    deps = sysconfig.get_paths()["purelib"]
    (site / "zz_test_deps.pth").write_text(deps + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    code = (
        "import generator, sys\n"
        "assert generator.__file__.startswith(sys.argv[1]), generator.__file__\n"
        "from generator.cli import main\n"
        "sys.argv = ['dicesheets', 'kniffel', 'block', '--out', 'k.pdf']\n"
        "main()\n"
    )
    proc = subprocess.run(
        [str(env_dir / "bin" / "python"), "-c", code, str(site)], cwd=work, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (work / "k.pdf").stat().st_size > 10_000
    assert (work / "k.json").exists()
    # the first help after the install is the shipped copy: the same bytes, click not imported
    entry = "import sys\nsys.argv = ['dicesheets', *sys.argv[1:]]\nfrom generator.__main__ import run\nrun()\n"  # noqa: E501
    first = subprocess.run(
        [str(env_dir / "bin" / "python"), "-X", "importtime", "-c", entry, "kniffel", "--help"],
        cwd=work, env={**env, "COLUMNS": "80", "DICESHEETS_CACHE": str(tmp_path / "cache")},
        capture_output=True, text=True,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    imported = {line.split("|")[-1].strip() for line in first.stderr.splitlines()}
    assert "click" not in imported and "generator.io.startup" in imported
    copy = json.loads((site / "generator" / "cli" / "help.json").read_text(encoding="utf-8"))
    assert first.stdout == copy["helps"]["kniffel"]
