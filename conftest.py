"""Collection rule for the doctests under src/ (tests/conftest.py holds the test suite's).

A compiled module (ginrummy/engine/native.py) keeps no docstrings and shadows its ``.py`` file,
so pytest cannot collect its doctests: tests/test_native.py runs them against the source
instead.
"""

from __future__ import annotations

from pathlib import Path

import ginrummy.engine.native


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if (
        collection_path.suffix == ".py"
        and collection_path.parent.name == "engine"
        and collection_path.stem in ginrummy.engine.native.COMPILED
        and ginrummy.engine.native.compiled()
    ):
        return True
    return None
