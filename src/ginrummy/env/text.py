"""A plain-text picture of one seat's :class:`~ginrummy.engine.view.PlayerView`: what ``render()``
shows and what ``infos[agent]["text"]`` holds. Built from the view only, so it never shows a
card the seat may not see."""

from __future__ import annotations

from ..engine.cards import CARD_TEXT, mask_text
from ..engine.view import PlayerView

__all__ = ["view_text"]


def view_text(view: PlayerView, agent: str | None = None) -> str:
    """Several lines: whose view, the hand and its deadwood, the pile, the stock, what is
    known of the opponent, the scores, and the legal moves (or the result)."""
    who = agent or f"seat {view.seat}"
    pile = view.discard_pile
    lines = [
        f"{who} ({'dealer' if view.dealer == view.seat else 'non-dealer'}), "
        f"hand {view.hand_number}, phase {view.phase}, "
        + ("your turn" if view.my_turn else f"seat {view.to_play} to play"),
        f"  hand     : {mask_text(view.hand_mask)} (deadwood {view.deadwood})",
        f"  pile     : {' '.join(CARD_TEXT[c] for c in pile[-8:]) or '-'}"
        + (f" (+{len(pile) - 8} below)" if len(pile) > 8 else "")
        + f"; stock {view.stock_count}",
        f"  opponent : {view.opponent_card_count} cards, known "
        f"{mask_text(view.opponent_known_mask) or '-'}",
        f"  score    : {view.scores[view.seat]} to {view.scores[1 - view.seat]} "
        f"(target {view.rules.target}, knock at {view.knock_limit})",
    ]
    if view.result is not None:
        lines.append(f"  result   : {view.result.summary()}")
        if view.opponent_hand_mask is not None:
            lines.append(f"  opponent : {mask_text(view.opponent_hand_mask)}")
    elif view.legal_moves:
        lines.append(f"  moves    : {', '.join(str(m) for m in view.legal_moves)}")
    return "\n".join(lines)
