"""The environment's fixed action numbering, to and from the engine's
:class:`~ginrummy.engine.move.Move`.

Every legal move of a hand has one action number (``docs/env.md``, "Actions"):

==========  =====================================================================
action      move
==========  =====================================================================
0           ``take`` (the upcard, the top discard, or the last discard)
1           ``pass`` (an upcard offer, or the last-discard chance)
2           ``draw`` (the top card of the stock)
3 + c       ``discard c``  (c = card index 0..51, ``suit * 13 + rank``)
55 + c      ``knock c`` with the engine's default arrangement (gin when it has no deadwood)
107         ``big gin``
108 + c     ``knock c`` declaring the 1st alternative arrangement
160 + c     ``knock c`` declaring the 2nd alternative arrangement
==========  =====================================================================

*Alternative arrangements* are where the knocker's choice matters: after discarding ``c``, the
other minimum-deadwood arrangements of the ten cards besides the engine's default one (which
leaves the fewest places to lay off). They change which cards the defender can lay off, never
the knocker's count. They are ordered by how many layoff places they leave (fewest first), then
by their melds, and the first :data:`ALTERNATIVES` of them have slots. There are none at gin
(no layoffs against gin, so the arrangement cannot matter). Arrangements with more deadwood than
the minimum are legal in the engine but never help: they have no action.

Everything here is a function of the seat's own cards and the view's legal moves, so the mask
is exact: an action is set in :func:`action_mask` exactly when its move is legal now.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.cards import shown
from ..engine.errors import IllegalMoveError
from ..engine.melds import Arrangement, all_arrangements, layoff_spots
from ..engine.move import BIG_GIN, DISCARD, DRAW, KNOCK, PASS, TAKE, Move
from ..engine.settle import default_knock_arrangement
from ..engine.view import PlayerView

__all__ = [
    "ALTERNATIVES",
    "BIG_GIN_ACTION",
    "DISCARD_BASE",
    "DRAW_ACTION",
    "KNOCK_ALT_BASE",
    "KNOCK_BASE",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "TAKE_ACTION",
    "action_mask",
    "action_of",
    "action_text",
    "alternative_arrangements",
    "legal_actions",
    "move_of",
]

TAKE_ACTION = 0
PASS_ACTION = 1
DRAW_ACTION = 2
DISCARD_BASE = 3
KNOCK_BASE = 55
BIG_GIN_ACTION = 107
KNOCK_ALT_BASE = 108
#: Slots per knock card for declared alternative arrangements.
ALTERNATIVES = 2
NUM_ACTIONS = KNOCK_ALT_BASE + 52 * ALTERNATIVES

# Plain moves (no declared melds) by action, and actions by the move's canonical text.
_PLAIN_MOVES: dict[int, Move] = {
    TAKE_ACTION: Move.of("take"),
    PASS_ACTION: Move.of("pass"),
    DRAW_ACTION: Move.of("draw"),
    BIG_GIN_ACTION: Move.of("big gin"),
}
for _c in range(52):
    _PLAIN_MOVES[DISCARD_BASE + _c] = Move.discard(_c)
    _PLAIN_MOVES[KNOCK_BASE + _c] = Move.knock(_c)
_ACTION_BY_TEXT: dict[str, int] = {str(m): a for a, m in _PLAIN_MOVES.items()}


@lru_cache(maxsize=8192)
def _alternatives(rest: int) -> tuple[tuple[int, ...], ...]:
    arrangements = all_arrangements(rest)
    if len(arrangements) < 2 or arrangements[0].deadwood == 0:
        return ()
    default = default_knock_arrangement(rest)

    def key(a: Arrangement) -> tuple[int, tuple[int, ...]]:
        return layoff_spots(a.meld_masks, rest).bit_count(), a.meld_masks

    others = sorted((a for a in arrangements if a != default), key=key)
    return tuple(a.meld_masks for a in others[:ALTERNATIVES])


def alternative_arrangements(hand_mask: int, card: int) -> tuple[tuple[int, ...], ...]:
    """The declared arrangements (as tuples of meld masks) that have slots when the seat
    holding ``hand_mask`` knocks with ``card``: at most :data:`ALTERNATIVES`, best first."""
    return _alternatives(hand_mask & ~(1 << card))


@lru_cache(maxsize=4096)
def _plain_actions(legal_moves: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The actions of the listed moves (ascending) and the cards of the listed knocks."""
    actions = sorted(_ACTION_BY_TEXT[str(m)] for m in legal_moves)
    knocks = tuple(a - KNOCK_BASE for a in actions if KNOCK_BASE <= a < BIG_GIN_ACTION)
    return tuple(actions), knocks


