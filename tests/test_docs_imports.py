"""Every import the docs show works, and every ``ginrummy.…`` name they mention exists (README.md
and docs/); the modules' names before the layers (issue 39) still import, as the same modules.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from ginrummy._moved import MOVED, PACKAGES_MOVED, new_name

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: An import statement on one line of a page (in a code block, after ``>>>`` or inline).
IMPORT = re.compile(
    r"(?:^|>>> |`)((?:from ginrummy[\w.]* import [\w, ]+\w)|(?:import ginrummy[\w.]*))", re.M)
#: A dotted name below ``ginrummy`` anywhere on a page.
DOTTED = re.compile(r"\bginrummy(?:\.[A-Za-z_]\w*)+")
#: Words of that shape that are not Python names: a database file and a dataset's metadata
#: keys (docs/simulate.md), the page's own storage keys.
NOT_CODE = {"ginrummy.sqlite3", "ginrummy.format", "ginrummy.version"}


def _statements() -> list[tuple[str, str]]:
    return sorted({(p.relative_to(ROOT).as_posix(), m.group(1).strip())
                   for p in PAGES for m in IMPORT.finditer(p.read_text("utf-8"))})


def _names() -> list[tuple[str, str]]:
    return sorted({(p.relative_to(ROOT).as_posix(), m.group(0).rstrip("."))
                   for p in PAGES for m in DOTTED.finditer(p.read_text("utf-8"))
                   if m.group(0) not in NOT_CODE})


def resolve(dotted: str) -> object:
    """The object a dotted name stands for: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(dotted)


def test_the_pages_show_imports_and_names() -> None:
    # The checks below would pass on pages that show nothing.
    assert len(_statements()) >= 8 and len(_names()) >= 40


def old_name_in(dotted: str) -> str | None:
    """The first part of ``dotted`` that is a module's name from before the layers, if any:
    the docs show the new names (the old ones import too, for code written before)."""
    parts = dotted.split(".")
    for cut in range(2, len(parts) + 1):
        if new_name(".".join(parts[:cut])) is not None:
            return ".".join(parts[:cut])
    return None


@pytest.mark.parametrize("page,statement", _statements())
def test_an_import_the_docs_show_works(page: str, statement: str) -> None:
    exec(statement, {})  # the docs' own import line
    words = statement.replace(",", " ").split()
    module = words[1]
    named = [module] + ([f"{module}.{w}" for w in words[3:]] if words[0] == "from" else [])
    old = [n for n in named if old_name_in(n)]
    assert not old, f"{page}: {statement!r} uses the old name {old_name_in(old[0])}"


@pytest.mark.parametrize("page,name", _names())
def test_a_name_the_docs_mention_exists(page: str, name: str) -> None:
    resolve(name)
    assert old_name_in(name) is None, f"{page}: {name} is the old name of {new_name(name)}"


def test_an_old_name_in_the_docs_is_found() -> None:
    assert old_name_in("ginrummy.simulate.play_job") == "ginrummy.simulate"
    assert old_name_in("ginrummy.web.service") == "ginrummy.web"
    assert old_name_in("ginrummy.selfplay.simulate.play_job") is None
    assert old_name_in("ginrummy.coach.Coach") is None


def _old_names() -> list[str]:
    old = [f"ginrummy.{name}" for name in MOVED]
    for before, after in PACKAGES_MOVED.items():
        package = importlib.import_module(f"ginrummy.{after}")
        folder = Path(package.__file__ or "").parent
        old.append(f"ginrummy.{before}")
        # (migrations/env.py runs only inside Alembic.)
        old += [f"ginrummy.{before}.{p.stem}" for p in folder.glob("*.py")
                if p.stem not in ("__init__", "env")]
    return sorted(old)


@pytest.mark.parametrize("old", _old_names())
def test_an_old_name_imports_the_module_that_moved(old: str) -> None:
    new = new_name(old)
    assert new is not None and new != old
    moved: ModuleType = importlib.import_module(old)
    assert moved is importlib.import_module(new)
    assert moved.__name__ == new and moved.__spec__ is not None and moved.__spec__.name == new


def test_old_names_keep_their_names() -> None:
    from ginrummy.players.base import Player as OldPlayer
    from ginrummy.simulate import run_hands
    from ginrummy.store import Store as OldStore
    from ginrummy.web import create_app

    from ginrummy.engine.player import Player
    from ginrummy.selfplay import play_match
    from ginrummy.selfplay.play import play_match as new_play_match
    from ginrummy.selfplay.simulate import run_hands as new_run_hands
    from ginrummy.server import create_app as new_create_app
    from ginrummy.server.store import Store

    assert (OldPlayer, play_match, run_hands, OldStore, create_app) == (
        Player, new_play_match, new_run_hands, Store, new_create_app)


def test_a_name_that_never_existed_is_still_an_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ginrummy.nothing_here")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ginrummy.web.nothing_here")


def test_our_code_uses_the_new_names() -> None:
    # The old names are for code written elsewhere before the layers; ours says where things
    # are (this file names old ones on purpose, to test them).
    here = Path(__file__).resolve()
    stale = []
    for folder in ("src", "tests", "benchmarks", "examples", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == here:
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                found = re.match(r"\s*(?:from|import) (ginrummy[\w.]*)(?: import ([\w, ]+))?",
                                 line)
                if found is None:
                    continue
                names = [found.group(1)] + [f"{found.group(1)}.{n.strip()}"
                                            for n in (found.group(2) or "").split(",") if n]
                if any(old_name_in(n) for n in names):
                    stale.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not stale, "\n".join(stale)
