"""Drawing a self-play run: the distributions behind the numbers of ``ginrummy simulate``.

One PNG with six panels: how hands ended (shares with 95% Wilson error bars), who won the
scored hands (the first player, A and B, with error bars), points per scored hand, the knocker's
deadwood, turns per hand, and the deadwood of the dealt hands. Draws on matplotlib's Agg canvas
directly (no pyplot, no global state), so it needs no display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .simulate import KINDS, HandRecord

__all__ = ["plot_hands"]

_KIND_LABELS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "big gin",
    "cancelled": "cancelled",
}


def _bars(ax: Any, labels: Sequence[str], props: Sequence[Mapping[str, Any]], title: str) -> None:
    shares = [100 * (p["share"] or 0.0) for p in props]
    low = [s - 100 * p["low"] for s, p in zip(shares, props, strict=True)]
    high = [100 * p["high"] - s for s, p in zip(shares, props, strict=True)]
    ax.bar(labels, shares, yerr=[low, high], capsize=4, color="#4c72b0")
    ax.set_title(title)
    ax.set_ylabel("% (95% Wilson interval)")
    for i, (s, p) in enumerate(zip(shares, props, strict=True)):
        ax.annotate(f"{s:.1f}%", (i, 100 * p["high"]), textcoords="offset points",
                    xytext=(0, 3), ha="center", fontsize=8)
    ax.set_ylim(0, min(105, 100 * max(p["high"] for p in props) * 1.12 + 1))


def _int_bins(values: Sequence[int], most: int = 45) -> list[float]:
    """Bin edges on whole numbers, each bin one or more values wide, at most ``most`` bins."""
    lo, hi = min(values), max(values)
    width = max(1, -(-(hi - lo + 1) // most))
    return [x - 0.5 for x in range(lo, hi + width + 1, width)]


def _hist(ax: Any, values: Sequence[int], title: str, xlabel: str) -> None:
    if values:
        bins = _int_bins(values)
        ax.hist(values, bins=bins, color="#55a868", edgecolor="white", linewidth=0.3)
        mean = sum(values) / len(values)
        ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.2f}")
        ax.legend(fontsize=8)
    else:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("hands")


def plot_hands(
    records: Sequence[HandRecord],
    summary: Mapping[str, Any],
    path: str | Path,
    title: str,
    big_gin: bool = True,
) -> None:
    """Write the six-panel PNG of ``records`` (whose
    :func:`~ginrummy.selfplay.summary.summarize_hands` is ``summary``) to ``path``; ``big_gin``
    false leaves out the big gin bar."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(15, 8.5))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 3)
    fig.suptitle(title)
    (a_end, a_win, a_pts), (a_dw, a_turns, a_fresh) = axes

    kinds = [k for k in KINDS if big_gin or k != "big_gin"]
    _bars(a_end, [_KIND_LABELS[k] for k in kinds],
          [summary["outcomes"][k] for k in kinds], "How hands ended")
    players = summary["players"]
    _bars(
        a_win,
        ["first to act", f"A: {players[0]['name']}", f"B: {players[1]['name']}"],
        [summary["first_player"]["hand_wins"], players[0]["hand_wins"], players[1]["hand_wins"]],
        "Share of scored hands won",
    )
    a_win.axhline(50, color="grey", linewidth=0.8)

    scored = [r.points for r in records if r.winner_seat is not None]
    _hist(a_pts, scored, "Points per scored hand", "points (bonuses included)")
    knocks = [r.knocker_deadwood for r in records
              if r.kind in ("knock", "undercut") and r.knocker_deadwood is not None]
    _hist(a_dw, knocks, "Knocker's deadwood (plain knocks and undercuts)", "deadwood")
    _hist(a_turns, [r.turns for r in records], "Turns per hand", "turns (draws and takes)")

    dealer = [r.fresh_deadwood[r.dealer] for r in records]
    non_dealer = [r.fresh_deadwood[r.first] for r in records]
    if records:
        bins = _int_bins(dealer + non_dealer, most=30)
        a_fresh.hist([non_dealer, dealer], bins=bins, histtype="step", linewidth=1.2,
                     label=["non-dealer", "dealer"])
        a_fresh.legend(fontsize=8)
    a_fresh.set_title("Deadwood of the ten cards dealt")
    a_fresh.set_xlabel("deadwood")
    a_fresh.set_ylabel("hands")

    fig.tight_layout()
    fig.savefig(str(path), format="png", dpi=100)
