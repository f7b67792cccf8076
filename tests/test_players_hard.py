"""``hard``: it takes the obvious wins, never feeds a meld it knows the opponent holds when a
discard as good is safe, and declares the knock arrangement the opponent can lay off on least.
"""

from __future__ import annotations

from ginrummy import Hand
from ginrummy.engine.cards import parse_cards
from ginrummy.engine.melds import ALL_MELDS, min_deadwood
from ginrummy.players import make
from ginrummy.players.hard import HardPlayer, MediumPlayer
from ginrummy.players.knowledge import OpponentModel
from players_support import positions
from test_players_simple import _deck

DEALER = "Ts Js Qs Ks 9s 8d 9d Td Jd 2h"


def _feeds(card: int, known: int) -> bool:
    """The opponent surely melds ``card``: some meld through it uses only cards it holds."""
    return any(m >> card & 1 and (m & ~(1 << card)) & known == m & ~(1 << card)
               for m in ALL_MELDS)


def test_goes_gin_and_big_gin_at_once() -> None:
    # Two melds, 8h9hTh and the Kc: the upcard 7h makes 7h8h9hTh, and throwing the Kc is gin.
    deck = _deck("Ac2c3c4d5d6d8h9hThKc", DEALER, upcard="7h")
    for name in ("hard", "medium"):
        hand = Hand("house", deck=deck, dealer=0)
        player = make(name, seed=1)
        assert player.choose(hand.view(1)) == "take"
        hand.play("take")
        assert player.choose(hand.view(1)) == "knock Kc"
        hand.play("knock Kc")
        assert hand.result is not None and hand.result.kind == "gin"
    deck = _deck("Ac2c3c4c5d6d7d8h9hTh", DEALER, upcard="Jh")
    hand = Hand("modern", deck=deck, dealer=0)
    hand.play("take")
    assert make("hard", seed=1).choose(hand.view(1)) == "big gin"


def test_knocks_with_one_point_on_the_first_turn() -> None:
    deck = _deck("Ac2c3c4d5d6d7h8h9hKc", DEALER, upcard="As")
    hand = Hand("house", deck=deck, dealer=0)
    player = HardPlayer(5)
    assert player.choose(hand.view(1)) == "take"
    hand.play("take")
    assert player.choose(hand.view(1)) == "knock Kc"


def test_never_feeds_a_known_meld_when_an_equal_discard_is_safe() -> None:
    relevant = 0
    for i, position in enumerate(positions(150, every=5, seed=31)):
        hand = position.hand()
        view = hand.view(hand.to_play)
        if view.phase != "discard" or not view.opponent_known_mask:
            continue
        known = view.opponent_known_mask
        cards = [int(parse_cards(m.split()[1])[0]) for m in view.legal_moves
                 if m.startswith("discard")]
        feeding = [c for c in cards if _feeds(c, known)]
        if not feeding:
            continue
        relevant += 1
        move = make("hard", seed=i).choose(view)
        if not move.startswith("discard"):
            continue
        card = int(parse_cards(move.split()[1])[0])
        if _feeds(card, known):
            after = min_deadwood(view.hand_mask & ~(1 << card))
            safe = [c for c in cards if not _feeds(c, known)]
            assert all(min_deadwood(view.hand_mask & ~(1 << c)) > after for c in safe), (
                position, move)
    assert relevant >= 30, relevant


def test_declares_the_arrangement_with_the_fewest_likely_layoffs() -> None:
    # 4c5c6c 4d5d6d 4h5h6h is three runs or three sets. The cards that would lay off on the
    # runs (3c 7c 3d 7d 3h 7h) are all in the discard pile; the ones for the sets (4s 5s 6s)
    # are unseen. The engine's default (fewest spots from the knocker's own cards) is the
    # sets; hard declares the runs.
    deck = _deck("4c5c6c4d5d6d4h5h6hKc", DEALER, upcard="Qh", stock="3c 7c 3d 7d 3h 7h Ac")
    hand = Hand("house", deck=deck, dealer=0)
    for move in ("pass", "pass", "draw", "discard 3c", "draw", "discard 7c", "draw",
                 "discard 3d", "draw", "discard 7d", "draw", "discard 3h", "draw",
                 "discard 7h", "draw"):
        hand.play(move)
    view = hand.view(1)
    move = HardPlayer(2).choose(view)
    assert move == "knock Kc with 4c5c6c 4d5d6d 4h5h6h"
    hand.play(move)
    assert hand.result is not None and hand.result.knocker_deadwood == 1


def test_medium_reads_nothing_of_the_opponent() -> None:
    hand = Hand("house", seed=8, dealer=0)
    hand.play("take")
    view = hand.view(0)
    flat = MediumPlayer(1).model(view)
    read = HardPlayer(1).model(view)
    unseen = [c for c in range(52) if view.unseen_mask >> c & 1]
    assert len({round(flat.prob[c], 9) for c in unseen}) == 1
    assert len({round(read.prob[c], 9) for c in unseen}) > 1


def test_the_opponent_model_adds_up() -> None:
    for position in positions(10, every=5, seed=41):
        hand = position.hand()
        view = hand.view(hand.to_play)
        model = OpponentModel(view)
        hidden = view.opponent_card_count - view.opponent_known_mask.bit_count()
        unseen = [c for c in range(52) if view.unseen_mask >> c & 1]
        assert abs(sum(model.prob[c] for c in unseen) - hidden) < 1e-6
        assert all(0.0 <= model.prob[c] <= 1.0 for c in range(52))
        assert all(model.prob[c] == 1.0 for c in range(52) if view.opponent_known_mask >> c & 1)
        assert all(model.prob[c] == 0.0 for c in range(52)
                   if (view.hand_mask | view.pile_mask) >> c & 1)
        # The hand's true hidden cards are somewhere among the unseen ones.
        assert hand.hands[1 - view.seat] & ~view.opponent_known_mask & ~view.unseen_mask == 0
