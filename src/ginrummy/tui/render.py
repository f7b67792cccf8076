"""Drawing the terminal table with Rich: pure functions from what the human seat knows to
renderables. Nothing here reads input, plays a move or looks at a
:class:`~ginrummy.engine.hand.Hand`.

The table is drawn only from the human seat's :class:`~ginrummy.engine.view.PlayerView` (and the
public score), so the computer's cards cannot appear before the hand is over: they are not in the
view. ``plain`` drops colours, box drawing and card symbols (``7h`` for ``7♥``) for screen readers
and dumb terminals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from ..engine.cards import Card, CardSet
from ..engine.match import MatchScore
from ..engine.melds import best_arrangement
from ..engine.move import KNOCK, Move, narrate, past_tense, upcard_offer
from ..engine.view import PlayerView, PublicEvent
from .parse import short_move, typed_card

__all__ = [
    "SortOrder",
    "asciify",
    "card_label",
    "hand_text",
    "recent_moves",
    "render_table",
    "prompt_text",
    "deal_prompt",
    "moves_text",
    "render_hand_end",
    "BOX_WIDTH",
]

SortOrder = Literal["rank", "suit"]

#: The width of the table's box and the hand-end box: this, or the whole terminal when it is
#: narrower, whatever the turn shows, so the box does not grow and shrink from turn to turn
#: (a longer line wraps inside it).
BOX_WIDTH = 80

_RED_SUITS = (1, 2)
_SYMBOL_CARD = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
_ASCII = str.maketrans({"−": "-", "–": "-", "—": "-", "×": "x", "·": "|", "…": "..."})


def asciify(text: str) -> str:
    """Text with card symbols and typographic signs replaced by ASCII (``10♥`` -> ``10h``).

    >>> asciify("You knocked with 7; laying off 10♥ A♣ (8 − 2 × 2)")
    'You knocked with 7; laying off 10h Ac (8 - 2 x 2)'
    """
    text = _SYMBOL_CARD.sub(lambda m: m.group(1) + "cdhs"["♣♦♥♠".index(m.group(2))], text)
    return text.translate(_ASCII)


def card_label(card: Card, plain: bool) -> str:
    """One card as shown: ``7♥``, or ``7h`` in plain mode."""
    return typed_card(card) if plain else card.symbol()


def _card(card: Card, plain: bool, mark: bool = False) -> Text:
    label = card_label(card, plain)
    if plain:
        return Text(label + ("*" if mark else ""))
    style = "red" if card.suit in _RED_SUITS else ""
    if mark:
        style += " bold reverse"
    return Text(label, style=style.strip())


def _cards(cards: Iterable[Card], plain: bool, mark: Card | None = None) -> Text:
    parts = [_card(c, plain, c == mark) for c in cards]
    if not parts:
        return Text("none")
    return Text(" ").join(parts)


def _sorted(cards: Iterable[Card], order: SortOrder) -> list[Card]:
    if order == "rank":
        return sorted(cards, key=lambda c: (c.rank, c.suit))
    return sorted(cards, key=lambda c: (c.suit, c.rank))


def _melds_sorted(melds: Iterable[CardSet], order: SortOrder) -> list[list[Card]]:
    groups = [sorted(m) for m in melds]  # a meld reads low to high
    if order == "rank":
        return sorted(groups, key=lambda g: (g[0].rank, g[0].suit))
    return sorted(groups, key=lambda g: (g[0].suit, g[0].rank))


def _grouped(
    melds: Sequence[CardSet],
    deadwood: Iterable[Card],
    plain: bool,
    order: SortOrder,
    mark: Card | None = None,
) -> Text:
    """Melds in brackets, then the deadwood cards: ``[7♥ 8♥ 9♥] [K♣ K♦ K♠] 2♣ 5♦``."""
    parts: list[Text] = []
    for meld in _melds_sorted(melds, order):
        parts.append(Text.assemble("[", _cards(meld, plain, mark), "]"))
    loose = _sorted(deadwood, order)
    if loose:
        parts.append(_cards(loose, plain, mark))
    return Text(" ").join(parts) if parts else Text("no cards")


def hand_text(mask: int, *, plain: bool, order: SortOrder, mark: Card | None = None) -> Text:
    """A hand grouped into its best melds with its deadwood count.

    >>> str(hand_text(CardSet("7h 8h 9h Kc Kd Ks 2c 5d").mask, plain=True, order="rank"))
    '[7h 8h 9h] [Kc Kd Ks] 2c 5d   deadwood 7'
    """
    arrangement = best_arrangement(mask)
    grouped = _grouped(arrangement.melds, arrangement.deadwood_cards, plain, order, mark)
    return Text.assemble(grouped, f"   deadwood {arrangement.deadwood}")


# ---------------------------------------------------------------------------------------------
# What happened since the human's last move.


def _describe(
    history: Sequence[PublicEvent], i: int, who: str, plain: bool
) -> tuple[str, int]:
    """The sentence for the move at ``i`` (joined with the discard that follows a draw) and the
    index of the next event to describe. The pieces are :func:`ginrummy.engine.move.narrate`'s."""
    e = history[i]
    card = card_label(e.card, plain) if e.card is not None else None
    opening = upcard_offer(x.kind for x in history[:i])
    if e.kind == "pass":
        if opening:
            return f"{narrate(who, 'pass', card, upcard=True)}.", i + 1
        return f"{narrate(who, 'pass', card, last_chance=True)}; the hand is cancelled.", i + 1
    if e.kind == "big gin":
        return f"{narrate(who, e.kind, card)}!", i + 1
    first = narrate(who, e.kind, card, upcard=opening)
    if e.kind not in ("draw", "take"):
        return f"{first}.", i + 1
    if i + 1 < len(history) and history[i + 1].seat == e.seat:
        nxt = history[i + 1]
        nxt_card = card_label(nxt.card, plain) if nxt.card is not None else None
        if nxt.kind in ("discard", "knock"):
            return f"{first} and {past_tense(nxt.kind, nxt_card)}.", i + 2
        if nxt.kind == "big gin":
            return f"{first} and {past_tense(nxt.kind, nxt_card)}!", i + 2
    return f"{first}.", i + 1


