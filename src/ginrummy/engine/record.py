"""A text record of a whole match that replays move by move (TOML).

A record holds the rule profile and its overrides, the first dealer, and for every hand its
dealer, its deck (index 0 on top) and every move; finished hands also carry a one-line result
that :func:`loads` checks against the replay. An unfinished last hand is allowed, so a record is
also a saved game.

>>> from ginrummy.engine.match import Match
>>> m = Match("modern", seed="doc")
>>> _ = m.play("pass")
>>> again = loads(dumps(m))
>>> again.hand.moves, again.rules.describe()
(['pass'], 'modern')
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import CARD_TEXT, parse_cards
from .errors import GinRummyError, InvalidCardError, InvalidRecordError
from .hand import Hand
from .match import Match
from .rules import OVERRIDABLE, get_rules

__all__ = ["dumps", "loads", "catch_up", "load", "dump", "play_moves", "FORMAT"]

FORMAT = 1
_TOP_KEYS = {"format", "profile", "overrides", "first_dealer", "players", "hands", "meta"}
_HAND_KEYS = {"dealer", "deck", "moves", "result", "meta"}


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_string(v: str) -> str:
    """A TOML basic string. JSON's escaping fits TOML's except for DEL (U+007F), which JSON
    leaves raw and TOML forbids. Most strings (moves, cards) need no escaping at all."""
    if _PLAIN.fullmatch(v):
        return f'"{v}"'
    return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")


#: Text a TOML basic string holds as it is: printable ASCII but the quote and the backslash.
_PLAIN = re.compile(r'[ !#-\[\]-~]*')


def _toml_key(k: Any) -> str:
    """A key as written in a table: bare when TOML allows it, quoted otherwise (a bare
    ``a.b`` would be read back as a nested table)."""
    if not isinstance(k, str):
        raise TypeError(f"cannot write the key {k!r} in a record")
    return k if _BARE_KEY.fullmatch(k) else _toml_string(k)


def _toml_value(
    v: Any,
    string: Callable[[str], str] = _toml_string,
    where: str = "a record",
    error: Callable[[str], Exception] = TypeError,
) -> str:
    """``v`` as TOML writes it: a boolean, an integer, a string (as ``string`` writes it), an
    inline table or an array of these. Anything else raises ``error`` saying it cannot be
    written in ``where`` (the lessons write theirs with their own strings and error)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, Mapping):
        inner = ", ".join(
            f"{_toml_key(k)} = {_toml_value(x, string, where, error)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(v, Sequence):
        return "[" + ", ".join(_toml_value(x, string, where, error) for x in v) + "]"
    raise error(f"cannot write {v!r} in {where}")


def dumps(
    match: Match,
    *,
    players: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
    hand_meta: Sequence[Mapping[str, Any]] | None = None,
    after: str | None = None,
) -> str:
    """The record of ``match`` as text. ``players`` names seats 0 and 1; ``meta`` and
    ``hand_meta`` carry extra string/int fields (such as sealed-deal data) for other layers.

    ``after``: a record this function wrote of the same match earlier, with the same players
    and meta. The hands before its last one are over, so they do not change: they are taken
    from it as written and only the rest is written again (a server saves after every move,
    and a long match's record is mostly finished hands)."""
    rules = match.rules
    lines = [
        "# ginrummy match record",
        f"format = {FORMAT}",
        f"profile = {_toml_value(rules.profile)}",
        f"overrides = {_toml_value(dict(rules.overrides))}",
        f"first_dealer = {match.first_dealer}",
    ]
    if players is not None:
        lines.append(f"players = {_toml_value(list(players))}")
    if meta:
        lines.append(f"meta = {_toml_value(dict(meta))}")
    first = 0
    if after is not None:
        # Each hand is written as a blank line and "[[hands]]": the text before the last
        # hand's blank line is the head and the hands that are over.
        start = after.rfind(_HAND_HEADER)
        done = after.count(_HAND_HEADER) - 1
        if (start > 0 and done <= len(match.hands)
                and after.startswith("\n".join(lines) + "\n")
                and all(hand.over for hand in match.hands[:done])):
            lines, first = [after[:start - 1]], done
    for i, hand in enumerate(match.hands[first:], first):
        lines.append("")
        lines.append("[[hands]]")
        lines.append(f"dealer = {hand.dealer}")
        deck = " ".join(CARD_TEXT[c] for c in hand.deck)
        lines.append(f"deck = {_toml_value(deck)}")
        if hand.history:
            lines.append("moves = [")
            lines.extend(f"  {_toml_value(e.text)}," for e in hand.history)
            lines.append("]")
        else:
            lines.append("moves = []")
        if hand.result is not None:
            lines.append(f"result = {_toml_value(hand.result.summary())}")
        if hand_meta is not None and i < len(hand_meta) and hand_meta[i]:
            lines.append(f"meta = {_toml_value(dict(hand_meta[i]))}")
    return "\n".join(lines) + "\n"


def _need(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in table:
        raise InvalidRecordError(f"{where}: missing {key!r}")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidRecordError(f"{where}: {key!r} has the wrong type ({value!r})")
    return value



def read_toml(text: str, what: str, error: type[GinRummyError]) -> dict[str, Any]:
    """``text`` read as TOML, or ``error`` saying why ``what`` is not valid TOML: a syntax
    error, and what a hostile file can also bring (nesting deeper than Python recurses, an
    integer of more digits than Python converts)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} is not valid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{what} is not valid TOML: it nests arrays or tables too deep") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise error(f"{what} is not valid TOML: {exc}") from None

def parse(text: str) -> dict[str, Any]:
    """The record's raw tables, checked for shape only."""
    if not isinstance(text, str):
        raise InvalidRecordError("a record is text")
    data = read_toml(text, "the record", InvalidRecordError)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise InvalidRecordError(f"unknown field(s) in the record: {', '.join(sorted(unknown))}")
    fmt = _need(data, "format", int, "record")
    if fmt != FORMAT:
        raise InvalidRecordError(f"record format {fmt} is not supported (this is format {FORMAT})")
    _need(data, "profile", str, "record")
    overrides = data.get("overrides", {})
    if not isinstance(overrides, dict):
        raise InvalidRecordError("record: 'overrides' must be a table")
    _need(data, "first_dealer", int, "record")
    _check_hands(data.get("hands", []))
    players = data.get("players")
    if players is not None and (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) for p in players)
    ):
        raise InvalidRecordError("record: 'players' must be two names")
    return data


