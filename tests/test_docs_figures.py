"""The self-play figures the documentation shows are what the commands print today: each doc
block is run again and compared line for line (the wall-clock line aside), so a change to a
player, a deal or the output's layout that leaves a stale figure in docs/simulate.md or in
the Learn panel's data fails here. The quick one (a hash of 2,000 hands of `simple`) runs by
default; the others take a minute or so and run with --slow."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginrummy.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "simulate.md").read_text(encoding="utf-8")


def documented_block(command: str) -> list[str]:
    """The output shown in docs/simulate.md under ``command`` (in backticks), without the
    line of wall-clock time."""
    at = DOC.index(f"`{command}`")
    start = DOC.index("```\n", at) + 4
    lines = DOC[start:DOC.index("\n```", start)].splitlines()
    return [x.rstrip() for x in lines if not re.fullmatch(r"\d+\.\d s with \d+ workers?.*", x)]


def printed(command: str) -> list[str]:
    """What ``command`` prints now (as a terminal 200 columns wide), without the time line."""
    result = CliRunner().invoke(main, [*command.split()[1:], "--no-progress"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return [x.rstrip() for x in result.output.splitlines()
            if not re.fullmatch(r"\d+\.\d s with \d+ workers?.*", x)]


def test_the_documented_hash_of_a_run_is_todays() -> None:
    """The run's JSON hashed as the doc shows it. The doc shows one worker and two giving the
    same hash; that the workers never change a run is test_simulate.py's to check, so only
    the one-worker run is played here."""
    shown = re.findall(r"\$ (ginrummy simulate simple [^|\n]+)\| sha256sum\n([0-9a-f]{64})", DOC)
    assert [c.split("--workers")[1].strip() for c, _ in shown] == ["1", "2"]
    assert shown[0][1] == shown[1][1]
    command = shown[0][0]
    result = CliRunner().invoke(main, [*command.split()[1:], "--no-progress"])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(result.stdout.encode()).hexdigest() == shown[0][1], command


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    "ginrummy simulate hard simple --matches 100 --seed 7",
    "ginrummy tournament simple medium hard --matches 30 --seed 1",
    "ginrummy simulate hard hard --hands 2000 --seed 2024 --plot hard-hard.png",
])
def test_each_documented_table_is_printed_today(command: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the plot, if any, is drawn here
    assert printed(command) == documented_block(command)


@pytest.mark.slow
def test_the_learn_panels_numbers_are_todays(tmp_path: Path) -> None:
    out = tmp_path / "by_the_numbers.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "by_the_numbers.py"), "-o", str(out)],
                   check=True, capture_output=True, timeout=600)
    shipped = ROOT / "src" / "ginrummy" / "data" / "by_the_numbers.json"
    assert out.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")