def recent_moves(view: PlayerView, names: Sequence[str], *, plain: bool = False) -> list[str]:
    """The opponent's moves since the human's last move, one sentence each, as the human saw
    them (a stock draw shows no card): ``"Computer drew from the stock and discarded 9♣."``"""
    history = view.history
    start = 0
    for i, e in enumerate(history):
        if e.seat == view.seat:
            start = i + 1
    lines = []
    i = start
    who = names[1 - view.seat]
    while i < len(history):
        line, i = _describe(history, i, who, plain)
        lines.append(line)
    return lines


# ---------------------------------------------------------------------------------------------
# The table during a hand.


def _score_line(score: MatchScore, names: Sequence[str]) -> str:
    target = score.rules.target
    if not score.hollywood:
        a, b = score.games[0].totals
        return f"Score: {names[0]} {a}, {names[1]} {b} (game to {target})"
    parts = []
    for g in score.games:
        a, b = g.totals
        parts.append(f"game {g.index + 1} {a}-{b}" + (" (over)" if g.over else ""))
    return f"Score ({names[0]}-{names[1]}): " + ", ".join(parts) + f" (each game to {target})"


def _limit_text(view: PlayerView, plain: bool) -> str:
    limit = "gin only" if view.knock_limit == 0 else f"knock limit {view.knock_limit}"
    if view.rules.oklahoma:
        limit += f" (set by the upcard {card_label(view.upcard, plain)})"
    if view.multiplier == 2:
        limit += "; this hand counts double"
    return limit


def _status_lines(
    view: PlayerView, names: Sequence[str], plain: bool, order: SortOrder
) -> list[Text]:
    you = view.seat
    opp = 1 - you
    top = view.top_discard
    lines: list[Text] = []
    known = view.opponent_known
    opp_line = Text(f"{names[opp]}: {view.opponent_card_count} cards")
    if known:
        opp_line.append("; picked up from the pile and still holding ")
        opp_line.append_text(_cards(_sorted(known, "suit"), plain))
    if view.opponent_passed:
        opp_line.append("; passed ")
        opp_line.append_text(_cards(view.opponent_passed, plain))
    lines.append(opp_line)
    pile = Text("Upcard: " if view.phase == "opening" else "Discard pile: ")
    if top is None:
        pile.append("empty")
    else:
        pile.append_text(_card(top, plain))
        under = len(view.discard_pile) - 1
        if view.phase != "opening" and under:
            pile.append(f" on top of {under} more")
    pile.append(f"    Stock: {view.stock_count} cards")
    lines.append(pile)
    mark = view.drawn if view.drawn is not None else view.taken
    mine = Text("Your cards: ")
    mine.append_text(hand_text(view.hand_mask, plain=plain, order=order, mark=mark))
    lines.append(mine)
    return lines


def render_table(
    view: PlayerView,
    names: Sequence[str],
    score: MatchScore,
    *,
    plain: bool = False,
    order: SortOrder = "rank",
) -> RenderableType:
    """The table as the human seat sees it: header, opponent, pile and stock, the hand in its
    best melds with the live deadwood count, and the opponent's latest moves."""
    you = view.seat
    dealer = "you" if view.dealer == you else names[view.dealer]
    header = (
        f"Hand {view.hand_number}: {view.rules.describe()}, {dealer} dealt, "
        f"{_limit_text(view, plain)}"
    )
    lines: list[Text] = [Text(asciify(header) if plain else header)]
    lines.append(Text(_score_line(score, names)))
    lines.extend(_status_lines(view, names, plain, order))
    if view.drawn is not None:
        lines.append(Text(f"You drew {card_label(view.drawn, plain)} from the stock."))
    elif view.taken is not None:
        lines.append(
            Text(
                f"You took {card_label(view.taken, plain)}; "
                "you may not discard it this turn."
            )
        )
    news = recent_moves(view, names, plain=plain)
    if plain:
        body = Group(*lines, *(Text(n) for n in news))
        return Group(Text("-" * 60), body)
    news_text = [Text(n, style="cyan") for n in news]
    return Panel(
        Group(*lines, *news_text),
        title=f"Hand {view.hand_number}",
        box=box.ROUNDED,
        width=BOX_WIDTH,
    )


