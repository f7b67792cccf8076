"""JSON for the page, built from the person's :class:`~ginrummy.engine.view.PlayerView` only.

Fairness is structural here: :func:`hand_out` takes a view, and a view holds no reference to the
hand, so the computer's cards, the stock's order and the deck cannot leak into a response before
the hand is over (the view itself reveals the computer's hand once it is). The score sheet is
built from the match's scores and finished hands' results, which are public.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..engine.cards import CARD_TEXT, Card, cards_of_mask
from ..engine.match import Match
from ..engine.melds import all_arrangements, best_arrangement, discard_deadwoods, layoff_lines
from ..engine.move import Move, narrate, upcard_offer
from ..engine.rules import RuleSet
from ..engine.settle import HandResult, default_knock_arrangement
from ..engine.view import PlayerView, PublicEvent
from ..words.cheatsheet import cheat_sheet, rules_name
from ..words.explain import explain_result
from ..words.sheet import game_outcome, match_outcome, score_sheet
from .rules_text import PROFILE_TITLES, bonus_lines
from .schemas import (
    Action,
    CardOption,
    GameOut,
    HandOut,
    KnockArrangement,
    Opponent,
    PublicMove,
    ResultOut,
    RulesOut,
    ScoreOut,
    SeatCards,
    SheetLine,
    SheetRowOut,
    SheetSection,
    Who,
)

__all__ = ["hand_out", "knock_arrangements", "score_out", "rules_out", "public_moves", "NAMES"]

#: Seat names from the person's side: the person is seat 0.
NAMES: tuple[str, str] = ("You", "Computer")
_WHO: tuple[Who, Who] = ("you", "computer")


def _c(card: int | None) -> str | None:
    return None if card is None else CARD_TEXT[card]


def _cards(cards: Iterable[int]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _who(seat: int | None, me: int) -> Who | None:
    if seat is None:
        return None
    return "you" if seat == me else "computer"


@lru_cache(maxsize=64)
def rules_out(rules: RuleSet) -> RulesOut:
    """The rules panel and bonus lines of a rule set (built once per rule set)."""
    return RulesOut(
        profile=rules.profile,
        title=PROFILE_TITLES.get(rules.profile, rules.profile),
        describe=rules.describe(),
        name=rules_name(rules),
        hollywood=rules.hollywood,
        last_discard_chance=rules.last_discard_chance,
        big_gin=rules.big_gin,
        bonuses=bonus_lines(rules),
        sheet=[
            SheetSection(title=sec.title, lines=[SheetLine(label=a, text=b) for a, b in sec.lines])
            for sec in cheat_sheet(rules).sections
        ],
    )


def move_text(e: PublicEvent, me: int, *, upcard: bool = False,
              last_chance: bool = False) -> str:
    """A move as a sentence from the person's side (:func:`ginrummy.engine.move.narrate`, the
    terminal's words): ``Computer took 7♥ from the discard pile``."""
    return _sentence(e.seat == me, e.kind, e.card, upcard, last_chance)


@lru_cache(maxsize=4096)
def _sentence(mine: bool, kind: str, card: int | None, upcard: bool, last_chance: bool) -> str:
    """:func:`move_text`'s sentence (a few thousand in all: every answer tells the hand's
    moves again, so they are kept)."""
    symbol = Card(card).symbol() if card is not None else None
    return narrate(NAMES[0] if mine else NAMES[1], kind, symbol, upcard=upcard,
                   last_chance=last_chance)


def public_moves(
    events: Sequence[PublicEvent], me: int, *, whole_hand: bool = False
) -> list[PublicMove]:
    """The moves as the person saw them, each with its sentence. With ``whole_hand`` the
    events are the hand's history from its start, so a take or pass of the upcard and a pass
    of the last discard are told as such; a run of moves cut from it (the computer's latest)
    tells them without that context (``Computer passed on 4♠``)."""
    out = []
    opening = whole_hand
    for e in events:
        last_chance = whole_hand and not opening and e.kind == "pass"
        out.append(_public_move(e.seat == me, e.kind, e.card, opening, last_chance))
        opening = opening and upcard_offer([e.kind])
    return out


