"""The table (``ginrummy.engine.table``): seats, turns, the computer's moves, reseeding, sealed
deals.

The persons in these tests are played by computer policies driven from outside through
``Table.play``, the way a front end forwards what a person typed or clicked.
"""

from __future__ import annotations

import pytest

from ginrummy.engine.errors import GinRummyError, IllegalMoveError
from ginrummy.engine.match import Match
from ginrummy.engine.record import dumps, loads
from ginrummy.engine.sealer import DealSealer
from ginrummy.engine.shuffle import SealError
from ginrummy.engine.table import (
    Computer,
    Person,
    RemotePerson,
    Table,
    TurnError,
    decision_seed,
)
from ginrummy.engine.verify import verify_record
from ginrummy.engine.view import PlayerView
from ginrummy.players import Player, make


def person_and_computer(seed: str, *, person_seat: int = 0, level: str = "hard") -> Table:
    seats: list[Person | Computer] = [Person("Ann")] * 2
    seats[1 - person_seat] = Computer(make(level), reseed_from=seed)
    return Table(Match("modern", seed=seed), seats)


@pytest.mark.parametrize("person_seat", [0, 1])
def test_advance_plays_the_computer_until_the_person_must_act(person_seat: int) -> None:
    table = person_and_computer("adv", person_seat=person_seat)
    person = make("simple", seed="ann")
    computer_seat = 1 - person_seat
    for _ in range(3):  # three hands
        while not table.waiting_for_deal:
            before = len(table.match.hand.history)
            played = table.advance()
            hand = table.match.hand
            assert all(seat == computer_seat for seat, _ in played)
            assert [m for _, m in played] == [e.text for e in hand.history[before:]]
            if hand.over:
                assert table.to_act is None
                break
            assert table.to_act == person_seat
            assert table.advance() == []  # nothing more until the person acts
            table.play(person_seat, person.choose(table.view(person_seat)))
        if table.match.over:
            break
        table.deal()
    assert len(table.match.hands) >= 2


def test_an_illegal_move_leaves_the_table_as_it_was() -> None:
    table = person_and_computer("illegal")
    table.advance()
    assert table.to_act == 0
    before = dumps(table.match)
    view = table.view(0)
    not_held = next(c for c in range(52) if not view.hand_mask >> c & 1)
    with pytest.raises(IllegalMoveError):
        table.play(0, f"discard {not_held}")
    with pytest.raises(IllegalMoveError):
        table.play(0, "no such move")
    with pytest.raises(TurnError):
        table.play(1, view.legal_moves[0])  # the computer's seat: it moves when advanced
    assert dumps(table.match) == before
    assert table.to_act == 0


def test_moves_at_the_wrong_moment_are_refused() -> None:
    match = Match("traditional", seed="early", start=False)
    table = Table(match, [Person("Ann"), RemotePerson("Bob")])
    assert table.waiting_for_deal and table.to_act is None
    with pytest.raises(TurnError, match="deal the first hand"):
        table.play(0, "pass")
    table.deal()
    other = 1 - table.match.hand.to_play
    with pytest.raises(TurnError, match="not your turn"):
        table.play(other, "pass")
    with pytest.raises(TurnError):
        table.deal()  # the hand is being played


def test_a_reloaded_match_gets_the_same_computer_moves() -> None:
    """Reseeding from the position: whatever the computer player's own RNG did before, a
    table rebuilt from the record at any point answers with the same moves."""
    base = "reload"
    table = person_and_computer(base, level="random")
    person = make("simple", seed="ann")
    checkpoints: list[tuple[str, list[tuple[int, str]]]] = []
    while len(table.match.hands) <= 4 and not table.match.over:
        if table.waiting_for_deal:
            table.deal()
            continue
        text = dumps(table.match)
        played = table.advance()
        if played:
            checkpoints.append((text, played))
        if table.to_act == 0:
            table.play(0, person.choose(table.view(0)))
    assert len(checkpoints) > 10
    for text, played in checkpoints:
        # A fresh player whose own stream differs: only the reseeding makes the answers equal.
        again = Table(loads(text), [Person("Ann"), Computer(make("random", seed="other"),
                                                            reseed_from=base)])
        assert again.advance() == played


def test_the_computer_is_reseeded_from_the_base_and_the_position() -> None:
    seen: list[tuple[int | str | None, int, int]] = []

    class Spy(Player):
        name = "spy"

        def decide(self, view: PlayerView) -> str:
            seen.append((self.seed, view.hand_number, len(view.history)))
            return view.legal_moves[0]

    match = Match("modern", seed="spy", first_dealer=0)
    table = Table(match, [Person(), Computer(Spy(), reseed_from="b")])
    table.advance()
    assert seen and all(seed == decision_seed("b", n, i) for seed, n, i in seen)


def test_a_computer_without_a_base_keeps_its_own_stream() -> None:
    one = Table(Match("modern", seed="s"), [Computer(make("random", seed=1)),
                                            Computer(make("random", seed=2))])
    two = Table(Match("modern", seed="s"), [Computer(make("random", seed=1)),
                                            Computer(make("random", seed=3))])
    one.advance()
    two.advance()
    assert one.match.hand.history != two.match.hand.history


