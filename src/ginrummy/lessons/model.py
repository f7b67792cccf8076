"""What a lesson is: its topics, proofs and rule features, and the ``[meta.lesson]`` table of a
situation record read into a :class:`Lesson` (checked for shape here, against the engine in
:mod:`.check`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import PROFILE_NAMES, RuleSet
from .position import InvalidSituationError, Outcome, Position

__all__ = ["TOPICS", "PROOFS", "FEATURES", "FACT_FIELDS", "Fact", "Lesson", "Situation",
           "parse_lesson"]

TOPICS: dict[str, str] = {
    "upcard": "Taking the upcard",
    "discard": "Which card to throw",
    "melds": "Melds",
    "knock": "Knock now or wait for gin",
    "undercut": "Undercuts",
    "layoffs": "Layoffs",
    "oklahoma": "Oklahoma",
    "scoring": "Scoring and the end of a game",
    "hollywood": "Hollywood",
    "stock": "The end of the stock",
}

#: How a lesson's answer is shown to be right.
PROOFS: dict[str, str] = {
    "least-deadwood": "the engine checks that the answers, and only they, leave the least "
    "deadwood",
    "best-ending": "the engine scores every way to end the hand now; the answers score best",
    "best-line": "the engine plays every legal move's line in the facts; the answers' lines "
    "score best",
    "judgement": "sensible strategy rather than a rule: the engine checks that the move is "
    "legal and every fact quoted; the best play also depends on cards you cannot see",
}

#: Rule features a situation can illustrate, each a fact about a RuleSet.
FEATURES: dict[str, tuple[str, Callable[[RuleSet], bool]]] = {
    "bonuses-20-10": (
        "a gin bonus of 20 and an undercut bonus of 10",
        lambda r: r.gin_bonus == 20 and r.undercut_bonus == 10,
    ),
    "bonuses-25": (
        "gin and undercut bonuses of 25",
        lambda r: r.gin_bonus == 25 and r.undercut_bonus == 25,
    ),
    "winner-deals": ("the winner of a hand deals the next", lambda r: r.next_dealer == "winner"),
    "big-gin": ("big gin: eleven melded cards", lambda r: r.big_gin),
    "knock-card": ("the first upcard sets the knock limit", lambda r: r.oklahoma),
    "spade-double": ("a spade first upcard doubles the hand", lambda r: r.spade_double),
    "shutout-200": (
        "a game bonus of 200 instead of 100 for a shutout",
        lambda r: r.shutout == "game_bonus" and r.shutout_game_bonus == 200,
    ),
    "shutout-double": (
        "a shutout doubles the winner's final total",
        lambda r: r.shutout == "double",
    ),
    "box-bonus": ("a box bonus for every hand won", lambda r: r.box_bonus > 0),
    "no-end-bonuses": (
        "no game bonus and no box bonus",
        lambda r: r.game_bonus == 0 and r.box_bonus == 0 and r.shutout == "none",
    ),
    "hollywood": ("Hollywood: three games at once", lambda r: r.hollywood),
    "last-discard-chance": (
        "the last discard may be taken to knock",
        lambda r: r.last_discard_chance,
    ),
}

#: What a fact may expect, and the type of each expectation.
FACT_FIELDS: dict[str, type | tuple[type, ...]] = {
    "illegal": bool,
    "kind": str,
    "winner": str,
    "points": int,
    "bonus": int,
    "multiplier": int,
    "knock_limit": int,
    "knocker_deadwood": int,
    "defender_deadwood": int,
    "layoffs": str,
    "deadwood": int,
    "totals": list,
    "game_bonus": list,
    "box_bonus": list,
    "game_over": list,
}


_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_TEXT_LIMIT = 1200
_LESSON_KEYS = {
    "id", "title", "heading", "topic", "profiles", "features", "seat", "question", "answers",
    "proof", "why", "takeaway", "facts",
}
_REQUIRED = ("id", "title", "heading", "topic", "seat", "question", "answers", "proof", "why",
             "takeaway")


@dataclass(frozen=True)
class Fact:
    """A line of play from the position and what the engine must find at its end."""

    moves: tuple[str, ...]
    expect: Mapping[str, Any]
    note: str = ""


@dataclass(frozen=True)
class Lesson:
    """The teaching part of a situation (``meta.lesson`` of the record)."""

    id: str
    #: The lesson's title, which may say the answer: shown once the situation is answered.
    title: str
    #: A neutral title, shown before the answer: it names the decision, not what to do.
    heading: str
    topic: str
    profiles: tuple[str, ...]
    features: tuple[str, ...]
    seat: int
    question: str
    answers: tuple[str, ...]
    proof: str
    why: str
    takeaway: str
    facts: tuple[Fact, ...] = field(default=())

    @property
    def topic_title(self) -> str:
        return TOPICS[self.topic]


@dataclass(frozen=True)
class Situation:
    """A lesson and the position it asks about; ``source`` names the file it came from."""

    lesson: Lesson
    position: Position
    source: str
    text: str

    @property
    def id(self) -> str:
        return self.lesson.id

    def fact_outcomes(self) -> list[tuple[Fact, Outcome]]:
        """Every fact with the engine's outcome of its line."""
        return [(f, self.position.play(f.moves)) for f in self.lesson.facts]


