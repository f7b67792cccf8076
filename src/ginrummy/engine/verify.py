"""Checking the sealed deals of a match record, hand by hand.

For every hand that is over, :func:`verify_record` checks that

* ``commitment``: the revealed server seed, with the hand's nonce and dealer, hashes to the
  commitment that was published before the deal;
* ``deck``: the deck recomputed from the server seed, the client seed and the nonce (the
  ``ginrummy-shuffle-v1`` algorithm of :mod:`ginrummy.engine.shuffle`) is the record's deck;
* ``dealt``, ``upcard``, ``draws``: replaying the hand's moves through the engine, every card
  dealt to each seat, the card turned up and every card drawn from the stock is the card the
  sealed deck puts there;

plus the hand's own bookkeeping: a known algorithm ``version``, the ``nonce`` being the hand's
number, the moves replaying (``replay``) and the claimed result matching the replay
(``result``). A hand still being played has only its commitment: its report says so.

Each check is reported by name with a sentence saying what was compared, so a failure says
which check failed and where (which card, which move, which position of the deck).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import CARD_TEXT, CardSet, parse_cards
from .errors import GinRummyError, InvalidCardError
from .hand import Hand, deal_order
from .record import loads, parse
from .rules import RuleSet, get_rules
from .shuffle import (
    MAX_NONCE,
    SERVER_SEED_BYTES,
    TWO_PARTY,
    VERSION,
    SealError,
    check_client_seed,
    combine_client_seeds,
    commitment,
    parse_hex,
    shuffle_deck,
)

__all__ = ["Check", "HandReport", "RecordReport", "verify_record", "verify_hand"]

Status = Literal["verified", "failed", "sealed"]

#: The order in which a hand's checks are listed: the seal first, then the cards.
_ORDER = {
    name: i
    for i, name in enumerate(
        ("sealed", "version", "nonce", "client seed", "client seeds", "server seed",
         "commitment", "published", "seed", "deck", "replay", "dealt", "upcard", "draws", "result")
    )
}


@dataclass(frozen=True)
class Check:
    """One check of one hand: its name, whether it passed, and what was compared."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class HandReport:
    """The checks of one hand (``number`` counts from 1).

    ``status`` is ``verified`` (every check passed), ``failed`` (at least one did not), or
    ``sealed`` (the hand is still being played: only its commitment exists so far).
    """

    number: int
    status: Status
    checks: tuple[Check, ...]
    commitment: str | None = None
    note: str = ""

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


@dataclass(frozen=True)
class RecordReport:
    """Every hand's report, and problems of the record as a whole (a replay that fails)."""

    hands: tuple[HandReport, ...]
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when no check failed (hands still being played count as not failed)."""
        return not self.problems and all(h.status != "failed" for h in self.hands)


def verify_record(text: str, *, published: Mapping[int, str] | None = None) -> RecordReport:
    """Check every hand of the match record ``text``.

    ``published`` maps hand numbers (from 1) to commitments the player noted down before the deal;
    each is compared with the record's. Raises :class:`~ginrummy.engine.errors.InvalidRecordError`
    only when the text is not a record at all."""
    data = parse(text)
    problems: list[str] = []
    try:
        rules: RuleSet | None = get_rules(data["profile"], **data.get("overrides", {}))
    except GinRummyError as exc:
        rules = None
        problems.append(f"the record's rules cannot be read: {exc}")
    try:
        loads(text)
    except GinRummyError as exc:
        problems.append(f"the record does not replay as a match: {exc}")
    tables = data.get("hands", [])
    published = dict(published or {})
    for number in published:
        if not 1 <= number <= len(tables):
            problems.append(f"a commitment was given for hand {number}; the record has no "
                            "such hand")
    reports = tuple(
        verify_hand(number, table, rules, published=published.get(number))
        for number, table in enumerate(tables, 1)
    )
    return RecordReport(reports, tuple(problems))


def verify_hand(
    number: int,
    table: Mapping[str, Any],
    rules: RuleSet | None,
    *,
    published: str | None = None,
) -> HandReport:
    """Check one hand's table from a parsed record (see :func:`ginrummy.engine.record.parse`)."""
    checks: list[Check] = []
    dealer: int = table["dealer"]
    if dealer not in (0, 1):
        checks.append(Check("dealer", False, f"the dealer must be seat 0 or 1, not {dealer}"))
        return HandReport(number, "failed", tuple(checks))
    deck = _record_deck(table["deck"], checks)
    hand = _replay(rules, deck, dealer, table["moves"], table.get("result"), checks)
    over = hand is not None and hand.over
    meta = table.get("meta", {})
    sealed = meta.get("sealed") if isinstance(meta, Mapping) else None
    claimed: str | None = None

    def report(status: Status, note: str = "") -> HandReport:
        if any(not c.ok for c in checks):
            status = "failed"
        ordered = sorted(checks, key=lambda c: _ORDER.get(c.name, len(_ORDER)))
        return HandReport(number, status, tuple(ordered), claimed, note)

    if not isinstance(sealed, Mapping):
        checks.append(
            Check("sealed", False, "the hand has no sealed-deal data: it was not dealt from a "
                  "sealed deal, so there is nothing to check its deck against")
        )
        return report("failed")
    fields = _sealed_fields(number, sealed, checks)
    claimed = fields.get("commitment")
    if sealed.get("version") != VERSION:
        return report("failed")
    if published is not None:
        same = isinstance(claimed, str) and published.strip().lower() == claimed.lower()
        checks.append(
            Check("published", same, f"the record's commitment {'matches' if same else 'is not'} "
                  f"the one you noted ({_short(published)})")
        )
    if "server_seed" not in sealed:
        if over:
            checks.append(Check("seed", False, "the hand is over but its server seed was not "
                                "revealed"))
            return report("failed")
        return report(
            "sealed",
            "still being played: the server seed is not revealed yet; only the commitment exists",
        )
    note = "" if over else "the server seed is revealed although the hand is not over"
    seed = fields.get("server_seed")
    nonce = fields.get("nonce")
    client_seed = fields.get("client_seed")
    if seed is None or nonce is None:
        return report("failed", note)
    if claimed is not None:
        actual = commitment(seed, nonce, dealer)
        ok = actual == claimed
        checks.append(
            Check("commitment", ok, "the revealed server seed matches the commitment" if ok else
                  f"SHA-256 of the revealed server seed with nonce {nonce} and dealer seat "
                  f"{dealer} is {_short(actual)}, but the commitment is {_short(claimed)}")
        )
    if client_seed is None:
        return report("failed", note)
    sealed_deck = shuffle_deck(seed, client_seed, nonce)
    if deck is not None:
        checks.append(_compare_decks(deck, sealed_deck))
    if hand is not None:
        checks.extend(_compare_cards(hand, sealed_deck, dealer))
    return report("verified", note)


