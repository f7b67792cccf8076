"""The sample-situation API in process: the list, a situation as the learner's seat sees it (no
hidden card before the answer, no stock card ever), answers judged by the engine, bad input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ginrummy.engine.cards import cards_of_mask
from ginrummy.lessons import answer, load_situations
from ginrummy.server import create_app
from ginrummy.server.store import Store

from .helpers import card_tokens, without_spots

SITUATIONS = load_situations()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("learn") / "games.sqlite3"
    store = Store(f"sqlite:///{path}")
    with TestClient(create_app(store=store)) as c:  # one event loop (conftest.client)
        yield c
    store.close()


def _secret(situation_id: str) -> tuple[set[str], set[str]]:
    """The opponent's hidden cards and the stock at the decision, as card text."""
    s = next(x for x in SITUATIONS if x.id == situation_id)
    hand = s.position.match().hand
    view = s.position.view()
    opponent = {str(c) for c in cards_of_mask(hand.hands[1 - s.position.seat]
                                              & ~view.opponent_known_mask)}
    stock = {str(c) for c in cards_of_mask(sum(1 << c for c in hand.stock))}
    return opponent, stock


def test_the_list_has_every_situation_in_order(client: TestClient) -> None:
    r = client.get("/api/situations")
    assert r.status_code == 200
    assert [s["id"] for s in r.json()] == [s.id for s in SITUATIONS]
    assert {"title", "topic", "topic_title", "rules", "proof"} <= set(r.json()[0])


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_nothing_hidden_is_sent_before_the_answer_and_no_stock_card_after(
    client: TestClient, situation: object
) -> None:
    sid = situation.id  # type: ignore[attr-defined]
    opponent, stock = _secret(sid)
    r = client.get(f"/api/situations/{sid}")
    assert r.status_code == 200
    # Layoff spots are geometry on the learner's own cards: checked, then skipped.
    data = without_spots(r.json())
    assert "answers" not in data and "why" not in data
    assert not card_tokens(data) & opponent, "an opponent's card before the answer"
    seen = card_tokens(data["table"])
    assert not seen & opponent, "an opponent's card before the answer"
    assert not seen & stock, "a stock card"
    assert set(data["table"]["hand"]["cards"]) == {str(c) for c in situation.position.view().hand}  # type: ignore[attr-defined]
    for move in data["table"]["hand"]["legal_moves"]:
        if move == "draw":
            continue  # drawing shows the learner the card they drew, as at the table
        done = client.post(f"/api/situations/{sid}/answer", json={"move": move})
        assert done.status_code == 200, done.text
        # What the engine says after the move (the lesson's prose may name any card).
        said = without_spots(
            {k: v for k, v in done.json().items() if k not in ("why", "takeaway")})
        assert not card_tokens(said) & stock, f"a stock card after {move}"
        assert set(done.json()["opponent"]["cards"]) >= opponent


def test_an_answer_is_judged_by_the_engine(client: TestClient) -> None:
    situation = next(s for s in SITUATIONS if s.id == "layoffs-chain-along-a-run")
    wrong = client.post(f"/api/situations/{situation.id}/answer", json={"move": "knock 3c"})
    assert wrong.status_code == 200
    body = wrong.json()
    engine = answer(situation, "knock 3c")
    assert body["correct"] is False
    assert body["yours"]["text"] == engine.yours.sentence()
    assert engine.taught is not None and body["taught"]["text"] == engine.taught.sentence()
    assert body["table"]["hand"]["result"]["kind"] == "undercut"
    assert body["table"]["hand"]["legal_moves"] == []
    right = client.post(f"/api/situations/{situation.id}/answer", json={"move": "knock 7h"})
    assert right.json()["correct"] is True and right.json()["taught"] is None
    assert [f["moves"] for f in right.json()["facts"]] == [list(f.moves)
                                                            for f in situation.lesson.facts]


def test_bad_requests_get_clear_errors(client: TestClient) -> None:
    sid = "qka-not-a-run"
    illegal = client.post(f"/api/situations/{sid}/answer", json={"move": "knock 2d"})
    assert illegal.status_code == 400 and "knock limit is 10" in illegal.json()["detail"]
    nonsense = client.post(f"/api/situations/{sid}/answer", json={"move": "fly away"})
    assert nonsense.status_code == 400 and "is not a move" in nonsense.json()["detail"]
    assert client.get("/api/situations/no-such-thing").status_code == 404
    assert client.get("/api/situations/Bad%20Id").status_code == 422
    extra = client.post(f"/api/situations/{sid}/answer", json={"move": "pass", "x": 1})
    assert extra.status_code == 422
    long = client.post(f"/api/situations/{sid}/answer", json={"move": "x" * 500})
    assert long.status_code == 422
