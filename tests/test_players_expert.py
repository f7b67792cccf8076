"""``expert``: reproducible for a seed and a sample budget, random only through its own RNG,
and its fast playouts follow the engine's rules exactly."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ginrummy import Hand, Match
from ginrummy.engine.cards import mask_of, parse_cards
from ginrummy.engine.melds import discard_deadwoods, melds_with
from ginrummy.engine.move import Move
from ginrummy.engine.view import PlayerView
from ginrummy.players import expert as expert_module
from ginrummy.players import make
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.hard import lowering_discards
from ginrummy.players.knowledge import knock_chances
from ginrummy.players.rollout import (
    PlayoutPolicy,
    _discard_after_draw,
    _least,
    _ten_card,
    playout_hand,
)
from ginrummy.players.search import MoveValues
from players_support import RULE_SETS, is_legal_choice, positions, stalled_positions
from test_players_simple import _deck


def _views(count: int) -> list[tuple[Hand, PlayerView]]:
    out = []
    for position in positions(count // 3 + 1, every=5, seed=51):
        hand = position.hand()
        out.append((hand, hand.view(hand.to_play)))
        if len(out) >= count:
            break
    return out


def test_the_same_seed_and_budget_give_the_same_moves() -> None:
    views = _views(12)
    first = [ExpertPlayer("s", samples=6).choose(v) for _, v in views]
    again = [ExpertPlayer("s", samples=6).choose(v) for _, v in views]
    assert first == again
    # One player asked in turn is reproducible too, and reseed() restarts it.
    player = ExpertPlayer("t", samples=6)
    run = [player.choose(v) for _, v in views]
    player.reseed("t")
    assert [player.choose(v) for _, v in views] == run


def test_randomness_comes_only_from_its_own_rng() -> None:
    hand, view = _views(1)[0]
    random.seed(1)
    state = random.getstate()
    a = ExpertPlayer(9, samples=8).choose(view)
    assert random.getstate() == state  # the global RNG was not touched
    random.seed(2)
    b = ExpertPlayer(9, samples=8).choose(view)
    assert a == b
    assert is_legal_choice(hand, a)


def _draws_hard_takes(count: int) -> list[PlayerView]:
    """Views at a draw (not the opening) where ``hard`` takes the top discard and the take
    does not go gin, from seeded hands of ``simple`` against itself."""
    found: list[PlayerView] = []
    hard = ExpertPlayer(0)._hard
    for seed in range(200):
        hand = Hand("house", seed=seed)
        players = [make("simple", seed=seed), make("simple", seed=seed + 1)]
        while not hand.over and len(found) < count:
            view = hand.view(hand.to_play)
            if (view.phase == "draw" and hard.wants_top(view, hard.model(view))
                    and not expert_module._take_goes_gin(view)):
                found.append(view)
            hand.play(players[hand.to_play].choose(view))
        if len(found) >= count:
            break
    assert len(found) == count
    return found


def test_a_take_hard_makes_against_a_quick_knocker_is_not_searched() -> None:
    """Against a quick knocker (assumed in a lone hand) the expert takes where ``hard`` does;
    ``at_once_search_takes`` searches the take against a stock draw, as does play against an
    opponent not read as a quick knocker."""
    for view in _draws_hard_takes(5):
        quick = ExpertPlayer(1, samples=4)
        model = quick._hard.model(view)
        assert quick.knocks_at_once(view)
        assert quick.candidates(view, model) == ["take"]
        assert quick.choose(view) == "take"
        searching = ExpertPlayer(1, samples=4, at_once_search_takes=True)
        assert searching.candidates(view, model) == ["take", "draw"]
        unread = ExpertPlayer(1, samples=4, read_style=False)
        assert not unread.knocks_at_once(view)
        assert unread.candidates(view, model) == ["take", "draw"]


def test_more_discards_are_searched_against_a_quick_knocker() -> None:
    """``at_once_candidates`` of ``hard``'s ranked discards (its favourite first) against a
    quick knocker (assumed in a lone hand), ``max_candidates`` against one not read as such."""
    checked = 0
    for _, view in _views(60):
        if view.phase != "discard":
            continue
        quick = ExpertPlayer(1, samples=4, at_once_candidates=5, max_candidates=3)
        model = quick._hard.model(view)
        ranked = [Move.discard(card) for _, card in quick._hard.rank_discards(
            view, model, lowering_discards(view.hand_mask, -1 if view.taken is None
                                           else int(view.taken)))]
        found = quick.candidates(view, model)
        if len(found) == 1 or found[0].startswith("knock"):
            continue  # a forced or a knocking position: no discards searched
        assert quick.knocks_at_once(view)
        assert found == ranked[:5]
        unread = ExpertPlayer(1, samples=4, at_once_candidates=5, max_candidates=3,
                              read_style=False)
        # (It searches a knock too, if there is one: "patient_search_knocks".)
        searched = unread.candidates(view, model)
        assert [m for m in searched if not m.startswith("knock")] == ranked[:3]
        checked += len(ranked) > 3
    assert checked >= 5


def test_obvious_moves_need_no_search() -> None:
    # Gin at once: the upcard completes 7h8h9hTh and throwing the Kc is gin.
    deck = _deck("Ac2c3c4d5d6d8h9hThKc", "Ts Js Qs Ks 9s 8d 9d Td Jd 2h", upcard="7h")
    hand = Hand("house", deck=deck, dealer=0)
    player = ExpertPlayer(1, samples=1)
    assert player.candidates(hand.view(1), player._hard.model(hand.view(1))) == ["take"]
    assert player.choose(hand.view(1)) == "take"
    hand.play("take")
    assert player.choose(hand.view(1)) == "knock Kc"
    # A forced move is played as it is.
    hand = Hand("house", seed=3, dealer=0)
    hand.play("pass")
    hand.play("pass")
    assert player.choose(hand.view(1)) == "draw"


def test_a_time_limit_still_gives_a_legal_move() -> None:
    for hand, view in _views(4):
        move = ExpertPlayer(2, samples=50, time_limit=0.0).choose(view)
        assert is_legal_choice(hand, move)


def test_budget_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="samples"):
        ExpertPlayer(1, samples=0)
    with pytest.raises(ValueError, match="max_candidates"):
        ExpertPlayer(1, max_candidates=0)
    with pytest.raises(ValueError, match="at_once_candidates"):
        ExpertPlayer(1, at_once_candidates=0)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_playouts_follow_the_engines_rules(rules: object) -> None:
    """A recorded playout, replayed move by move through Hand, is legal and ends the same."""
    cases = []
    for seed in range(25):
        hand = Hand(rules, seed=seed, dealer=seed % 2)  # type: ignore[arg-type]
        player = make("simple", seed=seed)
        for _ in range(seed % 12):
            if hand.result is not None:
                break
            hand.play(player.choose(hand.view(hand.to_play)))
        if hand.result is None:
            cases.append((hand, PlayoutPolicy((seed % 11, (3 * seed) % 11))))
    for position in stalled_positions(rules, 4):  # type: ignore[arg-type]
        cases.append((position.hand(), PlayoutPolicy((0, 0))))
    for hand, policy in cases:
        record: list[str] = []
        winner, points = playout_hand(hand, policy, record)
        replay = hand.copy()
        for move in record:
            assert is_legal_choice(replay, move), (move, replay)
            replay.play(move)
        result = replay.result
        assert result is not None
        if result.kind == "cancelled":
            assert (winner, points) == (None, 0)
        else:
            assert (winner, points) == (result.winner_seat, result.points)


def test_expert_beats_nobody_by_peeking() -> None:
    """Its search starts from guesses consistent with the view: the true hidden cards are
    never needed, and a determinized world always fits the view."""
    _, view = _views(1)[0]
    player = ExpertPlayer(3, samples=5)
    model = player._hard.model(view)
    for world in player.worlds(view, model, random.Random(1)):
        assert world.view(view.seat) == view


def test_worlds_keep_the_opponents_style_consistent_with_its_hand() -> None:
    # A hand within 10 after the opponent has had a turn cannot belong to an opponent that
    # knocks at once (it would have knocked): that world's opponent holds out instead.
    low = mask_of(parse_cards("2c 3c 4c 7d 7h 7s Jh Qh Kh 5s"))  # deadwood 5
    high = mask_of(parse_cards("2c 5c 9c 7d Th Js Qh Kd 3s 6s"))  # deadwood far above 10
    player = ExpertPlayer(1, opponent_thresholds=(0, 10))
    seat = 0
    for index in range(4):
        theirs = (0, 10)[index % 2]
        assert player.world_policy(seat, index, high, True, 10).knock_threshold == (0, theirs)
        assert player.world_policy(seat, index, low, False, 10).knock_threshold == (0, theirs)
        assert player.world_policy(seat, index, low, True, 10).knock_threshold == (0, 0)
        # Oklahoma with a knock limit of 3: 5 points could not have knocked, any style fits.
        assert player.world_policy(seat, index, low, True, 3).knock_threshold == (0, theirs)
    off = ExpertPlayer(1, opponent_thresholds=(0, 10), consistent_styles=False)
    assert off.world_policy(1, 1, low, True, 10).knock_threshold == (10, 0)


def test_one_world_never_overrules_hard() -> None:
    # With a single world there is no spread to judge by: the expert plays hard's favourite.
    for _, view in _views(12):
        expert = ExpertPlayer(4, samples=1)
        model = expert._hard.model(view)
        candidates = expert.candidates(view, model)
        if len(candidates) > 1:
            assert expert.search(view, model, candidates) == candidates[0]


def test_the_discard_after_an_unmelded_draw_is_the_plain_one() -> None:
    """The playouts' shortcut for a drawn card that melds with nothing gives the card (and
    deadwood) that solving all eleven cards gives, ties included."""
    rng = random.Random(14)
    checked = 0
    while checked < 400:
        cards = rng.sample(range(52), 11)
        ten = 0
        for c in cards[:10]:
            ten |= 1 << c
        drawn = cards[10]
        if melds_with(ten, drawn):
            continue
        checked += 1
        assert _discard_after_draw(_ten_card(ten), drawn) == _least(
            discard_deadwoods(ten | 1 << drawn), -1
        )
    # Ties: 5h and 5s both leave 5 points, and 5s (higher index) is the card drawn.
    ten = mask_of(parse_cards("Ac 2c 3c 7d 7h 7s Jh Qh Kh 5h"))
    assert _discard_after_draw(_ten_card(ten), parse_cards("5s")[0]) == (parse_cards("5h")[0], 5)


def _values(points: dict[str, list[float]]) -> MoveValues:
    n = len(next(iter(points.values())))
    return MoveValues(points, dict.fromkeys(points, 0), dict.fromkeys(points, 0), n)


def test_the_verdict_overrules_hard_only_on_clear_evidence() -> None:
    player = ExpertPlayer(1, confidence=2.0)
    moves = ["discard Kc", "discard Qd", "discard 9h"]
    zeros = [0.0] * 8
    noisy = [3.0, -2.0, 4.0, -3.0, 2.0, -1.0, 3.0, -2.0]  # mean +0.5, far under 2 errors
    clear = [4.0, 5.0, 4.0, 6.0, 5.0, 4.0, 5.0, 6.0]
    worse = [-1.0] * 8
    assert player._verdict(moves, _values({moves[0]: zeros, moves[1]: clear,
                                           moves[2]: noisy})) == (1, False)
    assert player._verdict(moves, _values({moves[0]: zeros, moves[1]: worse,
                                           moves[2]: noisy})) == (0, True)
    assert player._verdict(moves, _values({moves[0]: zeros, moves[1]: worse,
                                           moves[2]: worse})) == (0, False)


def test_more_worlds_only_while_the_verdict_is_unclear(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    real = expert_module.value_moves

    def counting(worlds: list[Hand], *args: object, **kwargs: object) -> MoveValues:
        played.append(len(worlds))
        return real(worlds, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module, "value_moves", counting)
    extended = 0
    for _, view in _views(24):
        player = ExpertPlayer(5, samples=10, max_samples=30, read_style=False)
        model = player._hard.model(view)
        candidates = player.candidates(view, model)
        if len(candidates) < 2:
            continue
        played.clear()
        player.search(view, model, candidates)
        assert played[0] == 10 and sum(played) <= 30
        extended += len(played) > 1
        # The same budget without room to grow plays its ten worlds once.
        played.clear()
        alone = ExpertPlayer(5, samples=10, max_samples=None, read_style=False)
        alone.search(view, model, candidates)
        assert played == [10]
    assert extended  # some of these positions were unclear after ten worlds


def test_the_playout_costs_reach_every_world() -> None:
    hand = mask_of(parse_cards("2c 5c 9c 7d Th Js Qh Kd 3s 6s"))
    policy = ExpertPlayer(1, keep_pairs=5.0, feed=8.0).world_policy(0, 1, hand, True, 10)
    assert (policy.keep_pairs, policy.feed) == (5.0, 8.0)
    assert ExpertPlayer(1).world_policy(0, 1, hand, True, 10) == PlayoutPolicy((0, 10))


def _played(opponent: str, seed: str, hands: int) -> tuple[Match, list[PlayerView]]:
    """A match of ``hard`` (seat 0) against ``opponent``, stopped after ``hands`` hands, and
    seat 0's views at each of its turns."""
    m = Match("house", seed=seed, first_dealer=0)
    players = [make("hard", seed=1), make(opponent, seed=2)]
    views = []
    while not m.over and len(m.hands) < hands:
        if m.hand.over:
            m.next_hand()
        while not m.hand.over:
            seat = m.hand.to_play
            view = m.view(seat)
            if seat == 0:
                views.append(view)
            m.play(players[seat].choose(view))
    return m, views


