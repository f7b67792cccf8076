"""Positions from real games, for the computer players' tests.

A position is a hand replayed to some point, with the seat to play; it is rebuilt from the deck
and the moves, so a test can also replay the same moves over a different deck.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ginrummy import Hand
from ginrummy.engine.player import Player
from ginrummy.engine.rules import RuleSet, get_rules
from ginrummy.players import make

#: Every profile, and the options that change what a player may do.
RULE_SETS: tuple[RuleSet, ...] = (
    get_rules("traditional"),
    get_rules("modern"),
    get_rules("browser"),
    get_rules("house"),
    get_rules("oklahoma"),
    get_rules("traditional", last_discard_chance=True),
    get_rules("modern", last_discard_chance=True),
    get_rules("house", big_gin=True),
    get_rules("oklahoma", last_discard_chance=True),
)

#: Pairs of players whose games give the positions (varied styles, varied hand lengths).
PAIRINGS = (("simple", "random"), ("hard", "simple"), ("medium", "hard"), ("random", "random"))


@dataclass(frozen=True)
class Position:
    """The point of a real hand just before ``moves[len(prefix)]`` was played."""

    rules: RuleSet
    deck: tuple[int, ...]
    dealer: int
    prefix: tuple[str, ...]

    def hand(self) -> Hand:
        hand = Hand(self.rules, deck=list(self.deck), dealer=self.dealer)
        for move in self.prefix:
            hand.play(move)
        return hand


def play_out(rules: RuleSet, seed: int, pairing: tuple[str, str]) -> Hand:
    """One whole hand between the two named players."""
    hand = Hand(rules, seed=seed, dealer=seed % 2)
    players: list[Player] = [make(pairing[0], seed=seed), make(pairing[1], seed=seed + 1)]
    while hand.result is None:
        hand.play(players[hand.to_play].choose(hand.view(hand.to_play)))
    return hand


def positions(count_per_rules: int, *, every: int = 3, seed: int = 0) -> Iterator[Position]:
    """About ``count_per_rules`` positions under each rule set, every ``every``-th move of
    real hands (all with a choice to make: more than one legal move)."""
    for r, rules in enumerate(RULE_SETS):
        made = 0
        game = 0
        while made < count_per_rules:
            pairing = PAIRINGS[game % len(PAIRINGS)]
            hand = play_out(rules, seed + 1000 * r + game, pairing)
            deck = tuple(int(c) for c in hand.deck)
            moves = hand.moves
            replay = Hand(rules, deck=list(deck), dealer=hand.dealer)
            for i, move in enumerate(moves):
                if i % every == game % every and len(replay.legal_moves()) > 1:
                    yield Position(rules, deck, hand.dealer, tuple(moves[:i]))
                    made += 1
                    if made >= count_per_rules:
                        break
                replay.play(move)
            game += 1


def is_legal_choice(hand: Hand, move: str) -> bool:
    """True when ``move`` is one of the legal moves, or a knock among them with melds
    declared, that the hand accepts."""
    legal = hand.legal_moves()
    if move in legal:
        return True
    if not move.startswith("knock ") or " with " not in move:
        return False
    plain = move.split(" with ")[0]
    return plain in legal and hand.can_play(move)


#: Two dealt hands of three melds and one high card each (deadwood 10): any card at all lets
#: either seat knock, so a stalled hand always ends in a last-discard chance worth taking.
_NON_DEALER = "Ac 2c 3c 4d 5d 6d 7h 8h 9h Ks"
_DEALER = "4c 5c 6c Ad 2d 3d Jh Qh Kh Qs"


def stalled_positions(rules: RuleSet, seed: int) -> list[Position]:
    """Positions at the very end of the stock: both seats draw and throw back the drawn card
    until a discard leaves two cards, then the last-discard chance (when the rules have it)
    and, after taking it, the forced knock."""
    import random

    from ginrummy.engine.cards import to_mask

    first = [c for c in range(52) if to_mask(_NON_DEALER) >> c & 1]
    second = [c for c in range(52) if to_mask(_DEALER) >> c & 1]
    rest = [c for c in range(52) if c not in first and c not in second]
    random.Random(seed).shuffle(rest)
    deck = [c for pair in zip(first, second, strict=True) for c in pair] + rest
    dealer = seed % 2
    hand = Hand(rules, deck=deck, dealer=dealer)
    moves: list[str] = []

    def play(move: str) -> None:
        hand.play(move)
        moves.append(move)

    play("pass")
    play("pass")
    out: list[Position] = []
    while hand.result is None:
        if hand.phase in ("draw", "opening_draw"):
            play("draw")
        elif hand.phase == "discard":
            assert hand.drawn >= 0
            play(f"discard {_text(hand.drawn)}")
        elif hand.phase == "last_chance":
            out.append(Position(rules, tuple(deck), dealer, tuple(moves)))
            if "take" not in hand.legal_moves():
                break
            play("take")
        elif hand.phase == "last_chance_knock":
            out.append(Position(rules, tuple(deck), dealer, tuple(moves)))
            break
        else:
            break
    return out


def _text(card: int) -> str:
    from ginrummy.engine.cards import CARD_TEXT

    return CARD_TEXT[card]
