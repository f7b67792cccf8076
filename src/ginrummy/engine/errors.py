"""The one error hierarchy of the package.

Every error a caller can provoke with bad input is a :class:`GinRummyError`, which is a
:class:`ValueError`, so ``except ValueError`` keeps working for code that does not care which.
Messages are written for a player, quoting the offending input.
"""

from __future__ import annotations


class GinRummyError(ValueError):
    """Base class of every error raised for bad input: cards, moves, rules or records."""


class InvalidCardError(GinRummyError):
    """Card text that does not name a card, such as ``"1h"`` or ``"7x"``.

    ``token`` holds the offending piece of text when there is one.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class IllegalMoveError(GinRummyError):
    """A move the rules do not allow in the current position (the state is left unchanged)."""


class InvalidRulesError(GinRummyError):
    """An unknown rule profile or an override outside its sane bounds."""


class InvalidRecordError(GinRummyError):
    """A match record that cannot be read, or whose replay disagrees with what it claims."""


class PlayerError(GinRummyError):
    """A computer player failed to choose a move: a policy seated from outside the package
    (:class:`ginrummy.env.PolicyPlayer`) raised, or answered something that is not a legal
    action. The fault is the player's, not the person's at the table; nothing was played."""


class InvalidNameError(GinRummyError):
    """A player's name refused by the names rule (:func:`ginrummy.words.names.clean_name`).

    ``name`` is the name as given, ``reason`` the clause saying why ("contains ...")."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"The name {name!r} {reason}")
        self.name = name
        self.reason = reason