def _replayed_chances(view: PlayerView, decks: list[tuple[int, ...]]) -> tuple[int, int]:
    """knock_chances the other way: each finished hand replayed through ``Hand`` from its
    deck (``decks``, which the view does not hold), the opponent's real eleven cards looked
    at before each of its discards."""
    chances = taken = 0
    opponent = 1 - view.seat
    for past, deck in zip(view.earlier_hands, decks, strict=False):
        hand = Hand(past.rules, deck=deck, dealer=past.dealer)
        for event in past.history:
            if event.seat == opponent and event.kind in ("discard", "knock"):
                least = min(dw for c, dw in discard_deadwoods(hand.hands[opponent])
                            if c != hand.taken)
                if 0 < least <= past.knock_limit:
                    chances += 1
                    taken += event.kind == "knock"
            if event.kind in ("discard", "knock"):
                hand.play(f"{event.kind} {event.card}")
            else:
                hand.play(event.kind)
    return chances, taken


@pytest.mark.parametrize("opponent", ["simple", "hard"])
def test_knock_chances_agree_with_a_replay_of_the_real_hands(opponent: str) -> None:
    m, _ = _played(opponent, f"chances-{opponent}", 5)
    view = m.view(0)
    chances, taken = knock_chances(view)
    decks = [tuple(int(c) for c in hand.deck) for hand in m.hands]
    assert (chances, taken) == _replayed_chances(view, decks)
    assert chances > 0
    # simple knocks at every chance; hard holds out for more.
    assert (taken == chances) == (opponent == "simple")


