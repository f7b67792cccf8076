"""The self-play figures the documentation shows are what the commands print today: each doc
block is run again and compared line for line (the wall-clock line aside), so a change to a
player, a deal or the output's layout that leaves a stale figure in docs/simulate.md, in
docs/players.md's strength table, in the Learn panel's data or in the Strategy window's fails
here. The quick ones (a hash of 2,000 hands of `simple`; the players' page holds its commands)
run by default; the others take a minute or so and run with --slow."""

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


PLAYERS = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
LAB = (ROOT / "docs" / "notes" / "players-lab.md").read_text(encoding="utf-8")
LEVELS = {"Easy": "simple", "Medium": "medium", "Hard": "hard", "Expert": "expert"}


def strength_rows() -> list[tuple[str, str, int, float]]:
    """docs/players.md's strength table: (first player, second, matches, match win %)."""
    rows = re.findall(r"^\| (\w+) against (\w+) \| ([\d,]+)[^|]*\| ([\d.]+)% \|", PLAYERS, re.M)
    return [(LEVELS[a], LEVELS[b], int(n.replace(",", "")), float(p)) for a, b, n, p in rows]


def test_the_players_page_is_for_players_and_the_lab_notes_keep_the_commands() -> None:
    """Issue 38: docs/players.md says how each level plays and how strong it is, in one table
    with its commands; the trials (fifteen rounds of them) live in docs/notes/players-lab.md,
    each figure with its command."""
    assert len(PLAYERS.splitlines()) <= 80
    assert "### Issue 14" not in PLAYERS and "### Issue 14" in LAB
    rows = strength_rows()
    assert {(a, b) for a, b, _, _ in rows} >= {("medium", "simple"), ("hard", "simple"),
                                               ("hard", "medium"), ("expert", "hard")}
    commands = re.findall(r"^    (python benchmarks/bench_strength\.py .*)$", PLAYERS, re.M)
    for a, b, matches, _ in rows:
        assert any(f"{a}:{b}" in c and f"--matches {matches}" in c for c in commands), (a, b)
    for text in (PLAYERS, LAB):
        for script in set(re.findall(r"python (benchmarks/\w+\.py)", text)):
            assert (ROOT / script).exists(), script


@pytest.mark.slow
def test_the_players_pages_strength_table_is_todays(tmp_path: Path) -> None:
    """The quick levels' rows of docs/players.md, played again by their command."""
    command = next(c for c in re.findall(r"^    (python benchmarks/bench_strength\.py .*)$",
                                         PLAYERS, re.M) if "medium:simple" in c)
    out = subprocess.run([sys.executable, *command.split()[1:]], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=900).stdout
    won = {(a, b): float(p) for a, b, p in
           re.findall(r"^\| (\w+) vs (\w+) \| \d+ \| \d+ \| \d+ \| ([\d.]+) \|", out, re.M)}
    for a, b, _, shown in strength_rows():
        if (a, b) in won:
            assert won[a, b] == shown, (a, b)


@pytest.mark.slow
def test_a_strategy_tips_figure_is_reproduced_by_its_command(tmp_path: Path) -> None:
    """The Strategy window's data is regenerable: the knock tip's run, played again by the
    command kept beside it, gives the shipped figures."""
    import json

    shipped = ROOT / "src" / "ginrummy" / "data" / "strategy_tips.json"
    data = json.loads(shipped.read_text(encoding="utf-8"))
    run = next(r for r in data["runs"] if r["tip"] == "knock-when-it-pays")
    out = tmp_path / "tips.json"
    subprocess.run([sys.executable, *run["command"].split()[1:], "--merge", str(shipped),
                    "-o", str(out)], cwd=ROOT, check=True, capture_output=True, timeout=900)
    again = json.loads(out.read_text(encoding="utf-8"))
    assert again == data