def test_two_people_play_each_other() -> None:
    table = Table(Match("traditional", seed="pvp"), [Person("Ann"), RemotePerson("Bob")])
    policies = [make("simple", seed="a"), make("hard", seed="b")]
    moves = 0
    while table.to_act is not None:
        assert table.advance() == []  # no computer sits here
        seat = table.to_act
        with pytest.raises(TurnError):
            table.play(1 - seat, table.view(seat).legal_moves[0])
        table.play(seat, policies[seat].choose(table.view(seat)))
        moves += 1
    assert table.match.hand.over and moves == len(table.match.hand.history)
    assert table.waiting_for_deal or table.match.over
    with pytest.raises(GinRummyError, match="play_to_end needs computers"):
        table.play_to_end(5)


def test_the_sealer_deals_and_the_next_commitment_is_published() -> None:
    match = Match("modern", seed="sealed", start=False)
    sealer = DealSealer(match)
    table = Table(match, [Person(), Computer(make("simple"), reseed_from="x")], sealer=sealer)
    with pytest.raises(SealError):
        table.deal()  # no commitment has been published yet
    table.seal_next()
    shown = sealer.public(0)["commitment"]
    table.seal_next()  # idempotent
    assert sealer.public(0)["commitment"] == shown
    with pytest.raises(GinRummyError):
        table.deal(list(range(52)))  # a sealed table deals from its sealer only
    table.deal(client_seed="lucky seven")
    assert sealer.client_seed(0) == "lucky seven"
    with pytest.raises(SealError):
        sealer.public(1)  # nothing sealed for hand 2 while hand 1 is played
    person = make("simple", seed="p")
    while not table.waiting_for_deal:
        table.advance()
        if table.to_act == 0:
            table.play(0, person.choose(table.view(0)))
    # The move that ended the hand published the next commitment, before any save or deal.
    assert sealer.public(1)["nonce"] == 2
    record = dumps(match, hand_meta=sealer.hand_meta())
    assert verify_record(record, published={1: shown}).ok


def test_play_to_end_deals_and_plays_every_hand() -> None:
    match = Match("traditional", seed="end")
    table = Table(match, [Computer(make("simple", seed=1)), Computer(make("medium", seed=2))])
    table.play_to_end(500)
    assert match.over and table.to_act is None and not table.waiting_for_deal
    short = Match("traditional", seed="end")
    Table(short, [Computer(make("simple", seed=1)), Computer(make("medium", seed=2))]
          ).play_to_end(1)
    assert len(short.hands) == 1 and short.hand.over and not short.over


def test_the_move_guard_stops_a_computer_that_does_not_finish() -> None:
    # Two moves are the least a computer seat plays once it draws (draw, then discard).
    table = Table(Match("traditional", seed="guard", first_dealer=0),
                  [Computer(make("random", seed=1)), Computer(make("random", seed=2))],
                  max_moves=1)
    with pytest.raises(GinRummyError, match="within 1 moves"):
        table.advance()


def test_a_table_has_two_seats_and_its_own_sealer() -> None:
    with pytest.raises(GinRummyError):
        Table(Match(seed="x"), [Person()])
    other = Match(seed="y", start=False)
    with pytest.raises(GinRummyError):
        Table(Match(seed="x", start=False), [Person(), Person()], sealer=DealSealer(other))


def test_a_seat_that_is_not_0_or_1_is_refused() -> None:
    table = Table(Match("traditional", seed="seats", first_dealer=0),
                  [Person("Ann"), RemotePerson("Bob")])
    before = dumps(table.match)
    for seat in (5, -1, 0.0, 1.0, True, "1"):
        with pytest.raises(GinRummyError, match="a seat is 0 or 1, not ") as err:
            table.play(seat, "pass")  # type: ignore[arg-type]
        assert not isinstance(err.value, TurnError)  # not a seat at all: not a matter of turn
        with pytest.raises(GinRummyError, match="a seat is 0 or 1, not "):
            table.seat_kind(seat)  # type: ignore[arg-type]
        with pytest.raises(GinRummyError, match="a seat is 0 or 1, not "):
            table.view(seat)  # type: ignore[arg-type]
    assert dumps(table.match) == before
    assert table.seat_kind(1) == RemotePerson("Bob")


def test_a_table_is_a_match_and_two_seats() -> None:
    match = Match("traditional", seed="built", first_dealer=0)
    with pytest.raises(GinRummyError, match="two, not NoneType"):
        Table(match, None)  # type: ignore[arg-type]
    with pytest.raises(GinRummyError, match="around a Match, not NoneType"):
        Table(None, [Person(), Person()])  # type: ignore[arg-type]
    with pytest.raises(GinRummyError, match="a Person or a Computer, not str"):
        Table(match, ["Ann", "Bob"])  # type: ignore[list-item]
    with pytest.raises(GinRummyError, match="two, not str"):
        Table(match, "AB")  # type: ignore[arg-type]
