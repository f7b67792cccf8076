"""Match scoring and the dealer's rotation, against RULES.md ("The game", "The profiles",
"Hollywood"). Every expected total is the arithmetic of the rule book, written out.
"""

from __future__ import annotations

from typing import Any

import pytest

from deals import build_deck
from ginrummy import GinRummyError, IllegalMoveError, Match, get_rules, score_match
from ginrummy.engine.rules import PROFILE_NAMES


def totals(profile: str, entries: list[Any], **kw: Any) -> tuple[int, int]:
    s = score_match(profile, entries, **kw)
    assert s.over
    return s.games[0].totals


# ---------------------------------------------------------------------------------------------
# One game per profile.


def test_traditional_game_bonus_and_boxes() -> None:
    # Seat 0: 60 + 45 = 105 reaches 100; game bonus 100 (seat 1 scored); boxes 2 x 20.
    # Seat 1: 12 + one box of 20.
    s = score_match("traditional", [(0, 60), (1, 12), (0, 45)])
    g = s.games[0]
    assert g.over and g.reached == 0 and g.winner == 0 and s.winner == 0
    assert g.totals == (105 + 100 + 40, 12 + 20)
    assert g.game_bonus == [100, 0] and g.box_bonus == [40, 20]


def test_traditional_200_when_the_opponent_never_scored() -> None:
    assert totals("traditional", [(0, 50), (0, 50)]) == (100 + 200 + 40, 0)


def test_traditional_never_scored_is_about_points() -> None:
    # With undercut_bonus 0 a tied undercut wins a hand for 0 points: seat 1 won a hand but
    # never scored, so traditional still pays 200 (and seat 1 its box of 20).
    rules = get_rules("traditional", undercut_bonus=0)
    assert totals(rules, [(1, 0), (0, 100)]) == (100 + 200 + 20, 20)  # type: ignore[arg-type]


def test_browser_200_when_the_loser_won_no_hand() -> None:
    assert totals("browser", [(0, 60), (0, 40)]) == (100 + 200 + 50, 0)
    assert totals("browser", [(0, 60), (1, 10), (0, 40)]) == (100 + 100 + 50, 10 + 25)
    # A hand won for 0 points counts as a hand won: the bonus is 100.
    rules = get_rules("browser", undercut_bonus=0)
    assert totals(rules, [(1, 0), (0, 100)]) == (100 + 100 + 25, 25)  # type: ignore[arg-type]


def test_modern_doubles_after_all_bonuses_on_a_shutout() -> None:
    assert totals("modern", [(0, 60), (1, 10), (0, 40)]) == (100 + 100 + 50, 10 + 25)
    s = score_match("modern", [(0, 60), (0, 40)])
    g = s.games[0]
    assert g.totals == ((100 + 100 + 50) * 2, 0)
    assert g.shutout and g.doubled == [250, 0]


def test_oklahoma_target_150_and_doubling() -> None:
    s = score_match("oklahoma", [(0, 100), (0, 49)])
    assert not s.over and s.winner is None and s.games[0].totals == (149, 0)
    s.add((0, 1))
    assert s.over
    assert s.games[0].totals == ((150 + 100 + 3 * 25) * 2, 0)


def test_house_has_no_bonuses() -> None:
    assert totals("house", [(0, 60), (1, 10), (0, 40)]) == (100, 10)
    s = score_match("house", [(0, 100)])
    assert s.games[0].totals == (100, 0) and not s.games[0].shutout


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_bonuses_never_count_toward_the_target(profile: str) -> None:
    target = get_rules(profile).target
    s = score_match(profile, [(0, target - 1)])
    assert not s.over and s.games[0].totals == (target - 1, 0)
    s.add((1, 1))
    assert not s.over  # a box bonus would have pushed seat 0 over if it counted
    s.add((0, 1))
    assert s.over and s.games[0].reached == 0


def test_the_winner_is_the_higher_final_total() -> None:
    # Seat 1 wins eight small hands (62 points, 8 boxes = 160): 222. Seat 0 reaches the
    # target with one hand of 100: 100 + 100 + 20 = 220. Seat 1 wins the game.
    entries: list[Any] = [(1, p) for p in (10, 10, 10, 10, 10, 10, 1, 1)] + [(0, 100)]
    s = score_match("traditional", entries)
    g = s.games[0]
    assert g.reached == 0 and g.totals == (220, 222) and g.winner == 1 and s.winner == 1