def legal_actions(view: PlayerView) -> list[int]:
    """The legal actions of ``view``'s seat now, ascending (empty when it is not its turn)."""
    actions, knocks = _plain_actions(tuple(view.legal_moves))
    out = list(actions)
    if knocks:
        for card in knocks:
            for k in range(len(alternative_arrangements(view.hand_mask, card))):
                out.append(KNOCK_ALT_BASE + 52 * k + card)
        out.sort()
    return out


#: NumPy's dtype as an object, given positionally (a little quicker than ``dtype=np.int8``).
_INT8 = np.dtype(np.int8)


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """The action mask of ``view``'s seat: 1 exactly at the legal actions (int8, length
    :data:`NUM_ACTIONS`)."""
    mask = np.zeros(NUM_ACTIONS, _INT8)
    legal = view.legal_moves
    if legal:
        actions = list(map(_ACTION_BY_TEXT.__getitem__, legal))
        # Below the knocks (take, pass, draw, discards) each move is its one action; with a
        # knock or big gin listed, the declared arrangements' slots are worked out too.
        # (``put`` with a list takes 60% of the time of ``mask[actions] = 1``.)
        mask.put(actions if max(actions) < KNOCK_BASE else legal_actions(view), 1)
    return mask


#: The integer types an action may be (``int | np.integer`` spelt as a tuple: the union would
#: be built again at every step).
_INTEGERS = (int, np.integer)


def is_action_number(value: object) -> bool:
    """Whether ``value`` is an integer, Python's or NumPy's (a bool is not): what an action
    is, before its range and the mask are asked. A float, a string or an array never is."""
    return not isinstance(value, bool) and isinstance(value, _INTEGERS)


def move_of(action: int | np.integer[Any], view: PlayerView) -> Move:
    """The engine move that ``action`` stands for in ``view``'s position.

    Raises :class:`~ginrummy.engine.errors.IllegalMoveError` for anything but an integer (Python's
    or NumPy's: a float, a string or an array is refused, never rounded or parsed), a number
    outside the numbering or a declared-arrangement slot that is empty in this position.
    (Whether the move is legal now is the engine's to say: the mask tells in advance.)
    """
    if not is_action_number(action):
        raise IllegalMoveError(
            f"an action is an integer in 0..{NUM_ACTIONS - 1}, not {type(action).__name__} "
            f"{shown(action)}")
    a = int(action)
    plain = _PLAIN_MOVES.get(a)
    if plain is not None:
        return plain
    if not KNOCK_ALT_BASE <= a < NUM_ACTIONS:
        raise IllegalMoveError(f"action {action!r} is not in 0..{NUM_ACTIONS - 1}")
    k, card = divmod(a - KNOCK_ALT_BASE, 52)
    alternatives = alternative_arrangements(view.hand_mask, card)
    if k >= len(alternatives):
        raise IllegalMoveError(
            f"action {a} (knock {Move.discard(card).card} with alternative arrangement "
            f"{k + 1}) is empty here: this knock has {len(alternatives)} alternative(s)"
        )
    return Move.knock(card, alternatives[k])


def action_of(move: str | Move, view: PlayerView) -> int:
    """The action number of ``move`` in ``view``'s position (the inverse of :func:`move_of`).

    A knock declaring the default arrangement is the plain knock's action. Raises
    :class:`~ginrummy.engine.errors.IllegalMoveError` for a declared arrangement that has no slot.
    """
    parsed = Move.parse(move)
    hit = _ACTION_BY_TEXT.get(str(parsed))
    if hit is not None:
        return hit
    assert parsed.code == KNOCK and parsed.card is not None and parsed.meld_masks is not None
    card = int(parsed.card)
    declared = tuple(sorted(parsed.meld_masks))
    rest = view.hand_mask & ~(1 << card)
    if declared == tuple(sorted(default_knock_arrangement(rest).meld_masks)):
        return KNOCK_BASE + card
    for k, melds in enumerate(alternative_arrangements(view.hand_mask, card)):
        if tuple(sorted(melds)) == declared:
            return KNOCK_ALT_BASE + 52 * k + card
    raise IllegalMoveError(f"{str(parsed)!r} has no action number in this position")


def action_text(action: int) -> str:
    """A short label of an action number, for people: ``discard 7h``, ``knock 7h (alt 1)``."""
    a = int(action)
    plain = _PLAIN_MOVES.get(a)
    if plain is not None:
        return str(plain)
    if not KNOCK_ALT_BASE <= a < NUM_ACTIONS:
        raise IllegalMoveError(f"action {action!r} is not in 0..{NUM_ACTIONS - 1}")
    k, card = divmod(a - KNOCK_ALT_BASE, 52)
    return f"{_PLAIN_MOVES[KNOCK_BASE + card]} (alt {k + 1})"


# The move kinds' codes, checked against the numbering once at import.
assert [_PLAIN_MOVES[a].code for a in (0, 1, 2, 3, 55, 107)] == [
    TAKE, PASS, DRAW, DISCARD, KNOCK, BIG_GIN
]
