"""Batch self-play: many hands or whole matches between two players, in parallel processes.

Every hand (or match) is a pure function of the master seed and its index: its deck comes from
``"{seed}/hand/{i}"`` (or the match's seed ``"{seed}/match/{i}"``) and each player's RNG from
``"{seed}/hand/{i}/player/{k}"``, with a fresh player for every hand or match. So a run gives
the same records whatever the number of worker processes and however the work is split; the
runner only changes how fast they arrive. Results are gathered back in index order.

Seats and deal are balanced over every four indices: player A sits in seat ``(i // 2) % 2`` and
seat ``i % 2`` deals (the first hand of a match), so each player deals half the time from each
seat.

>>> setup = Setup.of("traditional", ["random", "random"], seed="doc")
>>> records = run_hands(setup, 4)
>>> [(r.index, r.a_seat, r.dealer) for r in records]
[(0, 0, 0), (1, 0, 1), (2, 1, 0), (3, 1, 1)]
>>> records == run_hands(setup, 4, workers=2)
True
"""

from __future__ import annotations

import math
import secrets
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Literal, NamedTuple, Protocol, TypeAlias

from ..engine.errors import GinRummyError
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.melds import min_deadwood
from ..engine.player import Player
from ..engine.rules import RuleSet, RulesLike, get_rules
from ..engine.table import Computer, Table
from ..players import make, names
from .dataset import HandRow, hand_row
from .play import MAX_HANDS, play_hand

__all__ = [
    "BackendError",
    "HandRecord",
    "Job",
    "MatchRecord",
    "Mode",
    "Part",
    "PlayerSpec",
    "Setup",
    "hand_record",
    "iter_parts",
    "match_record",
    "play_job",
    "play_one_hand",
    "play_one_match",
    "run_hands",
    "run_jobs",
    "run_matches",
]

PlayerSpec: TypeAlias = str | Callable[[int | str | None], Player]
"""A player name for :func:`ginrummy.players.make`, or a picklable factory ``seed -> Player``
(a :class:`Player` subclass will do)."""

Mode = Literal["hands", "matches"]

#: Outcomes of a hand, in the order tables show them.
KINDS: tuple[str, ...] = ("knock", "undercut", "gin", "big_gin", "cancelled")


@dataclass(frozen=True)
class Setup:
    """What a run plays: the rules, players A and B, and the master seed."""

    rules: RuleSet
    players: tuple[PlayerSpec, PlayerSpec]
    seed: str

    @classmethod
    def of(
        cls,
        rules: RulesLike,
        players: Sequence[PlayerSpec],
        *,
        seed: int | str | None = None,
    ) -> Setup:
        """Check the players (each name must be known) and fix a seed (a random one if none)."""
        if len(players) != 2:
            raise GinRummyError(f"a run needs exactly two players, not {len(players)}")
        for spec in players:
            if isinstance(spec, str):
                make(spec, seed=0)
            elif not callable(spec):
                raise GinRummyError(f"a player is a name ({', '.join(names())}) or a factory "
                                    f"seed -> Player, not {spec!r}")
        master = str(seed) if seed is not None else secrets.token_hex(8)
        return cls(get_rules(rules), (players[0], players[1]), master)

    def player(self, k: int, seed: str) -> Player:
        """A fresh player ``k`` (0 for A, 1 for B) with its RNG seeded from ``seed``."""
        spec = self.players[k]
        return make(spec, seed=seed) if isinstance(spec, str) else spec(seed)


class _Seats:
    """What the records of a hand and of a match share: player A's seat, the winner's seat,
    and from them which player sat where."""

    __slots__ = ()
    a_seat: int
    winner_seat: int | None

    def player_of(self, seat: int) -> int:
        """Which player (0 for A, 1 for B) sat in ``seat``."""
        return 0 if seat == self.a_seat else 1

    @property
    def winner_player(self) -> int | None:
        return None if self.winner_seat is None else self.player_of(self.winner_seat)