def _check_hands(hands: Any, first: int = 1) -> list[dict[str, Any]]:
    """A record's ``hands``, their shape checked (numbered from ``first`` in messages)."""
    if not isinstance(hands, list):
        raise InvalidRecordError("record: 'hands' must be a list of tables")
    for i, h in enumerate(hands, first):
        if not isinstance(h, dict):
            raise InvalidRecordError(f"hand {i}: not a table")
        unknown = set(h) - _HAND_KEYS
        if unknown:
            raise InvalidRecordError(f"hand {i}: unknown field(s) {', '.join(sorted(unknown))}")
        _need(h, "dealer", int, f"hand {i}")
        _need(h, "deck", str, f"hand {i}")
        moves = _need(h, "moves", list, f"hand {i}")
        if not all(isinstance(m, str) for m in moves):
            raise InvalidRecordError(f"hand {i}: every move must be text")
        if "result" in h and not isinstance(h["result"], str):
            raise InvalidRecordError(f"hand {i}: 'result' must be text")
    return hands


def loads(text: str) -> Match:
    """Replay a record into a :class:`Match` (the last hand may be unfinished).

    Raises :class:`InvalidRecordError` saying which hand and move went wrong.
    """
    data = parse(text)
    try:
        rules = get_rules(data["profile"], **data.get("overrides", {}))
    except GinRummyError as exc:
        raise InvalidRecordError(f"record: {exc}") from None
    unknown = set(data.get("overrides", {})) - set(OVERRIDABLE)
    if unknown:  # pragma: no cover - get_rules already refuses these
        raise InvalidRecordError(f"record: unknown overrides {sorted(unknown)}")
    try:
        match = Match(rules, first_dealer=data["first_dealer"], start=False)
    except GinRummyError as exc:
        raise InvalidRecordError(f"record: {exc}") from None
    _play_hands(match, data.get("hands", []))
    return match


