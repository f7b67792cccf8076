"""Same seeds, same deals, same computer moves, same records: the fixed cases of
``golden_cases.py`` replayed against the records written before the redesign."""

from __future__ import annotations

import pytest

from golden_cases import CASES, Case, path_of


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_records_are_byte_identical(case: Case) -> None:
    expected = path_of(case).read_text(encoding="utf-8")
    assert case.make() == expected
