"""Shared helpers for the web tests: a sensible chooser that plays from the person's state,
and the card tokens found anywhere in a JSON response."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][cdhs])(?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(10|[A2-9JQK])([♣♦♥♠])")
_SUIT_OF_SYMBOL = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def choose(state: dict[str, Any], rng: random.Random | None = None, wild: float = 0.0) -> str:
    """A move for the person: gin or knock when possible, else the discard leaving the least
    deadwood; draw from the stock; pass the upcard. ``wild`` is the chance of a random legal
    move instead, to reach odd corners."""
    hand = state["hand"]
    legal = hand["legal_moves"]
    if rng is not None and wild and rng.random() < wild:
        return rng.choice(legal)
    options = hand["card_options"]
    if options:
        gins = [o for o in options if o["gin"]]
        if gins:
            return f"knock {gins[0]['card']}"
        if "big gin" in legal:
            return "big gin"
        knocks = [o for o in options if o["knock"]]
        if knocks:
            return f"knock {min(knocks, key=lambda o: o['deadwood_after'])['card']}"
        discards = [o for o in options if o["discard"]]
        return f"discard {min(discards, key=lambda o: o['deadwood_after'])['card']}"
    if "draw" in legal:
        return "draw"
    if "pass" in legal:
        return "pass"
    return legal[0]


def card_tokens(data: Any) -> set[str]:
    """Every card named anywhere in ``data`` (strings inside dicts and lists), as ``7h``."""
    strings: list[str] = []
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            strings.append(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    # One search over every string, each on a line of its own: a newline is neither a letter
    # nor a digit, so no name is made of the end of one string and the start of the next.
    text = "\n".join(strings)
    found = set(_CODE.findall(text))
    for rank, suit in _SYMBOL.findall(text):
        found.add(("T" if rank == "10" else rank) + _SUIT_OF_SYMBOL[suit])
    return found


def where_cards(data: Any, cards: set[str], path: str = "") -> list[str]:
    """The places (``.hand.cards[3]``) of the strings in ``data`` that name any of ``cards``,
    with the string: what a failed leak check reports."""
    out: list[str] = []
    if isinstance(data, str):
        if card_tokens(data) & cards:
            out.append(f"{path or '.'} = {data!r}")
    elif isinstance(data, dict):
        for k, v in data.items():
            out += where_cards(v, cards, f"{path}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += where_cards(v, cards, f"{path}[{i}]")
    return out


_RANKS = "A23456789TJQK"


def _extensions(meld: list[str]) -> list[str]:
    """The cards that would extend ``meld`` by one, worked out from the cards alone: a
    three-card set's fourth card (none for four), the card below and the card above a run."""
    ranks = [_RANKS.index(c[0]) for c in meld]
    suits = {c[1] for c in meld}
    if len(set(ranks)) == 1:
        return [] if len(meld) == 4 else [meld[0][0] + s for s in "cdhs" if s not in suits]
    suit = meld[0][1]
    low, high = min(ranks), max(ranks)
    return ([_RANKS[low - 1] + suit] if low > 0 else []) + (
        [_RANKS[high + 1] + suit] if high < 12 else [])


def without_spots(data: Any) -> Any:
    """``data`` with the layoff spots of knock arrangements left out, once each is checked to be
    what the person's own cards and the discard pile alone give (the cards that extend each
    meld, less those held or in the pile): spots name cards the person may not hold, but they
    are geometry, not knowledge of where those cards are, so a leak scan skips them."""
    if isinstance(data, list):
        return [without_spots(v) for v in data]
    if not isinstance(data, dict):
        return data
    out = {k: without_spots(v) for k, v in data.items()}
    if isinstance(data.get("card_options"), list) and "discard_pile" in data:
        known = set(data["cards"]) | set(data["discard_pile"])
        for option in out["card_options"]:
            for arr in option.get("arrangements", []):
                spots = arr.pop("spots")
                assert spots == [[c for c in _extensions(m) if c not in known]
                                 for m in arr["melds"]], f"spots {spots} of {arr['melds']}"
    return out


# -------------------------------------------------------------------------------------------
# Tables for two people.


#: The last version read of each match by :func:`stored_match`: (store id, match id) ->
#: (version, record text, the match).
_STORED: dict[tuple[int, str], tuple[int, str, Any]] = {}


def stored_match(store: Any, match_id: str) -> tuple[Any, str | None]:
    """The match as stored now (read from the database, not the server's cache) and its
    sealer's private state. The leak scans read it after every request, so the match read at
    the last version is brought up to the new record by the moves it adds
    (``record.catch_up``, checked as ``loads`` checks them; test_record_catch_up compares the
    two) instead of replaying the whole record each time; treat it as read-only."""
    from ginrummy.engine.record import catch_up, loads

    version, text, seals = store.load_match(match_id)
    key = (id(store), match_id)
    held = _STORED.get(key)
    if held is not None and held[0] == version and held[1] == text:
        return held[2], seals
    match = None
    if held is not None and held[0] < version and catch_up(held[2], text, held[1]):
        match = held[2]
    if match is None:
        match = loads(text)
    if len(_STORED) > 16:
        _STORED.clear()
    _STORED[key] = (version, text, match)
    return match, seals


def secrets_now(store: Any, match_id: str, seat: int = 0) -> tuple[set[str] | None, set[str]]:
    """What the person in ``seat`` may not know now, from the database: the other seat's
    unrevealed cards and the stock (``None`` when the current hand is over: then everything may
    be shown), and the server seeds of the hand being played and of the hands sealed but not
    dealt (from the sealer's private state)."""
    return secrets_by_seat(store, match_id, (seat,))[seat]


