"""The JSON API, in process: fairness (no hidden card and no unrevealed server seed in any
response before a hand ends), ownership, bad input, and the lifecycle of a match."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.engine.cards import Card
from ginrummy.engine.record import loads
from ginrummy.engine.verify import verify_record
from ginrummy.server.store import Store

from .helpers import card_tokens, choose, secrets_now, where_cards, without_spots

PROFILES = ["traditional", "modern", "browser", "house", "oklahoma"]


def new_player(client: TestClient, name: str = "Ann") -> dict[str, str]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def new_match(client: TestClient, auth: dict[str, str], *, deal: bool = True,
              **options: Any) -> dict[str, Any]:
    """A new match against the computer; with ``deal`` (the default here) its first hand is
    then dealt with a client seed of the test's own, as every client must now do."""
    r = client.post("/api/matches", json={"level": "random", **options}, headers=auth)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    assert state["hand"] is None and state["meta"]["sealed"]["next"]["hand"] == 1
    if deal:
        state = advance(client, auth, state, None, client_seed="first hand seed")
    return state


def advance(client: TestClient, auth: dict[str, str], state: dict[str, Any], move: str | None,
            client_seed: str = "a client seed") -> dict[str, Any]:
    if state["status"] == "between_hands":
        body: dict[str, Any] = {"version": state["version"], "client_seed": client_seed}
        r = client.post(f"/api/matches/{state['id']}/next-hand", json=body, headers=auth)
    else:
        assert move is not None
        r = client.post(f"/api/matches/{state['id']}/moves",
                        json={"move": move, "version": state["version"]}, headers=auth)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# Five matches of three hands: each profile once, Hollywood or not, with and without the last
# discard chance, a first deal and later ones (every hand after the first is dealt the same
# way); --slow plays 80 matches of up to six hands.
@pytest.mark.parametrize(("matches", "hands"), [
    pytest.param(5, 3, id="5"), pytest.param(80, 6, marks=pytest.mark.slow, id="80-matches"),
])
def test_no_response_shows_a_hidden_card_or_seed_before_the_hand_ends(
    client: TestClient, store: Store, matches: int, hands: int
) -> None:
    """Every answer is scanned for the hidden cards and for every server seed not revealed
    yet; every finished hand's revealed seal then verifies with ``ginrummy.engine.verify``, against
    the commitment the person was shown before the deal."""
    rng = random.Random(20240601 + matches)
    auth = new_player(client)
    checked = hands_seen = 0
    for i in range(matches):
        mid = ""
        texts: list[str] = []
        # Every match waits for the person's client seed before the first deal.
        r = client.post("/api/matches", headers=auth, json={
            "level": "random", "profile": PROFILES[i % 5], "hollywood": i % 3 == 0,
            "last_discard_chance": i % 2 == 1, "forfeit_current": True})
        assert r.status_code == 201
        state, texts = r.json(), [r.text]
        mid = state["id"]
        shown: dict[int, str] = {}  # hand number -> commitment shown before its deal
        while state["status"] != "over" and (state["hand"] is None
                                            or state["hand"]["number"] <= hands):
            sealed = state["meta"]["sealed"]
            hidden, secrets = secrets_now(store, mid)
            assert secrets and not any(s in texts[-1] for s in secrets), "a server seed leaked"
            if sealed["next"] is not None:
                shown[sealed["next"]["hand"]] = sealed["next"]["commitment"]
                assert sealed["next"]["server_seed"] is None and sealed["next"]["deck"] is None
            if hidden is not None:
                # The match id is random URL-safe text: it can spell a card ("-2d_") by chance
                # (about one id in 1,200), so it is left out of the scan.
                # Layoff spots are geometry on the person's own cards: checked, then skipped.
                scanned = without_spots({k: v for k, v in state.items() if k != "id"})
                leaked = card_tokens(scanned) & hidden
                assert not leaked, f"hidden cards {leaked} in {where_cards(scanned, leaked)}"
                if sealed["hand"] is not None:
                    assert sealed["hand"]["server_seed"] is None
                    assert sealed["hand"]["deck"] is None
                checked += 1
            else:
                hands_seen += 1
                # Once over, the computer's hand is shown: the scanner does find cards.
                assert set(state["hand"]["result"]["computer"]["cards"]) <= card_tokens(state)
                revealed = sealed["hand"]
                number = revealed["hand"]
                assert revealed["server_seed"] and revealed["deck"]
                record = client.get(f"/api/matches/{mid}/record?hands={number}", headers=auth)
                assert record.status_code == 200
                report = verify_record(
                    record.text, published={n: c for n, c in shown.items() if n <= number})
                # Every hand's commitment was shown before its deal, the first one's too.
                assert set(shown) >= set(range(1, number + 1))
                assert report.ok and [h.status for h in report.hands] == ["verified"] * number
                assert f'server_seed = "{revealed["server_seed"]}"' in record.text
                assert " ".join(revealed["deck"]) in record.text
            move = seed = None
            if state["status"] == "between_hands":
                seed = (f"seed {i} ♥ {rng.randrange(10**6)}" if rng.random() < 0.5 else
                        f"{rng.getrandbits(64):016x}")
            else:
                move = choose(state, rng, wild=0.2)
            r = (client.post(f"/api/matches/{mid}/next-hand", headers=auth,
                             json={"version": state["version"], "client_seed": seed})
                 if move is None else
                 client.post(f"/api/matches/{mid}/moves", headers=auth,
                             json={"move": move, "version": state["version"]}))
            assert r.status_code == 200, r.text
            state = r.json()
            texts.append(r.text)
            if seed is not None:
                assert state["meta"]["sealed"]["hand"]["client_seed"] == seed
    assert checked > 7 * hands * matches and hands_seen > matches