def prompt_text(view: PlayerView, plain: bool = False) -> str:
    """The question put to the human, naming the moves that fit the phase; ends with ``> ``.

    Every prompt fits in 40 columns, the narrowest terminal the table is drawn for
    (docs/terminal.md), so it never wraps there.
    """
    legal = set(view.legal_moves)
    top = view.top_discard
    top_text = card_label(top, plain) if top is not None else "?"
    phase = view.phase
    if phase == "opening":
        return f"Take the upcard {top_text} (t) or pass (p) > "
    if phase == "opening_draw":
        return "Draw from the stock (d) > "
    if phase == "draw":
        return f"Draw (d) or take the {top_text} (t) > "
    if phase == "last_chance":
        if "take" in legal:
            return f"Take {top_text} to knock (t) or pass (p) > "
        return "The stock is down to two: pass (p) > "
    discard = phase == "discard"
    knock = any(Move.parse(m).code == KNOCK for m in legal)
    if "big gin" in legal:  # three choices do not fit in full: the other two as typed
        others = [typed for typed, can in (("x <card>", discard), ("k <card>", knock)) if can]
        if not others:
            return "Big gin (bg) > "
        return ", ".join(["Big gin (bg)", *others[:-1]]) + f" or {others[-1]} > "
    options = [said for said, can in (("discard (x <card>)", discard),
                                      ("knock (k <card>)", knock)) if can]
    head = ", ".join(options) if options else "discard (x <card>)"
    return head[0].upper() + head[1:] + " > "


def deal_prompt(number: int) -> str:
    """The question between hands, before hand ``number`` (1-based) is dealt; like every
    prompt it fits in 40 columns (up to hand 99)."""
    return f"Press Enter for hand {number} (q to quit) > "


def moves_text(view: PlayerView) -> str:
    """The legal moves in the short form a person types: ``You can: x 2c, x 5d, k 9s``."""
    if not view.legal_moves:
        return "It is not your turn."
    return "You can: " + ", ".join(short_move(m) for m in view.legal_moves)


# ---------------------------------------------------------------------------------------------
# The end of a hand.


def _result_rows(view: PlayerView, names: Sequence[str], plain: bool) -> list[Text]:
    result = view.result
    assert result is not None
    you = view.seat
    hands = {you: view.hand_mask, 1 - you: view.opponent_hand_mask or 0}
    label = {s: ("You" if s == you else names[s]) for s in (0, 1)}
    rows: list[Text] = []
    if result.kind == "cancelled":
        for seat in (you, 1 - you):
            rows.append(
                Text.assemble(
                    f"{label[seat]}: ",
                    hand_text(hands[seat], plain=plain, order="suit"),
                )
            )
        return rows
    k = result.knocker_seat
    assert k is not None
    d = 1 - k
    role = {"gin": "gin", "big_gin": "big gin"}.get(result.kind, "knocker")
    knock = Text(f"{label[k]} ({role}): ")
    knock.append_text(
        _grouped(result.knocker_melds, result.knocker_deadwood_cards, plain, "suit")
    )
    knock.append(f"   deadwood {result.knocker_deadwood}")
    if result.knock_discard is not None:
        knock.append(f"   (discarded {card_label(result.knock_discard, plain)} face down)")
    rows.append(knock)
    defend = Text(f"{label[d]}: ")
    defend.append_text(
        _grouped(result.defender_melds, result.defender_deadwood_cards, plain, "suit")
    )
    if result.layoffs:
        defend.append("   laid off ")
        defend.append_text(_cards(result.layoffs, plain))
    defend.append(f"   deadwood {result.defender_deadwood}")
    rows.append(defend)
    return rows


def render_hand_end(
    view: PlayerView, names: Sequence[str], explanation: str, *, plain: bool = False
) -> RenderableType:
    """Both hands laid out in melds, the layoffs, and the engine's explanation of the score."""
    news = recent_moves(view, names, plain=plain)
    rows = _result_rows(view, names, plain)
    sentence = Text(asciify(explanation) if plain else explanation, style="bold")
    title = f"Hand {view.hand_number} is over"
    if plain:
        return Group(Text("=" * 60), Text(title), *(Text(n) for n in news), *rows, sentence)
    return Panel(
        Group(*(Text(n, style="cyan") for n in news), *rows, sentence),
        title=title,
        box=box.DOUBLE,
        width=BOX_WIDTH,
    )