@lru_cache(maxsize=4096)
def _public_move(mine: bool, kind: str, card: int | None, upcard: bool,
                 last_chance: bool) -> PublicMove:
    """One told move (kept: every answer tells the hand's moves again; the models are only
    read, never changed)."""
    return PublicMove(who="you" if mine else "computer", kind=kind, card=_c(card),
                      text=_sentence(mine, kind, card, upcard, last_chance))


def _prompt(view: PlayerView, options: Sequence[CardOption] = ()) -> str:
    """One line telling the person what happens now."""
    top = view.top_discard.symbol() if view.top_discard is not None else ""
    if view.phase == "over":
        return "The hand is over."
    if not view.my_turn:
        return "The computer is playing."
    if view.phase in ("discard", "last_chance_knock"):
        if any(o.gin for o in options):
            return "You can go gin! Select the card to discard, then press Gin."
        if any(o.knock for o in options):
            return ("You can knock: select the card to discard face down and press Knock "
                    "(or discard and play on).")
        if view.phase == "discard":
            return "Select a card to discard, then press Discard."
    return {
        "opening": f"Take the upcard {top} or pass.",
        "opening_draw": "Both passed the upcard: draw from the stock.",
        "draw": f"Your turn: draw from the stock or take the {top}.",
        "last_chance": f"The stock is down to two: take the {top} only to knock or gin, "
        "or pass (the hand is cancelled).",
        "last_chance_knock": "You took the last discard: now knock or go gin.",
    }.get(view.phase, "Your turn.")


_BUTTONS = ("take", "pass", "draw", "discard", "knock", "gin", "big_gin")
_TAKE, _PASS, _DRAW, _BIG_GIN = (Move.parse(m) for m in ("take", "pass", "draw", "big gin"))


def _button(view: PlayerView, move: Move, does: str) -> Action:
    """A button that plays ``move``: usable when the engine accepts it (``does`` says what it
    does), otherwise disabled with the engine's own sentence for why not."""
    why = view.refusal(move)
    return Action(enabled=why is None, reason=does if why is None else why)


def _actions(view: PlayerView, options: list[CardOption]) -> dict[str, Action]:
    """The buttons before a card is selected. Every refusal is the engine's sentence
    (:meth:`PlayerView.refusal`); only the split of a knock into the Knock and Gin buttons,
    which the engine does not make, has sentences of its own here."""
    top = view.top_discard.symbol() if view.top_discard is not None else "top discard"
    held = view.hand_cards()
    if not view.my_turn or not held:
        why = view.refusal(_DRAW) or "It is not your turn."
        return dict.fromkeys(_BUTTONS, Action(enabled=False, reason=why))
    if view.phase in ("discard", "last_chance_knock"):
        # The card a knock would throw: the least deadwood after it, never the taken card.
        lowest = min((o for o in options if o.card != str(view.taken)),
                     key=lambda o: o.deadwood_after)
        best = lowest.deadwood_after
        knock_no = view.refusal(Move.knock(Card.parse(lowest.card)))
        discard = (
            Action(enabled=True, reason="Select a card, then discard it.")
            if any(o.discard for o in options)
            else _button(view, Move.discard(Card.parse(lowest.card)), "")
        )
        if any(o.knock for o in options):
            knock = Action(enabled=True, reason="Select the card to discard face down, then knock.")
        else:
            knock = Action(enabled=False, reason=knock_no or (
                "Your best discard leaves no deadwood: go gin instead."))
        if any(o.gin for o in options):
            gin = Action(enabled=True, reason="Select the card to discard, then go gin.")
        else:
            gin = Action(enabled=False, reason=knock_no or (
                f"Gin needs every card but the discard in melds: your best discard leaves {best}."
            ))
    else:
        # Before drawing, the engine refuses any discard or knock with the same sentence.
        discard = knock = gin = _button(view, Move.discard(held[0]), "")
    return {
        "take": _button(view, _TAKE, f"Take the {top}."),
        "pass": _button(view, _PASS, f"Pass on the {top}."),
        "draw": _button(view, _DRAW, "Draw the top card of the stock."),
        "discard": discard,
        "knock": knock,
        "gin": gin,
        "big_gin": _button(view, _BIG_GIN, "Lay down all eleven cards in melds."),
    }