def test_tie() -> None:
    # As above with 60 points for seat 1: 60 + 160 = 220 = 100 + 100 + 20.
    entries: list[Any] = [(1, p) for p in (10, 10, 10, 10, 10, 10, 0, 0)] + [(0, 100)]
    s = score_match("traditional", entries)
    assert s.over and s.games[0].totals == (220, 220)
    assert s.games[0].winner is None and s.winner is None


# ---------------------------------------------------------------------------------------------
# Who wins the game, by the profile's rule (RULES.md, "The game" and the `winner` row).

FIRST_TO_TARGET = ("modern", "browser", "house", "oklahoma")


def first_to_reach(entries: list[Any], target: int) -> int:
    """The seat whose running points reach ``target`` first, read off the hands in order."""
    points = [0, 0]
    for entry in entries:
        if entry is None:
            continue
        seat, won = entry
        points[seat] += won
        if points[seat] >= target:
            return int(seat)
    raise AssertionError("nobody reached the target")


def comeback(profile: str) -> list[Any]:
    """Many small wins for seat 1 that stay just under the target, then one big hand for
    seat 0 that reaches it."""
    target = get_rules(profile).target
    small = 11
    count = (target - 1) // small
    return [(1, small)] * count + [(0, target)]


def test_the_profiles_winner_rule() -> None:
    assert get_rules("traditional").winner == "higher_total"
    for profile in FIRST_TO_TARGET:
        assert get_rules(profile).winner == "first_to_target"


@pytest.mark.parametrize("profile", FIRST_TO_TARGET)
def test_a_comeback_is_won_by_the_player_who_reached_the_target(profile: str) -> None:
    entries = comeback(profile)
    s = score_match(profile, entries)
    g = s.games[0]
    reached = first_to_reach(entries, get_rules(profile).target)
    assert reached == 0
    assert g.over and g.reached == reached and g.winner == reached and s.winner == reached
    other = 1 - reached
    assert g.margin == g.totals[reached] - g.totals[other] == s.margin
    if get_rules(profile).box_bonus:
        # The box bonuses of the many small wins put the other player ahead on totals.
        assert g.totals[other] > g.totals[reached] and g.margin < 0
    else:
        # Without end-of-game bonuses the player who reached the target is always ahead.
        assert g.margin > 0


def test_the_issues_modern_comeback() -> None:
    s = score_match("modern", [(1, 11)] * 9 + [(0, 100)])
    assert s.games[0].totals == (225, 324)
    assert s.winner == 0 and s.games[0].margin == 225 - 324


def test_traditional_names_the_higher_total_after_a_comeback() -> None:
    entries = comeback("traditional")
    s = score_match("traditional", entries)
    g = s.games[0]
    assert first_to_reach(entries, 100) == 0 == g.reached
    higher = 0 if g.totals[0] > g.totals[1] else 1
    assert g.totals[0] != g.totals[1] and higher == 1
    assert g.winner == higher == s.winner
    assert g.margin == g.totals[higher] - g.totals[1 - higher] > 0


def test_the_rule_can_be_overridden() -> None:
    entries = comeback("modern")
    higher = score_match(get_rules("modern", winner="higher_total"), entries)
    assert higher.winner == 1 and higher.margin is not None and higher.margin > 0
    first = score_match(get_rules("traditional", winner="first_to_target"), entries)
    assert first.winner == 0 and first.margin is not None and first.margin < 0


def test_no_margin_before_the_end() -> None:
    s = score_match("modern", [(1, 11)] * 9)
    assert not s.over and s.games[0].margin is None and s.margin is None
    assert s.winner is None and s.games[0].winner is None


def test_a_tie_has_margin_zero() -> None:
    entries: list[Any] = [(1, p) for p in (10, 10, 10, 10, 10, 10, 0, 0)] + [(0, 100)]
    s = score_match("traditional", entries)
    assert s.games[0].margin == 0 and s.margin == 0 and s.winner is None


def hollywood_comeback() -> list[Any]:
    """Seat 1 wins nine small hands (entered in up to three games); seat 0 then wins two big
    hands that reach the target in every game."""
    return [(1, 11)] * 9 + [(0, 100), (0, 100)]


