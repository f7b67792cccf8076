"""Sample situations for learning the game: positions with one decision and the lesson it teaches.

A situation is a match record (:mod:`ginrummy.engine.record`) whose last hand stops at the learner's
decision, with a lesson table in the record's ``meta``::

    [meta.lesson]
    id = "qka-not-a-run"            # unique, lower case and dashes
    title = "Q-K-A is not a run"
    topic = "melds"                  # a key of TOPICS
    profiles = ["traditional"]       # the profiles it illustrates (the record's own included)
    features = []                    # rule features it shows, keys of FEATURES
    seat = 0                         # the learner's seat; it must be that seat's turn
    question = "..."
    answers = ["discard Ks"]         # every accepted move, in engine notation
    proof = "least-deadwood"         # how the answer is checked, a key of PROOFS
    why = "..."
    takeaway = "..."

    [[meta.lesson.facts]]            # outcomes the explanation quotes, recomputed on load
    moves = ["knock Ks"]             # played from the position, the learner's move first
    illegal = true                   # expected fields: see FACT_FIELDS

Loading replays the record through the engine and checks everything the lesson claims:
the answers are legal; the proof holds (``least-deadwood``, ``best-ending``, ``best-line``);
every fact's numbers are what the engine computes; every claimed feature is a rule of the
record's table. ``judgement`` lessons are sensible strategy that the engine cannot prove
alone: :func:`coach_check` is the hook where the coach will rate them.

A :class:`Position` can be opened from any record at any move (:meth:`Position.from_record`),
which is what revisiting a decision of a finished hand needs.
"""

from __future__ import annotations

from .answers import Answer, CoachRater, CoachVerdict, answer, coach_check
from .check import check_fact, load_situation, load_situations, situation_files, validate
from .model import FACT_FIELDS, FEATURES, PROOFS, TOPICS, Fact, Lesson, Situation, parse_lesson
from .position import NAMES, InvalidSituationError, Outcome, Position

__all__ = [
    "TOPICS",
    "PROOFS",
    "FEATURES",
    "FACT_FIELDS",
    "NAMES",
    "InvalidSituationError",
    "Fact",
    "Lesson",
    "Position",
    "Outcome",
    "Situation",
    "Answer",
    "CoachRater",
    "CoachVerdict",
    "answer",
    "check_fact",
    "coach_check",
    "load_situation",
    "load_situations",
    "parse_lesson",
    "situation_files",
    "validate",
]