@dataclass(frozen=True, slots=True)
class HandRecord(_Seats):
    """How one hand went, by seat. ``a_seat`` is player A's seat; the non-dealer
    (``1 - dealer``) is the first to act. Deadwood counts are ``None`` for a cancelled hand;
    ``fresh_deadwood`` is the deadwood of the ten cards each seat was dealt."""

    index: int
    a_seat: int
    dealer: int
    kind: str
    winner_seat: int | None
    knocker_seat: int | None
    points: int
    knocker_deadwood: int | None
    defender_deadwood: int | None
    turns: int
    fresh_deadwood: tuple[int, int]

    @property
    def first(self) -> int:
        """The seat that acts first: the non-dealer."""
        return 1 - self.dealer

    def net_points(self, seat: int) -> int:
        """Points won by ``seat`` in this hand, negative when the other seat scored."""
        if self.winner_seat is None:
            return 0
        return self.points if self.winner_seat == seat else -self.points


@dataclass(frozen=True)
class MatchRecord(_Seats):
    """How one match went. ``totals`` are by seat (summed over the games under Hollywood);
    ``winner_seat`` is ``None`` for a tie or a match stopped after ``MAX_HANDS`` hands
    (``finished`` false)."""

    index: int
    a_seat: int
    first_dealer: int
    finished: bool
    winner_seat: int | None
    totals: tuple[int, int]
    hands: tuple[HandRecord, ...]

    def score_of(self, player: int) -> float:
        """1 for a win of ``player`` (0 for A), ½ for a tie, 0 for a loss."""
        if self.winner_seat is None:
            return 0.5
        return 1.0 if self.winner_player == player else 0.0


def hand_record(hand: Hand, index: int, a_seat: int) -> HandRecord:
    """The record of a finished ``hand``."""
    result = hand.result
    if result is None:
        raise GinRummyError("the hand is not over")
    fresh = _fresh_deadwood(hand)
    scored = result.kind != "cancelled"
    return HandRecord(
        index=index,
        a_seat=a_seat,
        dealer=hand.dealer,
        kind=result.kind,
        winner_seat=result.winner_seat,
        knocker_seat=result.knocker_seat,
        points=result.points,
        knocker_deadwood=result.knocker_deadwood if scored else None,
        defender_deadwood=result.defender_deadwood if scored else None,
        turns=sum(1 for e in hand.history if e.kind in ("take", "draw")),
        fresh_deadwood=fresh,
    )


def _fresh_deadwood(hand: Hand) -> tuple[int, int]:
    """Deadwood of the two ten-card hands as dealt (from the deck, so play does not matter)."""
    deck = hand.deck
    non_dealer = sum(1 << deck[i] for i in range(0, 20, 2))
    dealer = sum(1 << deck[i] for i in range(1, 20, 2))
    by_role = {hand.dealer: min_deadwood(dealer), 1 - hand.dealer: min_deadwood(non_dealer)}
    return by_role[0], by_role[1]


