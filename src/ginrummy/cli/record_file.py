"""Reading a match record named on the command line (``replay``, ``verify``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from ..engine.errors import GinRummyError

T = TypeVar("T")


def with_record(path: str, use: Callable[[str], T]) -> T:
    """``use`` applied to the text of the match record at ``path`` (``-``: standard input).
    A file that cannot be read or is not UTF-8, and a record ``use`` refuses with a
    :class:`~ginrummy.engine.errors.GinRummyError`, become a Click error with a sentence."""
    try:
        with click.open_file(path, encoding="utf-8") as f:
            text = f.read()
        return use(text)
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{path} is not a text file: a match record is UTF-8 TOML"
        ) from None
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror or exc}") from None
    except GinRummyError as exc:
        raise click.ClickException(str(exc)) from None
