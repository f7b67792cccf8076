"""Score sheets as plain data: one row per hand, per game, plus the end-of-game bonuses.

Tables (terminal, web) render these rows; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from .match import GameScore, Match

__all__ = ["SheetRow", "GameSheet", "score_sheet", "describe_result"]


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
    """One game's column: points, bonuses and the final totals."""

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
    return f"{label}: {names[winner]} scores {points}"


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
