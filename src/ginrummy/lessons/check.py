"""Loading situations and checking each lesson against the engine: the answers are legal, the
proof holds, every fact's numbers are what the engine computes, every feature is a rule of the
table."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from typing import Any

from ..engine.cards import CardSet
from ..engine.errors import InvalidCardError, InvalidRecordError
from ..engine.melds import min_deadwood
from ..engine.move import DISCARD, Move
from ..engine.record import loads, parse
from .model import FEATURES, TOPICS, Fact, Lesson, Situation, parse_lesson
from .position import InvalidSituationError, Outcome, Position

__all__ = ["check_fact", "validate", "load_situation", "load_situations", "situation_files"]


def _pairs(
    games: Sequence[Any], pick: Callable[[Any], Sequence[int]], seat: int
) -> list[list[int]]:
    return [[pick(g)[seat], pick(g)[1 - seat]] for g in games]


def _found(outcome: Outcome, key: str) -> Any:
    """The engine's value of one fact field for this outcome (learner's side first)."""
    result = outcome.result
    seat = outcome.seat
    games = outcome.match.score.games
    if key == "deadwood":
        return outcome.deadwood
    if key == "totals":
        return _pairs(games, lambda g: g.totals, seat)
    if key == "game_bonus":
        return _pairs(games, lambda g: g.game_bonus, seat)
    if key == "box_bonus":
        return _pairs(games, lambda g: g.box_bonus, seat)
    if key == "game_over":
        return [g.over for g in games]
    if result is None:
        return None
    if key == "winner":
        if result.winner_seat is None:
            return "none"
        return "you" if result.winner_seat == seat else "opponent"
    if key == "layoffs":
        return str(CardSet(result.layoffs))
    return getattr(result, key)


def _normalize(key: str, value: Any) -> Any:
    if key == "layoffs":
        try:
            return str(CardSet(value))
        except InvalidCardError as exc:
            raise InvalidSituationError(f"'layoffs': {exc}") from None
    return value


def check_fact(fact: Fact, outcome: Outcome, where: str) -> None:
    """Raise :class:`InvalidSituationError` unless the engine's outcome matches the fact."""
    line = ", ".join(fact.moves)
    if fact.expect.get("illegal"):
        if outcome.legal or len(outcome.moves) != len(fact.moves):
            raise InvalidSituationError(
                f"{where}: [{line}] should end with a refused move, but the engine "
                + ("accepts it" if outcome.legal else f"refuses earlier: {outcome.error}")
            )
    elif not outcome.legal:
        raise InvalidSituationError(f"{where}: [{line}] is refused: {outcome.error}")
    for key, want in fact.expect.items():
        if key == "illegal":
            continue
        got = _found(outcome, key)
        if _normalize(key, want) != got:
            raise InvalidSituationError(
                f"{where}: after [{line}] the lesson says {key} = {want!r}, the engine finds "
                f"{got!r}"
            )


def _ends_hand(position: Position, move: str) -> Outcome | None:
    outcome = position.play([move])
    return outcome if outcome.legal and outcome.result is not None else None