def test_the_expert_trusts_its_search_only_once_the_opponent_knocks_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[float | None] = []
    real_verdict = ExpertPlayer._verdict

    def spying(self: ExpertPlayer, candidates: list[str], valued: MoveValues,
               confidence: float | None = None) -> tuple[int, bool]:
        seen.append(confidence)
        return real_verdict(self, candidates, valued, confidence)

    monkeypatch.setattr(ExpertPlayer, "_verdict", spying)
    for opponent, at_once in (("simple", True), ("hard", False)):
        views = [v for v in _played(opponent, f"style-{opponent}", 5)[1] if v.earlier_hands]
        player = ExpertPlayer(3, samples=8, assume_at_once=False)
        assert views and all(player.knocks_at_once(v) == at_once for v in views[-3:])
        # Before any finished hand there is nothing to read: the assumption stands.
        fresh = replace(views[-1], earlier_hands=())
        for assume in (False, True):
            guess = ExpertPlayer(3, samples=8, assume_at_once=assume)
            assert guess.knocks_at_once(fresh) == assume
            assert guess.knocks_at_once(views[-1]) == at_once
        off = ExpertPlayer(3, samples=8, read_style=False)
        assert not any(off.knocks_at_once(v) for v in views)
        seen.clear()
        for view in views[-6:]:
            model = player._hard.model(view)
            candidates = player.candidates(view, model)
            if len(candidates) > 1:
                player.search(view, model, candidates)
        expected = player.at_once_confidence if at_once else player.confidence
        assert seen and all(c == expected for c in seen)


