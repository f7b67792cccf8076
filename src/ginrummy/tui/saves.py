"""The terminal table's save file: one unfinished match in the user's data directory.

``current.toml`` is a match record (:mod:`ginrummy.engine.record`) whose ``meta`` says how to carry
on: the computer's level, the human's seat, the match's seed and the computer's seed, and
``sealed``: the private state of the match's :class:`~ginrummy.engine.sealer.DealSealer`, server
seeds not revealed yet included (the person owns the file, which lists every deck anyway). Each hand
carries its public sealed data, and its server seed once it is over, so ``ginrummy verify`` checks
the file. Saves written before sealed deals have no ``sealed`` table and carry on unsealed, dealt
from the match's seed. It is written after every move by writing a temporary file in the same
directory, syncing it to disk and renaming it over the old one, so a killed process leaves either
the old save or the new one, never half of one.

Nothing is ever deleted: a save that cannot be read is renamed ``current.corrupt-<time>.toml``,
an abandoned one ``current.abandoned-<time>.toml``, and a finished match moves to
``finished/<time>.toml``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..engine.errors import GinRummyError
from ..engine.match import Match, seeded_decks
from ..engine.record import dumps, loads, parse, players_of
from ..engine.rules import RulesLike
from ..engine.sealer import DealSealer
from ..engine.shuffle import SealError
from ..words.names import name_problem
from .sealing import check_state, make_sealer, state_for_save

__all__ = [
    "SaveMeta",
    "SavedMatch",
    "SaveStore",
    "CorruptSaveError",
    "SaveLockedError",
    "new_saved_match",
    "printable_name",
]

CURRENT = "current.toml"
FINISHED = "finished"
_APP = "ginrummy play"
_SORTS = ("rank", "suit")



def printable_name(name: str) -> bool:
    """Whether ``name`` is plain text to print: one the names rule lets through
    (:func:`ginrummy.words.names.name_problem`: no control character, which would reach the
    terminal as an escape sequence and could clear it or recolour it; no bidirectional
    control, which would reorder what is shown; nothing invisible)."""
    return name_problem(name) is None


class CorruptSaveError(GinRummyError):
    """The save file exists but cannot be turned back into a match; the message says why."""


class SaveLockedError(GinRummyError):
    """Another ``ginrummy play`` is using the same data directory."""


@dataclass(frozen=True)
class SaveMeta:
    """How to carry on a saved match: who the computer is and where its randomness comes from.

    ``match_seed`` gives the first dealer (and, in a save from before sealed deals, the decks of
    hands not dealt yet); ``computer_seed`` with the hand number and move index reseeds the
    computer before each decision, so a resumed match plays exactly as an uninterrupted one
    would. ``reproducible`` (a match started with ``--seed``) derives the sealed deals' server
    seeds and offered client seeds from ``match_seed`` instead of drawing them at random.
    ``coach``: the coach was on when the match was last saved (``coach on``/``coach off`` or
    ``--coach``), so a resumed match has it on again.
    """

    level: str
    human_seat: int
    match_seed: str
    computer_seed: str
    sort: Literal["rank", "suit"] = "rank"
    reproducible: bool = False
    coach: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "app": _APP,
            "level": self.level,
            "human_seat": self.human_seat,
            "match_seed": self.match_seed,
            "computer_seed": self.computer_seed,
            "sort": self.sort,
            "reproducible": self.reproducible,
            "coach": self.coach,
        }

    @property
    def derive_from(self) -> str | None:
        """The seed the sealed deals are derived from, or ``None`` when they are random."""
        return self.match_seed if self.reproducible else None

    @classmethod
    def from_dict(cls, meta: object) -> SaveMeta:
        """Read and check the ``meta`` table of a save (CorruptSaveError when it is wrong)."""
        if not isinstance(meta, Mapping):
            raise CorruptSaveError("it has no 'meta' table saying who the computer is")
        if meta.get("app") != _APP:
            raise CorruptSaveError("it was not written by 'ginrummy play'")
        for key in ("level", "match_seed", "computer_seed"):
            if not isinstance(meta.get(key), str) or not meta[key]:
                raise CorruptSaveError(f"its meta field {key!r} is missing or not text")
        seat = meta.get("human_seat")
        if seat not in (0, 1) or isinstance(seat, bool):
            raise CorruptSaveError(f"its meta field 'human_seat' is {seat!r}, not 0 or 1")
        sort = meta.get("sort", "rank")
        if sort not in _SORTS:
            raise CorruptSaveError(f"its meta field 'sort' is {sort!r}, not rank or suit")
        reproducible = meta.get("reproducible", False)
        if not isinstance(reproducible, bool):
            raise CorruptSaveError("its meta field 'reproducible' is not true or false")
        coach = meta.get("coach", False)
        if not isinstance(coach, bool):
            raise CorruptSaveError("its meta field 'coach' is not true or false")
        return cls(
            level=meta["level"],
            human_seat=seat,
            match_seed=meta["match_seed"],
            computer_seed=meta["computer_seed"],
            sort=sort,
            reproducible=reproducible,
            coach=coach,
        )


@dataclass
class SavedMatch:
    """A match with the seat names and the meta needed to go on playing it, and the sealer
    that deals its hands (``None`` for a save from before sealed deals)."""

    match: Match
    names: tuple[str, str]
    meta: SaveMeta
    sealer: DealSealer | None = None

    def dumps(self, *, ended: bool = False) -> str:
        """The save's text; ``ended``: the match will not be played on (abandoned), so the
        hand it stopped in shows its server seed too, as a finished hand does."""
        meta = self.meta.as_dict()
        hand_meta = None
        if self.sealer is not None:
            meta["sealed"] = state_for_save(self.sealer)
            hand_meta = self.sealer.hand_meta(ended=ended)
        return dumps(self.match, players=list(self.names), meta=meta, hand_meta=hand_meta)


def new_saved_match(
    rules: RulesLike, level: str, seed: str | None, names: tuple[str, str]
) -> SavedMatch:
    """A new match for the human at seat 0, its first hand sealed (the commitment is in the
    save before it is shown) and waiting for the human's client seed. ``seed`` makes the match
    reproducible (see :mod:`.sealing`); without it every seed is drawn at random."""
    match_seed = seed if seed is not None else secrets.token_hex(16)
    meta = SaveMeta(
        level=level,
        human_seat=0,
        match_seed=match_seed,
        computer_seed=f"{match_seed}/computer",
        reproducible=seed is not None,
    )
    match = Match(rules, seed=match_seed, start=False)
    sealer = make_sealer(match, reproducible_from=meta.derive_from)
    sealer.commitment(0)
    return SavedMatch(match, names, meta, sealer)


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


class SaveStore:
    """The data directory: ``current.toml``, set-aside saves and ``finished/``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.dir = Path(data_dir)
        self.current = self.dir / CURRENT
        self.finished_dir = self.dir / FINISHED

    def prepare(self) -> None:
        """Create the directory."""
        self.dir.mkdir(parents=True, exist_ok=True)

    def _clear_stale(self) -> None:
        """Clear temporary files left by a killed write (they are never the save: the rename
        that would have made them one did not happen). Only under the lock: another table's
        write in progress is such a file too."""
        for stale in self.dir.glob(".current-*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the directory for one table at a time (two tables would overwrite each
        other's saves). The lock goes with the process, even when it is killed."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no advisory locks, go without
            self._clear_stale()
            yield
            return
        path = self.dir / "lock"
        with open(path, "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise SaveLockedError(
                    f"another 'ginrummy play' is using {self.dir}; finish that one first"
                ) from None
            try:
                self._clear_stale()
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def exists(self) -> bool:
        return self.current.exists()

    def read(self) -> SavedMatch:
        """The saved match, replayed move by move.

        Raises :class:`CorruptSaveError` when the file cannot be decoded or replayed, and
        ``OSError`` when it cannot be opened at all (then it is left where it is).
        """
        raw = self.current.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptSaveError(
                f"it is not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
        try:
            match = loads(text)
            names_list = players_of(text)
            meta_table = parse(text).get("meta")
        except GinRummyError as exc:
            raise CorruptSaveError(str(exc)) from None
        except Exception as exc:  # a record the reader did not foresee; the file is kept
            raise CorruptSaveError(f"{type(exc).__name__}: {exc}") from None
        if names_list is None:
            raise CorruptSaveError("it does not name the two players")
        if not all(printable_name(n) for n in names_list):
            # A control character in a name would reach the terminal as an escape sequence.
            raise CorruptSaveError("a player's name is not plain text: "
                                   + next(filter(None, map(name_problem, names_list))))
        meta = SaveMeta.from_dict(meta_table)
        match.seed = meta.match_seed
        assert isinstance(meta_table, Mapping)
        sealed = meta_table.get("sealed")
        sealer = None
        if sealed is not None:
            try:
                sealer = make_sealer(match, reproducible_from=meta.derive_from,
                                     state=check_state(sealed))
            except SealError as exc:
                raise CorruptSaveError(f"its sealed deals do not fit the match: {exc}") from None
        else:
            if not match.hands:
                raise CorruptSaveError("it holds no hand")
            match.decks = seeded_decks(meta.match_seed)
        return SavedMatch(match, (names_list[0], names_list[1]), meta, sealer)

    def write(self, saved: SavedMatch, *, ended: bool = False) -> None:
        """Replace ``current.toml`` with the match as it stands, atomically and durably
        (``ended``: as :meth:`SavedMatch.dumps`)."""
        data = saved.dumps(ended=ended).encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=".current-", suffix=".tmp", dir=self.dir)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.current)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._sync_dir()

    def _sync_dir(self) -> None:
        """Make the rename itself durable (POSIX; a no-op where directories cannot be opened)."""
        try:
            fd = os.open(self.dir, os.O_RDONLY)
        except OSError:  # pragma: no cover - Windows
            return
        try:
            os.fsync(fd)
        except OSError:  # pragma: no cover - file systems without directory sync
            pass
        finally:
            os.close(fd)

    def _free(self, folder: Path, stem: str) -> Path:
        path = folder / f"{stem}.toml"
        n = 2
        while path.exists():
            path = folder / f"{stem}-{n}.toml"
            n += 1
        return path

    def set_aside(self, why: Literal["corrupt", "abandoned"]) -> Path:
        """Rename the current save out of the way (kept, never deleted); returns its new path."""
        target = self._free(self.dir, f"current.{why}-{_stamp()}")
        os.replace(self.current, target)
        self._sync_dir()
        return target

    def archive(self) -> Path:
        """Move the current save of a finished match into ``finished/``."""
        self.finished_dir.mkdir(parents=True, exist_ok=True)
        target = self._free(self.finished_dir, _stamp())
        os.replace(self.current, target)
        self._sync_dir()
        return target
