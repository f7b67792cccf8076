"""Sample situations for learning the game: positions with one decision and the lesson it teaches.

A situation is a match record (:mod:`ginrummy.record`) whose last hand stops at the learner's
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

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from .cards import Card, CardSet, parse_cards
from .errors import GinRummyError, IllegalMoveError, InvalidCardError, InvalidRecordError
from .explain import explain_result
from .match import Match
from .melds import discard_deadwoods, min_deadwood
from .record import loads, parse
from .rules import PROFILE_NAMES, RuleSet
from .settle import HandResult
from .view import PlayerView

__all__ = [
    "TOPICS",
    "PROOFS",
    "FEATURES",
    "FACT_FIELDS",
    "InvalidSituationError",
    "Fact",
    "Lesson",
    "Position",
    "Outcome",
    "Situation",
    "Answer",
    "CoachRater",
    "CoachVerdict",
    "load_situation",
    "load_situations",
    "situation_files",
    "answer",
    "coach_check",
    "NAMES",
]

#: Topics in the order a learner meets them, with their titles.
TOPICS: dict[str, str] = {
    "upcard": "Taking the upcard",
    "discard": "Which card to throw",
    "melds": "Melds",
    "knock": "Knock now or wait for gin",
    "undercut": "The undercut trap",
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

#: How the two seats are named in lessons, from the learner's side.
NAMES = ("You", "Opponent")

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_TEXT_LIMIT = 1200
_LESSON_KEYS = {
    "id", "title", "topic", "profiles", "features", "seat", "question", "answers", "proof",
    "why", "takeaway", "facts",
}
_REQUIRED = ("id", "title", "topic", "seat", "question", "answers", "proof", "why", "takeaway")


class InvalidSituationError(GinRummyError):
    """A situation file that cannot be loaded, or whose lesson the engine does not confirm."""


# ---------------------------------------------------------------------------------------------
# Positions and outcomes.


@dataclass(frozen=True)
class Outcome:
    """What the engine makes of some moves played from a position.

    ``error`` is the engine's sentence when the last move was refused (the moves before it
    were legal); ``result`` is set when the hand ended; ``deadwood`` is the learner's least
    deadwood when it goes on. ``match`` is the match after the moves.
    """

    moves: tuple[str, ...]
    seat: int
    match: Match
    error: str | None = None

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def result(self) -> HandResult | None:
        return self.match.hand.result

    @property
    def deadwood(self) -> int | None:
        """The learner's deadwood as things stand: with ten cards their least deadwood, with
        eleven (after taking or drawing) the least left by a discard the rules allow."""
        if self.result is not None:
            return None
        hand = self.match.hand
        mask = hand.hands[self.seat]
        if mask.bit_count() == 11:
            return min(dw for c, dw in discard_deadwoods(mask) if c != hand.taken)
        return min_deadwood(mask)

    @property
    def net(self) -> int:
        """Points the learner wins by this line (negative when the opponent scores)."""
        result = self.result
        if result is None or result.winner_seat is None:
            return 0
        return result.points if result.winner_seat == self.seat else -result.points

    def sentence(self) -> str:
        """The outcome in words, from the learner's side (the engine's explanation)."""
        if self.error is not None:
            return f"{self.error}"
        result = self.result
        names = NAMES if self.seat == 0 else (NAMES[1], NAMES[0])
        if result is not None:
            return explain_result(result, names, you=self.seat)
        last = self.moves[-1]
        if last.startswith("discard "):
            card = parse_cards(last.split()[1])[0]
            return (f"You discard the {card.symbol()} and keep {self.deadwood} deadwood; "
                    "the hand goes on.")
        if last == "take":
            taken = self.match.hand.taken
            what = f"the {Card(taken).symbol()}" if taken >= 0 else "the card"
            return (f"You take {what}; your best discard then leaves {self.deadwood} "
                    "deadwood.")
        if last == "pass":
            return f"You pass and keep your {self.deadwood} deadwood; the hand goes on."
        return f"You {last}; you hold {self.deadwood} deadwood."


@dataclass(frozen=True)
class Position:
    """A decision point: a match replayed up to one move, and the seat whose turn it is.

    Each call to :meth:`match` replays it afresh, so outcomes never disturb each other.
    """

    rules: RuleSet
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[str, ...], ...]
    seat: int

    @classmethod
    def from_match(cls, match: Match, seat: int | None = None) -> Position:
        """The position at the end of ``match`` (its last hand must not be over)."""
        if not match.hands:
            raise InvalidSituationError("the record has no hand")
        hand = match.hand
        if hand.over:
            raise InvalidSituationError(
                f"hand {len(match.hands)} is over: there is no decision left to make"
            )
        if seat is None:
            seat = hand.to_play
        if seat != hand.to_play:
            raise InvalidSituationError(
                f"the learner is seat {seat}, but it is seat {hand.to_play}'s turn"
            )
        return cls(
            rules=match.rules,
            first_dealer=match.first_dealer,
            decks=tuple(tuple(int(c) for c in h.deck) for h in match.hands),
            moves=tuple(tuple(h.moves) for h in match.hands),
            seat=seat,
        )

    @classmethod
    def from_record(
        cls,
        text: str,
        *,
        hand: int | None = None,
        move: int | None = None,
        seat: int | None = None,
    ) -> Position:
        """The decision before move ``move`` (0-based: the number of moves already played) of
        hand ``hand`` (1-based) of the record ``text``; by default the end of its last hand.

        This is how a decision of any finished hand is reopened; raises
        :class:`InvalidSituationError` when the point does not exist or is not a decision.
        """
        full = loads(text)
        if not full.hands:
            raise InvalidSituationError("the record has no hand")
        number = len(full.hands) if hand is None else hand
        if not 1 <= number <= len(full.hands):
            raise InvalidSituationError(
                f"the record has {len(full.hands)} hand(s); there is no hand {number}"
            )
        played = full.hands[number - 1].moves
        upto = len(played) if move is None else move
        if not 0 <= upto <= len(played):
            raise InvalidSituationError(
                f"hand {number} has {len(played)} moves; there is no move {upto}"
            )
        match = Match(full.rules, first_dealer=full.first_dealer, start=False)
        for h in full.hands[: number - 1]:
            match.next_hand(list(h.deck))
            for m in h.moves:
                match.play(m)
        match.next_hand(list(full.hands[number - 1].deck))
        for m in played[:upto]:
            match.play(m)
        return cls.from_match(match, seat)

    def match(self) -> Match:
        """A fresh match at this position."""
        match = Match(self.rules, first_dealer=self.first_dealer, start=False)
        for deck, moves in zip(self.decks, self.moves, strict=True):
            match.next_hand(list(deck))
            for m in moves:
                match.play(m)
        return match

    def view(self) -> PlayerView:
        """What the learner's seat knows here: the only thing a table may show before the
        answer."""
        return self.match().view(self.seat)

    @property
    def legal_moves(self) -> list[str]:
        return self.match().hand.legal_moves()

    def opponent_mask(self) -> int:
        """The opponent's cards here: shown only after the learner has answered."""
        return self.match().hand.hands[1 - self.seat]

    def play(self, moves: Sequence[str]) -> Outcome:
        """Play ``moves`` from here on a fresh match; a refused move stops the line."""
        match = self.match()
        done: list[str] = []
        for m in moves:
            try:
                match.play(m)
            except GinRummyError as exc:
                return Outcome((*done, m), self.seat, match, error=str(exc))
            done.append(match.hand.history[-1].text)
        return Outcome(tuple(done), self.seat, match)


