"""Sample situations: each replayed through the engine, its answer legal, its quoted facts
recomputed independently (``settle_hand`` and the meld solver, not the lesson loader), the
topics and every profile's differences covered, and broken files refused with a clear message.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from ginrummy.engine.cards import Card, CardSet, cards_of_mask
from ginrummy.engine.errors import IllegalMoveError
from ginrummy.engine.melds import discard_deadwoods, min_deadwood
from ginrummy.engine.record import loads
from ginrummy.engine.rules import PROFILE_NAMES, PROFILES
from ginrummy.engine.settle import settle_hand
from ginrummy.lessons import (
    FEATURES,
    TOPICS,
    Situation,
    answer,
    load_situations,
    situation_files,
)
from ginrummy.lessons.spec import build_record, record_to_spec

SPECS = (Path(__file__).resolve().parent.parent / "src" / "ginrummy" / "lessons" / "situations"
         / "specs")
SITUATIONS = load_situations()
BY_ID = {s.id: s for s in SITUATIONS}


def test_there_are_enough_situations_on_every_topic_of_the_issue() -> None:
    assert len(SITUATIONS) >= 14
    topics = {s.lesson.topic for s in SITUATIONS}
    for topic in ("upcard", "discard", "knock", "undercut", "layoffs", "oklahoma", "hollywood",
                  "melds"):
        assert topic in topics, topic
    assert set(topics) <= set(TOPICS)
    # Layoffs: a chain along a run, the fourth card of a set, none against gin.
    layoff_facts = [
        (s, f) for s in SITUATIONS if s.lesson.topic == "layoffs" for f in s.lesson.facts
    ]
    laid = [CardSet(f.expect["layoffs"]) for _s, f in layoff_facts if "layoffs" in f.expect]
    assert any(_is_chain(c) for c in laid), "no layoff chain along a run"
    assert any(len(c) == 1 for c in laid), "no single fourth card of a set"
    assert any(f.expect.get("kind") == "gin" for _s, f in layoff_facts), "no gin without layoffs"


def _is_chain(cards: CardSet) -> bool:
    """Two or more cards of one suit in a row (laid off one after another)."""
    ranks = sorted(c.rank for c in cards)
    suits = {c.suit for c in cards}
    in_a_row = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    return len(cards) >= 2 and len(suits) == 1 and in_a_row


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_the_position_replays_and_every_answer_is_legal(situation: Situation) -> None:
    match = loads(situation.text)  # the record replays move by move through the engine
    hand = match.hand
    assert not hand.over
    assert hand.to_play == situation.lesson.seat
    legal = hand.legal_moves()
    for move in situation.lesson.answers:
        assert move in legal
        assert answer(situation, move).correct


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: s.id)
def test_every_quoted_fact_is_recomputed_independently(situation: Situation) -> None:
    seat = situation.lesson.seat
    for fact in situation.lesson.facts:
        match = loads(situation.text)
        hand = match.hand
        *before, last = fact.moves
        for move in before:
            match.play(move)
        if fact.expect.get("illegal"):
            with pytest.raises(IllegalMoveError):
                hand.play(last)
            continue
        words = last.split()
        if words[0] == "knock" and len(words) == 2:
            # The knock's score from the two hands alone, by settle_hand.
            card = int(Card.parse(words[1]))
            knocker = hand.hands[hand.to_play] & ~(1 << card)
            defender = hand.hands[1 - hand.to_play]
            alone = settle_hand(
                cards_of_mask(knocker), cards_of_mask(defender), match.rules, upcard=hand.upcard
            )
            _check_result(fact.expect, alone, seat, hand.to_play)
        elif words[0] == "discard":
            card = int(Card.parse(words[1]))
            left = min_deadwood(hand.hands[seat] & ~(1 << card))
            if "deadwood" in fact.expect:
                assert fact.expect["deadwood"] == left
        elif last == "take" and "deadwood" in fact.expect:
            top = hand.discard_pile[-1]
            mask = hand.hands[seat] | 1 << top
            best = min(dw for c, dw in discard_deadwoods(mask) if c != top)
            assert fact.expect["deadwood"] == best
        elif last == "pass" and "deadwood" in fact.expect:
            assert fact.expect["deadwood"] == min_deadwood(hand.hands[seat])
        match.play(last)
        result = hand.result
        if result is not None:
            _check_result(fact.expect, result, seat, result.knocker_seat)
            _check_scores(fact.expect, match, seat)


def _check_result(expect: Mapping[str, object], result: object, seat: int, knocker: object) -> None:
    """The fact's numbers against a HandResult (``winner`` from the learner's side)."""
    from ginrummy.engine.settle import HandResult

    assert isinstance(result, HandResult)
    if result.kind == "cancelled":
        assert expect.get("kind") == "cancelled"
        return
    for key in ("kind", "points", "bonus", "multiplier", "knock_limit", "knocker_deadwood",
                "defender_deadwood"):
        if key in expect:
            assert expect[key] == getattr(result, key), key
    if "layoffs" in expect:
        assert CardSet(str(expect["layoffs"])) == CardSet(result.layoffs)
    if "winner" in expect:
        # settle_hand calls the knocker seat 0; translate to the learner's side.
        knocker_won = result.winner == "knocker"
        learner_knocked = knocker == seat
        assert expect["winner"] == ("you" if knocker_won == learner_knocked else "opponent")


def _check_scores(expect: Mapping[str, object], match: object, seat: int) -> None:
    from ginrummy.engine.match import Match

    assert isinstance(match, Match)
    games = match.score.games
    side = lambda pair: [pair[seat], pair[1 - seat]]  # noqa: E731
    if "totals" in expect:
        assert expect["totals"] == [side(g.totals) for g in games]
    if "game_bonus" in expect:
        assert expect["game_bonus"] == [side(g.game_bonus) for g in games]
    if "box_bonus" in expect:
        assert expect["box_bonus"] == [side(g.box_bonus) for g in games]
    if "game_over" in expect:
        assert expect["game_over"] == [g.over for g in games]


def test_every_difference_between_profiles_appears_in_a_situation() -> None:
    """Each rule feature that holds for some profiles and not others is shown by a situation
    played under one of those profiles; every profile has a situation; so do the options."""
    for profile in PROFILE_NAMES:
        assert any(s.position.rules.profile == profile for s in SITUATIONS), profile
    for name, (_text, holds) in FEATURES.items():
        where = {p for p in PROFILE_NAMES if holds(PROFILES[p])}
        if where == set(PROFILE_NAMES):
            continue
        showing = [s for s in SITUATIONS if name in s.lesson.features]
        assert showing, f"no situation shows {name}"
        if where:
            assert any(s.position.rules.profile in where for s in showing), name
        for s in showing:
            assert holds(s.position.rules)


def test_the_profiles_the_issue_names_are_shown() -> None:
    shown = {(s.position.rules.profile, f) for s in SITUATIONS for f in s.lesson.features}
    for pair in [("traditional", "bonuses-20-10"), ("traditional", "winner-deals"),
                 ("modern", "big-gin"), ("browser", "shutout-200"), ("house", "no-end-bonuses"),
                 ("oklahoma", "knock-card"), ("oklahoma", "spade-double")]:
        assert pair in shown, pair
    holly = [s for s in SITUATIONS if s.position.rules.hollywood]
    assert holly and len(holly[0].position.decks) > 1  # Hollywood's columns need earlier hands
    assert any(s.position.rules.last_discard_chance for s in SITUATIONS)


def test_every_spec_builds_exactly_the_stored_record() -> None:
    stored = dict(situation_files())
    specs = sorted(SPECS.glob("*.toml"))
    assert {p.name for p in specs} == set(stored)
    for spec in specs:
        assert build_record(spec.read_text(encoding="utf-8"), spec.name) == stored[spec.name]


def test_a_record_read_back_as_a_spec_builds_the_same_record() -> None:
    for s in SITUATIONS[:4]:
        assert build_record(record_to_spec(s.text), s.source) == s.text


def test_a_wrong_answer_is_judged_and_an_illegal_one_refused() -> None:
    s = BY_ID["layoffs-chain-along-a-run"]
    wrong = answer(s, "knock 3c")
    assert not wrong.correct
    assert wrong.yours.result is not None and wrong.yours.result.kind == "undercut"
    assert wrong.taught is not None and wrong.taught.net > 0
    with pytest.raises(IllegalMoveError):
        answer(s, "discard 9c")  # not in the learner's hand
    assert answer(s, "knock 7h").correct  # the position is unchanged by the refused move
