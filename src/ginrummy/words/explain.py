"""Plain-language sentences about a hand's ending, shared by every table.

>>> from ginrummy.engine.settle import settle_hand
>>> r = settle_hand("2c 3c 4c 5d 6d 7d 9s 9h 9c 7h", "8d 9d Td Jd Ah Ac 2s 3s 4h 5s")
>>> explain_result(r, ("You", "Opponent"), you=0)
'You knocked with 7; Opponent had 15 after laying off A♣: you score 8.'
>>> explain_result(r, ("Ann", "Bob"))
'Ann knocked with 7; Bob had 15 after laying off A♣: Ann scores 8.'
"""

from __future__ import annotations

from ..engine.settle import HandResult

__all__ = ["explain_result", "card_list_text", "is_you", "with_verb", "possessive"]


def is_you(name: str) -> bool:
    """True for the name of the person addressed as "you" (``"You"``, ``"you"``)."""
    return name.strip().lower() == "you"


def with_verb(name: str, verb: str) -> str:
    """A name with a verb in the present tense that agrees with it: ``"You deal"``,
    ``"Ann deals"`` (``verb`` is the plain form: deal, score, win)."""
    return f"{name} {verb}" if is_you(name) else f"{name} {verb}s"


def possessive(name: str) -> str:
    """``"your"`` for the person addressed as you, ``"Ann's"`` for anyone else."""
    return "your" if is_you(name) else f"{name}'s"


def card_list_text(cards: object) -> str:
    """Cards as readable symbols joined by spaces: ``7♥ 8♥``; ``none`` for no cards."""
    from ..engine.cards import Card

    items = [Card(int(c)).symbol() for c in cards]  # type: ignore[attr-defined]
    return " ".join(items) if items else "none"


def _subject(seat: int, names: tuple[str, str], you: int | None) -> str:
    return "you" if seat == you else names[seat]


def _score_clause(seat: int, points: int, names: tuple[str, str], you: int | None) -> str:
    if seat == you:
        return f"you score {points}"
    return f"{names[seat]} scores {points}"


def explain_result(
    result: HandResult, names: tuple[str, str] = ("Seat 0", "Seat 1"), *, you: int | None = None
) -> str:
    """One or two sentences: how the hand ended and who scored what, e.g.
    ``"You knocked with 7; Opponent had 5 after laying off 7♥: undercut, Opponent scores 12."``

    ``you`` is the seat to address in the second person (``None`` for neither).
    """
    if result.kind == "cancelled":
        return "The stock ran down to two cards without a knock: the hand is cancelled, no score."
    k = result.knocker_seat
    w = result.winner_seat
    assert k is not None and w is not None
    d = 1 - k
    knocker = _subject(k, names, you)
    knocker_cap = knocker[:1].upper() + knocker[1:]
    defender = names[d] if d != you else "you"
    defender_cap = defender[:1].upper() + defender[1:]
    had = "had"
    double = (
        f" (doubled: the first upcard was a spade, {result.points // 2} × 2)"
        if result.multiplier == 2
        else ""
    )
    score = _score_clause(w, result.points, names, you)
    if result.kind in ("gin", "big_gin"):
        what = "went gin" if result.kind == "gin" else "went big gin"
        knocker_verb = f"{knocker_cap} {what}"
        return (
            f"{knocker_verb}; {defender_cap} {had} {result.defender_deadwood} deadwood "
            f"(no layoffs against gin): {score}, "
            f"{result.defender_deadwood} + {result.bonus} bonus{double}."
        )
    head = (
        f"{knocker_cap} knocked with {result.knocker_deadwood}; {defender_cap} {had} "
        f"{result.defender_deadwood}"
    )
    if result.layoffs:
        head += f" after laying off {card_list_text(result.layoffs)}"
    if result.kind == "undercut":
        return (
            f"{head}: undercut, {score} "
            f"({result.knocker_deadwood} − {result.defender_deadwood} + {result.bonus} bonus)"
            f"{double}."
        )
    return f"{head}: {score}{double}."
