"""Helpers shared by the terminal-table tests: known deals, a scripted human, the program
started in a pseudo-terminal, and the stacked score sheet read back."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ginrummy.engine.cards import Card, parse_cards
from ginrummy.engine.match import Match
from ginrummy.engine.melds import min_deadwood
from ginrummy.engine.rules import RulesLike
from ginrummy.engine.view import PlayerView
from ginrummy.words.sheet import SheetRow


def spawn_ginrummy(args: list[str], *, env: dict[str, str], dimensions: tuple[int, int],
                   timeout: float) -> Any:
    """``python -m ginrummy *args`` in a pseudo-terminal (a ``pexpect.spawn``), sending each line
    at once: pexpect's default sleeps 50 ms before every send."""
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "ginrummy", *args], env=env, encoding="utf-8",
                          dimensions=dimensions, timeout=timeout)
    child.delaybeforesend = None
    return child


def deck_for(human: str, computer: str, upcard: str, *, human_deals: bool = False) -> list[int]:
    """A deck (index 0 on top) dealing ``human`` to seat 0 and ``computer`` to seat 1, then
    ``upcard``, then the other cards as the stock in index order."""
    h = [int(c) for c in parse_cards(human)]
    c = [int(x) for x in parse_cards(computer)]
    up = int(Card.parse(upcard))
    non_dealer, dealer = (c, h) if human_deals else (h, c)
    deck: list[int] = []
    for a, b in zip(non_dealer, dealer, strict=True):
        deck += [a, b]
    deck.append(up)
    used = set(deck)
    deck += [x for x in range(52) if x not in used]
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def match_with(
    human: str,
    computer: str,
    upcard: str,
    rules: RulesLike = "traditional",
    *,
    human_deals: bool = False,
) -> Match:
    """A match whose first hand deals exactly these cards (seat 0 is the human)."""
    match = Match(rules, first_dealer=0 if human_deals else 1, start=False, seed="test")
    match.next_hand(deck_for(human, computer, upcard, human_deals=human_deals))
    return match


def greedy_choice(view: PlayerView) -> str:
    """A simple human: pass the upcard, draw from the stock, knock at once when allowed,
    otherwise discard the card that leaves the least deadwood (engine notation)."""
    legal = view.legal_moves
    if "big gin" in legal:
        return "big gin"
    knocks = [m for m in legal if m.startswith("knock ")]
    if knocks:
        return knocks[0]
    if "draw" in legal:
        return "draw"
    if "pass" in legal:
        return "pass"
    discards = [m for m in legal if m.startswith("discard ")]
    mask = view.hand_mask
    return min(discards, key=lambda m: min_deadwood(mask & ~(1 << Card.parse(m.split()[1]))))


def stacked_blocks(text: str, rows: Sequence[SheetRow], names: Sequence[str]) -> list[list[str]]:
    """The stacked score sheet in ``text`` read back, checked against ``rows``: one block per
    hand, in order, each naming its hand, its dealer and, when a seat won, the winner and the
    points. Returns each block's lines, stripped, for the caller's own checks."""
    blocks = text.split("\nHand ")[1:]
    assert len(blocks) == len(rows)
    said_by_hand = []
    for row, block in zip(rows, blocks, strict=True):
        said = [line.strip() for line in block.splitlines()]
        assert said[0] == str(row.hand)
        assert f"Dealer: {names[row.dealer]}" in said
        if row.winner is not None:
            assert f"Winner: {names[row.winner]}" in said and f"Points: {row.points}" in said
        said_by_hand.append(said)
    return said_by_hand