# -------------------------------------------------------------------------------------------
# Pieces.


def _record_deck(text: str, checks: list[Check]) -> list[int] | None:
    try:
        deck = [int(c) for c in parse_cards(text)]
    except InvalidCardError as exc:
        checks.append(Check("deck", False, f"the record's deck cannot be read: {exc}"))
        return None
    if len(deck) != 52 or len(set(deck)) != 52:
        checks.append(Check("deck", False, "the record's deck does not list each of the 52 "
                            "cards once"))
        return None
    return deck


def _replay(
    rules: RuleSet | None,
    deck: list[int] | None,
    dealer: int,
    moves: Sequence[str],
    result: str | None,
    checks: list[Check],
) -> Hand | None:
    """The hand replayed from the record's deck (as far as its moves are legal)."""
    if rules is None or deck is None:
        return None
    try:
        hand = Hand(rules, deck=deck, dealer=dealer)
    except GinRummyError as exc:
        checks.append(Check("replay", False, f"the hand cannot be dealt: {exc}"))
        return None
    for j, move in enumerate(moves, 1):
        try:
            hand.play(move)
        except GinRummyError as exc:
            checks.append(Check("replay", False, f"move {j} {move!r} is illegal: {exc}"))
            return hand
    checks.append(Check("replay", True, f"all {len(moves)} moves replay"))
    if result is not None:
        actual = hand.result.summary() if hand.result is not None else None
        ok = actual == result
        checks.append(
            Check("result", ok, f"the result {result!r} matches the replay" if ok else
                  f"the record claims {result!r} but the replay gives "
                  f"{actual if actual is not None else 'an unfinished hand'}")
        )
    return hand