def catch_up(match: Match, text: str, held: str | None = None) -> bool:
    """Bring ``match`` up to the record ``text`` when the record continues it, instead of
    replaying the whole record into a new match (what a server does when another process saved
    moves of a match it holds): the same profile, overrides and first dealer, every hand of
    ``match`` with the same dealer and deck, and each hand's moves beginning with the ones
    ``match`` has played (all of them for every hand but its last). Plays what the record
    adds, checked as :func:`loads` checks it, and returns True; returns False, changing
    nothing, when the record does not continue ``match``.

    ``held``, when given, is the record ``match`` was read from or written as: if ``text``
    is the same up to the last hand ``held`` has, only the rest is read (a long match's
    record is mostly hands that are over).

    Raises :class:`InvalidRecordError` when what the record adds is broken; ``match`` may then
    be partly advanced, so throw it away.
    """
    if held is not None and match.hands:
        cut = held.rfind(_HAND_HEADER)
        if cut >= 0 and text.startswith(held[:cut + len(_HAND_HEADER)]):
            last = len(match.hands) - 1
            tail = read_toml(text[cut:], "the record", InvalidRecordError)
            if set(tail) != {"hands"}:
                raise InvalidRecordError("record: only hands may follow the first hand")
            hands = _check_hands(tail["hands"], last + 1)
            if not _continues(match.hands[last], hands[0], last=True):
                return False
            _play_hands(match, hands, last)
            return True
    data = parse(text)
    rules = match.rules
    if (data["profile"] != rules.profile
            or data.get("overrides", {}) != dict(rules.overrides)
            or data["first_dealer"] != match.first_dealer):
        return False
    hands = data.get("hands", [])
    if len(hands) < len(match.hands):
        return False
    last = len(match.hands) - 1
    if not all(_continues(hand, hands[i], last=i == last) for i, hand in enumerate(match.hands)):
        return False
    _play_hands(match, hands)
    return True


#: What begins each hand in a record (see :func:`dumps`).
_HAND_HEADER = "\n[[hands]]\n"


def _continues(hand: Hand, h: dict[str, Any], *, last: bool) -> bool:
    """Whether the record's hand ``h`` is ``hand`` (its dealer, deck and moves), or with
    ``last`` continues it (more moves after the same ones)."""
    moves, played = h["moves"], hand.history
    return (h["dealer"] == hand.dealer
            and (len(moves) >= len(played) if last else len(moves) == len(played))
            and h["deck"] == " ".join(CARD_TEXT[c] for c in hand.deck)
            and all(m == e.text for m, e in zip(moves, played, strict=False)))


def _play_hands(match: Match, hands: list[dict[str, Any]], start: int = 0) -> None:
    """Play the record's ``hands`` (hand ``start + 1`` on) on ``match``: the moves a hand the
    match has dealt does not have yet (:func:`catch_up`), then the hands it has not dealt,
    each checked against the rules and against its claimed result."""
    for i, h in enumerate(hands, start + 1):
        where = f"hand {i}"
        if i <= len(match.hands):
            hand = match.hands[i - 1]
            if len(hand.history) == len(h["moves"]):
                continue
            play_moves(match, h["moves"][len(hand.history):], where, first=len(hand.history))
        else:
            if match.over:
                raise InvalidRecordError(f"{where}: the match was already over")
            if i > 1 and not match.hand.over:
                raise InvalidRecordError(f"hand {i - 1} is unfinished but another hand follows")
            expected = match.next_dealer
            if h["dealer"] != expected:
                raise InvalidRecordError(
                    f"{where}: the record says seat {h['dealer']} deals, the rules say seat "
                    f"{expected}"
                )
            try:
                deck = [int(c) for c in parse_cards(h["deck"])]
            except InvalidCardError as exc:
                raise InvalidRecordError(f"{where}: bad deck: {exc}") from None
            if len(deck) != 52 or len(set(deck)) != 52:
                raise InvalidRecordError(f"{where}: the deck must list each of the 52 cards once")
            match.next_hand(deck)
            play_moves(match, h["moves"], where)
        claimed = h.get("result")
        result = match.hand.result
        if claimed is not None:
            if result is None:
                raise InvalidRecordError(f"{where}: claims {claimed!r} but the hand is unfinished")
            if result.summary() != claimed:
                raise InvalidRecordError(
                    f"{where}: the record claims {claimed!r} but the replay gives "
                    f"{result.summary()!r}"
                )


def play_moves(match: Match, moves: Sequence[str], where: str, *, first: int = 0) -> None:
    """Play a recorded hand's ``moves`` on the match's current hand, refusing (with
    :class:`InvalidRecordError` naming ``where`` and the move) a move the engine refuses or
    one after the hand ended. ``first``: how many of the hand's moves were played before
    these (for the move numbers in messages)."""
    for j, move in enumerate(moves, first + 1):
        if match.hand.over:
            raise InvalidRecordError(f"{where}: move {j} {move!r} comes after the hand ended")
        try:
            match.play(move)
        except GinRummyError as exc:
            raise InvalidRecordError(f"{where}, move {j} {move!r}: {exc}") from None


def players_of(text: str) -> list[str] | None:
    """The seat names stored in a record, if any."""
    players = parse(text).get("players")
    return list(players) if players is not None else None


def load(path: str) -> Match:
    """Replay the record stored in a file."""
    with open(path, encoding="utf-8") as f:
        return loads(f.read())


def dump(match: Match, path: str, **kwargs: Any) -> None:
    """Write the record of ``match`` to a file."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(match, **kwargs))
