"""Score sheets as plain data: one row per hand, per game, plus the end-of-game bonuses, and
the words every table uses when a game or the match ends (who won, and by how much).

Tables (terminal, web) render these rows; nothing here prints.

>>> from ginrummy.engine.match import score_match
>>> score = score_match("modern", [(1, 11)] * 9 + [(0, 100)])
>>> match_outcome(score, ("You", "Computer"))
"You won, having reached 100 first, though Computer's final total is higher, by 99"
>>> match_outcome(score_match("traditional", [(0, 60), (1, 12), (0, 45)]), ("Ann", "Bob"))
'Ann won by 213 points'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.match import GameScore, Match, MatchScore
from .explain import possessive, with_verb

__all__ = [
    "SheetRow", "GameSheet", "score_sheet", "describe_result", "game_outcome", "match_outcome",
]


@dataclass(frozen=True)
class SheetRow:
    """One hand on the sheet: who dealt, how it ended, the points entered in each game."""

    hand: int
    dealer: int
    outcome: str
    winner: int | None
    points: int
    entered: tuple[bool, ...]
    running: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class GameSheet:
    """One game's column: points, bonuses and the final totals; once over, who reached the
    target, who won by the rule set's ``winner`` rule and the margin of victory (the winner's
    final total minus the other's, negative when the other's is higher; 0 for a tie)."""

    index: int
    points: tuple[int, int]
    hands_won: tuple[int, int]
    game_bonus: tuple[int, int]
    box_bonus: tuple[int, int]
    shutout: bool
    doubled: tuple[int, int]
    totals: tuple[int, int]
    over: bool
    winner: int | None
    reached: int | None = None
    margin: int | None = None


def describe_result(
    kind: str, winner: int | None, points: int, names: tuple[str, str], you: int | None = None
) -> str:
    """Short outcome text for a sheet row: ``"undercut: Ann scores 28"``; the seat ``you`` is
    addressed in the second person (``"gin: you score 45"``)."""
    if kind == "cancelled" or winner is None:
        return "cancelled (stock ran out)"
    label = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin"}[kind]
    if winner == you:
        return f"{label}: you score {points}"
    return f"{label}: {with_verb(names[winner], 'score')} {points}"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _name(seat: int, names: tuple[str, str], you: int | None) -> str:
    return "You" if seat == you else names[seat]


def game_outcome(
    game: GameSheet, names: tuple[str, str], target: int, *, you: int | None = None
) -> str:
    """Who won a finished game and by how much, in words (no final full stop):
    ``"You won by 86 points"``; under the first-to-reach rule, when the other player's final
    total is higher: ``"You won, having reached 100 first, though Computer's final total is
    higher, by 12"``; ``"The game is a tie at 220 each"``."""
    if not game.over:
        return f"The game is not over: {names[0]} {game.points[0]}, {names[1]} {game.points[1]}"
    if game.winner is None:
        return f"The game is a tie at {game.totals[0]} each"
    margin = game.margin if game.margin is not None else (
        game.totals[game.winner] - game.totals[1 - game.winner]
    )
    winner = _name(game.winner, names, you)
    loser = _name(1 - game.winner, names, you)
    if margin > 0:
        return f"{winner} won by {_points(margin)}"
    reached = f"{winner} won, having reached {target} first"
    if margin == 0:
        return f"{reached}, with equal final totals"
    return f"{reached}, though {possessive(loser)} final total is higher, by {-margin}"


def match_outcome(score: MatchScore, names: tuple[str, str], *, you: int | None = None) -> str:
    """Who won the match and by how much, in words (no final full stop). One game: the game's
    words (:func:`game_outcome`). Hollywood: the games won under the first-to-reach rule, the
    difference of the three games' totals under the higher-total rule."""
    if not score.over:
        return "The match is not over"
    if not score.hollywood:
        return game_outcome(_game_sheet(score.games[0]), names, score.rules.target, you=you)
    margin = score.margin
    assert margin is not None
    over = "over the three games"
    if score.winner is None:
        return f"The match is a tie at {score.totals[0]} each {over}"
    winner = _name(score.winner, names, you)
    loser = _name(1 - score.winner, names, you)
    if score.rules.winner == "higher_total":
        return f"{winner} won the match by {_points(margin)} {over}"
    won = score.games_won
    head = f"{winner} won the match, {won[score.winner]} games to {won[1 - score.winner]}"
    if margin > 0:
        return f"{head}, and by {_points(margin)} {over}"
    if margin == 0:
        return f"{head}, with equal totals {over}"
    return f"{head}, though {possessive(loser)} totals {over} are higher, by {-margin}"


def _game_sheet(g: GameScore) -> GameSheet:
    return GameSheet(
        index=g.index,
        points=(g.points[0], g.points[1]),
        hands_won=(g.hands_won[0], g.hands_won[1]),
        game_bonus=(g.game_bonus[0], g.game_bonus[1]),
        box_bonus=(g.box_bonus[0], g.box_bonus[1]),
        shutout=g.shutout,
        doubled=(g.doubled[0], g.doubled[1]),
        totals=g.totals,
        over=g.over,
        winner=g.winner,
        reached=g.reached,
        margin=g.margin,
    )


def score_sheet(
    match: Match, names: tuple[str, str] = ("Seat 0", "Seat 1"), *, you: int | None = None
) -> tuple[list[SheetRow], list[GameSheet]]:
    """Rows for every finished hand and one column summary per game (``you``: the seat to
    address in the second person)."""
    score = match.score
    rows: list[SheetRow] = []
    finished = [h for h in match.hands if h.result is not None]
    for number, hand in enumerate(finished, 1):
        result = hand.result
        assert result is not None
        entered = []
        running = []
        for g in score.games:
            line = next((ln for ln in g.lines if ln.hand == number), None)
            entered.append(line is not None)
            if line is not None:
                running.append(line.running)
            else:
                before = [ln for ln in g.lines if ln.hand < number]
                running.append(before[-1].running if before else (0, 0))
        rows.append(
            SheetRow(
                hand=number,
                dealer=hand.dealer,
                outcome=describe_result(
                    result.kind, result.winner_seat, result.points, names, you
                ),
                winner=result.winner_seat,
                points=result.points,
                entered=tuple(entered),
                running=tuple(running),
            )
        )
    return rows, [_game_sheet(g) for g in score.games]