def _expect_type(value: Any, kind: type | tuple[type, ...]) -> bool:
    if isinstance(value, bool) and kind is int:
        return False
    return isinstance(value, kind)


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise InvalidSituationError(f"{where}: {key!r} must be non-empty text")
    if len(value) > _TEXT_LIMIT:
        raise InvalidSituationError(f"{where}: {key!r} is over {_TEXT_LIMIT} characters")
    return " ".join(value.split())


def _strings(table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidSituationError(f"{where}: {key!r} must be a list of text")
    return tuple(value)


def parse_lesson(data: Mapping[str, Any], where: str = "situation") -> Lesson:
    """The lesson table of a record's raw data, checked for shape (not yet against the engine)."""
    meta = data.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("lesson"), dict):
        raise InvalidSituationError(f"{where}: no [meta.lesson] table")
    table: dict[str, Any] = meta["lesson"]
    unknown = set(table) - _LESSON_KEYS
    if unknown:
        raise InvalidSituationError(
            f"{where}: unknown field(s) in [meta.lesson]: {', '.join(sorted(unknown))}"
        )
    missing = [k for k in _REQUIRED if k not in table]
    if missing:
        raise InvalidSituationError(f"{where}: [meta.lesson] lacks {', '.join(missing)}")
    lesson_id = table["id"]
    if not isinstance(lesson_id, str) or not _ID.match(lesson_id):
        raise InvalidSituationError(
            f"{where}: the id {lesson_id!r} must be lower-case words joined by dashes"
        )
    where = f"{where} ({lesson_id})"
    topic = table["topic"]
    if topic not in TOPICS:
        raise InvalidSituationError(
            f"{where}: unknown topic {topic!r}; topics are {', '.join(TOPICS)}"
        )
    profiles = _strings(table, "profiles", where)
    for p in profiles:
        if p not in PROFILE_NAMES:
            raise InvalidSituationError(
                f"{where}: unknown profile {p!r}; profiles are {', '.join(PROFILE_NAMES)}"
            )
    features = _strings(table, "features", where)
    for f in features:
        if f not in FEATURES:
            raise InvalidSituationError(
                f"{where}: unknown feature {f!r}; features are {', '.join(FEATURES)}"
            )
    seat = table["seat"]
    if seat not in (0, 1) or isinstance(seat, bool):
        raise InvalidSituationError(f"{where}: 'seat' must be 0 or 1, not {seat!r}")
    answers = _strings(table, "answers", where)
    if not answers:
        raise InvalidSituationError(f"{where}: 'answers' lists no move")
    proof = table["proof"]
    if proof not in PROOFS:
        raise InvalidSituationError(
            f"{where}: unknown proof {proof!r}; proofs are {', '.join(PROOFS)}"
        )
    facts_raw = table.get("facts", [])
    if not isinstance(facts_raw, list) or not all(isinstance(f, dict) for f in facts_raw):
        raise InvalidSituationError(f"{where}: 'facts' must be [[meta.lesson.facts]] tables")
    facts = tuple(_parse_fact(f, f"{where}, fact {i}") for i, f in enumerate(facts_raw, 1))
    return Lesson(
        id=lesson_id,
        title=_text(table, "title", where),
        heading=_heading(table, where),
        topic=topic,
        profiles=profiles,
        features=features,
        seat=seat,
        question=_text(table, "question", where),
        answers=answers,
        proof=proof,
        why=_text(table, "why", where),
        takeaway=_text(table, "takeaway", where),
        facts=facts,
    )


def _heading(table: Mapping[str, Any], where: str) -> str:
    """The neutral title: not the lesson's title, and not one that contains it."""
    heading = _text(table, "heading", where)
    if table["title"].lower() in heading.lower():
        raise InvalidSituationError(
            f"{where}: the heading {heading!r} says the title; it is shown before the answer, "
            "so it names the decision without giving the answer away"
        )
    return heading


def _parse_fact(table: Mapping[str, Any], where: str) -> Fact:
    unknown = set(table) - set(FACT_FIELDS) - {"moves", "note"}
    if unknown:
        raise InvalidSituationError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    moves = _strings(table, "moves", where)
    if not moves:
        raise InvalidSituationError(f"{where}: 'moves' lists no move")
    if any(m.strip().lower() == "draw" for m in moves):
        raise InvalidSituationError(
            f"{where}: a fact may not draw from the stock (the stock stays secret)"
        )
    expect = {k: v for k, v in table.items() if k in FACT_FIELDS}
    for k, v in expect.items():
        if not _expect_type(v, FACT_FIELDS[k]):
            raise InvalidSituationError(f"{where}: {k!r} has the wrong type ({v!r})")
    if not expect:
        raise InvalidSituationError(f"{where}: the fact expects nothing to check")
    note = table.get("note", "")
    if not isinstance(note, str):
        raise InvalidSituationError(f"{where}: 'note' must be text")
    return Fact(moves=moves, expect=expect, note=" ".join(note.split()))