def test_with_match_equity_points_past_the_target_count_for_nothing() -> None:
    # Needing 5 points: a favourite that always scores at least 5 wins the match in every
    # world, so a rival that scores more points does not overrule it, as it does by points.
    _, view = _views(1)[0]
    target = view.rules.target
    assert not view.rules.hollywood
    scores = [target - 30, target - 30]
    scores[view.seat] = target - 5
    view = replace(view, scores=(scores[0], scores[1]))
    moves = ["discard Kc", "discard Qd"]
    values = _values({moves[0]: [6.0, 7.0, 5.0, 9.0, 6.0, 8.0, 5.0, 7.0],
                      moves[1]: [20.0, 18.0, 25.0, 19.0, 22.0, 30.0, 21.0, 24.0]})
    by_points = ExpertPlayer(1)
    by_match = ExpertPlayer(1, match_equity=True)
    assert by_points._verdict(moves, by_points._valued(view, values)) == (1, False)
    assert by_match._verdict(moves, by_match._valued(view, values)) == (0, False)
    # A loss of 30 points ends the match for the opponent (it needs 30): worth nothing.
    lost = by_match._valued(view, _values({moves[0]: [-30.0, 3.0], moves[1]: [0.0, 0.0]}))
    assert lost.points[moves[0]][0] == 0.0
    assert 0.0 < lost.points[moves[0]][1] < 1.0
    assert lost.points[moves[1]][0] == lost.points[moves[1]][1] < lost.points[moves[0]][1]