def knock_arrangements(view: PlayerView, card: int) -> list[KnockArrangement]:
    """Every least-deadwood arrangement of the person's cards left after knocking with
    ``card``, the engine's default (:func:`ginrummy.engine.settle.default_knock_arrangement`) first,
    each with the move that lays it down and its layoff spots.

    The spots are geometry on the person's own cards: the first card of each of a meld's
    :func:`~ginrummy.engine.melds.layoff_lines`, less the cards the person holds and the cards in
    the discard pile (public: nobody can lay those off). Where the others are is not said.
    """
    rest = view.hand_mask & ~(1 << card)
    dead = view.hand_mask
    for c in view.discard_pile:
        dead |= 1 << int(c)
    default = default_knock_arrangement(rest)
    ordered = [default, *(a for a in all_arrangements(rest) if a != default)]
    out = []
    for arr in ordered:
        spots = [
            [str(Card(line[0])) for line in layoff_lines(m) if line and not dead >> line[0] & 1]
            for m in arr.meld_masks
        ]
        move = Move.knock(card) if arr is default else Move.knock(card, arr.meld_masks)
        out.append(KnockArrangement(
            move=str(move),
            default=arr is default,
            melds=[_cards(cards_of_mask(m)) for m in arr.meld_masks],
            deadwood_cards=_cards(cards_of_mask(arr.deadwood_mask)),
            deadwood=arr.deadwood,
            spots=spots,
        ))
    return out


def _card_options(view: PlayerView) -> list[CardOption]:
    """What each card of the hand would do when selected, with the Discard, Knock and Gin
    buttons' state for it: the engine's sentence when it refuses."""
    if not view.my_turn or view.phase not in ("discard", "last_chance_knock"):
        return []
    out = []
    for card, dw in discard_deadwoods(view.hand_mask):
        sym = Card(card).symbol()
        discard_no = view.refusal(Move.discard(card))
        knock_no = view.refusal(Move.knock(card))
        can_knock = knock_no is None
        actions = {
            "discard": Action(enabled=discard_no is None,
                              reason=discard_no or f"Discard {sym}."),
            "knock": Action(
                enabled=can_knock and dw > 0,
                reason=knock_no
                or (f"Knock, discarding {sym} face down." if dw > 0
                    else f"Discarding {sym} leaves no deadwood: that is gin. Press Gin."),
            ),
            "gin": Action(
                enabled=can_knock and dw == 0,
                reason=knock_no
                or (f"Go gin, discarding {sym}." if dw == 0
                    else f"Gin needs no deadwood: discarding {sym} leaves {dw}; press Knock."),
            ),
        }
        out.append(
            CardOption(
                card=str(Card(card)),
                deadwood_after=dw,
                discard=discard_no is None,
                knock=can_knock and dw > 0,
                gin=can_knock and dw == 0,
                reason=discard_no or "",
                actions=actions,
                arrangements=knock_arrangements(view, card) if can_knock and dw > 0 else [],
            )
        )
    return out


def seat_cards(
    mask: int,
    melds: Sequence[Iterable[int]] | None = None,
    deadwood: Iterable[int] | None = None,
    laid_off: Sequence[int] = (),
) -> SeatCards:
    """A seat's cards for the page: all of them, in melds and deadwood (the best arrangement
    unless ``melds`` and ``deadwood`` are given), and the cards laid off on them."""
    meld_list: list[list[int]]
    dead: list[int]
    if melds is None or deadwood is None:
        arr = best_arrangement(mask)
        meld_list = [[int(c) for c in cards_of_mask(m)] for m in arr.meld_masks]
        dead = [int(c) for c in cards_of_mask(arr.deadwood_mask)]
    else:
        meld_list = [[int(c) for c in m] for m in melds]
        dead = [int(c) for c in deadwood]
    return SeatCards(
        cards=_cards(cards_of_mask(mask)),
        melds=[_cards(m) for m in meld_list],
        deadwood_cards=_cards(dead),
        deadwood=sum(Card(c).value for c in dead),
        laid_off=_cards(laid_off),
    )


