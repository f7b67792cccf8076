"""The README a newcomer reads in a minute (issue 38): what this is, the two commands, what each
needs and how long it takes, on one screen above its "What is here" list; measurements live in
the docs it links to."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
HEAD = README.split("\n## What is here\n", 1)[0]

#: One screen: about 40 lines of 100 columns.
SCREEN_LINES = 40
SCREEN_COLUMNS = 100


def test_the_readme_fits_on_one_screen_above_what_is_here() -> None:
    assert "\n## What is here\n" in README
    lines = HEAD.splitlines()
    assert len(lines) <= SCREEN_LINES, len(lines)
    too_wide = [line for line in lines if len(line) > SCREEN_COLUMNS]
    assert not too_wide, too_wide


def test_the_readme_says_the_two_commands_and_what_they_need() -> None:
    said = " ".join(HEAD.split())
    for words in ("./scripts/start", "./scripts/test", "./scripts/test --fast",
                  "Python 3.11+", "Linux", "apt-get", "sudo", "Chromium", "PostgreSQL"):
        assert words in said, words
    # No dated measurement above the list: figures go stale; docs/testing.md keeps them.
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", HEAD)
    assert not re.search(r"\d+ min \d+ s", HEAD)
    assert not re.search(r"\b\d,\d{3} tests\b", HEAD)


def test_every_file_the_readme_names_exists() -> None:
    for path in re.findall(r"`((?:docs|benchmarks|scripts)/[\w./-]+)`", README):
        assert (ROOT / path).exists(), path
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README):
        assert (ROOT / image).exists(), image
