"""A stored match whose person can knock with two least-deadwood groupings (issue 11, item 5).

The person (seat 0, the non-dealer) holds 5-6-7-8♥ and 8♣ 8♦ 8♠ with A♣ 2♦ 3♠ (6 deadwood),
both pass the upcard Q♥, and the person draws the K♣. Knocking with the K♣ leaves two
arrangements with the same 6 deadwood: 8♣8♦8♥8♠ + 5-6-7♥ (the default: one spot, the 4♥) and
8♣8♦8♠ + 5-6-7-8♥ (spots 4♥ and 9♥). The computer holds the 9♥ and no meld, so the grouping
decides the result: the default leaves it nothing to lay off; the other lets it lay off the 9♥.
"""

from __future__ import annotations

import json
from typing import Any

from deals import build_deck
from ginrummy import Match, get_rules
from ginrummy.engine.record import dumps
from ginrummy.server.store import HandSummary, Store

from .conftest import Server

MINE = "5h 6h 7h 8h 8c 8d 8s Ac 2d 3s"
THEIRS = "9h Kd Qs Jc Tc 2c 4c 6d Td 3h"
DEFAULT_MELDS = [["8c", "8d", "8h", "8s"], ["5h", "6h", "7h"]]
OTHER_MELDS = [["8c", "8d", "8s"], ["5h", "6h", "7h", "8h"]]
OTHER_MOVE = "knock Kc with 8c8d8s 5h6h7h8h"


def knock_choice_match() -> Match:
    """The match above, at the person's discard after drawing the K♣."""
    m = Match(get_rules("traditional"), seed="knock-choice", first_dealer=1, start=False)
    m.next_hand(build_deck(MINE, THEIRS, "Qh", "Kc"))
    for move in ("pass", "pass", "draw"):
        m.play(move)
    return m


def stored_knock_choice(store: Store) -> tuple[str, str]:
    """A new player whose current match is :func:`knock_choice_match` (stored as a match from
    before sealed deals: it finishes the hand on the table); returns (token, match id)."""
    match = knock_choice_match()
    player, token = store.create_player("You")
    info = store.create_match(
        player_id=player.id, level="medium", profile="traditional",
        rules=match.rules.describe(), hollywood=False, deal_seed="knock-choice",
        record=dumps(match, players=("You", "Computer (medium)"), meta={"level": "medium"}),
        scores=match.score.totals,
        hands=[HandSummary.of(n, h.result)
               for n, h in enumerate(match.hands, 1) if h.result is not None],
    )
    return token, info.id


def open_stacked(page: Any, server: Server, *, tour: bool = False) -> tuple[dict[str, str], str]:
    """Opens ``page`` as the player of a new :func:`stored_knock_choice` match on ``server``
    (with the first round's guide on for it if ``tour``); returns (auth headers, match id)."""
    store = Store(server.db_url)
    try:
        token, match_id = stored_knock_choice(store)
    finally:
        store.close()
    page.add_init_script(f"localStorage.setItem('ginrummy.token', {token!r})")
    if tour:
        on = json.dumps({"match": match_id, "on": True})
        page.add_init_script(f"localStorage.setItem('ginrummy.tour', {on!r})")
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return {"Authorization": f"Bearer {token}"}, match_id


def meld_groups(page: Any, selector: str) -> list[list[str]]:
    """The cards of each meld group the page shows under ``selector``, in order."""
    groups: list[list[str]] = page.eval_on_selector_all(
        f"{selector} .group.meld",
        "gs => gs.map(g => [...g.querySelectorAll('.card')].map(c => c.dataset.card))",
    )
    return groups
