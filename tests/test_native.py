"""The compiled core (ginrummy/engine/native.py) against its own Python source.

The build compiles the modules of ``ginrummy.engine.native.COMPILED`` with mypyc. Compiled code
checks its type annotations as it runs and keeps no docstrings, so here the same calls -- random and
crowded hands through every public entry point, and hostile input of every shape -- are made
in this process and in a child running the source (``GINRUMMY_PURE=1``), and every outcome,
errors and their messages included, must be the same. The child also runs the compiled
modules' doctests, which pytest cannot collect from a compiled module.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ginrummy
from ginrummy.engine import native

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def source_run() -> dict[str, Any]:
    env = {**os.environ, "GINRUMMY_PURE": "1"}
    done = subprocess.run(
        [sys.executable, str(HERE / "native_calls.py")], env=env, capture_output=True,
        text=True, check=True, timeout=300,
    )
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_the_core_is_compiled_where_it_can_be() -> None:
    """A build that fails falls back to Python quietly (the extensions are optional): here,
    where a compiler is at hand, that must show as a failure."""
    why = native.why_not_compile()
    if why is not None:
        pytest.skip(f"this install runs the Python source: {why}")
    assert native.stale() == [], "run ./scripts/setup to compile the edited modules again"
    assert native.compiled()
    for name in native.COMPILED:
        module = importlib.import_module(f"ginrummy.{name}")
        assert not (module.__file__ or "").endswith(".py"), name


def test_the_source_run_is_the_source(source_run: dict[str, Any]) -> None:
    assert source_run["compiled"] is False


def test_compiled_and_source_give_the_same_outcomes(source_run: dict[str, Any]) -> None:
    import native_calls

    here = native_calls.outcomes()
    there = source_run["outcomes"]
    assert len(here) == len(there) > 10_000
    errors = sum(1 for _, got in here if got[0] != "ok")
    assert errors > 500  # the hostile half of the calls really is hostile
    for (what, got), (what_there, want) in zip(here, there, strict=True):
        assert what == what_there
        assert got == want, what


def test_the_compiled_modules_doctests_pass_in_the_source(source_run: dict[str, Any]) -> None:
    tally = source_run["doctests"]
    assert set(tally) == set(native.COMPILED)
    assert {name: failed for name, (failed, _) in tally.items()} == dict.fromkeys(tally, 0)
    assert sum(attempted for _, attempted in tally.values()) >= 20


def test_a_build_from_other_sources_is_stale(tmp_path: Path) -> None:
    suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in native.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
        (tmp_path / f"{name}{suffix}").write_bytes(b"")
    assert native.stale(tmp_path) == list(native.COMPILED)  # no note of what was built
    (tmp_path / native.BUILD_HASHES).write_text(json.dumps(native.source_hashes(tmp_path)))
    assert native.stale(tmp_path) == []
    # File times do not matter (an installed wheel writes its files in any order)...
    os.utime(tmp_path / "melds.py", (4_000_000_000, 4_000_000_000))
    assert native.stale(tmp_path) == []
    # ...the content does.
    (tmp_path / "melds.py").write_text("# melds, edited\n")
    assert native.stale(tmp_path) == ["melds"]
    (tmp_path / f"melds{suffix}").unlink()
    assert native.stale(tmp_path) == []
    assert native.built_files("melds", tmp_path) == []


def test_an_extension_without_its_shared_part_is_no_build(tmp_path: Path) -> None:
    """Each module compiles to an extension and the shared part it loads; a compile that
    failed half-way left the extension alone, which cannot be imported, and the set-up called
    the core compiled."""
    suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / f"settle{suffix}").write_bytes(b"")
    assert not native.complete("settle", tmp_path)
    (tmp_path / f"settle__mypyc{suffix}").write_bytes(b"")
    assert native.complete("settle", tmp_path)
    assert len(native.built_files("settle", tmp_path)) == 2


def test_the_public_calls_are_the_same_objects_either_way() -> None:
    assert ginrummy.deadwood is ginrummy.engine.solve.deadwood
    assert ginrummy.settle_hand is ginrummy.engine.settle.settle_hand


def test_the_set_up_reports_a_core_that_did_not_compile(tmp_path: Path) -> None:
    """``scripts/setup`` runs ``native.py --report`` after the install: beside sources with no
    build, on a machine that could compile them, it must warn, naming the modules."""
    script = Path(native.__file__ or "").with_suffix(".py")
    (tmp_path / "native.py").write_text(script.read_text())
    for name in native.COMPILED:
        (tmp_path / f"{name}.py").write_text("")
    done = subprocess.run(
        [sys.executable, str(tmp_path / "native.py"), "--report"], capture_output=True,
        text=True, check=True, timeout=60, env={**os.environ, "GINRUMMY_PURE": ""},
    )
    if native.why_not_compile() is not None:
        assert "plain Python" in done.stdout
    else:
        assert "WARNING" in done.stderr and "melds.py" in done.stderr
        # Half a build (one module's shared part missing) is no compiled core either.
        suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
        for name in native.COMPILED:
            (tmp_path / f"{name}{suffix}").write_bytes(b"")
            if name != "settle":
                (tmp_path / f"{name}__mypyc{suffix}").write_bytes(b"")
        half = subprocess.run(
            [sys.executable, str(tmp_path / "native.py"), "--report"], capture_output=True,
            text=True, check=True, timeout=60, env={**os.environ, "GINRUMMY_PURE": ""},
        )
        assert "WARNING" in half.stderr and "settle.py" in half.stderr
        assert "melds.py" not in half.stderr
    here = subprocess.run(
        [sys.executable, str(script), "--report"], capture_output=True, text=True, check=True,
        timeout=60,
    )
    assert ("core is compiled" in here.stdout) == native.compiled()
