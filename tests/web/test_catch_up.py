"""Two server processes on one database, played as two services on one store: each answers
from its own cached table, brought up to date by playing only the moves the other saved
(``record.catch_up``), and every answer equals what a process holding nothing would give."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ginrummy.server import service as service_module
from ginrummy.server.schemas import NewMatchIn, PeopleMatchIn
from ginrummy.server.service import TableService
from ginrummy.server.store import Store


def fresh_state(store: Store, player: Any, match_id: str) -> dict[str, Any]:
    """The answer of a process that has nothing cached (it replays the whole record)."""
    return TableService(store).state(player, match_id).model_dump()


@pytest.fixture()
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the whole-record replays of every service."""
    calls: list[int] = []
    real = service_module.loads

    def counted(text: str) -> Any:
        calls.append(1)
        return real(text)

    monkeypatch.setattr(service_module, "loads", counted)
    return calls


def test_two_processes_at_a_people_table_catch_up_move_by_move(
        tmp_path: Any, replays: list[int]) -> None:
    store = Store(f"sqlite:///{tmp_path / 'two.sqlite3'}")
    one, two = TableService(store), TableService(store)
    ann, _ = store.create_player("Ann")
    bob, _ = store.create_player("Bob")
    made = one.new_match(ann, PeopleMatchIn(opponent="person", profile="modern"))
    two.join(bob, made.invite or "")
    at = {0: one, 1: two}  # Ann's requests reach one process, Bob's the other
    who = {0: ann, 1: bob}
    rng = random.Random(13)
    moves = deals = 0
    replays.clear()
    while moves < 250:
        states = {s: at[s].state(who[s], made.id) for s in (0, 1)}
        for s in (0, 1):
            assert states[s].model_dump() == fresh_state(store, who[s], made.id)
        if states[0].status == "over":
            break
        if states[0].status == "between_hands":
            for s in (0, 1):
                at[s].next_hand(who[s], made.id, None, f"seed {deals} {s}")
            deals += 1
            continue
        s = 0 if states[0].hand and states[0].hand.your_turn else 1
        hand = states[s].hand
        assert hand is not None
        at[s].play(who[s], made.id, rng.choice(hand.legal_moves), states[s].version)
        moves += 1
    assert deals >= 2, "the game crossed hands"
    # The fresh services replayed; the two playing processes caught up instead: each
    # replayed at most once (the joining process, which had never seen the match).
    fresh = 2 * (moves + deals)
    assert len(replays) - fresh <= 1


def test_a_computer_match_moved_on_by_another_process_is_caught_up(
        tmp_path: Any, replays: list[int]) -> None:
    store = Store(f"sqlite:///{tmp_path / 'computer.sqlite3'}")
    one, two = TableService(store), TableService(store)
    ann, _ = store.create_player("Ann")
    made = one.new_match(ann, NewMatchIn(level="hard", profile="traditional"))
    state = one.next_hand(ann, made.id, made.version, "a seed")
    rng = random.Random(7)
    replays.clear()
    requests = deals = 0
    while requests < 80 and state.status != "over":
        svc = (one, two)[rng.randrange(2)]  # each request lands on either process
        if state.status == "between_hands":
            state = svc.next_hand(ann, made.id, state.version, f"seed {deals}")
            deals += 1
        else:
            assert state.hand is not None
            state = svc.play(ann, made.id, rng.choice(state.hand.legal_moves), state.version)
        requests += 1
        # The answer tells the computer's moves of this request; a reload does not.
        assert state.model_dump() == fresh_state(store, ann, made.id) | {
            "computer_moves": state.model_dump()["computer_moves"]}
        # The record saved (its finished hands reused from the last save) is the whole
        # record of the match as it is.
        entry = svc._cache[made.id]
        assert store.load_record(made.id)[1] == svc._record(
            entry.table.match, "hard", entry.table.sealer)
    fresh = requests
    assert len(replays) - fresh <= 1
