"""Words for lessons, shared by the terminal and the web page: moves as a person says them,
lines of play, and what the engine found for each fact.

>>> move_words("knock 7h"), move_words("discard Th"), move_words("big gin")
('knock, discarding the 7♥', 'discard the 10♥', 'go big gin')
>>> line_words(("take", "knock 6d"))
'take the card, then knock, discarding the 6♦'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.move import InvalidMoveError, Move
from ..words.cheatsheet import rules_name
from .answers import Answer
from .model import PROOFS, Fact, Situation
from .position import Outcome

__all__ = ["GOAL", "move_words", "line_words", "fact_text", "answers_text", "verdict_text",
           "proof_text", "rules_label", "shown_title"]

#: The goal of gin rummy in three sentences: the first thing Learn says, on the page (its
#: dialog in index.html, checked against this by the tests) and in ``ginrummy learn``.
GOAL = (
    "Gin rummy is a card game for two: you hold ten cards and try to arrange them into "
    "melds, sets of three or four cards of the same rank or runs of three or more in a row "
    "of one suit.",
    "Each turn you draw a card, from the stock or the discard pile, and throw one away; the "
    "cards in no meld are your deadwood and count against you (aces 1, picture cards 10, the "
    "others their number).",
    "When your deadwood is low enough (10 or less under most rules) you may knock to end the "
    "hand: the player with less deadwood scores the difference (a tie goes to the player who "
    "did not knock), gin with no deadwood at all scores a bonus, and the first to reach the "
    "target, usually 100 points, wins.",
)


def rules_label(situation: Situation) -> str:
    """The situation's rules in plain words: ``Traditional, last-discard chance``."""
    return rules_name(situation.position.rules)


def shown_title(situation: Situation, *, answered: bool) -> str:
    """What a situation is called: its neutral heading until it is answered, then the
    lesson's title, which may say the answer."""
    return situation.lesson.title if answered else situation.lesson.heading


def move_words(move: str) -> str:
    """One move in words (:meth:`ginrummy.engine.move.Move.words`, without the table's context):
    ``discard Th`` -> ``discard the 10♥``; text that is not a move is returned as it is."""
    try:
        return Move.parse(move).words()
    except InvalidMoveError:
        return move


def line_words(moves: Sequence[str]) -> str:
    """A line of play: ``take the card, then knock, discarding the 6♦``."""
    return ", then ".join(move_words(m) for m in moves)


def fact_text(fact: Fact, outcome: Outcome) -> str:
    """``If you <line>: <what the engine says>`` (and the fact's note, when it has one)."""
    head = line_words(fact.moves)
    head = head[:1].upper() + head[1:]
    text = f"{head}: {outcome.sentence()}"
    if fact.note:
        text += f" ({fact.note.rstrip('.')})"
    return text


def answers_text(situation: Situation) -> str:
    """The taught answers joined with "or": ``discard the Q♠ or discard the K♠``."""
    return " or ".join(move_words(a) for a in situation.lesson.answers)


def verdict_text(result: Answer) -> str:
    """One sentence: right, or what the lesson teaches instead."""
    if result.correct:
        return f"Right: {move_words(result.move)}."
    return f"The lesson's answer is to {answers_text(result.situation)}; you chose to " \
        f"{move_words(result.move)}."


def proof_text(situation: Situation) -> str:
    """How the answer is checked, in a sentence."""
    return PROOFS[situation.lesson.proof][:1].upper() + PROOFS[situation.lesson.proof][1:] + "."
