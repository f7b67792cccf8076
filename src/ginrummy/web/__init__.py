"""The web table: a FastAPI server that referees matches against the computer, and the page.

>>> from ginrummy.web import create_app
>>> create_app("sqlite://").title
'ginrummy web table'
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
