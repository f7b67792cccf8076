"""What a person types at the terminal table, read into a :class:`Command`.

The reader is forgiving about form (case, spaces, ``x7h`` for ``x 7h``, ``10♥`` for ``Th``) and
strict about meaning: it never decides whether a move is legal. A move becomes engine notation
(``discard 7h``) and the engine accepts it or answers with its own sentence.

>>> parse_command("x 7h").move
'discard 7h'
>>> parse_command("K 10♥ ").move
'knock Th'
>>> parse_command("7h", phase="discard").move
'discard 7h'
>>> parse_command("?").action
'help'
>>> parse_command("seed Ann's lucky 7").arg
"Ann's lucky 7"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..engine.cards import Card, mask_text, parse_cards
from ..engine.errors import GinRummyError
from ..engine.move import Move

__all__ = ["Action", "Command", "CommandError", "parse_command", "COMMANDS", "short_move"]

Action = Literal[
    "move", "gin", "sort", "sheet", "rules", "help", "quit", "moves", "look", "enter",
    "commitment", "coach", "seed",
]


class CommandError(GinRummyError):
    """Text that is not a command of the terminal table."""


@dataclass(frozen=True)
class Command:
    """One typed command.

    ``move`` is engine notation for ``action == "move"``; ``card`` is the card named by
    ``gin 7h`` (``None`` for a bare ``gin``); ``arg`` is the order asked for by ``sort``,
    ``on``/``off`` for ``coach`` (``None``: toggle), or the client seed of ``seed TEXT``
    exactly as typed (``None`` for a bare ``seed``, which asks for the seed in use).
    """

    action: Action
    move: str | None = None
    card: Card | None = None
    arg: str | None = None


#: Every command with its short forms and what it does, for the help screen and the docs.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("d, draw", "draw the top card of the stock"),
    ("t, take", "take the upcard or the top discard"),
    ("p, pass", "pass the upcard (or the last-discard chance)"),
    ("x 7h, discard 7h, 7h", "discard a card (typing just the card discards it)"),
    ("k 7h, knock 7h", "discard 7h face down and knock; gin when nothing is left over"),
    ("k 7h with 7c7d7s 8h9hTh", "knock, laying down exactly these melds"),
    ("gin 7h, gin", "knock for gin (refused when it would leave deadwood)"),
    ("bg, big gin", "lay down all eleven cards (profiles with big gin)"),
    ("m, moves", "list the moves you can make now"),
    ("s, sort [rank|suit]", "sort your cards by rank or by suit (toggles)"),
    ("l, look, Enter", "show the table again (Enter also deals the next hand)"),
    ("coach [on|off]", "the coach: a remark on each of your decisions, a review after each hand"),
    ("sheet", "the score sheet"),
    ("commitment", "the sealed deal's commitment in full (between hands: the next hand's)"),
    ("seed TEXT", "before a deal: deal it with your own client seed TEXT"),
    ("rules", "the rules of this match"),
    ("h, ?, help", "this help"),
    ("q, quit", "save and leave; the next start resumes the match"),
)

_SIMPLE: dict[str, Command] = {}
for _words, _cmd in (
    (("d", "draw", "stock", "draw stock"), Command("move", move="draw")),
    (("t", "take", "pick", "pick up", "take upcard", "take discard"), Command("move", move="take")),
    (("p", "pass"), Command("move", move="pass")),
    (("bg", "big gin", "biggin", "big"), Command("move", move="big gin")),
    (("g", "gin"), Command("gin")),
    (("m", "moves", "legal", "options"), Command("moves")),
    (("s", "sort"), Command("sort")),
    (("sort rank", "sort ranks", "s rank", "s r", "sort r"), Command("sort", arg="rank")),
    (("sort suit", "sort suits", "s suit", "s s", "sort s"), Command("sort", arg="suit")),
    (("sheet", "score", "scores", "score sheet"), Command("sheet")),
    (("rules", "rule"), Command("rules")),
    (("h", "?", "help"), Command("help")),
    (("q", "quit", "exit", "bye"), Command("quit")),
    (("l", "look", "table"), Command("look")),
    (("coach",), Command("coach")),
    (("coach on",), Command("coach", arg="on")),
    (("coach off",), Command("coach", arg="off")),
    (("commitment", "commit"), Command("commitment")),
):
    for _w in _words:
        _SIMPLE[_w] = _cmd

_DISCARD_VERBS = ("x", "discard", "drop", "throw")
_KNOCK_VERBS = ("k", "knock")
_GIN_VERBS = ("g", "gin")
_CARD_START = "a23456789tjqk1"
#: What a card attempt looks like: a rank, then at most one character for the suit ("7h",
#: "10♥", "1z"). Longer words ("tea") are read as unknown commands, not as bad cards.
_CARD_SHAPE = re.compile(r"^(10|1\d|\d|[atjqk])[^\s\d]?$")


def _one_card(text: str, verb: str) -> Card:
    """The single card named in ``text``; InvalidCardError for bad card text."""
    cards = parse_cards(text)
    if len(cards) != 1:
        example = {"x": "x 7h", "k": "k 7h", "g": "gin 7h"}[verb]
        raise CommandError(f"Name exactly one card, as in '{example}'.")
    return cards[0]


def _split_verb(word: str) -> tuple[str, str] | None:
    """``x7h`` -> ``("x", "7h")`` when a one-letter verb is glued to a card."""
    if len(word) >= 3 and word[0] in "xkg" and word[1] in _CARD_START:
        return word[0], word[1:]
    return None


def parse_command(text: str, phase: str | None = None) -> Command:
    """Read one line typed at the table.

    ``phase`` is the hand's phase as the human seat sees it; it decides what a bare card means
    (a discard, or a knock once only knocks are left). Raises :class:`CommandError` for text
    that is no command, and :class:`~ginrummy.engine.errors.InvalidCardError` for bad card text.
    """
    seed = _seed_text(text)
    if seed is not None:
        return Command("seed", arg=seed or None)
    line = " ".join(text.strip().lower().split())
    if not line:
        return Command("enter")
    simple = _SIMPLE.get(line)
    if simple is not None:
        return simple
    words = line.split(" ")
    verb, rest = words[0], words[1:]
    glued = _split_verb(verb) if verb not in _SIMPLE else None
    if glued is not None:
        verb, rest = glued[0], [glued[1], *rest]
    if verb in _DISCARD_VERBS:
        if not rest:
            raise CommandError("Say which card to discard, as in 'x 7h'.")
        return Command("move", move=f"discard {_one_card(' '.join(rest), 'x')}")
    if verb in _KNOCK_VERBS:
        if not rest:
            raise CommandError("Say which card to discard as you knock, as in 'k 7h'.")
        if "with" in rest:
            at = rest.index("with")
            card = _one_card(" ".join(rest[:at]), "k")
            melds = " ".join(rest[at + 1 :])
            if not melds:
                raise CommandError("List your melds after 'with', as in 'k 7h with 7c7d7s'.")
            return Command("move", move=f"knock {card} with {melds}")
        return Command("move", move=f"knock {_one_card(' '.join(rest), 'k')}")
    if verb in _GIN_VERBS:
        return Command("gin", card=_one_card(" ".join(rest), "g"))
    if verb == "sort" and len(rest) == 1:
        raise CommandError(f"Sort by 'rank' or by 'suit', not {rest[0]!r}.")
    if verb == "coach":
        raise CommandError("Say 'coach on' or 'coach off' (or just 'coach' to switch).")
    if _CARD_SHAPE.match(line):
        card = _one_card(line, "x")  # bad card text raises InvalidCardError here
        if phase == "last_chance_knock":
            return Command("move", move=f"knock {card}")
        return Command("move", move=f"discard {card}")
    raise CommandError(f"{text.strip()!r} is not a command; type ? for help.")


def _seed_text(text: str) -> str | None:
    """The TEXT of ``seed TEXT`` exactly as typed, case and inner spaces included (``""`` for a
    bare ``seed``); ``None`` when the line is not a ``seed`` command. Only the one space after
    the word and the line's end are taken off, so a seed with a stray space is refused by the
    engine's rules rather than quietly changed."""
    word = text.strip().lower()
    if word != "seed" and not word.startswith("seed "):
        return None
    rest = text.lstrip()[4:]
    return rest[1:].rstrip("\r\n") if rest.strip() else ""


def short_move(move: str) -> str:
    """Engine notation in the short form a person types: ``discard Th`` -> ``x 10h``.

    >>> [short_move(m) for m in ("draw", "take", "discard Th", "knock 7h", "big gin")]
    ['d', 't', 'x 10h', 'k 7h', 'bg']
    """
    m = Move.parse(move)
    head = {"draw": "d", "take": "t", "pass": "p", "discard": "x", "knock": "k", "big gin": "bg"}
    if m.card is None:
        return head[m.kind]
    text = f"{head[m.kind]} {typed_card(m.card)}"
    if m.meld_masks is not None:
        text += " with " + " ".join(mask_text(melded) for melded in m.meld_masks)
    return text


def typed_card(card: Card) -> str:
    """A card as a person types it and as plain mode shows it: ``7h``, ``10h``, ``Ah``."""
    return card.symbol()[:-1] + "cdhs"[card.suit]

