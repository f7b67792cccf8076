"""The web table: a FastAPI server that referees matches against the computer, and the page.

>>> from ginrummy.server import create_app
>>> create_app("sqlite://").title
'ginrummy web table'

``create_app`` is imported when first asked for, so that ``ginrummy``'s command line can read
the server's bounds (:mod:`ginrummy.server.bounds`) without loading the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
