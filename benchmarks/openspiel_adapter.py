"""Seat one of our computer players in OpenSpiel's ``gin_rummy`` game.

OpenSpiel stays the referee: its state is the game, its chance nodes deal, its ``returns()``
score the hand. Beside it the adapter keeps a *shadow* :class:`ginrummy.Hand` dealt the same
cards and fed the same moves, and asks our player only for ``shadow.view(seat)``: our player
sees exactly what its seat may see (the shadow's other cards never leave the adapter, just as
in :mod:`ginrummy.selfplay.play`). Our move goes back to OpenSpiel as its action.

Card numbers: both number a card ``suit * 13 + rank`` with the ace low; OpenSpiel's suits run
s, c, d, h and ours c, d, h, s (:func:`os_card`, :func:`our_card`, checked against OpenSpiel's
own card names when the module loads).

How the two games line up, phase by phase:

* Deal: OpenSpiel deals ten cards to player 0, ten to player 1, then the upcard, and player 0
  acts first: player 0 is our non-dealer (our seat 0), player 1 our dealer (seat 1). The
  adapter answers OpenSpiel's chance nodes from a deck it shuffled, in our deal order, and each
  stock draw with the card the shadow draws.
* FirstUpcard / Draw / Discard: ``take`` = draw upcard, ``pass``, ``draw`` = draw stock,
  ``discard X`` = the card.
* Knock: OpenSpiel takes the knock, the discard and each meld as separate actions; the
  adapter plays ours as knock, our discard, the melds of our declared arrangement (the
  engine's default arrangement when none is declared), pass.
* Layoff: when our player defends, the adapter lays off and melds optimally by search over
  OpenSpiel's own legal layoffs, with our meld solver for the rest.
* Wall: when a discard leaves two cards in the stock OpenSpiel lets the next player knock
  with the upcard or pass; that is our ``last_discard_chance`` option, so the shadow plays
  the ``browser`` profile (gin and undercut bonus 25, knock at 10, no big gin) with it on.

Where the rules differ (the result is always OpenSpiel's): a knock that ties scores 0 in
OpenSpiel (ours: an undercut, 25 + 0 to the defender); layoffs in OpenSpiel extend a run at
most two cards deep; no big gin; OpenSpiel lets a player discard the upcard it just took (our
rules do not; OpenSpiel's bot never does it, and the adapter stops with an error if it did);
at the wall OpenSpiel also accepts a knock that throws the upcard straight back, which the
shadow cannot offer (our player then can only pass).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyspiel

from ginrummy import Hand
from ginrummy.engine.cards import CARD_TEXT, parse_cards
from ginrummy.engine.melds import best_arrangement, min_deadwood
from ginrummy.engine.player import Player
from ginrummy.engine.rules import RuleSet, get_rules
from ginrummy.engine.settle import default_knock_arrangement, parse_melds

__all__ = ["SHADOW_RULES", "HandOutcome", "OpenSpielTable", "os_card", "our_card"]

GR = pyspiel.gin_rummy
DRAW_UPCARD = GR.DRAW_UPCARD_ACTION
DRAW_STOCK = GR.DRAW_STOCK_ACTION
PASS = GR.PASS_ACTION
KNOCK = GR.KNOCK_ACTION
MELD_BASE = GR.MELD_ACTION_BASE

#: Our rules closest to OpenSpiel's defaults (see the module docstring for what differs).
SHADOW_RULES: RuleSet = get_rules("browser", last_discard_chance=True)

_UTILS = GR.GinRummyUtils(13, 4, 10)


def os_card(card: int) -> int:
    """Our card number as OpenSpiel's (suits c d h s -> s c d h)."""
    suit, rank = divmod(int(card), 13)
    return ((suit + 1) % 4) * 13 + rank


def our_card(card: int) -> int:
    """OpenSpiel's card number as ours."""
    suit, rank = divmod(int(card), 13)
    return ((suit + 3) % 4) * 13 + rank


def _check_card_names() -> None:
    for card in range(52):
        if _UTILS.card_string(os_card(card)) != CARD_TEXT[card]:
            raise RuntimeError(f"card mapping is wrong for {CARD_TEXT[card]}")


_check_card_names()


def _meld_actions(meld_mask: int) -> list[int]:
    """OpenSpiel's meld actions laying ``meld_mask``: its runs are at most five cards long, so
    a longer run is laid as two (6 = 3 + 3, 7 = 4 + 3, ..., 10 = 5 + 5)."""
    cards = [c for c in range(52) if meld_mask >> c & 1]
    pieces = [cards]
    if len(cards) > 5:
        cut = len(cards) - min(5, len(cards) - 3)
        pieces = [cards[:cut], cards[cut:]]
    return [MELD_BASE + int(_UTILS.meld_to_int(sorted(os_card(c) for c in piece)))
            for piece in pieces]


def _mask_of_os(cards: Any) -> int:
    out = 0
    for c in cards:
        out |= 1 << our_card(c)
    return out


@dataclass(frozen=True)
class HandOutcome:
    """One hand's result for our seat: OpenSpiel's return (points, negative when lost)."""

    ours: float
    our_seat: int
    knocker: int | None
    moves: int