def _sealed_fields(number: int, sealed: Mapping[str, Any], checks: list[Check]) -> dict[str, Any]:
    """The well-formed sealed fields of one hand; a failed check for each malformed one."""
    out: dict[str, Any] = {}
    version = sealed.get("version")
    if version != VERSION:
        checks.append(Check("version", False, f"shuffle version {version!r} is not known "
                            f"(this program checks {VERSION!r})"))
    else:
        checks.append(Check("version", True, f"the shuffle is {VERSION}"))
    for key, what in (("commitment", "the commitment"), ("server_seed", "the server seed")):
        if key in sealed:
            try:
                raw = parse_hex(sealed[key], SERVER_SEED_BYTES, what)
                out[key] = raw.hex() if key == "commitment" else raw
            except SealError as exc:
                checks.append(Check(key.replace("_", " "), False, str(exc)))
        elif key == "commitment":
            checks.append(Check("commitment", False, "the hand has no commitment"))
    nonce = sealed.get("nonce")
    # One test decides both the check and the use: 1.0 or true equal 1 in Python, and are
    # not a nonce (the shuffle takes an integer).
    whole = type(nonce) is int and 0 <= nonce <= MAX_NONCE
    if whole:
        out["nonce"] = nonce
    if not whole:
        checks.append(Check("nonce", False, f"the nonce is {nonce!r}, not a whole number: this "
                            f"is hand {number}, so it must be {number}"))
    elif nonce != number:
        checks.append(Check("nonce", False, f"the nonce is {nonce!r}, but this is hand {number} "
                            f"so it must be {number}"))
    else:
        checks.append(Check("nonce", True, f"the nonce is the hand number, {number}"))
    try:
        check_client_seed(sealed.get("client_seed"))
        out["client_seed"] = sealed["client_seed"]
    except SealError as exc:
        checks.append(Check("client seed", False, str(exc)))
    if "client_seeds" in sealed:
        checks.append(_two_party(sealed["client_seeds"], out.get("client_seed")))
    return out


def _two_party(pair: object, client_seed: str | None) -> Check:
    """A hand between two people: its client seed must be the combination of both seeds."""
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
        return Check("client seeds", False, "client_seeds must list two texts: seat 0's and "
                     "seat 1's client seeds")
    try:
        joined = combine_client_seeds(pair[0], pair[1])
    except SealError as exc:
        return Check("client seeds", False, str(exc))
    ok = joined == client_seed
    return Check("client seeds", ok, f"the client seed is {TWO_PARTY} of both people's seeds"
                 if ok else f"{TWO_PARTY} of the two people's seeds is {_short(joined)}, but the "
                 f"client seed is {client_seed!r}")


def _position(i: int) -> str:
    if i < 20:
        return f"position {i}, dealt"
    if i == 20:
        return "position 20, the upcard"
    return f"position {i}, stock card {i - 20}"


def _compare_decks(deck: Sequence[int], sealed: Sequence[int]) -> Check:
    diff = [i for i in range(52) if deck[i] != sealed[i]]
    if not diff:
        return Check("deck", True, "the deck recomputed from the seeds is the record's deck")
    i = diff[0]
    return Check(
        "deck", False,
        f"the record's deck differs from the sealed deck at {len(diff)} position(s), first at "
        f"{_position(i)} (record {CARD_TEXT[deck[i]]}, sealed {CARD_TEXT[sealed[i]]})",
    )


def _compare_cards(hand: Hand, sealed: Sequence[int], dealer: int) -> list[Check]:
    """Dealt cards, upcard and stock draws of the replayed ``hand`` against the sealed deck."""
    out: list[Check] = []
    got = deal_order([int(c) for c in hand.deck], dealer)[:2]
    want = deal_order(list(sealed), dealer)[:2]
    bad = []
    for seat in (0, 1):
        extra, missing = got[seat] & ~want[seat], want[seat] & ~got[seat]
        if extra or missing:
            bad.append(
                f"seat {seat} was dealt {_cards(extra)} where the sealed deck deals "
                f"{_cards(missing)}"
            )
    out.append(Check("dealt", not bad, "; ".join(bad) or "the 20 cards dealt match"))
    up_ok = hand.upcard == sealed[20]
    out.append(Check("upcard", up_ok, f"the upcard {hand.upcard} matches" if up_ok else
                     f"the upcard was {hand.upcard}; the sealed deck turns up "
                     f"{CARD_TEXT[sealed[20]]} (position 20)"))
    draws = [(j, e) for j, e in enumerate(hand.history, 1) if e.kind == "draw"]
    wrong = []
    for k, (j, e) in enumerate(draws):
        if e.card is None or int(e.card) != sealed[21 + k]:
            wrong.append(
                f"draw {k + 1} (move {j}, seat {e.seat}) was {e.card}; the sealed deck has "
                f"{CARD_TEXT[sealed[21 + k]]} there (position {21 + k})"
            )
    if wrong:
        more = len(wrong) - 1
        detail = wrong[0] + (f"; {more} more draw(s) differ" if more else "")
    elif draws:
        detail = f"all {len(draws)} cards drawn from the stock match"
    else:
        detail = "no card was drawn from the stock"
    out.append(Check("draws", not wrong, detail))
    return out


def _cards(mask: int) -> str:
    return " ".join(str(c) for c in CardSet.from_mask(mask))


def _short(hex_text: str) -> str:
    return hex_text if len(hex_text) <= 16 else hex_text[:16] + "…"
