"""The coach at the terminal table: one remark after each of your decisions, and a review
after each hand listing the costliest decisions with what would have been better.

Pure functions from the coach's :class:`~ginrummy.coach.Assessment` and
:class:`~ginrummy.coach.HandReview` to Rich renderables, like :mod:`.render`; ``plain`` drops
colours, boxes and card symbols (``7h`` for ``7♥``). The coach itself judges from the human
seat's view only (:mod:`ginrummy.coach`).
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from ..coach import Assessment, HandReview
from .render import asciify

__all__ = ["remark_text", "render_review", "RATING_WORDS"]

RATING_WORDS = {"good": "Good", "inaccuracy": "Inaccuracy", "mistake": "Mistake"}
_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "bold red"}


def _points(loss: float) -> str:
    n = round(loss)
    return "less than a point" if n <= 0 else "about 1 point" if n == 1 else f"about {n} points"


def _better(found: Assessment) -> str:
    if found.rating == "good" or found.best == found.move:
        return ""
    better = found.alternative(found.best)
    words = better.words if better is not None else found.best
    return f" Better: {words} ({_points(found.loss)} more on average)."


def remark_text(found: Assessment, plain: bool = False) -> Text:
    """``Coach: [Mistake] The 10♦ was risky: ... Better: discard the K♣ (about 3 points...).``"""
    text = Text("Coach: ", style="" if plain else "bold")
    label = f"[{RATING_WORDS[found.rating]}]"
    text.append(label, style="" if plain else _STYLES[found.rating])
    text.append(" " + found.reason + _better(found))
    return Text(asciify(text.plain)) if plain else text


def render_review(review: HandReview, plain: bool = False) -> RenderableType:
    """The review of a hand: how the decisions were rated and the costliest of them."""
    lines: list[RenderableType] = [Text(review.summary(), style="" if plain else "bold")]
    costly = review.costliest()
    if costly:
        lines.append(Text("The costliest decisions:"))
        for i, d in enumerate(costly, 1):
            a = d.assessment
            line = Text(f"{i}. Turn {d.turn}: you chose to {a.words}. ")
            line.append(f"[{RATING_WORDS[a.rating]}]", style="" if plain else _STYLES[a.rating])
            line.append(f" {a.reason}{_better(a)}")
            lines.append(Text(asciify(line.plain)) if plain else line)
    title = f"The coach's review of hand {review.hand}"
    if plain:
        return Group(Text(title), *lines)
    return Panel(Group(*lines), title=title, title_align="left", box=box.ROUNDED)