def _check_proof(lesson: Lesson, position: Position, where: str) -> None:
    hand = position.match().hand
    legal = hand.legal_moves()
    answers = set(lesson.answers)
    if lesson.proof == "least-deadwood":
        mask = hand.hands[position.seat]
        carded = {m: card for m in legal if (card := Move.parse(m).card) is not None}
        if not carded:
            raise InvalidSituationError(f"{where}: least-deadwood needs a discard to choose")
        after = {m: min_deadwood(mask & ~(1 << card)) for m, card in carded.items()}
        least = min(after.values())
        best: set[str] = {m for m, dw in after.items() if dw == least}
        if not answers <= best or not {m for m in best if Move.parse(m).code == DISCARD} <= answers:
            raise InvalidSituationError(
                f"{where}: the moves that leave the least deadwood ({least}) are "
                f"{', '.join(sorted(best))}; the lesson accepts {', '.join(sorted(answers))}"
            )
    elif lesson.proof == "best-ending":
        endings = {m: o for m in legal if (o := _ends_hand(position, m)) is not None}
        if not endings or not answers <= set(endings):
            raise InvalidSituationError(f"{where}: best-ending answers must each end the hand")
        top = max(o.net for o in endings.values())
        best = {m for m, o in endings.items() if o.net == top}
        if answers != best:
            raise InvalidSituationError(
                f"{where}: the best endings ({top:+d}) are {', '.join(sorted(best))}; the "
                f"lesson accepts {', '.join(sorted(answers))}"
            )
    elif lesson.proof == "best-line":
        value: dict[str, int] = {}
        for fact in lesson.facts:
            outcome = position.play(fact.moves)
            if outcome.legal and outcome.result is None:
                raise InvalidSituationError(
                    f"{where}: best-line facts must end the hand ([{', '.join(fact.moves)}])"
                )
            if outcome.legal:
                first = outcome.moves[0]
                value[first] = max(value.get(first, outcome.net), outcome.net)
        missing = [m for m in legal if m not in value]
        if missing:
            raise InvalidSituationError(
                f"{where}: best-line needs a fact for every legal move; none for "
                f"{', '.join(missing)}"
            )
        top = max(value.values())
        best = {m for m, v in value.items() if v == top}
        if answers != best:
            raise InvalidSituationError(
                f"{where}: the best lines ({top:+d}) start with {', '.join(sorted(best))}; the "
                f"lesson accepts {', '.join(sorted(answers))}"
            )


def validate(lesson: Lesson, position: Position, where: str) -> None:
    """Check a lesson against the engine at its position; raise InvalidSituationError."""
    rules = position.rules
    if lesson.profiles and rules.profile not in lesson.profiles:
        raise InvalidSituationError(
            f"{where}: the record is played under {rules.profile}, which 'profiles' omits"
        )
    for f in lesson.features:
        if not FEATURES[f][1](rules):
            raise InvalidSituationError(
                f"{where}: feature {f!r} ({FEATURES[f][0]}) is not a rule of {rules.describe()}"
            )
    legal = position.legal_moves
    for a in lesson.answers:
        if a not in legal:
            raise InvalidSituationError(
                f"{where}: the answer {a!r} is not a legal move here; legal: {', '.join(legal)}"
            )
    for i, fact in enumerate(lesson.facts, 1):
        check_fact(fact, position.play(fact.moves), f"{where}, fact {i}")
    _check_proof(lesson, position, where)


def load_situation(text: str, source: str = "situation") -> Situation:
    """Load one situation file's text, replay it and check its lesson against the engine.

    Raises :class:`InvalidSituationError` naming ``source`` and what is wrong.
    """
    try:
        data = parse(text)
        match = loads(text)
    except InvalidRecordError as exc:
        raise InvalidSituationError(f"{source}: {exc}") from None
    lesson = parse_lesson(data, source)
    where = f"{source} ({lesson.id})"
    try:
        position = Position.from_match(match, lesson.seat)
    except InvalidSituationError as exc:
        raise InvalidSituationError(f"{where}: {exc}") from None
    validate(lesson, position, where)
    return Situation(lesson=lesson, position=position, source=source, text=text)


def situation_files() -> list[tuple[str, str]]:
    """``(file name, text)`` of every situation shipped with the package, in name order."""
    folder = resources.files("ginrummy.lessons") / "situations"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml") and entry.is_file():
            out.append((entry.name, entry.read_text(encoding="utf-8")))
    return out


def load_situations(files: Iterable[tuple[str, str]] | None = None) -> list[Situation]:
    """Every situation (the package's own by default), checked, in topic order.

    Raises :class:`InvalidSituationError` for the first broken file or a repeated id.
    """
    loaded = [load_situation(text, name) for name, text in (files or situation_files())]
    seen: dict[str, str] = {}
    for s in loaded:
        if s.id in seen:
            raise InvalidSituationError(
                f"{s.source}: the id {s.id!r} is already used by {seen[s.id]}"
            )
        seen[s.id] = s.source
    order = list(TOPICS)
    return sorted(loaded, key=lambda s: (order.index(s.lesson.topic), s.source))

