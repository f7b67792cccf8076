"""A match: hands in sequence, running scores, the dealer's rotation, end-of-game bonuses and
Hollywood's three games.

:func:`score_match` is the one place where a match is scored; :class:`Match` drives hands and
asks it for the score after each one.

Who wins a game is the profile's ``winner`` rule: under ``traditional`` the higher final total
(equal totals tie), under the others the player who reached the target, even when the other
player's final total is higher after the bonuses; ``margin`` is then negative.

>>> s = score_match("traditional", [(0, 60), (1, 12), (0, 45)])
>>> s.games[0].over, s.games[0].winner, s.games[0].totals, s.games[0].margin
(True, 0, (245, 32), 213)
>>> s = score_match("modern", [(1, 11)] * 9 + [(0, 100)])
>>> s.games[0].totals, s.games[0].reached, s.games[0].winner, s.games[0].margin
((225, 324), 0, 0, -99)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from .cards import shown
from .errors import GinRummyError, IllegalMoveError
from .hand import Hand, seat_number
from .rules import RuleSet, RulesLike, WinnerRule, get_rules
from .settle import HandResult
from .view import PlayerView

__all__ = ["GameScore", "MatchScore", "ScoreLine", "score_match", "Match", "next_dealer"]


def _higher(totals: tuple[int, int]) -> int | None:
    """The seat with the higher total, ``None`` when they are equal."""
    a, b = totals
    if a == b:
        return None
    return 0 if a > b else 1


def _margin(totals: tuple[int, int], winner: int | None) -> int:
    """The winner's total minus the other's; 0 when there is no winner (a tie)."""
    if winner is None:
        return 0
    return totals[winner] - totals[1 - winner]


@dataclass(frozen=True)
class ScoreLine:
    """One scored hand as entered in one game: ``hand`` is the match's hand number (1-based)."""

    hand: int
    seat: int
    points: int
    running: tuple[int, int]


@dataclass
class GameScore:
    """One game's score sheet. ``totals`` are final (bonuses included) once ``over``, the
    running points before. ``winner`` is 0, 1, or ``None`` for a tie or a game not over, by
    ``winner_rule`` (the rule set's ``winner``)."""

    index: int
    target: int
    winner_rule: WinnerRule = "higher_total"
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    lines: list[ScoreLine] = field(default_factory=list)
    over: bool = False
    reached: int | None = None
    game_bonus: list[int] = field(default_factory=lambda: [0, 0])
    box_bonus: list[int] = field(default_factory=lambda: [0, 0])
    shutout: bool = False
    doubled: list[int] = field(default_factory=lambda: [0, 0])
    final: tuple[int, int] | None = None

    @property
    def totals(self) -> tuple[int, int]:
        if self.final is not None:
            return self.final
        return (self.points[0], self.points[1])

    @property
    def winner(self) -> int | None:
        """Who won the game by the rule: the seat that reached the target under
        ``first_to_target``, the higher final total (``None`` when equal) under
        ``higher_total``; ``None`` while the game is not over."""
        if not self.over:
            return None
        if self.winner_rule == "first_to_target":
            return self.reached
        return _higher(self.totals)

    @property
    def margin(self) -> int | None:
        """The margin of victory: the winner's final total minus the other player's (0 for a
        tie, ``None`` while the game is not over). Under ``first_to_target`` it is negative
        when the player who did not reach the target ends with the higher total."""
        if not self.over:
            return None
        return _margin(self.totals, self.winner)

    def _enter(self, hand: int, seat: int, points: int, rules: RuleSet) -> None:
        self.points[seat] += points
        self.hands_won[seat] += 1
        self.lines.append(ScoreLine(hand, seat, points, (self.points[0], self.points[1])))
        if self.points[seat] >= self.target:
            self.over = True
            self.reached = seat
            self._finish(rules)

    def _finish(self, rules: RuleSet) -> None:
        reached = self.reached
        assert reached is not None
        other = 1 - reached
        if rules.shutout_when == "never_scored":
            shut = self.points[other] == 0
        else:
            shut = self.hands_won[other] == 0
        bonus = rules.game_bonus
        if rules.shutout == "game_bonus" and shut:
            bonus = rules.shutout_game_bonus
        self.shutout = shut and rules.shutout != "none"
        self.game_bonus[reached] = bonus
        self.box_bonus = [rules.box_bonus * self.hands_won[0], rules.box_bonus * self.hands_won[1]]
        totals = [
            self.points[s] + self.game_bonus[s] + self.box_bonus[s] for s in (0, 1)
        ]
        if rules.shutout == "double" and shut:
            self.doubled[reached] = totals[reached]
            totals[reached] *= 2
        self.final = (totals[0], totals[1])