# ---------------------------------------------------------------------------------------------
# Lessons.


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
    title: str
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


# ---------------------------------------------------------------------------------------------
# Checking a lesson against the engine.


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
        carded = [m for m in legal if m.split()[0] in ("discard", "knock")]
        if not carded:
            raise InvalidSituationError(f"{where}: least-deadwood needs a discard to choose")
        after = {m: min_deadwood(mask & ~(1 << parse_cards(m.split()[1])[0])) for m in carded}
        least = min(after.values())
        best = {m for m, dw in after.items() if dw == least}
        if not answers <= best or not {m for m in best if m.startswith("discard")} <= answers:
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
    folder = resources.files("ginrummy") / "situations"
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


# ---------------------------------------------------------------------------------------------
# Answering.


@dataclass(frozen=True)
class Answer:
    """The learner's move judged against the lesson.

    ``yours`` is the engine's outcome of the move; ``taught`` the outcome of the first taught
    answer when the learner chose otherwise (``None`` when it would draw from the stock, which
    stays secret).
    """

    situation: Situation
    move: str
    correct: bool
    yours: Outcome
    taught: Outcome | None
    facts: tuple[tuple[Fact, Outcome], ...]


def answer(situation: Situation, move: str) -> Answer:
    """Judge ``move`` at the situation's position.

    Raises :class:`~ginrummy.errors.IllegalMoveError` (with the engine's sentence) for a move
    the rules do not allow; nothing is changed.
    """
    yours = situation.position.play([move])
    if not yours.legal:
        raise IllegalMoveError(yours.error or f"{move!r} is not legal here")
    played = yours.moves[0]
    base = " ".join(played.split()[:2]) if played.startswith("knock ") else played
    correct = played in situation.lesson.answers or base in situation.lesson.answers
    taught = None
    first = situation.lesson.answers[0]
    if not correct and first != "draw":
        taught = situation.position.play([first])
    return Answer(
        situation=situation,
        move=played,
        correct=correct,
        yours=yours,
        taught=taught,
        facts=tuple(situation.fact_outcomes()),
    )


# ---------------------------------------------------------------------------------------------
# The coach's hook.


class CoachRater(Protocol):
    """What the coach will provide: each legal move of a view rated in expected points for
    that seat (higher is better). It sees the learner's view only, never the hidden cards."""

    def rate(self, view: PlayerView) -> Mapping[str, float]: ...


@dataclass(frozen=True)
class CoachVerdict:
    """Whether the coach agrees with a lesson: its best moves and the taught answers' ratings."""

    best: tuple[str, ...]
    ratings: Mapping[str, float]
    agrees: bool


def coach_check(
    situation: Situation, coach: CoachRater, tolerance: float = 1e-9
) -> CoachVerdict:
    """The hook for the coach: rate every legal move at the position and say whether the taught
    answers are best or equal best (within ``tolerance``)."""
    view = situation.position.view()
    ratings = dict(coach.rate(view))
    missing = [m for m in view.legal_moves if m not in ratings]
    if missing:
        raise GinRummyError(f"the coach did not rate {', '.join(missing)}")
    top = max(ratings[m] for m in view.legal_moves)
    best = tuple(m for m in view.legal_moves if ratings[m] >= top - tolerance)
    agrees = all(ratings[a] >= top - tolerance for a in situation.lesson.answers)
    return CoachVerdict(best=best, ratings=ratings, agrees=agrees)
