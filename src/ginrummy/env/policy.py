"""Any PettingZoo-style policy as a computer player at our tables.

A *policy* is a callable ``policy(observation, action_mask) -> action``: the observation vector and
the action mask of :mod:`ginrummy.env` (what ``env.last()`` gives an agent), and an action number of
:mod:`ginrummy.env.actions`. :class:`PolicyPlayer` wraps one as a :class:`~ginrummy.players.Player`,
so it sits in a :class:`~ginrummy.engine.table.Computer` seat like our own players, and like them it
sees only its seat's :class:`~ginrummy.engine.view.PlayerView`:

>>> from ginrummy.engine.match import Match
>>> from ginrummy.players import make
>>> from ginrummy.engine.table import Computer, Table
>>> import numpy as np
>>> first_legal = lambda obs, mask: int(np.flatnonzero(mask)[0])
>>> table = Table(Match("modern", seed="doc"),
...               (Computer(PolicyPlayer(first_legal)), Computer(make("simple", seed=1))))
>>> table.play_to_end(max_hands=50).over
True

``ginrummy play --opponent-module package.module:attr`` seats such a policy at the terminal
table (:func:`load_policy` reads that reference).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.cards import shown
from ..engine.errors import GinRummyError, IllegalMoveError, PlayerError
from ..engine.player import Player
from ..engine.view import PlayerView
from .actions import action_mask, is_action_number, move_of
from .observation import encode

__all__ = ["IllegalActionError", "Policy", "PolicyError", "PolicyPlayer", "load_policy"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]


class PolicyError(PlayerError):
    """The policy failed: it raised, or answered with something that is not an action
    number, or with an action the rules refuse here (:class:`IllegalActionError`)."""


class IllegalActionError(PolicyError, IllegalMoveError):
    """The policy chose an action outside the mask: a policy's fault, and an illegal move."""


class PolicyPlayer(Player):
    """A :class:`~ginrummy.players.Player` that asks ``policy`` for an action number and plays
    its move. An action outside the mask is refused with :class:`IllegalActionError` (an
    :class:`~ginrummy.engine.errors.IllegalMoveError`) naming the action (a policy bug, not a move
    to correct silently); a policy that raises, or answers with anything but an integer (a float
    is not rounded), is a :class:`PolicyError` saying so. Both are
    :class:`~ginrummy.engine.errors.PlayerError` s: the terminal table stops with the reason, the
    web table answers 500, neither plays anything."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.policy = policy

    def decide(self, view: PlayerView) -> str:
        mask = action_mask(view)
        try:
            action = self.policy(encode(view), mask)
        except Exception as exc:
            raise PolicyError(f"the policy {_name(self.policy)} failed: "
                              f"{type(exc).__name__}: {exc}") from exc
        if not is_action_number(action):
            raise PolicyError(f"the policy {_name(self.policy)} answered "
                              f"{type(action).__name__} {shown(action)}: a policy answers an "
                              f"action number, an integer in 0..{mask.size - 1}")
        if not 0 <= action < mask.size or not mask[action]:
            raise IllegalActionError(
                f"the policy chose action {action}, which is not legal here "
                f"(legal: {', '.join(map(str, np.flatnonzero(mask)))})"
            )
        return str(move_of(action, view))


def _name(policy: Policy) -> str:
    return repr(getattr(policy, "__qualname__", None) or type(policy).__name__)


def load_policy(reference: str) -> Policy:
    """The policy that ``reference`` (``package.module:attr``, the attribute may be dotted)
    names. Raises :class:`~ginrummy.engine.errors.GinRummyError` with the reason when it cannot be
    imported or is not callable."""
    module_name, sep, attr = reference.partition(":")
    if not sep or not module_name or not attr:
        raise GinRummyError(f"{reference!r}: name a policy as 'package.module:attribute'")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise GinRummyError(f"{reference!r}: cannot import {module_name!r} ({exc})") from None
    except Exception as exc:  # the module itself fails: a syntax error, an error at import
        raise GinRummyError(f"{reference!r}: importing {module_name!r} failed: "
                            f"{type(exc).__name__}: {exc}") from None
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise GinRummyError(f"{reference!r}: {module_name!r} has no {attr!r}") from None
    if not callable(target):
        raise GinRummyError(f"{reference!r} is not callable: a policy is "
                            "policy(observation, action_mask) -> action")
    return target  # type: ignore[no-any-return]