def _result_out(view: PlayerView, result: HandResult) -> ResultOut:
    me = view.seat
    mine = view.hand_mask
    theirs = view.opponent_hand_mask or 0
    if result.kind == "cancelled":
        you, computer = seat_cards(mine), seat_cards(theirs)
    else:
        k = result.knocker_seat
        knocker = seat_cards(
            mine if k == me else theirs, result.knocker_melds, result.knocker_deadwood_cards
        )
        defender = seat_cards(
            theirs if k == me else mine,
            result.defender_melds,
            result.defender_deadwood_cards,
            result.layoffs,
        )
        you, computer = (knocker, defender) if k == me else (defender, knocker)
    return ResultOut(
        kind=result.kind,
        winner=_who(result.winner_seat, me),
        knocker=_who(result.knocker_seat, me),
        points=result.points,
        bonus=result.bonus,
        multiplier=result.multiplier,
        knocker_deadwood=result.knocker_deadwood,
        defender_deadwood=result.defender_deadwood,
        layoffs=_cards(result.layoffs),
        knock_discard=_c(result.knock_discard),
        explanation=explain_result(result, NAMES if me == 0 else NAMES[::-1], you=me),
        you=you,
        computer=computer,
    )


def hand_out(view: PlayerView) -> HandOut:
    """The person's side of the table (``view`` must be the person's own view)."""
    me = view.seat
    options = _card_options(view)
    arr = view.arrangement()
    return HandOut(
        number=view.hand_number,
        dealer=_WHO[0] if view.dealer == me else _WHO[1],
        phase=view.phase,
        to_play=None if view.phase == "over" else _who(view.to_play, me),
        your_turn=view.my_turn,
        prompt=_prompt(view, options),
        cards=_cards(view.hand_cards()),
        melds=[_cards(cards_of_mask(m)) for m in arr.meld_masks],
        deadwood_cards=_cards(cards_of_mask(arr.deadwood_mask)),
        deadwood=arr.deadwood,
        discard_pile=_cards(view.discard_pile),
        stock_count=view.stock_count,
        upcard=str(view.upcard),
        knock_limit=view.knock_limit,
        multiplier=view.multiplier,
        taken=_c(view.taken),
        drawn=_c(view.drawn),
        opponent=Opponent(
            card_count=view.opponent_card_count,
            took=_cards(view.opponent_took),
            known=_cards(cards_of_mask(view.opponent_known_mask)),
            passed=_cards(view.opponent_passed),
            discards=_cards(view.opponent_discards),
        ),
        legal_moves=list(view.legal_moves),
        actions=_actions(view, options),
        card_options=options,
        history=public_moves(view.history, me, whole_hand=True),
        result=_result_out(view, view.result) if view.result is not None else None,
    )


_KIND_LABELS = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin"}


def _outcome(result: HandResult, me: int) -> str:
    """A score-sheet cell from the person's side: ``gin: you +45``, ``cancelled``."""
    if result.kind == "cancelled" or result.winner_seat is None:
        return "cancelled"
    who = "you" if result.winner_seat == me else "computer"
    return f"{_KIND_LABELS[result.kind]}: {who} +{result.points}"


def score_out(match: Match, me: int = 0) -> ScoreOut:
    """The score sheet and the end-of-game bonuses, from the person's side."""
    names = NAMES if me == 0 else (NAMES[1], NAMES[0])
    rows, games = score_sheet(match, names)

    def pair(p: tuple[int, int] | list[int]) -> list[int]:
        return [p[me], p[1 - me]]

    score = match.score
    results = [h.result for h in match.hands if h.result is not None]
    return ScoreOut(
        hollywood=score.hollywood,
        target=match.rules.target,
        games=[
            GameOut(
                index=g.index,
                target=match.rules.target,
                points=pair(g.points),
                hands_won=pair(g.hands_won),
                game_bonus=pair(g.game_bonus),
                box_bonus=pair(g.box_bonus),
                doubled=pair(g.doubled),
                shutout=g.shutout,
                totals=pair(g.totals),
                over=g.over,
                winner=_who(g.winner, me),
                margin=g.margin,
                outcome=game_outcome(g, names, match.rules.target, you=me) if g.over else None,
            )
            for g in games
        ],
        rows=[
            SheetRowOut(
                hand=r.hand,
                dealer=_WHO[0] if r.dealer == me else _WHO[1],
                outcome=_outcome(results[r.hand - 1], me),
                winner=_who(r.winner, me),
                points=r.points,
                entered=list(r.entered),
                running=[pair(x) for x in r.running],
            )
            for r in rows
        ],
        totals=pair(score.totals),
        over=score.over,
        winner=_who(score.winner, me),
        margin=score.margin,
        outcome=match_outcome(score, names, you=me) if score.over else None,
    )
