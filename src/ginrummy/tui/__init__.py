"""The terminal table: ``ginrummy play``.

Three parts, each testable alone: :mod:`.parse` reads what a person types, :mod:`.render` draws
the human seat's view with Rich, and :mod:`.table` runs the match, asking the engine about every
move and saving after each one through :mod:`.saves`.
"""

from __future__ import annotations

from .parse import Command, CommandError, parse_command
from .saves import CorruptSaveError, SavedMatch, SaveMeta, SaveStore
from .table import TerminalTable

__all__ = [
    "Command",
    "CommandError",
    "CorruptSaveError",
    "SaveMeta",
    "SaveStore",
    "SavedMatch",
    "TerminalTable",
    "parse_command",
]