def test_scanner_sees_cards_in_codes_and_symbols() -> None:
    assert card_tokens({"a": ["7h", "discard Tc"], "b": "took 10♥ and Q♠"}) == {
        "7h", "Tc", "Th", "Qs"
    }


def test_a_player_sees_and_acts_only_in_their_own_matches(client: TestClient) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    state = new_match(client, ann)
    mid = state["id"]
    for method, path, body in [
        ("GET", f"/api/matches/{mid}", None),
        ("POST", f"/api/matches/{mid}/moves", {"move": "pass"}),
        ("POST", f"/api/matches/{mid}/next-hand", {}),
        ("GET", f"/api/matches/{mid}/record", None),
    ]:
        r = client.request(method, path, json=body, headers=bob)
        assert r.status_code == 404, (path, r.text)
        # The same answer as for a match that does not exist at all.
        r2 = client.request(method, path.replace(mid, "nosuchmatch"), json=body, headers=bob)
        assert r2.status_code == 404 and r2.json() == r.json()
    assert client.get(f"/api/matches/{mid}", headers=ann).json()["version"] == state["version"]
    assert client.get("/api/me", headers=bob).json()["current_match"] is None


@pytest.mark.parametrize("headers", [
    {}, {"Authorization": "Bearer forged-token"}, {"Authorization": "Basic abc"},
    {"Authorization": "Bearer " + "x" * 300},
])
def test_missing_or_unknown_token_is_refused(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/api/matches", json={}, headers=headers)
    assert r.status_code in (401, 403)
    assert r.json()["detail"]


def test_tokens_are_stored_only_as_hashes(client: TestClient, store: Store) -> None:
    r = client.post("/api/players", json={"name": "Ann"})
    token = r.json()["token"]
    assert len(token) >= 40
    from sqlalchemy import text

    with store.engine.connect() as conn:
        rows = conn.execute(text("select token_hash from tokens")).all()
    assert rows and all(token not in row[0] for row in rows)


def test_an_illegal_move_gets_its_reason_and_changes_nothing(
    client: TestClient, store: Store
) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    before = store.load_record(state["id"])
    wrong = "discard 2c" if "draw" in state["hand"]["legal_moves"] else "draw"
    if state["hand"]["phase"] == "opening":
        wrong = "draw"
    r = client.post(f"/api/matches/{state['id']}/moves", json={"move": wrong}, headers=auth)
    assert r.status_code == 400
    assert r.json()["detail"][0].isupper()  # a sentence for a person
    assert store.load_record(state["id"]) == before
    again = client.get(f"/api/matches/{state['id']}", headers=auth).json()
    assert again["hand"] == state["hand"] and again["version"] == state["version"]


def test_the_taken_card_cannot_be_discarded_at_once(client: TestClient) -> None:
    auth = new_player(client)
    for _ in range(20):
        state = new_match(client, auth)
        if "take" in state["hand"]["legal_moves"]:
            break
    else:  # pragma: no cover - twenty deals without a chance to take are vanishingly rare
        pytest.fail("never offered a card to take")
    state = advance(client, auth, state, "take")
    taken = state["hand"]["taken"]
    option = next(o for o in state["hand"]["card_options"] if o["card"] == taken)
    assert not option["discard"] and "discard pile this turn" in option["reason"]
    r = client.post(f"/api/matches/{state['id']}/moves", json={"move": f"discard {taken}"},
                    headers=auth)
    assert r.status_code == 400 and "this turn" in r.json()["detail"]


@pytest.mark.parametrize("body,status", [
    (b"{not json", 422),
    (b'{"move": "draw", "extra": 1}', 422),
    (b'{"move": 7}', 422),
    (b'{"move": ""}', 422),
    (b'{"move": "' + b"x" * 500 + b'"}', 422),
    (b'{"move": "draw", "version": -1}', 422),
    (b'{"move": "' + b"x" * 9000 + b'"}', 413),
    # Bodies FastAPI cannot decode at all: not UTF-8, a number too long for Python's int,
    # nesting deeper than its parser goes. Malformed like the rest: 422, not 400.
    (b'{"move": "\xff"}', 422),
    (b'{"move": "draw", "version": ' + b"9" * 5000 + b"}", 422),
    (b'{"move": ' + b"[" * 3000 + b"]" * 3000 + b"}", 422),
    (b'{"move": "discard 1x"}', 400),
    (b'{"move": "fold"}', 400),
])
def test_malformed_requests_get_a_clear_4xx_and_change_nothing(
    client: TestClient, store: Store, body: bytes, status: int
) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    before = store.load_record(state["id"])
    r = client.post(f"/api/matches/{state['id']}/moves", content=body,
                    headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == status, r.text
    assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    assert store.load_record(state["id"]) == before


def test_bad_match_ids_are_refused(client: TestClient) -> None:
    auth = new_player(client)
    for bad in ["a" * 40, "..%2F..", "%00", "x y"]:
        r = client.get(f"/api/matches/{bad}", headers=auth)
        assert 400 <= r.status_code < 500


def test_a_stale_version_is_a_conflict(client: TestClient) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    move = choose(state)
    state2 = advance(client, auth, state, move)
    r = client.post(f"/api/matches/{state['id']}/moves",
                    json={"move": choose(state2), "version": state["version"]}, headers=auth)
    assert r.status_code == 409 and "changed" in r.json()["detail"]


def test_reload_returns_exactly_the_last_answer(client: TestClient) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    rng = random.Random(3)
    for _ in range(15):
        if state["status"] == "over":
            break
        state = advance(client, auth, state, choose(state, rng, wild=0.3)
                        if state["status"] == "playing" else None)
        again = client.get(f"/api/matches/{state['id']}", headers=auth).json()
        assert {**again, "computer_moves": []} == {**state, "computer_moves": []}
    current = client.get("/api/me", headers=auth).json()["current_match"]
    assert current == (None if state["status"] == "over" else state["id"])


def test_a_whole_match_then_history_statistics_and_record(client: TestClient) -> None:
    auth = new_player(client)
    state = new_match(client, auth, profile="modern")
    r = client.get(f"/api/matches/{state['id']}/record", headers=auth)
    assert r.status_code == 409  # the record holds the decks: not before the match is over
    rng = random.Random(5)
    while state["status"] != "over":
        state = advance(client, auth, state, None if state["status"] == "between_hands"
                        else choose(state, rng))
    score = state["score"]
    assert score["over"] and score["winner"] in ("you", "computer", None)
    game = score["games"][0]
    assert game["totals"][0] == (game["points"][0] + game["game_bonus"][0]
                                 + game["box_bonus"][0]) * (2 if game["doubled"][0] else 1)
    r = client.post(f"/api/matches/{state['id']}/moves", json={"move": "draw"}, headers=auth)
    assert r.status_code == 409
    record = client.get(f"/api/matches/{state['id']}/record", headers=auth)
    assert record.status_code == 200 and loads(record.text).over
    listed = client.get("/api/matches", headers=auth).json()
    assert [m["id"] for m in listed] == [state["id"]]
    assert listed[0]["totals"] == score["totals"]
    stats = client.get("/api/stats", headers=auth).json()
    hands = loads(record.text).results
    assert stats["matches"] == 1
    assert stats["hands"] == len(hands)
    assert stats["hands_won"] == sum(1 for h in hands if h.winner_seat == 0)
    mine = [h for h in hands if h.knocker_seat == 0]
    assert stats["knocks"] == len(mine)
    if mine:
        avg = sum(h.knocker_deadwood for h in mine) / len(mine)
        assert stats["average_knock_deadwood"] == pytest.approx(avg, abs=0.01)
    assert stats["recent"] == [{"id": state["id"], "you": score["totals"][0],
                                "computer": score["totals"][1]}]


def test_a_new_match_ends_the_unfinished_one_only_with_the_person_s_yes(
    client: TestClient, store: Store
) -> None:
    """Issue 37 item 1: starting a match over an unfinished one is refused, saying what it
    would end, unless the body says yes (``forfeit_current``); the refusal changes nothing."""
    auth = new_player(client)
    old = new_match(client, auth)
    before = store.load_match(old["id"])
    r = client.post("/api/matches", json={"level": "random", "profile": "oklahoma"},
                    headers=auth)
    assert r.status_code == 409, r.text
    detail = r.json()["detail"]
    assert "against the computer (random)" in detail and "counts as a loss" in detail
    assert '"forfeit_current": true' in detail
    assert store.load_match(old["id"]) == before
    assert client.get("/api/me", headers=auth).json()["current_match"] == old["id"]
    new = new_match(client, auth, profile="oklahoma", forfeit_current=True)
    r = client.post(f"/api/matches/{old['id']}/moves", json={"move": "pass"}, headers=auth)
    assert r.status_code == 409 and "abandoned" in r.json()["detail"]
    assert client.get(f"/api/matches/{old['id']}", headers=auth).json()["status"] == "abandoned"
    assert client.get("/api/me", headers=auth).json()["current_match"] == new["id"]
    assert new["rules"]["profile"] == "oklahoma"


def test_options_show_every_profile_with_its_bonuses(client: TestClient) -> None:
    opts = client.get("/api/options").json()
    by = {p["profile"]: p for p in opts["profiles"]}
    assert list(by) == PROFILES
    assert "Gin bonus: 20" in by["traditional"]["bonuses"]
    assert "Undercut bonus: 10" in by["traditional"]["bonuses"]
    assert "Big gin: 31" in by["modern"]["bonuses"]
    assert "Game to 150 points" in by["oklahoma"]["bonuses"]
    assert opts["levels"] == ["easy", "medium", "hard", "expert"]


def test_the_hand_end_spells_out_the_score(client: TestClient) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    rng = random.Random(11)
    while state["hand"]["result"] is None:
        state = advance(client, auth, state, choose(state, rng))
    result = state["hand"]["result"]
    assert result["explanation"].endswith(".")
    if result["kind"] != "cancelled":
        assert str(result["points"]) in result["explanation"]
        knocker = result["you"] if result["knocker"] == "you" else result["computer"]
        assert knocker["deadwood"] == result["knocker_deadwood"]
        laid = result["computer"]["laid_off"] + result["you"]["laid_off"]
        assert sorted(laid) == sorted(result["layoffs"])
    for seat in ("you", "computer"):
        cards = result[seat]["cards"]
        grouped = [c for m in result[seat]["melds"] for c in m] + result[seat]["deadwood_cards"]
        assert sorted(grouped + result[seat]["laid_off"]) == sorted(cards)
    assert all(Card.parse(c) is not None for c in result["computer"]["cards"])


def test_a_chunked_body_is_bounded_while_it_is_read(client: TestClient, store: Store) -> None:
    auth = new_player(client)
    state = new_match(client, auth)
    before = store.load_record(state["id"])

    def chunks() -> Iterator[bytes]:
        yield b'{"move": "'
        for _ in range(20):
            yield b"x" * 1024
        yield b'"}'

    r = client.post(f"/api/matches/{state['id']}/moves", content=chunks(),
                    headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == 413 and "8192 bytes" in r.json()["detail"]
    assert store.load_record(state["id"]) == before


def test_the_page_is_served_with_a_strict_content_security_policy(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert '<script type="module" src="/static/js/app.js">' in r.text
    assert client.get("/static/js/app.js").status_code == 200
    schema = client.get("/api/openapi.json").json()
    assert "/api/matches/{match_id}/moves" in schema["paths"]


def test_the_server_never_deals_with_a_client_seed_of_its_own(
    client: TestClient, store: Store
) -> None:
    """Issue 12 item 4: ``"deal": true`` is refused with the reason and creates nothing (the
    unfinished match stays current); a match starts undealt, with the first hand's commitment
    shown; next-hand without a client seed is refused and deals nothing."""
    auth = new_player(client)
    old = new_match(client, auth)
    r = client.post("/api/matches", json={"level": "random", "deal": True}, headers=auth)
    assert r.status_code == 422 and "client_seed" in r.json()["detail"]
    assert r.json()["detail"].startswith("deal: the server no longer deals")
    assert client.get("/api/me", headers=auth).json()["current_match"] == old["id"]
    assert client.get(f"/api/matches/{old['id']}", headers=auth).json()["status"] == "playing"
    state = new_match(client, auth, deal=False, forfeit_current=True)
    assert state["status"] == "between_hands" and state["hand"] is None
    before = store.load_match(state["id"])
    for body in ({}, {"version": state["version"]}, {"client_seed": None}):
        r = client.post(f"/api/matches/{state['id']}/next-hand", json=body, headers=auth)
        assert r.status_code == 400 and "Send your client seed" in r.json()["detail"], r.text
    r = client.post(f"/api/matches/{state['id']}/next-hand", headers=auth)
    assert r.status_code == 400 and "Send your client seed" in r.json()["detail"]
    assert store.load_match(state["id"]) == before
    dealt = advance(client, auth, state, None, client_seed="mine")
    assert dealt["meta"]["sealed"]["hand"]["client_seed"] == "mine"
    assert dealt["meta"]["sealed"]["hand"]["commitment"] == \
        state["meta"]["sealed"]["next"]["commitment"]
