"""Reading the person's lines at a terminal table, the same way at the match table and in the
lessons: a line from the console (or from a test's input function), and :class:`Quit` at the
end of input or on Ctrl-C."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

__all__ = ["InputFn", "Quit", "read_line"]

InputFn = Callable[[str], "str | None"]
"""Reads one line after showing a prompt; ``None`` at the end of input."""


class Quit(Exception):
    """The person asked to leave (``q``, the end of input or Ctrl-C)."""


def read_line(console: Console, ask: InputFn | None, prompt: str, *, plain: bool) -> str:
    """One line from the person: from ``ask`` when given, else the console (the prompt in
    bold unless ``plain``). Raises :class:`Quit` at the end of input or on Ctrl-C."""
    try:
        if ask is not None:
            line = ask(prompt)
        else:
            line = console.input(Text(prompt, style="" if plain else "bold"))
    except (EOFError, KeyboardInterrupt):
        console.print()
        raise Quit from None
    if line is None:
        raise Quit
    return line
