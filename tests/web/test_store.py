"""The store on SQLite and on a real PostgreSQL server: players, matches, the version guard,
finished hands and statistics."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ginrummy.engine.errors import InvalidNameError
from ginrummy.engine.match import Match
from ginrummy.engine.record import dumps, loads
from ginrummy.players import make
from ginrummy.selfplay.play import play_hand
from ginrummy.server.schemas import NewMatchIn
from ginrummy.server.service import TableService
from ginrummy.server.store import ConflictError, HandSummary, Store

from .helpers import choose


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    else:
        url = request.getfixturevalue("pg_url")
        # Each test starts from an empty database on the shared cluster, migrated by Store.
        from sqlalchemy import MetaData, create_engine

        engine = create_engine(url)
        old = MetaData()
        old.reflect(engine)
        old.drop_all(engine)
        engine.dispose()
        s = Store(url)
    yield s
    s.close()


def _summary(n: int, winner: int, knocker: int, kind: str, kdw: int) -> HandSummary:
    return HandSummary(n, kind, winner, knocker, kdw, 20, 15)


def test_players_are_found_by_their_token_only(store: Store) -> None:
    ann, token = store.create_player("Ann")
    bob, _ = store.create_player("  " + "B" * 40)
    assert store.player_by_token(token) == ann
    assert store.player_by_token(token + "x") is None
    assert bob.name == "B" * 40 and ann.id != bob.id
    with pytest.raises(InvalidNameError):  # too long: refused, not cut (ginrummy.words.names)
        store.create_player("B" * 41)


def test_a_match_round_trips_and_the_version_guards_every_save(store: Store) -> None:
    player, _ = store.create_player("Ann")
    match = Match("modern", seed="store-test")
    text = dumps(match)
    info = store.create_match(player_id=player.id, level="hard", profile="modern",
                              rules="modern", hollywood=False, deal_seed="s" * 32, record=text)
    assert store.get_match(player.id, info.id) == info
    other, _ = store.create_player("Bob")
    assert store.get_match(other.id, info.id) is None
    match.play(match.hand.legal_moves()[0])
    v2 = store.save_match(info.id, expected_version=info.version, record=dumps(match),
                          status="playing", hands_played=0, scores=(0, 0), winner=None)
    assert v2 == info.version + 1
    with pytest.raises(ConflictError):
        store.save_match(info.id, expected_version=info.version, record="stale",
                         status="playing", hands_played=0, scores=(0, 0), winner=None)
    version, stored = store.load_record(info.id)
    assert version == v2 and loads(stored).hand.moves == match.hand.moves
    assert store.current_match(player.id) is not None


def test_statistics_count_only_finished_matches(store: Store) -> None:
    player, _ = store.create_player("Ann")
    common = dict(player_id=player.id, level="easy", profile="traditional",
                  rules="traditional", hollywood=False, deal_seed="x", record="r")
    done = store.create_match(**common)  # type: ignore[arg-type]
    store.save_match(done.id, expected_version=1, record="r", status="over", hands_played=3,
                     scores=(130, 40), winner=0, new_hands=[
                         _summary(1, 0, 0, "gin", 0), _summary(2, 1, 0, "undercut", 8),
                         _summary(3, 0, 1, "undercut", 9)])
    store.create_match(**common, abandon_others=False)  # type: ignore[arg-type]
    s = store.stats(player.id)
    assert (s.matches, s.matches_won, s.hands, s.hands_won) == (1, 1, 3, 2)
    assert (s.gins, s.undercuts_made, s.undercuts_suffered, s.knocks) == (1, 1, 1, 2)
    assert s.average_knock_deadwood == 4.0
    assert [(r.id, r.you, r.computer) for r in s.recent] == [(done.id, 130, 40)]
    assert [m.id for m in store.list_matches(player.id)] == [done.id]


def test_the_service_plays_a_match_on_this_database(store: Store) -> None:
    service = TableService(store)
    player, _ = service.new_player("Ann")
    state = service.new_match(player, NewMatchIn(level="random"))
    while state.hand is None or (state.hand.number < 3 and state.status != "over"):
        if state.status == "between_hands":
            state = service.next_hand(player, state.id, state.version, "a seed")
        else:
            state = service.play(player, state.id, choose(state.model_dump()), state.version)
    # A second service (another process) reads the same state from the database.
    fresh = TableService(store).state(player, state.id)
    assert fresh.model_dump() == {**state.model_dump(), "computer_moves": []}
    assert len(store.hands_of(state.id)) == len(loads(store.load_record(state.id)[1]).results)


def test_self_play_records_fit_the_record_column(store: Store) -> None:
    player, _ = store.create_player("Ann")
    match = Match("traditional", seed=7)
    play_hand(match.hand, [make("random", seed=1), make("random", seed=2)])
    text = dumps(match)
    info = store.create_match(player_id=player.id, level="easy", profile="traditional",
                              rules="traditional", hollywood=False, deal_seed="x", record=text)
    assert store.load_record(info.id)[1] == text


def test_two_servers_on_one_database_cannot_both_play_the_same_turn(tmp_path: Path) -> None:
    """Two processes (here two services with their own caches) share a database: the second
    move chosen on the same version is refused and changes nothing."""
    from ginrummy.server.service import Conflict
    from ginrummy.server.store import ConflictError as StoreConflict

    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    one, two = TableService(store), TableService(store)
    player, _ = one.new_player("Ann")
    state = one.new_match(player, NewMatchIn(level="random"))
    state = one.next_hand(player, state.id, state.version, "a seed")
    two.state(player, state.id)  # the second server has it cached at this version too
    move = choose(state.model_dump())
    after = one.play(player, state.id, move, state.version)
    with pytest.raises(Conflict):
        two.play(player, state.id, move, state.version)
    # Without a version the second server still cannot overwrite: its cache is refreshed
    # from the database first, so the move is judged on the real position.
    assert two.state(player, state.id).version == after.version
    assert store.load_record(state.id)[0] == after.version
    with pytest.raises(StoreConflict):
        store.save_match(state.id, expected_version=state.version, record="x", status="playing",
                         hands_played=0, scores=(0, 0), winner=None)
    store.close()


def test_threads_racing_on_one_turn_get_one_answer(tmp_path: Path) -> None:
    import threading

    from ginrummy.server.service import Conflict

    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    service = TableService(store)
    player, _ = service.new_player("Ann")
    state = service.new_match(player, NewMatchIn(level="random"))
    state = service.next_hand(player, state.id, state.version, "a seed")
    move = choose(state.model_dump())
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def go() -> None:
        start.wait()
        try:
            service.play(player, state.id, move, state.version)
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "conflict", "conflict", "ok"]
    assert store.load_record(state.id)[0] == state.version + 1
    store.close()


def test_an_abandoned_match_is_a_forfeit_in_history_and_statistics(store: Store) -> None:
    """Starting over an unfinished match forfeits it: a loss in the listing and the figures,
    with the hands finished before it was left."""
    player, _ = store.create_player("Ann")
    common = dict(player_id=player.id, level="easy", profile="traditional",
                  rules="traditional", hollywood=False, deal_seed="x", record="r")
    left = store.create_match(**common)  # type: ignore[arg-type]
    store.save_match(left.id, expected_version=1, record="r", status="playing", hands_played=1,
                     scores=(25, 0), winner=None, new_hands=[_summary(1, 0, 0, "knock", 3)])
    store.create_match(**common)  # type: ignore[arg-type]
    forfeit = store.get_match(player.id, left.id)
    assert forfeit is not None
    assert (forfeit.status, forfeit.winner) == ("abandoned", 1)
    assert [m.id for m in store.list_matches(player.id)] == [left.id]
    s = store.stats(player.id)
    assert (s.matches, s.matches_won, s.matches_lost, s.forfeits) == (1, 0, 1, 1)
    assert (s.hands, s.hands_won, s.knocks) == (1, 1, 1)
    assert [(r.id, r.you, r.computer) for r in s.recent] == [(left.id, 25, 0)]