@dataclass
class MatchScore:
    """The whole match's score: one game, or three under Hollywood.

    ``winner`` is the game's winner when there is one game. Under Hollywood, once every game
    is over: with ``higher_total`` the player with the higher sum of final totals, with
    ``first_to_target`` the player who won more of the three games (``None`` for a tie or a
    match not over).
    """

    rules: RuleSet
    hollywood: bool
    games: list[GameScore]
    entries: list[tuple[int, int] | None] = field(default_factory=list)
    wins: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def over(self) -> bool:
        return all(g.over for g in self.games)

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(g.totals[0] for g in self.games), sum(g.totals[1] for g in self.games))

    @property
    def games_won(self) -> tuple[int, int]:
        """How many finished games each seat has won (by the rule set's ``winner`` rule)."""
        won = [g.winner for g in self.games]
        return (won.count(0), won.count(1))

    @property
    def winner(self) -> int | None:
        """Who won the match (see the class docstring); ``None`` for a tie or while not over."""
        if not self.over:
            return None
        if not self.hollywood:
            return self.games[0].winner
        if self.rules.winner == "first_to_target":
            return _higher(self.games_won)
        return _higher(self.totals)

    @property
    def margin(self) -> int | None:
        """The winner's total minus the other player's (the sum over the three games under
        Hollywood); 0 for a tie, ``None`` while the match is not over. It can be negative
        under ``first_to_target``."""
        if not self.over:
            return None
        return _margin(self.totals, self.winner)

    def add(self, entry: tuple[int, int] | None) -> None:
        """Enter one hand: ``(seat, points)`` or ``None`` for a cancelled hand."""
        number = len(self.entries) + 1
        if self.over:
            raise GinRummyError(
                f"hand {number} comes after the end of the match; nothing more can be scored"
            )
        if entry is None:
            self.entries.append(None)
            return
        try:
            seat, points = entry
        except (TypeError, ValueError):
            raise GinRummyError(
                f"hand {number}: expected (seat, points) or None, got {shown(entry)}"
            ) from None
        seat = seat_number(seat, f"hand {number}: the seat is")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise GinRummyError(
                f"hand {number}: points must be a whole number of 0 or more, not {shown(points)}"
            )
        self.entries.append((seat, points))
        self.wins[seat] += 1
        if self.hollywood:
            open_games = [g for g in self.games if not g.over]
            for game in open_games[: min(self.wins[seat], 3)]:
                game._enter(number, seat, points, self.rules)
        else:
            self.games[0]._enter(number, seat, points, self.rules)


def score_match(
    rules: RulesLike,
    hands: Iterable[tuple[int, int] | None],
    *,
    hollywood: bool = False,
) -> MatchScore:
    """Score a match from its hands in order: ``(seat, points)`` per scored hand, ``None`` per
    cancelled hand. Hollywood keeps three games (also switched on by the rules' own option)."""
    rule_set = get_rules(rules)
    holly = bool(hollywood) or rule_set.hollywood
    games = [GameScore(i, rule_set.target, rule_set.winner) for i in range(3 if holly else 1)]
    score = MatchScore(rule_set, holly, games)
    for entry in hands:
        score.add(entry)
    return score


def next_dealer(rules: RuleSet, dealer: int, result: HandResult) -> int:
    """Who deals after a hand dealt by ``dealer`` that ended with ``result``."""
    if result.kind == "cancelled":
        return dealer if rules.after_cancel == "same" else 1 - dealer
    if rules.next_dealer == "winner":
        assert result.winner_seat is not None
        return result.winner_seat
    return 1 - dealer


DeckSource = Callable[[int], Sequence[int]]
"""Gives the deck (index 0 on top) of the match's hand number ``n`` (0-based)."""


def seeded_decks(seed: str) -> DeckSource:
    """Deck source for practice and simulation: one shuffle per hand from a string seed."""
    return _SeededDecks(seed)


class _SeededDecks:
    """:func:`seeded_decks`' source, a class rather than a closure so that a match (and an
    environment holding one) can be pickled."""

    __slots__ = ("seed",)

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def __call__(self, n: int) -> list[int]:
        order = list(range(52))
        random.Random(f"{self.seed}/hand/{n}").shuffle(order)
        return order


