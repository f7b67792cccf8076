"""Whether the rules engine's core runs compiled, and the way back to plain Python.

The build compiles the modules named in :data:`COMPILED` with mypyc (``setup.py``) when the
machine has a C compiler and Python's headers; elsewhere the same files run as Python. Both are
the same source, and ``tests/test_native.py`` checks the compiled build against it.

A compiled module shadows its ``.py`` file. So that an edited file is never silently ignored,
importing ``ginrummy`` runs the source instead of the build when:

- the environment sets ``GINRUMMY_PURE=1`` (to debug, or to time the Python); or
- any compiled module's source is not the one it was built from (edited since the build:
  the build notes each source's SHA-256 in ``native.json``). This warns;
  ``./scripts/setup`` compiles again.

It is all or nothing: compiled modules call each other directly, so one of them as Python
beside the others compiled would hold two copies of every class.

Run as a script (``python src/ginrummy/engine/native.py --stale``) it exits 1 when the build is
stale or partial, without importing the package: ``scripts/setup`` asks it whether to compile
again. With ``--report`` it says whether the core is compiled, and warns loudly when the machine
could compile it and the build did not (``setup.py`` then installs plain Python).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The file beside the modules where the build notes the SHA-256 of each source it compiled.
BUILD_HASHES = "native.json"

#: The modules the build compiles: the card and solver layer under ``ginrummy.deadwood`` and
#: ``ginrummy.settle_hand`` (issue 14: the public calls as fast as OpenSpiel's C++), and the
#: computer players' innermost loops (``develop``: ``simulate hard hard`` in a third less time).
COMPILED = ("cards", "melds", "settle", "solve", "develop")

_HERE = Path(__file__).resolve().parent


def why_not_compile() -> str | None:
    """None when this machine can compile the core, else why not (``setup.py`` asks)."""
    if forced_pure():
        return "GINRUMMY_PURE is set"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def built_files(name: str, here: Path = _HERE) -> list[Path]:
    """The compiled files of module ``name`` beside its source in ``here`` (none when pure):
    its extension and the shared part the extension loads, ``{name}__mypyc`` (the build
    compiles each module on its own)."""
    return [
        p
        for stem in (name, f"{name}__mypyc")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (p := here / f"{stem}{suffix}").exists()
    ]


def complete(name: str, here: Path = _HERE) -> bool:
    """Whether module ``name`` is compiled whole: its extension and its shared part. A compile
    that failed half-way can leave the extension alone, which cannot be imported."""
    stems = {p.name.split(".")[0] for p in built_files(name, here)}
    return stems == {name, f"{name}__mypyc"}


def source_hashes(here: Path = _HERE) -> dict[str, str]:
    """The SHA-256 of each compiled module's source in ``here``."""
    return {
        name: hashlib.sha256((here / f"{name}.py").read_bytes()).hexdigest() for name in COMPILED
    }


def stale(here: Path = _HERE) -> list[str]:
    """The compiled modules in ``here`` whose source is not the one they were built from.

    Compared by content, not by file times: an installed wheel writes its files in any order."""
    try:
        built = json.loads((here / BUILD_HASHES).read_text())
    except (OSError, ValueError):
        built = {}
    now = source_hashes(here)
    return [name for name in COMPILED if built_files(name, here) and built.get(name) != now[name]]


def forced_pure() -> bool:
    """True when ``GINRUMMY_PURE`` asks for the Python source."""
    return os.environ.get("GINRUMMY_PURE", "") not in ("", "0")


def compiled() -> bool:
    """True when this process runs the compiled core (after ``import ginrummy``)."""
    module = sys.modules.get(f"{__package__}.melds")
    return module is not None and not (module.__file__ or "").endswith(".py")


class _SourceFinder:
    """A meta path finder that loads :data:`COMPILED` from their ``.py`` files."""

    def __init__(self, package: str) -> None:
        self.names = {f"{package}.{name}": _HERE / f"{name}.py" for name in COMPILED}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def choose(package: str) -> None:
    """Load the compiled core, or its source (see the module's text). This module calls it
    when imported, which ``ginrummy/__init__.py`` does before anything else."""
    if not any(built_files(name) for name in COMPILED):
        return
    if not forced_pure():
        old = stale() + [name for name in COMPILED if not complete(name)]
        if not old:
            return
        warnings.warn(
            f"ginrummy: {', '.join(f'{n}.py' for n in old)} changed after the build compiled"
            " it, or did not compile; running the Python source instead (./scripts/setup"
            " compiles it again)",
            RuntimeWarning,
            stacklevel=3,
        )
    sys.meta_path.insert(0, _SourceFinder(package))


if __package__:  # imported as ginrummy.engine.native, not run as a script
    choose(__package__)
elif __name__ == "__main__":
    missing = [n for n in COMPILED if not complete(n)]
    if sys.argv[1:] == ["--stale"]:
        sys.exit(1 if stale() or len(missing) not in (0, len(COMPILED)) else 0)
    if sys.argv[1:] == ["--report"]:
        why = why_not_compile()
        if not missing:
            pure = " (GINRUMMY_PURE is set: this shell runs the Python source)"
            print(f"ginrummy: the engine's core is compiled{pure if forced_pure() else ''}")
        elif why is not None:
            print(f"ginrummy: the engine's core runs as plain Python ({why})")
        else:
            print(
                f"ginrummy: WARNING: this machine can compile the engine's core, but"
                f" {', '.join(f'{n}.py' for n in missing)} did not compile: it runs as plain"
                " Python, several times slower (`.venv/bin/pip install -v -e .` shows mypyc's"
                " error)",
                file=sys.stderr,
            )
        sys.exit(0)
    sys.exit("usage: python src/ginrummy/engine/native.py --stale | --report")