def test_a_loss_weight_counts_the_opponents_points_more() -> None:
    # A rival that wins 10 more in two worlds of three and loses 10 more in the third: ahead by
    # points (+3.33 a world, 1.17 standard errors), behind when the opponent's points count
    # three times (-3.33).
    _, view = _views(1)[0]
    moves = ["discard Kc", "discard Qd"]
    values = _values({moves[0]: [10.0, 10.0, -4.0] * 4, moves[1]: [20.0, 20.0, -14.0] * 4})
    by_points = ExpertPlayer(1, confidence=1.0)
    wary = ExpertPlayer(1, confidence=1.0, loss_weight=3.0)
    assert wary._valued(view, values).points[moves[1]][:3] == [20.0, 20.0, -42.0]
    assert by_points._verdict(moves, by_points._valued(view, values)) == (1, False)
    assert wary._verdict(moves, wary._valued(view, values)) == (0, False)


def test_the_knock_is_searched_only_against_a_player_that_holds_out() -> None:
    """``patient_search_knocks``: where a knock short of gin is legal, against ``hard`` (seen
    letting knocks go by) the knock is one of the candidates, beside the best discards;
    against ``simple`` (seen knocking at every chance) the candidates are the default's."""
    for opponent, patient in (("hard", True), ("simple", False)):
        views = [v for v in _played(opponent, f"knocks-{opponent}", 6)[1]
                 if v.earlier_hands and v.phase == "discard"
                 and any(m.startswith("knock") for m in v.legal_moves)
                 and min(dw for _, dw in discard_deadwoods(v.hand_mask)) > 0]  # not gin
        assert views, opponent
        searching = ExpertPlayer(3, samples=8, patient_search_knocks=True)
        default = ExpertPlayer(3, samples=8)
        for view in views:
            assert searching.knocks_at_once(view) == (not patient)
            model = default._hard.model(view)
            mine, plain = searching.candidates(view, model), default.candidates(view, model)
            if patient:
                assert any(c.startswith("knock") for c in mine), mine
                assert len(mine) > 1 and mine[0] == plain[0]  # hard's favourite stays first
            else:
                assert mine == plain