class Match:
    """A match under one rule set: deals hands, keeps the score, rotates the dealer.

    Play moves with :meth:`play`; when a hand is over and the match is not, call
    :meth:`next_hand` to deal the next one. ``seed`` makes the deal reproducible (cut and
    shuffles); ``decks`` supplies each hand's deck instead (records and sealed deals).
    """

    def __init__(
        self,
        rules: RulesLike = "traditional",
        *,
        seed: int | str | None = None,
        first_dealer: int | None = None,
        decks: DeckSource | None = None,
        start: bool = True,
    ) -> None:
        self.rules = get_rules(rules)
        self.seed = str(seed) if seed is not None else secrets.token_hex(16)
        if first_dealer is None:
            first_dealer = random.Random(f"{self.seed}/cut").randrange(2)
        self.first_dealer = seat_number(first_dealer, "the first dealer is seat")
        if decks is not None and not callable(decks):
            raise GinRummyError(
                "decks is a function from a hand's number to its deck, not "
                f"{type(decks).__name__}"
            )
        self.decks = decks if decks is not None else seeded_decks(self.seed)
        self.hands: list[Hand] = []
        self.score = score_match(self.rules, [])
        self._earlier_views: list[tuple[PlayerView, ...]] = [(), ()]
        if start:
            self.next_hand()

    # Reading.

    @property
    def hand(self) -> Hand:
        """The current (or last) hand."""
        if not self.hands:
            raise GinRummyError("no hand has been dealt yet")
        return self.hands[-1]

    @property
    def over(self) -> bool:
        return self.score.over

    @property
    def results(self) -> list[HandResult]:
        return [h.result for h in self.hands if h.result is not None]

    @property
    def waiting_for_next_hand(self) -> bool:
        """True between hands: the current hand is over and the match is not."""
        return bool(self.hands) and self.hands[-1].over and not self.over

    @property
    def next_dealer(self) -> int:
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        if last.result is None:
            raise GinRummyError("the current hand is not over")
        return next_dealer(self.rules, last.dealer, last.result)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows, with the match's running scores and its finished hands."""
        totals = self.score.games[0].totals if not self.score.hollywood else self.score.totals
        return replace(self.hand.view(seat), scores=totals, hand_number=len(self.hands),
                       earlier_hands=self._earlier(seat))

    def _earlier(self, seat: int) -> tuple[PlayerView, ...]:
        """The views at their end of the hands before the current one (kept: a finished hand
        does not change, and a view is built before every computer move)."""
        finished = len(self.hands) - 1
        cached = self._earlier_views[seat]
        if len(cached) != finished:
            cached = cached[:finished] + tuple(
                self.hands[i].view(seat) for i in range(len(cached), finished))
            self._earlier_views[seat] = cached
        return cached

    # Playing.

    def next_hand(self, deck: Sequence[int] | None = None) -> Hand:
        """Deal the next hand (from ``deck`` if given, else from the match's deck source)."""
        if self.over:
            raise IllegalMoveError("The match is over.")
        if self.hands and not self.hands[-1].over:
            raise IllegalMoveError("Finish the current hand before dealing the next one.")
        # The deck goes to Hand as given: Hand checks it (any card form, each card once).
        order = deck if deck is not None else self.decks(len(self.hands))
        hand = Hand(self.rules, deck=order, dealer=self.next_dealer)
        self.hands.append(hand)
        return hand

    def play(self, move: str) -> HandResult | None:
        """Play a move in the current hand; returns the hand's result when it ends."""
        hands = self.hands
        # A match ends only when a hand does: with a hand in play the match is not over, and
        # the score (every game's) is asked only between hands.
        if not hands or hands[-1].over:
            if self.over:
                raise IllegalMoveError("The match is over.")
            if hands:
                raise IllegalMoveError("The hand is over; deal the next hand first.")
        hand = self.hand  # with none dealt yet, its own error
        hand.play(move)
        if hand.result is not None:
            self._score(hand.result)
        return hand.result

    def _score(self, result: HandResult) -> None:
        if result.kind == "cancelled" or result.winner_seat is None:
            self.score.add(None)
        else:
            self.score.add((result.winner_seat, result.points))

    def undo(self) -> str:
        """Take back the last move of the current hand (not across hands)."""
        hand = self.hand
        was_over = hand.over
        text = hand.undo()
        if was_over:
            entries = self.score.entries[:-1]
            self.score = score_match(self.rules, entries)
        return text

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.describe()} hands={len(self.hands)} "
            f"totals={self.score.totals} over={self.over}>"
        )