class OpenSpielTable:
    """Plays hands of OpenSpiel's ``gin_rummy`` between our player and OpenSpiel's
    ``SimpleGinRummyBot``."""

    def __init__(self) -> None:
        self.game = pyspiel.load_game("gin_rummy")
        self.params = self.game.get_parameters()

    def play(self, player: Player, our_seat: int, deck: list[int],
             bot: Any | None = None) -> HandOutcome:
        """Play one hand dealt from ``deck`` (our card numbers, index 0 on top, our deal
        order) with ``player`` in OpenSpiel seat ``our_seat``."""
        if bot is None:
            bot = pyspiel.make_simple_gin_rummy_bot(self.params, 1 - our_seat)
        bot.restart()
        state = self.game.new_initial_state()
        shadow: Hand | None = Hand(SHADOW_RULES, deck=deck, dealer=1)
        # The deal: ten cards to player 0 (our non-dealer: deck 0, 2, ...), ten to player 1,
        # then the upcard.
        for card in [*deck[0:20:2], *deck[1:20:2], deck[20]]:
            state.apply_action(os_card(card))
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                assert shadow is not None and shadow.drawn >= 0, "a stock draw the shadow missed"
                state.apply_action(os_card(shadow.drawn))
                continue
            seat = state.current_player()
            phase = state.current_phase()
            moves += 1
            if seat == our_seat:
                if phase == GR.Phase.LAYOFF:
                    self._defend(state, seat)
                    continue
                assert shadow is not None
                move = player.choose(shadow.view(seat))
                self._play_ours(state, shadow, move)
                if move.startswith("knock") or move == "big gin":
                    shadow = None
            else:
                action = bot.step(state)
                if shadow is not None:
                    move = self._translate(state, shadow, action)
                    if move == "knock":
                        shadow = None
                    elif move is not None:
                        shadow.play(move)
                state.apply_action(action)
        knocked = list(state.knocked())
        knocker = knocked.index(True) if any(knocked) else None
        return HandOutcome(state.returns()[our_seat], our_seat, knocker, moves)

    # -------------------------------------------------------------------------------------

    @staticmethod
    def _translate(state: Any, shadow: Hand, action: int) -> str | None:
        """OpenSpiel's action as our move (``"knock"`` when the shadow stops there)."""
        phase = state.current_phase()
        if action == KNOCK:
            return "knock"
        if phase in (GR.Phase.FIRST_UPCARD, GR.Phase.DRAW):
            return {DRAW_UPCARD: "take", PASS: "pass", DRAW_STOCK: "draw"}[action]
        if phase == GR.Phase.WALL:
            return "pass"
        if phase == GR.Phase.DISCARD:
            card = our_card(action)
            if card == shadow.taken:
                raise RuntimeError("OpenSpiel's bot threw back the card it took")
            return f"discard {CARD_TEXT[card]}"
        raise RuntimeError(f"unexpected action {action} in phase {phase}")

    @staticmethod
    def _play_ours(state: Any, shadow: Hand, move: str) -> None:
        """Apply our move to the shadow and, as one or more actions, to OpenSpiel."""
        phase = state.current_phase()
        words = move.split()
        if move in ("take", "pass", "draw"):
            if phase == GR.Phase.WALL:
                state.apply_action(KNOCK if move == "take" else PASS)
            else:
                state.apply_action({"take": DRAW_UPCARD, "pass": PASS, "draw": DRAW_STOCK}[move])
            shadow.play(move)
            return
        card = int(parse_cards(words[1])[0])
        if words[0] == "discard":
            state.apply_action(os_card(card))
            shadow.play(move)
            return
        # A knock: (the knock action unless it came with the wall's take), the discard,
        # the melds, pass.
        if phase == GR.Phase.DISCARD:
            state.apply_action(KNOCK)
        rest = shadow.hands[shadow.to_play] & ~(1 << card)
        if " with " in move:
            melds = parse_melds(move.split(" with ", 1)[1])
        else:
            melds = list(default_knock_arrangement(rest).meld_masks)
        shadow.play(move)
        state.apply_action(os_card(card))
        for meld in melds:
            for action in _meld_actions(meld):
                state.apply_action(action)
        state.apply_action(PASS)

    @staticmethod
    def _defend(state: Any, seat: int) -> None:
        """Lay off and meld as well as OpenSpiel's layoff rules allow."""
        if not state.finished_layoffs():
            best_plan: list[int] = []
            best_dw = 1 << 20
            seen: set[int] = set()

            def search(node: Any, plan: list[int]) -> None:
                nonlocal best_plan, best_dw
                hand = _mask_of_os(node.hands()[seat])
                if hand in seen:
                    return
                seen.add(hand)
                dw = min_deadwood(hand)
                if dw < best_dw or (dw == best_dw and len(plan) < len(best_plan)):
                    best_dw, best_plan = dw, plan
                for action in node.legal_actions():
                    if action != PASS:
                        child = node.clone()
                        child.apply_action(action)
                        search(child, [*plan, action])

            search(state.clone(), [])
            for action in best_plan:
                state.apply_action(action)
            state.apply_action(PASS)
        hand = _mask_of_os(state.hands()[seat])
        for meld in best_arrangement(hand).meld_masks:
            for action in _meld_actions(meld):
                state.apply_action(action)
        state.apply_action(PASS)