def secrets_by_seat(
    store: Any, match_id: str, seats: tuple[int, ...] = (0, 1)
) -> dict[int, tuple[set[str] | None, set[str]]]:
    """:func:`secrets_now` for each of ``seats``, from one read of the database."""
    import json

    from ginrummy.engine.cards import cards_of_mask

    match, seals = stored_match(store, match_id)
    assert seals is not None
    seeds = {
        h["server_seed"] for n, h in enumerate(json.loads(seals)["hands"])
        if n >= len(match.hands) or not match.hands[n].over
    }
    if not match.hands:
        return {seat: (set(), seeds) for seat in seats}
    hand = match.hand
    if hand.over:
        return {seat: (None, seeds) for seat in seats}
    stock = sum(1 << c for c in hand.stock)
    out: dict[int, tuple[set[str] | None, set[str]]] = {}
    for seat in seats:
        known = match.view(seat).opponent_known_mask
        secret = (hand.hands[1 - seat] & ~known) | stock
        out[seat] = ({str(c) for c in cards_of_mask(secret)}, seeds)
    return out


def new_player(client: Any, name: str = "Ann") -> dict[str, str]:
    """A new player's ``Authorization`` header."""
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def dealt_match(client: Any, auth: dict[str, str], level: str = "random") -> dict[str, Any]:
    """A new match against the computer with its first hand dealt: the server never deals
    before the client's seed comes (``next-hand`` with a seed of the test's own). The
    player's unfinished match, if any, ends (the test's yes: ``forfeit_current``)."""
    r = client.post("/api/matches", json={"level": level, "forfeit_current": True},
                    headers=auth)
    assert r.status_code == 201, r.text
    state = r.json()
    r = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth,
                    json={"version": state["version"], "client_seed": "a test's seed"})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


class People:
    """A table for two people through the API: ``auth[seat]`` speaks for each seat."""

    def __init__(self, client: Any, match_id: str, auth: tuple[dict[str, str], ...]) -> None:
        self.client, self.id, self.auth = client, match_id, auth

    @classmethod
    def start(cls, client: Any, **options: Any) -> People:
        """Ann opens a table, Bob joins it with the invite."""
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        r = client.post("/api/matches", json={"opponent": "person", **options}, headers=ann)
        assert r.status_code == 201, r.text
        made = r.json()
        r = client.post(f"/api/invites/{made['invite']}", headers=bob)
        assert r.status_code == 200, r.text
        return cls(client, made["id"], (ann, bob))

    @classmethod
    def join_page(cls, client: Any, page: Any, client_seed: str) -> People:
        """Bob joins, through the API with ``client_seed``, the table for two that the
        browser ``page`` (Ann) made and shows the invite of."""
        invite = page.input_value("#invite-link").split("invite=")[1]
        ann = {"Authorization": "Bearer " + page.evaluate("localStorage.getItem('ginrummy.token')")}
        bob = new_player(client, "Bob")
        r = client.post(f"/api/invites/{invite}", headers=bob, json={"client_seed": client_seed})
        assert r.status_code == 200, r.text
        return cls(client, r.json()["id"], (ann, bob))

    def get(self, seat: int) -> Any:
        return self.client.get(f"/api/matches/{self.id}", headers=self.auth[seat])

    def state(self, seat: int) -> dict[str, Any]:
        r = self.get(seat)
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def post(self, seat: int, what: str, body: dict[str, Any] | None) -> Any:
        return self.client.post(f"/api/matches/{self.id}/{what}", json=body,
                                headers=self.auth[seat])

    def deal(self, seeds: dict[int, str]) -> dict[str, Any]:
        """Both people send their client seeds; the answer to the second is the dealt hand."""
        out: dict[str, Any] = {}
        for seat, seed in seeds.items():
            r = self.post(seat, "next-hand", {"client_seed": seed})
            assert r.status_code == 200, r.text
            out = r.json()
        assert out["hand"] is not None
        return out

    def finish_hand(self, rng: random.Random | None = None) -> None:
        """Random legal moves (``rng``; without one, :func:`choose`'s, which knocks when it can
        and so ends a hand sooner) by whoever is to play until the hand is over."""
        for _ in range(1000):
            state = self.state(0)
            if state["hand"]["result"] is not None or state["status"] == "over":
                return
            seat = 0 if state["hand"]["your_turn"] else 1
            state = self.state(seat)
            move = rng.choice(state["hand"]["legal_moves"]) if rng else choose(state)
            r = self.post(seat, "moves", {"move": move})
            assert r.status_code == 200, r.text
        raise AssertionError("the hand did not end in 1000 moves")


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@contextmanager
def people_app(tmp_path: Any) -> Iterator[tuple[Any, Clock, Any, list[tuple[str, int]]]]:
    """A test client over a fresh database whose service runs on a hand-moved clock and
    records every ``on_change`` call: (client, clock, service, changes)."""
    from fastapi.testclient import TestClient

    from ginrummy.server import create_app
    from ginrummy.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'people.sqlite3'}")
    app = create_app(store=store, coach_processes=0)  # the coach in-thread (conftest.client)
    service = app.state.service
    clock = Clock()
    changes: list[tuple[str, int]] = []
    service.now = clock
    service.on_change = lambda match_id, version: changes.append((match_id, version))
    try:
        with TestClient(app) as client:  # one event loop for every request (conftest.client)
            yield client, clock, service, changes
    finally:
        store.close()