def _balance(index: int) -> tuple[int, int]:
    """(player A's seat, the dealing seat) for ``index``: balanced over every four."""
    return (index // 2) % 2, index % 2


def _play_hand(setup: Setup, index: int) -> tuple[Hand, int]:
    """Hand ``index`` of a run of independent hands, played; and player A's seat."""
    a_seat, dealer = _balance(index)
    base = f"{setup.seed}/hand/{index}"
    a = setup.player(0, f"{base}/player/0")
    b = setup.player(1, f"{base}/player/1")
    by_seat = (a, b) if a_seat == 0 else (b, a)
    hand = Hand(setup.rules, seed=base, dealer=dealer)
    play_hand(hand, by_seat)
    return hand, a_seat


def play_one_hand(setup: Setup, index: int) -> HandRecord:
    """Play hand ``index`` of a run of independent hands."""
    hand, a_seat = _play_hand(setup, index)
    return hand_record(hand, index, a_seat)


def _play_match(setup: Setup, index: int, max_hands: int = MAX_HANDS) -> tuple[Match, int]:
    """Match ``index`` of a run of matches, played; and player A's seat."""
    a_seat, first_dealer = _balance(index)
    base = f"{setup.seed}/match/{index}"
    a = setup.player(0, f"{base}/player/0")
    b = setup.player(1, f"{base}/player/1")
    by_seat = (a, b) if a_seat == 0 else (b, a)
    match = Match(setup.rules, seed=base, first_dealer=first_dealer)
    # A table (not play_hand): the match scores each hand and adds the scores to the views.
    Table(match, [Computer(p) for p in by_seat]).play_to_end(max_hands)
    return match, a_seat


def play_one_match(setup: Setup, index: int, max_hands: int = MAX_HANDS) -> MatchRecord:
    """Play match ``index`` of a run of matches (stopped unfinished after ``max_hands``)."""
    match, a_seat = _play_match(setup, index, max_hands)
    return match_record(match, index, a_seat)


def match_record(match: Match, index: int, a_seat: int) -> MatchRecord:
    """The record of match ``index`` (finished or stopped), player A in ``a_seat``."""
    first_dealer = match.first_dealer
    records = [hand_record(hand, n, a_seat) for n, hand in enumerate(match.hands)]
    return MatchRecord(
        index=index,
        a_seat=a_seat,
        first_dealer=first_dealer,
        finished=match.over,
        winner_seat=match.score.winner,
        totals=match.score.totals,
        hands=tuple(records),
    )


# ------------------------------------------------------------------------------------------
# The runner.


@dataclass(frozen=True)
class Job:
    """Indices ``start`` to ``stop`` (exclusive) of one kind of game under one setup; with
    ``rows``, the job also returns the dataset row of every hand
    (:mod:`ginrummy.selfplay.dataset`)."""

    setup: Setup
    mode: Mode
    start: int
    stop: int
    rows: bool = False

    @property
    def games(self) -> int:
        return self.stop - self.start


Record: TypeAlias = HandRecord | MatchRecord


class Part(NamedTuple):
    """What one job played: its records in index order and, if the job asked for them, the
    dataset rows of its hands (otherwise an empty list)."""

    records: list[Record]
    rows: list[HandRow]


def _name(spec: PlayerSpec) -> str:
    """A player's name for the dataset: the name given, or a factory's ``name``."""
    return spec if isinstance(spec, str) else str(getattr(spec, "name", spec))


def play_job(job: Job) -> Part:
    """Play one job. This is the function every backend runs, in a worker process or here:
    each game depends only on the setup and its index, so where it runs does not matter."""
    records: list[Record] = []
    rows: list[HandRow] = []
    setup = job.setup
    names = (_name(setup.players[0]), _name(setup.players[1]))
    for i in range(job.start, job.stop):
        if job.mode == "hands":
            hand, a_seat = _play_hand(setup, i)
            records.append(hand_record(hand, i, a_seat))
            hands = [hand]
        else:
            match, a_seat = _play_match(setup, i)
            records.append(match_record(match, i, a_seat))
            hands = match.hands
        if job.rows:
            rows.extend(
                hand_row(h, seed=setup.seed, mode=job.mode, game=i, hand_number=n,
                         players=names, a_seat=a_seat)
                for n, h in enumerate(hands, 1)
            )
    return Part(records, rows)


def _play_job(job: Job) -> list[Record]:
    return play_job(job).records


def _ignore_interrupt() -> None:
    """Worker initializer: Ctrl-C is handled once, by the parent process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def split(setup: Setup, mode: Mode, count: int, chunk: int, *, rows: bool = False) -> list[Job]:
    """``count`` games cut into jobs of at most ``chunk`` consecutive indices."""
    _check_count(mode, count)
    return [Job(setup, mode, s, min(s + chunk, count), rows) for s in range(0, count, chunk)]


def _check_count(mode: Mode, count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise GinRummyError(f"the number of {mode} is a whole number, 0 or more, not {count!r}")


def chunk_size(mode: Mode, count: int, workers: int) -> int:
    """Jobs small enough to balance the workers and move the progress bar, large enough to
    keep the cost of passing them between processes negligible."""
    _check_count(mode, count)
    most = 50 if mode == "hands" else 4
    return max(1, min(most, math.ceil(count / (max(workers, 1) * 8))))


class BackendError(GinRummyError):
    """The machinery that runs the jobs failed (a worker died, the cluster went away); no
    game was at fault."""


#: Jobs each worker may have queued or finished-but-not-yet-merged at once: enough to keep
#: every worker busy, few enough that the results waiting for an earlier job stay small.
WINDOW_PER_WORKER = 4


class Cluster(Protocol):
    """Where jobs can run beside this machine's processes: a
    :class:`~ginrummy.selfplay.distributed.RaySession` (which imports this module, so this one
    names only what it asks of it)."""

    def parts(self, jobs: Sequence[Job], *, workers: int,
              progress: Callable[[int], None] | None = None) -> Generator[Part, None, None]:
        """Run ``jobs``, at most ``workers`` at a time, and yield their parts in job order."""
        ...


def iter_parts(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: Cluster | None = None,
) -> Generator[Part, None, None]:
    """Play every job and yield their parts in job order, each as soon as it and every job
    before it are done: a consumer can write them out and drop them, so a long run holds
    only a bounded window of results (about ``WINDOW_PER_WORKER`` jobs per worker).

    The jobs run here (``workers`` 1), in ``workers`` local processes, or on the Ray session
    ``ray`` with ``workers`` tasks at a time. ``progress`` is called with the number of games
    of each job as it finishes (in any order)."""
    if workers < 1:
        raise GinRummyError(f"workers must be 1 or more, not {workers}")
    if ray is not None:
        return ray.parts(jobs, workers=workers, progress=progress)
    if workers == 1 or len(jobs) <= 1:
        return _serial_parts(jobs, progress)
    return _pool_parts(jobs, workers, progress)


class InOrder:
    """Parts of jobs that finish in any order, handed on in job order: :meth:`add` takes a
    finished job's part (and reports its games to ``progress``) and returns the parts that
    are next in order. ``merged`` counts the parts handed on, ``ahead`` those waiting."""

    def __init__(self, jobs: Sequence[Job], progress: Callable[[int], None] | None) -> None:
        self.jobs = jobs
        self.progress = progress
        self.done: dict[int, Part] = {}
        self.merged = 0

    def add(self, n: int, part: Part) -> list[Part]:
        self.done[n] = part
        if self.progress:
            self.progress(self.jobs[n].games)
        out = []
        while self.merged in self.done:
            out.append(self.done.pop(self.merged))
            self.merged += 1
        return out


def _serial_parts(
    jobs: Sequence[Job], progress: Callable[[int], None] | None
) -> Generator[Part, None, None]:
    for job in jobs:
        part = play_job(job)
        if progress:
            progress(job.games)
        yield part


def _pool_parts(
    jobs: Sequence[Job], workers: int, progress: Callable[[int], None] | None
) -> Generator[Part, None, None]:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt)
    pending: dict[Future[Part], int] = {}
    order = InOrder(jobs, progress)
    submitted = 0
    window = workers * WINDOW_PER_WORKER
    try:
        while order.merged < len(jobs):
            while submitted < len(jobs) and submitted - order.merged < window:
                pending[pool.submit(play_job, jobs[submitted])] = submitted
                submitted += 1
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield from order.add(pending.pop(future), future.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: Cluster | None = None,
) -> list[list[Record]]:
    """Play every job (here, in ``workers`` processes, or on Ray) and return their records
    in job order. ``progress`` is called with the number of games of each finished job."""
    return [part.records for part in iter_parts(jobs, workers=workers, progress=progress,
                                                ray=ray)]


def _flatten(parts: Iterator[list[Record]] | list[list[Record]]) -> list[Record]:
    return [r for part in parts for r in part]


def run_hands(
    setup: Setup,
    count: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: Cluster | None = None,
) -> list[HandRecord]:
    """Play ``count`` independent hands; the records in index order."""
    jobs = split(setup, "hands", count, chunk_size("hands", count, workers))
    records = _flatten(run_jobs(jobs, workers=workers, progress=progress, ray=ray))
    return [r for r in records if isinstance(r, HandRecord)]


def run_matches(
    setup: Setup,
    count: int,
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: Cluster | None = None,
) -> list[MatchRecord]:
    """Play ``count`` whole matches; the records in index order."""
    jobs = split(setup, "matches", count, chunk_size("matches", count, workers))
    records = _flatten(run_jobs(jobs, workers=workers, progress=progress, ray=ray))
    return [r for r in records if isinstance(r, MatchRecord)]
