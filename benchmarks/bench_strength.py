"""Playing strength: whole matches between our computer players, with 95% Wilson intervals.

Run from the repository root::

    python benchmarks/bench_strength.py [--matches 1000] [--workers 2] [--seed s1]
        [--pairs medium:simple,hard:simple,expert:simple,expert:hard,hard:medium]
        [--rules house] [--markdown] [--results FILE]
    python benchmarks/bench_strength.py --compare OLD NEW

A pairing ``a:b`` plays ``--matches`` matches of ``a`` against ``b`` under the ``house`` profile
by default (the EAAI challenge's rules: gin and undercut bonus 25, undercut on ties, knock at
10, no big gin, no game or box bonuses, 100 points). Seats and the first dealer are balanced
(every four matches share their decks with seats and first dealer swapped) and every seed is
fixed, so a run is reproducible; ``expert:N`` is the expert with a budget of ``N`` worlds per
decision instead of its default, and ``expert/KEY=VALUE/...`` the expert with other settings
(``expert/search_knocks=true:hard``). The table gives matches won (a tie counts half) with its 95%
Wilson interval, and hands won among the hands somebody won, with theirs. Progress goes to
stderr, results to stdout. This is not a test: it prints figures, whatever they are.

``--start K`` numbers the matches from ``K`` (match ``i`` is the same whatever run plays it,
so a long series can run in parts), and ``--table FILE...`` prints the table of the parts
together. ``--results FILE`` also writes one JSON line per match; ``--compare OLD NEW`` reads
two such files (one player per opponent in each) and compares the matches they share (same
opponent, same match number, so the same decks and seats): both win rates on those matches, the
matches only one of them won, and the mean difference of the point margins with its standard
error.
That pairing is how a change to a player is judged on few matches.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict

from _common import environment_lines, load_line, parse_shared_args, print_rows
from _matches import MatchResult, PlayerSpec, Series, ci_text, run_series, wilson
from ginrummy.players.search import paired_difference

DEFAULT_PAIRS = "medium:simple,hard:simple,expert:simple,expert:hard,hard:medium"

#: The issue's targets, by pairing (share of matches won).
TARGETS = {("hard", "simple"): 65.0, ("expert", "simple"): 75.0, ("expert", "hard"): 55.0}


def _print_table(rows: list[Series], markdown: bool) -> None:
    header = ["pairing", "matches", "won", "tied", "match win %", "95% CI", "hands",
              "hand win %", "95% CI (hands)", "target", "CPU s/match"]
    lines = []
    for s in rows:
        d = s.summary()
        target = TARGETS.get((s.a.name, s.b.name))
        lines.append([
            d["pairing"], str(d["matches"]), str(d["won"]), str(d["tied"]),
            f"{d['win %']:.1f}", ci_text(d["ci"]), str(d["hands"]),
            f"{d['hand win %']:.1f}", ci_text(d["hand ci"]),
            "-" if target is None else f">= {target:.0f}%",
            f"{d['cpu s/match']:.2f}",
        ])
    print_rows(header, lines, markdown=markdown)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0,
                        help="number of the first match (a long series can run in parts)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="s1")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--rules", default="house")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--results", help="write one JSON line per match to this file")
    parser.add_argument("--table", nargs="+", metavar="FILE",
                        help="print the table of --results files (parts of one series merge)")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"),
                        help="compare two --results files on the matches they share")
    args = parse_shared_args(parser, argv)
    if args.compare:
        compare(*args.compare)
        return
    if args.table:
        table(args.table, args.markdown)
        return
    pairs = [tuple(PlayerSpec.parse(x) for x in p.split(":", 1)) if p.count(":") == 1 else
             _parse_pair(p) for p in args.pairs.split(",")]
    print("command : python benchmarks/bench_strength.py " + " ".join(sys.argv[1:]))
    for line in environment_lines(["ginrummy"]):
        print(line)
    first = f" (numbers {args.start} to {args.start + args.matches - 1})" if args.start else ""
    print(f"rules   : {args.rules}; {args.matches} matches per pairing{first}, {args.workers} "
          f"worker processes, seed {args.seed!r}")
    rows: list[Series] = []
    for a, b in pairs:
        start = time.perf_counter()

        def progress(done: int, total: int, a: PlayerSpec = a, b: PlayerSpec = b,
                     start: float = start) -> None:
            if done % 20 == 0 or done == total:
                print(f"  {a} vs {b}: {done}/{total} matches, {time.perf_counter() - start:.0f}s",
                      file=sys.stderr, flush=True)

        series = run_series(a, b, args.matches, rules=args.rules, seed=args.seed,
                            workers=args.workers, progress=progress, start=args.start)
        rows.append(series)
        if args.results:
            with open(args.results, "a", encoding="utf-8") as out:
                for r in series.results:
                    out.write(json.dumps({"a": str(a), "b": str(b), "seed": args.seed,
                                          "rules": args.rules, **asdict(r)}) + "\n")
        print(f"  done: {a} vs {b} in {series.wall:.0f}s wall", file=sys.stderr, flush=True)
    print()
    _print_table(rows, args.markdown)
    print(load_line("at the end"))


def _load(path: str) -> dict[tuple[str, str, str, int], dict[str, object]]:
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            rows[(r["b"], r["seed"], r["rules"], r["index"])] = r
    return rows


def table(paths: list[str], markdown: bool) -> None:
    """The table of one or more ``--results`` files: the matches of each pairing (seed and
    rules alike) together, each match once, as if played in one run."""
    series: dict[tuple[str, str, str, str], dict[int, MatchResult]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                key = (r.pop("a"), r.pop("b"), r.pop("seed"), r.pop("rules"))
                series.setdefault(key, {})[r["index"]] = MatchResult(**r)
    rows = []
    for (a, b, seed, rules), results in series.items():
        ordered = [results[i] for i in sorted(results)]
        print(f"{a} vs {b}: {len(ordered)} matches, seed {seed!r}, rules {rules}, numbers "
              f"{ordered[0].index} to {ordered[-1].index}")
        rows.append(Series(PlayerSpec.parse(a), PlayerSpec.parse(b), ordered, 0.0))
    print()
    _print_table(rows, markdown)


def compare(old_path: str, new_path: str) -> None:
    """The paired comparison of two ``--results`` files (see the module docstring)."""
    old, new = _load(old_path), _load(new_path)
    for b in sorted({k[0] for k in old} & {k[0] for k in new}):
        keys = sorted(k for k in old.keys() & new.keys() if k[0] == b)
        if not keys:
            continue
        n = len(keys)

        def score(r: dict[str, object]) -> float:
            return 0.5 if r["a_won"] is None else float(bool(r["a_won"]))

        def count(r: dict[str, object], field: str) -> int:
            value = r[field]
            assert isinstance(value, int)
            return value

        def margin(r: dict[str, object]) -> int:
            return count(r, "a_points") - count(r, "b_points")

        print(f"against {b}: {n} matches on the same decks and seats")
        for label, rows in (("old", old), ("new", new)):
            won = sum(score(rows[k]) for k in keys)
            hands = sum(count(rows[k], "hands") for k in keys)
            points = sum(margin(rows[k]) for k in keys)
            ours = sum(count(rows[k], "a_points") for k in keys)
            theirs = sum(count(rows[k], "b_points") for k in keys)
            print(f"  {label}: {rows[keys[0]]['a']}: won {100 * won / n:.1f}% "
                  f"({ci_text([100 * x for x in wilson(won, n)])}), "
                  f"margin {points / n:+.1f} points a match, {points / hands:+.2f} a hand")
            print(f"       {hands / n:.2f} hands a match; points a hand {ours / hands:.2f} "
                  f"against {theirs / hands:.2f} (ratio {ours / max(theirs, 1):.3f})")
        only_old = sum(1 for k in keys if score(old[k]) > score(new[k]))
        only_new = sum(1 for k in keys if score(new[k]) > score(old[k]))
        wider = paired_difference([margin(new[k]) for k in keys], [margin(old[k]) for k in keys])
        print(f"  matches won by old only: {only_old}, by new only: {only_new}; "
              f"margin new - old: {wider.mean:+.1f} points a match "
              f"(standard error {wider.stderr:.1f})")
        longer = paired_difference([count(new[k], "hands") for k in keys],
                                   [count(old[k], "hands") for k in keys])
        print(f"  hands a match new - old: {longer.mean:+.2f} "
              f"(standard error {longer.stderr:.2f})")


def _parse_pair(text: str) -> tuple[PlayerSpec, PlayerSpec]:
    """``expert:40:hard`` style pairs (a budget on the first player)."""
    parts = text.split(":")
    if len(parts) == 3:
        return PlayerSpec(parts[0], int(parts[1])), PlayerSpec.parse(parts[2])
    if len(parts) == 4:
        return PlayerSpec(parts[0], int(parts[1])), PlayerSpec(parts[2], int(parts[3]))
    raise SystemExit(f"cannot read the pairing {text!r}; write a:b or expert:SAMPLES:b")


if __name__ == "__main__":
    main()