@pytest.mark.parametrize("profile", FIRST_TO_TARGET)
def test_a_hollywood_comeback_is_won_game_by_game_by_who_reached(profile: str) -> None:
    target = get_rules(profile).target
    entries = [(1, 11)] * ((target - 1) // 11) + [(0, target), (0, target)]
    s = score_match(profile, entries, hollywood=True)
    assert s.over
    for g in s.games:
        # The line that ended the game is the one whose running points reached the target.
        last = g.lines[-1]
        assert last.running[last.seat] >= target
        assert g.reached == last.seat == g.winner
        assert g.margin == g.totals[g.winner] - g.totals[1 - g.winner]
    won = [g.winner for g in s.games]
    most = 0 if won.count(0) > won.count(1) else 1
    assert s.games_won == (won.count(0), won.count(1)) and s.winner == most == 0
    if get_rules(profile).box_bonus:
        assert all(g.totals[1] > g.totals[0] for g in s.games)
        assert s.totals[1] > s.totals[0] and s.margin is not None and s.margin < 0


def test_a_hollywood_comeback_under_traditional_goes_to_the_higher_totals() -> None:
    s = score_match("traditional", hollywood_comeback(), hollywood=True)
    assert s.over and all(g.reached == 0 for g in s.games)
    for g in s.games:
        higher = None if g.totals[0] == g.totals[1] else int(g.totals[1] > g.totals[0])
        assert g.winner == higher
    # The comeback holds in games 1 and 2 (seat 1's boxes outweigh seat 0's game bonus).
    assert [g.winner for g in s.games][:2] == [1, 1]
    assert s.winner == (0 if s.totals[0] > s.totals[1] else 1) == 1
    assert s.margin == s.totals[1] - s.totals[0] > 0


def test_a_hollywood_match_goes_to_who_won_more_games() -> None:
    # Seat 0 takes game 1 with its only win; seat 1's two wins end games 2 and then 3.
    s = score_match("modern", [(0, 100), (1, 100), (1, 100)], hollywood=True)
    assert s.over and [g.reached for g in s.games] == [0, 1, 1]
    assert [g.winner for g in s.games] == [0, 1, 1] and s.games_won == (1, 2) and s.winner == 1


def test_cancelled_hands_score_nothing() -> None:
    s = score_match("traditional", [None, (0, 50), None, (0, 50)])
    assert s.games[0].totals == (340, 0) and len(s.entries) == 4


# ---------------------------------------------------------------------------------------------
# Hollywood.


def test_hollywood_entries_and_per_game_bonuses() -> None:
    entries: list[Any] = [(0, 30), (1, 20), (0, 40), (0, 35), (1, 50), (1, 60)]
    s = score_match("traditional", entries, hollywood=True)
    g1, g2, g3 = s.games
    # Seat 0's wins: 1st (30) in game 1; 2nd (40) in games 1-2; 3rd (35) in games 1-3.
    # Seat 1's wins: 1st (20) in game 1; game 1 then ends (30+40+35 = 105); its 2nd (50) goes
    # into the first two open games (2 and 3); its 3rd (60) into the open games 2 and 3.
    assert g1.points == [105, 20] and g2.points == [75, 110] and g3.points == [35, 110]
    # Game 1: seat 0 reached; 100 game bonus; boxes 3 x 20 and 1 x 20.
    assert g1.totals == (105 + 100 + 60, 20 + 20)
    # Game 2: seat 1 reached; seat 0 won 2 hands in it, seat 1 won 2.
    assert g2.totals == (75 + 40, 110 + 100 + 40)
    # Game 3: seat 1 reached; seat 0 won 1 hand in it, seat 1 won 2.
    assert g3.totals == (35 + 20, 110 + 100 + 40)
    assert s.over and s.totals == (265 + 115 + 55, 40 + 250 + 250) and s.winner == 1
    with pytest.raises(GinRummyError, match="hand 7"):
        s.add((0, 10))


def test_hollywood_counts_apply_to_the_games_still_open() -> None:
    s = score_match("traditional", [(0, 100)], hollywood=True)
    assert [g.over for g in s.games] == [True, False, False]
    assert s.games[0].totals == (100 + 200 + 20, 0)
    s.add((0, 100))  # second win: the first two open games are 2 and 3
    assert s.over
    assert [g.totals for g in s.games] == [(320, 0)] * 3


def test_hollywood_from_the_rules_option() -> None:
    s = score_match(get_rules("modern", hollywood=True), [(0, 10)])
    assert len(s.games) == 3 and s.hollywood


def test_hollywood_shutout_per_game() -> None:
    # Modern: game 1 ends 100 to 10; games 2 and 3 never got seat 1's single win.
    entries: list[Any] = [(1, 10), (0, 50), (0, 50), (0, 50)]
    s = score_match("modern", entries, hollywood=True)
    g1, g2, g3 = s.games
    assert g1.totals == (100 + 100 + 50, 10 + 25)
    # Game 2 got seat 0's 2nd and 3rd wins (100); seat 1 won nothing there: doubled.
    assert g2.totals == ((100 + 100 + 50) * 2, 0)
    # Game 3 got only seat 0's 3rd win (50): not over.
    assert not g3.over and g3.totals == (50, 0) and not s.over and s.winner is None


# ---------------------------------------------------------------------------------------------
# Bad entries.


@pytest.mark.parametrize(
    "entry",
    [(2, 10), (-1, 10), (True, 10), (0, -1), (0, 1.5), (0, True), (0, "10"), "x", (0,), 5,
     (0, 1, 2), ("0", 10)],
)
def test_bad_entries_raise_and_change_nothing(entry: Any) -> None:
    s = score_match("traditional", [(0, 10)])
    before = (list(s.entries), s.games[0].totals, list(s.wins))
    with pytest.raises(GinRummyError, match="hand 2"):
        s.add(entry)
    assert (list(s.entries), s.games[0].totals, list(s.wins)) == before
    with pytest.raises(GinRummyError):
        score_match("traditional", [entry])


def test_hands_after_the_end_raise() -> None:
    # Even a cancelled hand cannot follow the end of the match.
    with pytest.raises(GinRummyError, match="hand 2"):
        score_match("traditional", [(0, 100), (1, 10)])
    with pytest.raises(GinRummyError, match="hand 2"):
        score_match("traditional", [(0, 100), None])
    with pytest.raises(GinRummyError, match="hand 3"):
        score_match("traditional", [None, (0, 100), None])


# ---------------------------------------------------------------------------------------------
# Match: the dealer's rotation (RULES.md table) and the match's errors.

ND = "Ac 2c 3c 4d 5d 6d 9s 9d 9c Kh"  # gin with the 9h: A23c 456d 9999, knock the Kh
OTHER = "Kc Kd Ks Qc Qd Qs 8s 5c 6s Jh"


def deal(match: Match, outcome: str) -> None:
    """Deal the next hand with a stacked deck and play it to ``outcome``: the non-dealer gins,
    the dealer gins, or the stock runs out."""
    if outcome == "non_dealer":
        h = match.next_hand(build_deck(ND, OTHER, "9h"))
        match.play("take")
        match.play("knock Kh")
    elif outcome == "dealer":
        h = match.next_hand(build_deck(OTHER, ND, "9h"))
        match.play("pass")
        match.play("take")
        match.play("knock Kh")
    else:
        h = match.next_hand(build_deck(OTHER, ND, "Th"))
        match.play("pass")
        match.play("pass")
        while not h.over:
            match.play("draw")
            match.play(f"discard {h.history[-1].card}")
    assert h.result is not None
    if outcome == "cancel":
        assert h.result.kind == "cancelled"
    else:
        winner = h.dealer if outcome == "dealer" else 1 - h.dealer
        assert h.result.kind == "gin" and h.result.winner_seat == winner


# profile -> (dealer after the dealer wins, after the non-dealer wins, after a cancel), when
# seat 0 dealt: RULES.md "next dealer after a scored hand" / "after a cancelled hand".
ROTATION = {
    "traditional": (0, 1, 0),  # the hand's winner; same dealer again
    "modern": (1, 1, 1),  # alternates; deal moves on
    "browser": (1, 1, 0),  # alternates; same dealer again
    "house": (1, 1, 1),
    "oklahoma": (1, 1, 1),
}


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_next_dealer(profile: str) -> None:
    outcomes = ("dealer", "non_dealer", "cancel")
    for outcome, expected in zip(outcomes, ROTATION[profile], strict=True):
        m = Match(profile, seed="rotation", first_dealer=0, start=False)
        assert m.next_dealer == 0
        deal(m, outcome)
        assert m.hand.dealer == 0
        assert m.next_dealer == expected, outcome
        assert m.waiting_for_next_hand
        deal(m, "cancel")
        assert m.hands[-1].dealer == expected


def test_dealer_rotation_over_a_sequence() -> None:
    # Traditional from seat 1: cancel (1 again), seat 1 as non-dealer... spelled out per hand.
    m = Match("traditional", seed="seq", first_dealer=1, start=False)
    dealers = []
    for outcome in ("cancel", "non_dealer", "dealer", "cancel", "non_dealer"):
        deal(m, outcome)
        dealers.append(m.hand.dealer)
    # 1; cancel -> 1; non-dealer (0) won -> 0; dealer (0) won -> 0; cancel -> 0.
    assert dealers == [1, 1, 0, 0, 0]


def test_first_dealer_from_the_seed_is_a_coin() -> None:
    firsts = {Match(seed=f"cut/{i}").first_dealer for i in range(40)}
    assert firsts == {0, 1}
    assert Match(seed="same").first_dealer == Match(seed="same").first_dealer


def test_match_scores_hands_and_ends() -> None:
    m = Match(get_rules("traditional", target=40), seed="end", first_dealer=0, start=False)
    deal(m, "non_dealer")  # seat 1 gins: 29 + 20 = 49 >= 40
    assert m.over and m.score.winner == 1
    assert m.score.entries == [(1, 49)]
    assert m.score.games[0].totals == (0, 49 + 200 + 20)
    assert not m.waiting_for_next_hand
    with pytest.raises(IllegalMoveError, match="over"):
        m.next_hand()
    with pytest.raises(IllegalMoveError, match="over"):
        m.play("draw")


def test_match_play_and_next_hand_errors() -> None:
    m = Match("modern", seed="errors", first_dealer=0)
    with pytest.raises(IllegalMoveError, match="Finish"):
        m.next_hand()
    assert len(m.hands) == 1
    m = Match("modern", seed="errors", first_dealer=0, start=False)
    deal(m, "cancel")
    assert m.waiting_for_next_hand
    with pytest.raises(IllegalMoveError, match="deal the next hand"):
        m.play("draw")
    m.next_hand()
    assert len(m.hands) == 2 and m.score.entries == [None]
    with pytest.raises(IllegalMoveError):
        m.play("discard Kh")


def test_match_undo_takes_back_the_score() -> None:
    m = Match("traditional", seed="undo", first_dealer=0, start=False)
    deal(m, "non_dealer")
    assert m.score.entries == [(1, 49)]
    assert m.undo() == "knock Kh"
    assert m.score.entries == [] and not m.hand.over
    m.play("knock Kh")
    assert m.score.entries == [(1, 49)]


def test_match_construction_errors() -> None:
    for bad in (2, -1, True):
        with pytest.raises(GinRummyError):
            Match(first_dealer=bad)  # type: ignore[arg-type]
    m = Match(start=False)
    with pytest.raises(GinRummyError):
        _ = m.hand


def test_illegal_move_in_a_match_changes_nothing() -> None:
    m = Match("traditional", seed="illegal", first_dealer=0)
    before = (m.hand.moves, list(m.hand.hands), m.score.entries[:], len(m.hands))
    for move in ("draw", "discard Zz", "knock Kh", "big gin", ""):
        with pytest.raises(IllegalMoveError):
            m.play(move)
        assert (m.hand.moves, list(m.hand.hands), m.score.entries[:], len(m.hands)) == before


def test_sheet_rows_address_you_in_the_second_person() -> None:
    from ginrummy.words.sheet import describe_result

    assert describe_result("knock", 0, 12, ("You", "Computer"), you=0) == "knock: you score 12"
    assert describe_result("gin", 1, 40, ("You", "Computer"), you=0) == "gin: Computer scores 40"
    assert describe_result("undercut", 1, 28, ("Ann", "Bob")) == "undercut: Bob scores 28"
    assert describe_result("cancelled", None, 0, ("Ann", "Bob")).startswith("cancelled")


@pytest.mark.parametrize("dealer", [2, -1, 0.0, True, "1"])
def test_a_first_dealer_that_is_not_a_seat_is_refused(dealer: object) -> None:
    with pytest.raises(GinRummyError, match="the first dealer is seat 0 or 1, not "):
        Match(first_dealer=dealer)  # type: ignore[arg-type]


def test_a_seat_that_is_not_0_or_1_is_refused_everywhere() -> None:
    m = Match("traditional", seed="seats", first_dealer=0)
    for seat in (2, -1, 0.0, "0", True):
        with pytest.raises(GinRummyError, match="a seat is 0 or 1"):
            m.view(seat)  # type: ignore[arg-type]
        with pytest.raises(GinRummyError, match="hand 1: the seat is 0 or 1"):
            score_match("traditional", [(seat, 10)])  # type: ignore[list-item]
    assert m.view(0).seat == 0


def test_decks_and_a_deck_that_are_not_decks_are_refused() -> None:
    with pytest.raises(GinRummyError, match="decks is a function"):
        Match(decks=5)  # type: ignore[arg-type]
    m = Match("traditional", seed="decks", start=False)
    for deck in (5, 2.5, [1, 2, 3], "Ac 2c", [True] * 52):
        with pytest.raises(GinRummyError):
            m.next_hand(deck=deck)  # type: ignore[arg-type]
    assert m.hands == []
    odd = Match("traditional", seed="odd", decks=lambda n: 7, start=False)  # type: ignore[arg-type,return-value]
    with pytest.raises(GinRummyError):
        odd.next_hand()
    assert m.next_hand(deck=list(range(52))).deck[0] == 0
