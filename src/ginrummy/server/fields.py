"""Copying same-named fields from one record to another (rows to records to API answers).

>>> from collections import namedtuple
>>> Row = namedtuple("Row", "id name extra")
>>> same_fields(Row(7, "Ann", None), "id name")
{'id': 7, 'name': 'Ann'}
"""

from __future__ import annotations

from typing import Any

__all__ = ["same_fields"]


def same_fields(source: object, names: str) -> dict[str, Any]:
    """``{name: source.name}`` for each space-separated name: the keyword arguments that copy
    those fields into another record of the same field names."""
    return {name: getattr(source, name) for name in names.split()}
