"""Build: compiles the rules engine's core with mypyc when the machine can.

Everything else is in pyproject.toml. The modules named in ``ginrummy.engine.native.COMPILED`` are
compiled to C extensions (docs/architecture.md, "The compiled core"); with no C compiler or no
Python headers, or with ``GINRUMMY_PURE=1``, the package installs as plain Python, which gives the
same answers more slowly. A compile that fails is skipped the same way (the extensions are
optional).
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "ginrummy"
#: Where the compiled core lives: the engine's folder (ginrummy.engine.native).
CORE = PACKAGE / "engine"
NATIVE: dict[str, Any] = runpy.run_path(str(CORE / "native.py"))
#: The SHA-256 of each source as mypyc read it, written beside the build by BuildCore.
HASHES: dict[str, str] = {}
#: Where mypyc writes its C and its cache, relative to this file (emptied before each build).
WORK = "build/mypyc"


def extensions() -> list:
    why = NATIVE["why_not_compile"]()
    if why is not None:
        print(f"ginrummy: installing the core as plain Python: {why}")
        return []
    from mypyc.build import mypycify

    HASHES.update(NATIVE["source_hashes"](CORE))
    # mypyc's C files and its type cache go to a directory of their own, emptied before each
    # build: compiling one module at a time runs mypy incrementally, and a cache left by an
    # earlier build made C that did not compile for a module whose source had not changed
    # (the module then ran half-built and could not be imported). The path is relative:
    # setuptools refuses absolute source paths.
    shutil.rmtree(HERE / WORK, ignore_errors=True)
    try:
        modules = mypycify(
            [f"--cache-dir={WORK}/cache",
             *(f"src/ginrummy/engine/{name}.py" for name in NATIVE["COMPILED"])],
            target_dir=f"{WORK}/c", opt_level="3", debug_level="0",
            # One C file per module (not one for them all), so the C compiler runs on them side
            # by side (BuildCore): 37 s -> 21 s on two cores, and the calls as fast.
            separate=True,
        )
    except (Exception, SystemExit) as error:  # mypyc refused: install the Python
        print(f"ginrummy: installing the core as plain Python: mypyc failed ({error})")
        return []
    for module in modules:
        module.optional = True  # a failed compile leaves plain Python, not a failed install
    return modules


class BuildCore(build_ext):
    """``build_ext`` that notes which sources it compiled (``native.json``) in the build, and,
    building in place (an editable install), first removes the last in-place build, so that
    a compile that fails now leaves the Python source running, not an older build."""

    def finalize_options(self) -> None:
        super().finalize_options()
        # One compiler per core. (The "parallel" option below is not passed on to an editable
        # install's build, which is what scripts/setup makes.)
        self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if self.extensions and self.inplace:
            for name in NATIVE["COMPILED"]:
                for old in NATIVE["built_files"](name, CORE):
                    old.unlink()
        super().run()
        if self.extensions and HASHES:
            text = json.dumps(HASHES, indent=1) + "\n"
            targets = [Path(self.build_lib) / "ginrummy" / "engine"] + ([CORE] if self.inplace else [])
            for target in targets:
                target.mkdir(parents=True, exist_ok=True)
                (target / NATIVE["BUILD_HASHES"]).write_text(text)


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildCore},
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
