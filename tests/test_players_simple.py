"""``simple``, the EAAI reference player: each rule of its policy, checked on real positions.

The oracles here are independent of the player's code: "the card belongs to a meld" is looked
up in the engine's table of every meld, deadwood comes from the engine's solver.
"""

from __future__ import annotations

from collections import Counter

from ginrummy import Hand
from ginrummy.engine.cards import parse_cards
from ginrummy.engine.melds import ALL_MELDS, min_deadwood
from ginrummy.engine.view import PlayerView
from ginrummy.players import make
from players_support import Position, positions


def _joins_a_meld(hand_mask: int, card: int) -> bool:
    cards = hand_mask | 1 << card
    return any(m >> card & 1 and m & cards == m for m in ALL_MELDS)


def _card_of(move: str) -> int:
    return int(parse_cards(move.split()[1])[0])


def _real_positions(phase: set[str], count: int = 60) -> list[tuple[Position, Hand, PlayerView]]:
    out = []
    for position in positions(count, every=3, seed=21):
        hand = position.hand()
        if hand.phase in phase:
            out.append((position, hand, hand.view(hand.to_play)))
    assert out
    return out


def test_takes_the_face_up_card_exactly_when_it_joins_a_meld() -> None:
    takes = passes = 0
    for _, _, view in _real_positions({"opening", "draw"}):
        move = make("simple", seed=1).choose(view)
        if _joins_a_meld(view.hand_mask, int(view.discard_pile[-1])):
            assert move == "take"
            takes += 1
        else:
            assert move in ("pass", "draw")
            passes += 1
    assert takes and passes


def _no_repeat_rule_can_apply(view: PlayerView) -> bool:
    """True when the card just drawn never appeared in this seat's earlier draws or discards
    (then the no-repeat rule cannot exclude anything)."""
    drawn = view.taken if view.taken is not None else view.drawn
    earlier = [e.card for e in view.history[:-1] if e.seat == view.seat]
    return drawn not in earlier


def test_discards_a_least_deadwood_card_never_the_one_taken_and_knocks_at_once() -> None:
    knocks = discards = after_take = 0
    for _, hand, view in _real_positions({"discard"}, 80):
        if "big gin" in view.legal_moves:
            continue
        move = make("simple", seed=2).choose(view)
        card = _card_of(move)
        assert card != view.taken
        after_take += view.taken is not None
        if not _no_repeat_rule_can_apply(view):
            continue
        legal_cards = {_card_of(m) for m in view.legal_moves if m.startswith("discard")}
        least = min(min_deadwood(view.hand_mask & ~(1 << c)) for c in legal_cards)
        assert min_deadwood(view.hand_mask & ~(1 << card)) == least
        if least <= view.knock_limit:
            assert move.startswith("knock"), move
            knocks += 1
            hand.play(move)
            assert hand.result is not None
            assert hand.result.knocker_deadwood == least
        else:
            assert move.startswith("discard"), move
            discards += 1
    assert knocks and discards and after_take


def test_ties_are_broken_at_random_by_the_players_rng() -> None:
    # Three melds and the Qd; the Qc comes in: throwing either queen leaves 10 (a knock).
    dealer_cards = "2h 3h 4h 5h 6h Th Jh Kh Kd Ks"
    hand = Hand("house", deck=_deck("Ac2c3c4d5d6d7h8h9hQd", dealer_cards, upcard="Qc"),
                dealer=0)
    hand.play("take")
    view = hand.view(1)
    # The taken Qc may not go: the only least-deadwood discard left is the Qd.
    assert make("simple", seed=0).choose(view) == "knock Qd"
    hand = Hand("house", deck=_deck("Ac2c3c4d5d6d7h8h9hQd", dealer_cards, upcard="As",
                                    stock="Qc"), dealer=0)
    hand.play("pass")
    hand.play("pass")
    hand.play("draw")
    view = hand.view(1)
    choices = Counter(make("simple", seed=s).choose(view) for s in range(40))
    assert set(choices) == {"knock Qc", "knock Qd"}
    assert make("simple", seed=7).choose(view) == make("simple", seed=7).choose(view)


def test_never_repeats_a_draw_and_discard_pair() -> None:
    # Seat 1 draws Ks and throws 2s; later it takes the 2s back. Throwing the Ks now would
    # leave the least deadwood (2) but repeat the pair {Ks, 2s}: it throws the 3c instead.
    deck = _deck("Ac2c3c4d5d6d7h8h9h2s", "TdJdQd5c6c7c3h4h5hQc", upcard="8c",
                 stock="Ks Jh 9c")
    hand = Hand("house", deck=deck, dealer=0)
    for move in ("pass", "pass", "draw", "discard 2s",  # seat 1 drew Ks, threw 2s
                 "take", "discard Qc",                   # seat 0 took the 2s
                 "draw", "discard Jh",                   # seat 1
                 "draw", "discard 2s",                   # seat 0 throws the 2s back
                 "take"):                                # seat 1 takes it
        hand.play(move)
    view = hand.view(1)
    ks = int(parse_cards("Ks")[0])
    assert min_deadwood(view.hand_mask & ~(1 << ks)) == 2
    assert make("simple", seed=3).choose(view) == "discard 3c"


def test_goes_big_gin_when_the_rules_allow_it() -> None:
    deck = _deck("Ac2c3c4c5d6d7d8h9hTh", "TdJdQd5c6c7c3h4h5hQc", upcard="Jh")
    hand = Hand("modern", deck=deck, dealer=0)
    player = make("simple", seed=1)
    hand.play(player.choose(hand.view(1)))
    assert hand.phase == "discard"
    assert player.choose(hand.view(1)) == "big gin"


def test_knock_arrangement_is_a_least_deadwood_one_chosen_at_random() -> None:
    # After the take and throwing the Kc: As-6s is one run or two (As2s3s 4s5s6s), with
    # 9c9d9h: two least-deadwood arrangements; the player declares one of them at random.
    deck = _deck("As2s3s4s5s6s9c9d9hKc", "TdJdQd5c6c4c3h4h5hQc", upcard="2d")
    hand = Hand("house", deck=deck, dealer=0)
    hand.play("take")
    view = hand.view(1)
    moves = Counter(make("simple", seed=s).choose(view) for s in range(30))
    assert len(moves) == 2
    for move in moves:
        assert move.startswith("knock Kc with ")
        copy = hand.copy()
        copy.play(move)
        assert copy.result is not None
        assert copy.result.knocker_deadwood == 2


def _deck(non_dealer: str, dealer: str, *, upcard: str, stock: str = "") -> list[int]:
    """A deck dealing these ten cards to the non-dealer and the dealer (dealer = seat 0),
    with this upcard and these cards on top of the stock; the rest in card order."""
    first = [int(c) for c in parse_cards(non_dealer)]
    second = [int(c) for c in parse_cards(dealer)]
    top = [int(c) for c in parse_cards(upcard)] + [int(c) for c in parse_cards(stock)]
    used = set(first) | set(second) | set(top)
    assert len(used) == 20 + len(top)
    rest = [c for c in range(52) if c not in used]
    return [c for pair in zip(first, second, strict=True) for c in pair] + top + rest
