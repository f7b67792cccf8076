"""``record.catch_up``: bringing a match held in memory up to a newer record of it by playing
only what the record adds (what a server process does when another process saved moves of a
match it holds), and refusing, unchanged, a record that does not continue the match."""

from __future__ import annotations

import random

import pytest

from ginrummy import InvalidRecordError, Match, get_rules
from ginrummy.engine import record
from ginrummy.engine.rules import PROFILE_NAMES
from test_record import same_match


def snapshots(profile: str, seed: str) -> list[str]:
    """The record of one random match after every move and every deal, in order, until its
    third hand is over (random moves seldom score, so a whole match would be long)."""
    rng = random.Random(seed)
    m = Match(get_rules(profile, target=60), seed=seed)
    out = [record.dumps(m)]
    while not m.over and not (len(m.hands) == 3 and m.hand.over):
        if m.hand.over:
            m.next_hand()
        else:
            m.play(rng.choice(m.hand.legal_moves()))
        out.append(record.dumps(m))
    return out


def first_hand_at(texts: list[str], moves: int) -> int:
    """The index of the snapshot ``moves`` moves into the first hand."""
    return next(i for i, t in enumerate(texts) if "moves = [" in t
                and t.count("\n  \"") == moves)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_a_match_caught_up_from_any_earlier_point_equals_the_whole_replay(profile: str) -> None:
    texts = snapshots(profile, f"catch-up/{profile}")
    rng = random.Random(profile)
    for _ in range(40):
        i = rng.randrange(len(texts))
        j = rng.randrange(i, min(len(texts), i + rng.choice([1, 3, 30, 300])))
        for known in (None, texts[i]):  # reading the whole record, or only its new part
            held = record.loads(texts[i])
            assert record.catch_up(held, texts[j], known)
            same_match(held, record.loads(texts[j]))
            assert record.dumps(held) == texts[j]


def test_a_record_that_does_not_continue_the_match_is_refused_and_changes_nothing() -> None:
    texts = snapshots("modern", "refuse")
    later = record.loads(texts[-1])
    assert len(later.hands) >= 2
    mid = first_hand_at(texts, 5)
    held_text = texts[mid]

    def refused(text: str) -> None:
        for known in (None, held_text):
            held = record.loads(held_text)
            assert not record.catch_up(held, text, known)
            assert record.dumps(held) == held_text

    refused(texts[mid - 1])  # older: one move fewer
    other = snapshots("modern", "another match")
    refused(other[min(len(other) - 1, mid + 3)])  # another deck
    # The same deck and moves under other rules, or with the other first dealer.
    refused(held_text.replace('profile = "modern"', 'profile = "traditional"'))
    refused(held_text.replace(f"first_dealer = {later.first_dealer}",
                              f"first_dealer = {1 - later.first_dealer}"))
    # A move of the hand held rewritten (a different history, not a continuation).
    held = record.loads(held_text)
    first = held.hand.history[0].text
    changed = texts[mid + 2].replace(f'"{first}",', '"pass",' if first != "pass" else '"draw",', 1)
    refused(changed)


def test_a_broken_continuation_raises_and_says_where() -> None:
    texts = snapshots("modern", "broken")
    mid = first_hand_at(texts, 6)
    held = record.loads(texts[mid])
    later = record.loads(texts[mid + 1])
    last = later.hand.history[-1].text
    bad = texts[mid + 1].replace(f'  "{last}",\n]', '  "discard 2x",\n]')
    assert bad != texts[mid + 1]
    with pytest.raises(InvalidRecordError, match="hand 1, move 7"):
        record.catch_up(held, bad)
    held = record.loads(texts[mid])
    with pytest.raises(InvalidRecordError, match="hand 1, move 7"):
        record.catch_up(held, bad, texts[mid])


@pytest.mark.parametrize("profile", ["modern", "oklahoma"])
def test_writing_after_an_earlier_record_gives_the_whole_record(profile: str) -> None:
    rng = random.Random(profile)
    m = Match(get_rules(profile), seed=f"after/{profile}")
    meta = {"level": "hard"}

    def hand_meta() -> list[dict[str, str]]:  # like the sealer's: final once a hand is over
        return [{"state": "over" if h.over else f"{len(h.history)} moves"} for h in m.hands]

    earlier = record.dumps(m, players=["A", "B"], meta=meta)
    steps = 0
    while not m.over and len(m.hands) <= 4:
        if m.hand.over:
            m.next_hand()
        else:
            m.play(rng.choice(m.hand.legal_moves()))
        whole = record.dumps(m, players=["A", "B"], meta=meta, hand_meta=hand_meta())
        assert record.dumps(m, players=["A", "B"], meta=meta, hand_meta=hand_meta(),
                            after=earlier) == whole
        if rng.random() < 0.3:  # a save after every few moves
            earlier = whole
        steps += 1
    assert len(m.hands) >= 3 and steps > 100
    # Another head (names, meta) is never reused.
    assert record.dumps(m, players=["C", "B"], after=earlier) == record.dumps(m, players=["C", "B"])
