"""Write ``src/ginrummy/data/by_the_numbers.json``: how hands end between two copies of a level.

Runs ``ginrummy simulate A A --profile modern --hands 2000 --seed by-the-numbers --json`` for
``medium`` (the level that knocks at its first chance) and ``hard`` (which holds out for gin),
and keeps the figures the Learn panel's "By the numbers" view shows, each with its 95%
interval and the command that produced it. The same seed gives the same numbers on any machine
and with any number of workers, so the file can be checked by running this again.

    python scripts/by_the_numbers.py                  # run both (a few minutes on 2 cores)
    python scripts/by_the_numbers.py --from medium=mm.json --from hard=hh.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "ginrummy" / "data" / "by_the_numbers.json"
LEVELS = ("medium", "hard")
HANDS = 2000
SEED = "by-the-numbers"
PROFILE = "modern"


def command(level: str) -> list[str]:
    """The command line of one run, as a person would type it."""
    return ["ginrummy", "simulate", level, level, "--profile", PROFILE, "--hands", str(HANDS),
            "--seed", SEED]


def run(level: str) -> dict[str, Any]:
    """Run the simulation of ``level`` against itself and return its JSON."""
    args = [sys.executable, "-m", "ginrummy", *command(level)[1:], "--json", "--no-progress"]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _share(s: dict[str, Any]) -> dict[str, Any]:
    return {"value": s["share"], "low": s["low"], "high": s["high"], "count": s["count"],
            "n": s["n"]}


def _mean(m: dict[str, Any]) -> dict[str, Any]:
    return {"value": m["mean"], "low": m["low"], "high": m["high"], "n": m["n"]}


def figures(level: str, data: dict[str, Any]) -> dict[str, Any]:
    """The figures of one run that the page shows."""
    s = data["summary"]
    out = s["outcomes"]
    return {
        "level": level,
        "command": " ".join(command(level)),
        "hands": s["hands"],
        "knock": _share(out["knock"]),
        "undercut": _share(out["undercut"]),
        "gin": _share(out["gin"]),
        "big_gin": _share(out["big_gin"]),
        "cancelled": _share(out["cancelled"]),
        "knock_deadwood": _mean(s["knock_deadwood"]),
        "points_per_scored_hand": _mean(s["points_per_scored_hand"]),
        "turns_per_hand": _mean(s["turns_per_hand"]),
        "fresh_deadwood": _mean(s["fresh_deadwood"]["non_dealer"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="sources", action="append", default=[],
                        metavar="LEVEL=FILE", help="use a saved --json output instead of running")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    saved = dict(s.split("=", 1) for s in args.sources)
    runs = []
    for level in LEVELS:
        data = json.loads(Path(saved[level]).read_text()) if level in saved else run(level)
        if data["players"] != [level, level] or data["count"] != HANDS or data["seed"] != SEED:
            raise SystemExit(f"{level}: the saved run is not `{' '.join(command(level))}`")
        runs.append(figures(level, data))
    doc = {
        "title": "By the numbers",
        "profile": PROFILE,
        "note": "Two copies of the same level, 2,000 independent hands, modern rules; each "
                "figure with its 95% interval (Wilson for shares, normal for means).",
        "runs": runs,
        "made_by": "python scripts/by_the_numbers.py",
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"Wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
