"""Sealed deals at the web table, through the API in process: the commitment comes before the
person's client seed, bad seeds are refused with the engine's message, the records handed out
verify (and tampered ones do not), the computer never sees a seed, and databases written
before sealed deals keep working."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from ginrummy.cli import main
from ginrummy.engine.cards import CARD_TEXT
from ginrummy.engine.match import Match
from ginrummy.engine.record import dumps, loads
from ginrummy.engine.rules import get_rules
from ginrummy.engine.shuffle import SealError, check_client_seed, commitment, shuffle_deck
from ginrummy.engine.verify import verify_record
from ginrummy.engine.view import PlayerView
from ginrummy.players import Player, make
from ginrummy.server import create_app, service
from ginrummy.server.schemas import NewMatchIn
from ginrummy.server.service import TableService
from ginrummy.server.store import Store

from .helpers import choose


@pytest.fixture()
def auth(client: TestClient) -> dict[str, str]:
    r = client.post("/api/players", json={"name": "Ann"})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def waiting_match(client: TestClient, auth: dict[str, str], **options: Any) -> dict[str, Any]:
    """A match whose first hand is sealed and not dealt. Hollywood, so that no single hand
    ends the match (a gin against a high deadwood can reach 100 at once)."""
    r = client.post("/api/matches", json={"level": "random", "deal": False, "hollywood": True,
                                          **options}, headers=auth)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def deal(client: TestClient, auth: dict[str, str], state: dict[str, Any],
         seed: str | None) -> dict[str, Any]:
    r = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth,
                    json={"version": state["version"], "client_seed": seed})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def play_out_hand(client: TestClient, auth: dict[str, str], state: dict[str, Any],
                  rng: random.Random) -> dict[str, Any]:
    while state["hand"]["result"] is None:
        r = client.post(f"/api/matches/{state['id']}/moves", headers=auth,
                        json={"move": choose(state, rng), "version": state["version"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_the_commitment_is_published_before_the_client_seed_and_kept_to(
    client: TestClient, auth: dict[str, str]
) -> None:
    state = waiting_match(client, auth)
    assert state["status"] == "between_hands" and state["hand"] is None
    upcoming = state["meta"]["sealed"]["next"]
    assert state["meta"]["sealed"]["hand"] is None
    assert upcoming["hand"] == upcoming["nonce"] == 1
    assert upcoming["version"] == "ginrummy-shuffle-v1"
    assert len(upcoming["commitment"]) == 64 and upcoming["client_seed"] is None
    # Nothing can be played before the deal, and a reload shows the same commitment.
    r = client.post(f"/api/matches/{state['id']}/moves", json={"move": "pass"}, headers=auth)
    assert r.status_code == 409 and "deal the first hand" in r.json()["detail"]
    again = client.get(f"/api/matches/{state['id']}", headers=auth).json()
    assert again["meta"] == state["meta"]
    seed = "my own seed: 7♥ ünïcode"
    state = deal(client, auth, state, seed)
    sealed = state["meta"]["sealed"]["hand"]
    assert state["hand"]["number"] == 1
    assert sealed["commitment"] == upcoming["commitment"] and sealed["client_seed"] == seed
    assert sealed["dealer_seat"] == upcoming["dealer_seat"]
    assert state["hand"]["dealer"] == upcoming["dealer"]
    assert sealed["server_seed"] is None and sealed["deck"] is None
    state = play_out_hand(client, auth, state, random.Random(1))
    sealed = state["meta"]["sealed"]["hand"]
    # The revealed seed hashes to the commitment shown before the deal, and the deck it gives
    # with the person's seed deals the cards the person was dealt.
    server_seed = bytes.fromhex(sealed["server_seed"])
    assert commitment(server_seed, 1, upcoming["dealer_seat"]) == upcoming["commitment"]
    deck = [CARD_TEXT[c] for c in shuffle_deck(server_seed, seed, 1)]
    assert sealed["deck"] == deck
    assert state["hand"]["upcard"] == deck[20]
    assert state["status"] == "between_hands"  # one hand cannot end a Hollywood match
    # The next hand is sealed in the same answer.
    nxt = state["meta"]["sealed"]["next"]
    assert nxt["hand"] == 2 and nxt["commitment"] != upcoming["commitment"]


BAD_SEEDS = ["", " leading", "trailing ", "tab\there", "nul\x00", "x" * 257, "é" * 129,
             "\x85next line"]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=range(len(BAD_SEEDS)))
def test_a_bad_client_seed_gets_the_engines_message_and_changes_nothing(
    client: TestClient, store: Store, auth: dict[str, str], seed: str
) -> None:
    state = waiting_match(client, auth)
    before = store.load_match(state["id"])
    with pytest.raises(SealError) as engine:
        check_client_seed(seed)
    r = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth,
                    json={"version": state["version"], "client_seed": seed})
    assert r.status_code == 400
    detail = r.json()["detail"]
    message = str(engine.value)
    assert detail == message[0].upper() + message[1:] + "."
    assert store.load_match(state["id"]) == before
    assert client.get(f"/api/matches/{state['id']}", headers=auth).json() == state
    # The same match then deals with a good seed.
    assert deal(client, auth, state, "fine")["meta"]["sealed"]["hand"]["client_seed"] == "fine"


def test_a_lone_surrogate_or_an_overlong_seed_is_refused(
    client: TestClient, store: Store, auth: dict[str, str]
) -> None:
    state = waiting_match(client, auth)
    before = store.load_match(state["id"])
    body = '{"version": ' + str(state["version"]) + ', "client_seed": "\\ud800"}'
    r = client.post(f"/api/matches/{state['id']}/next-hand", content=body,
                    headers={**auth, "Content-Type": "application/json"})
    # The JSON reader refuses it before the engine sees it: a 4xx that says so.
    assert r.status_code == 422 and "unicode" in r.json()["detail"]
    r = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth,
                    json={"version": state["version"], "client_seed": "x" * 2000})
    assert r.status_code == 422
    assert store.load_match(state["id"]) == before


def test_records_are_handed_out_only_for_finished_hands(
    client: TestClient, auth: dict[str, str]
) -> None:
    state = deal(client, auth, waiting_match(client, auth), "abc")
    mid = state["id"]
    for path in ("record", "record?hands=1"):
        r = client.get(f"/api/matches/{mid}/{path}", headers=auth)
        assert r.status_code == 409, path
        assert "being played" in r.json()["detail"]
    assert client.get(f"/api/matches/{mid}/record?hands=0", headers=auth).status_code == 200
    state = play_out_hand(client, auth, state, random.Random(2))
    whole = client.get(f"/api/matches/{mid}/record", headers=auth)
    first = client.get(f"/api/matches/{mid}/record?hands=1", headers=auth)
    assert whole.status_code == first.status_code == 200
    assert whole.text == first.text and whole.text.count("[[hands]]") == 1
    assert verify_record(whole.text).ok
    assert state["status"] == "between_hands"  # one hand cannot end a Hollywood match
    # The next hand is dealt: the record of hand 1 is still there, the whole one is not.
    state = deal(client, auth, state, "def")
    assert client.get(f"/api/matches/{mid}/record", headers=auth).status_code == 409
    again = client.get(f"/api/matches/{mid}/record?hands=1", headers=auth)
    assert again.status_code == 200 and again.text == first.text
    assert client.get(f"/api/matches/{mid}/record?hands=2", headers=auth).status_code == 409
    assert client.get(f"/api/matches/{mid}/record?hands=-1", headers=auth).status_code == 422


@pytest.mark.parametrize("end", ["resign", "abandon"])
def test_a_hand_cut_short_by_the_match_s_end_is_revealed_and_verifies(
    client: TestClient, auth: dict[str, str], end: str
) -> None:
    # A match that ends mid-hand (resigned, or abandoned for a new one) will never play that
    # hand on: its server seed and deck are shown and its record verifies like any other.
    state = deal(client, auth, waiting_match(client, auth), "abc")
    mid = state["id"]
    rng = random.Random(4)
    for _ in range(3):
        r = client.post(f"/api/matches/{mid}/moves", headers=auth,
                        json={"move": choose(state, rng), "version": state["version"]})
        state = r.json()
    assert state["hand"]["result"] is None
    sealed = state["meta"]["sealed"]["hand"]
    assert sealed["server_seed"] is None and sealed["deck"] is None  # not while it is played
    if end == "resign":
        state = client.post(f"/api/matches/{mid}/resign", headers=auth).json()
    else:
        assert client.post("/api/matches", json={"level": "random", "forfeit_current": True},
                           headers=auth).status_code == 201
        state = client.get(f"/api/matches/{mid}", headers=auth).json()
    assert state["status"] in ("over", "abandoned") and state["hand"]["result"] is None
    sealed = state["meta"]["sealed"]["hand"]
    server_seed = bytes.fromhex(sealed["server_seed"])
    assert commitment(server_seed, sealed["nonce"], sealed["dealer_seat"]) == (
        sealed["commitment"])
    assert sealed["deck"] == [CARD_TEXT[c] for c in shuffle_deck(
        server_seed, "abc", sealed["nonce"])]
    record = client.get(f"/api/matches/{mid}/record", headers=auth)
    assert record.status_code == 200, record.text
    report = verify_record(record.text)
    assert report.ok and [h.status for h in report.hands] == ["verified"]


def test_a_tampered_record_from_the_api_fails_ginrummy_verify(
    client: TestClient, auth: dict[str, str], tmp_path: Path
) -> None:
    state = deal(client, auth, waiting_match(client, auth), "tamper test")
    state = play_out_hand(client, auth, state, random.Random(3))
    shown = state["meta"]["sealed"]["hand"]
    honest = client.get(f"/api/matches/{state['id']}/record", headers=auth).text
    deck = shown["deck"]
    seed = shown["server_seed"]
    tampered = {
        "server seed": (honest.replace(seed, seed[:-1] + ("0" if seed[-1] != "0" else "1")),
                        "commitment"),
        "client seed": (honest.replace('client_seed = "tamper test"',
                                       'client_seed = "tamper test!"'), "deck"),
        "deck": (honest.replace(" ".join(deck), " ".join([*deck[:50], deck[51], deck[50]])),
                 "deck"),
    }
    runner = CliRunner()
    path = tmp_path / "honest.toml"
    path.write_text(honest, encoding="utf-8")
    ok = runner.invoke(main, ["verify", str(path), "--commitment", f"1:{shown['commitment']}"])
    assert ok.exit_code == 0, ok.output
    assert "All 1 finished hand(s) verified." in ok.output
    for what, (changed, check) in tampered.items():
        assert changed != honest, what
        path = tmp_path / f"{what}.toml"
        path.write_text(changed, encoding="utf-8")
        result = runner.invoke(main, ["verify", str(path)])
        assert result.exit_code == 1, (what, result.output)
        assert "Verification failed for hand(s) 1." in result.output
        assert f"✗ {check}:" in result.output, (what, result.output)


class Spy(Player):
    """A computer player that records every view it is given."""

    name = "spy"

    def __init__(self) -> None:
        super().__init__()
        self.inner = make("random", seed=5)
        self.views: list[PlayerView] = []
        self.reseeds: list[str] = []

    def reseed(self, seed: int | str | None) -> None:
        self.reseeds.append(str(seed))
        self.inner.reseed(seed)

    def decide(self, view: PlayerView) -> str:
        self.views.append(view)
        return self.inner.choose(view)


def test_the_computer_sees_only_its_view_and_never_a_seed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    spies: list[Spy] = []

    def make_spy(_name: str, **_kw: Any) -> Spy:
        spies.append(Spy())
        return spies[-1]

    monkeypatch.setattr(service, "make", make_spy)
    table = TableService(store)
    player, _ = table.new_player("Ann")
    state = table.new_match(player, NewMatchIn(level="random", deal=False))
    rng = random.Random(4)
    while state.status != "over" and (state.hand is None or state.hand.number < 4):
        if state.status == "between_hands":
            state = table.next_hand(player, state.id, state.version, f"s{rng.random()}")
        else:
            state = table.play(player, state.id, choose(state.model_dump(), rng), state.version)
    seeds = [h["server_seed"] for h in json.loads(store.load_match(state.id)[2] or "")["hands"]]
    views = [v for spy in spies for v in spy.views]
    assert len(seeds) >= 2 and len(views) > 20
    for view in views:
        assert type(view) is PlayerView and view.seat == 1
        shown = repr(view)
        assert not any(seed in shown for seed in seeds)
        assert not any(bytes.fromhex(seed) in shown.encode() for seed in seeds)
    assert not any(seed in r for spy in spies for r in spy.reseeds for seed in seeds)


def test_a_second_server_carries_on_with_the_same_seals(store: Store) -> None:
    one = TableService(store)
    player, _ = one.new_player("Ann")
    state = one.new_match(player, NewMatchIn(level="random", deal=False))
    shown = state.meta.sealed.next.commitment  # type: ignore[union-attr]
    # Another process (no cache) deals the hand the first one sealed.
    two = TableService(store)
    dealt = two.next_hand(player, state.id, state.version, "carry on")
    assert dealt.meta.sealed.hand.commitment == shown  # type: ignore[union-attr]
    rng = random.Random(6)
    state = dealt
    while state.hand is not None and state.hand.result is None:
        table = one if rng.random() < 0.5 else two
        state = table.play(player, state.id, choose(state.model_dump(), rng), state.version)
    text = one.record(player, state.id)
    assert verify_record(text, published={1: shown}).ok


def test_a_match_saved_before_sealed_deals_finishes_its_hand_but_deals_no_more(
    tmp_path: Path,
) -> None:
    """A match written before sealed deals: no ``match_seals`` row, a match dealt from a
    shuffle of its deal seed. The hand on the table can be played
    to its end, but the server refuses to deal that match another (unsealed) hand."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = Store(url)
    player, token = old.create_player("Ann")
    deal_seed = "old-seed"
    deck = list(range(52))
    random.Random(f"{deal_seed}/hand/0").shuffle(deck)  # how those servers dealt
    # You open; Hollywood, so one hand cannot end the match.
    match = Match(get_rules("traditional", hollywood=True), seed=deal_seed, first_dealer=1,
                  start=False)
    match.next_hand(deck)
    info = old.create_match(player_id=player.id, level="random", profile="traditional",
                            rules="traditional", hollywood=True, deal_seed=deal_seed,
                            record=dumps(match, players=("You", "Computer (random)")))
    # No match_seals row (the table's absence from such old files is test_migrations' job).
    old.close()
    store = Store(url)  # a newer version opens the old file
    try:
        client = TestClient(create_app(store=store))
        auth = {"Authorization": f"Bearer {token}"}
        state = client.get(f"/api/matches/{info.id}", headers=auth).json()
        assert state["meta"]["sealed"] is None and state["hand"]["number"] == 1
        rng = random.Random(7)
        while state["hand"]["result"] is None:
            r = client.post(f"/api/matches/{info.id}/moves", headers=auth,
                            json={"move": choose(state, rng), "version": state["version"]})
            assert r.status_code == 200, r.text
            state = r.json()
        assert state["status"] == "between_hands"
        for body in ({"version": state["version"], "client_seed": "x"},
                     {"version": state["version"]}):
            r = client.post(f"/api/matches/{info.id}/next-hand", headers=auth, json=body)
            assert r.status_code == 409 and "before sealed deals" in r.json()["detail"]
        after = client.get(f"/api/matches/{info.id}", headers=auth).json()
        assert after["version"] == state["version"] and after["hand"]["number"] == 1
        assert len(loads(store.load_record(info.id)[1]).hands) == 1
    finally:
        store.close()
