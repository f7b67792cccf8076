"""Build: compiles the rules engine's core with mypyc when the machine can.

Everything else is in pyproject.toml. The modules named in ``ginrummy.native.COMPILED`` are
compiled to C extensions (docs/architecture.md, "The compiled core"); with no C compiler or no
Python headers, or with ``GINRUMMY_PURE=1``, the package installs as plain Python, which gives
the same answers more slowly. A compile that fails is skipped the same way (the extensions are
optional).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "ginrummy"


def extensions() -> list:
    native = runpy.run_path(str(PACKAGE / "native.py"))
    why = native["why_not_compile"]()
    if why is not None:
        print(f"ginrummy: installing the core as plain Python: {why}")
        return []
    from mypyc.build import mypycify

    names = native["COMPILED"]
    # An editable install builds in place: remove the last build first, so that a compile
    # that fails now leaves the Python source running, not an older build.
    for name in names:
        for old in native["built_files"](name, PACKAGE):
            old.unlink()
    native["write_build_hashes"](PACKAGE)
    try:
        modules = mypycify(
            [f"src/ginrummy/{name}.py" for name in names], opt_level="3", debug_level="0",
            separate=True,  # one C extension per module, built in parallel below
        )
    except (Exception, SystemExit) as error:  # mypyc refused: install the Python
        print(f"ginrummy: installing the core as plain Python: mypyc failed ({error})")
        return []
    for module in modules:
        module.optional = True  # a failed compile leaves plain Python, not a failed install
    return modules


setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
