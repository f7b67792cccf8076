"""A dataset of self-play hands: one row a hand, written to Parquet as the hands are played.

``ginrummy simulate ... --out hands.parquet`` asks every job of the run for a :class:`HandRow`
per hand besides its statistics record (:mod:`ginrummy.selfplay.simulate`); the rows travel back
with the records, in index order, and a :class:`ParquetSink` writes them out a row group at a time,
so the file grows while the run goes on and no more than one row group is ever held in memory.
A row keeps everything needed to play the hand again (the deck, the dealer, every move and the
rules), so :func:`replay_row` rebuilds it through the engine and checks the stored result.

Building rows needs nothing beyond the engine; writing and reading them needs pyarrow, the
optional ``data`` extra (``pip install "ginrummy[data]"``), imported only when a file is
written or read. The columns are :data:`COLUMNS`, documented in ``docs/simulate.md``.

>>> from ginrummy.engine.hand import Hand
>>> from ginrummy.players import make
>>> from ginrummy.selfplay.play import play_hand
>>> hand = Hand("traditional", seed="doc", dealer=1)
>>> _ = play_hand(hand, [make("simple", seed=1), make("hard", seed=2)])
>>> row = hand_row(hand, seed="doc", mode="hands", game=0, hand_number=1,
...                players=("simple", "hard"), a_seat=0)
>>> replay_row(row).hand.result.summary() == row.result
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import __version__
from ..engine.cards import CARD_TEXT, parse_cards
from ..engine.errors import GinRummyError, InvalidRecordError
from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.record import dumps, play_moves
from ..engine.rules import RuleSet, get_rules

if TYPE_CHECKING:  # pyarrow is optional: only annotations here
    import pyarrow as pa
    import pyarrow.parquet as pq

__all__ = [
    "COLUMNS",
    "FORMAT",
    "HandRow",
    "MissingExtraError",
    "ParquetSink",
    "count_rows",
    "hand_row",
    "read_row",
    "replay_row",
    "row_record",
]

#: The dataset's format number, stored in the file's metadata (``ginrummy.format``).
FORMAT = 1

#: Rows per Parquet row group: what a :class:`ParquetSink` holds before it writes.
ROW_GROUP = 10_000


class MissingExtraError(GinRummyError):
    """An optional dependency is not installed; the message says how to install it."""


def require(module: str, extra: str, what: str) -> Any:
    """Import ``module`` or raise :class:`MissingExtraError` naming the extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{what} needs {module.split('.')[0]}, which is not installed; install it with "
            f'pip install "ginrummy[{extra}]"'
        ) from None


class HandRow(NamedTuple):
    """One played hand, as stored in the dataset (a tuple: cheap to send between processes).

    Seats are 0 and 1; ``a_seat`` is where player A sat. ``game`` is the hand's index in a
    run of ``--hands`` or its match's index in a run of ``--matches``; ``hand_number`` counts
    the hands of that match from 1 (always 1 for ``--hands``). ``deck`` is the 52 cards as a
    record writes them, index 0 on top; ``moves`` every move in the record's notation.
    ``winner_seat``, ``knocker_seat`` and both deadwood counts are ``None`` for a cancelled
    hand; ``result`` is the record's one-line result (``knock: seat 0 scores 12``).
    ``overrides`` is the rule overrides as a JSON object."""

    seed: str
    mode: str
    game: int
    hand_number: int
    profile: str
    overrides: str
    seat0_player: str
    seat1_player: str
    a_seat: int
    dealer: int
    deck: str
    moves: list[str]
    kind: str
    winner_seat: int | None
    knocker_seat: int | None
    result: str
    points: int
    knocker_deadwood: int | None
    defender_deadwood: int | None

    @property
    def players(self) -> tuple[str, str]:
        """The players' names by seat."""
        return self.seat0_player, self.seat1_player

    @property
    def rules(self) -> RuleSet:
        """The rules the hand was played under."""
        return get_rules(self.profile, **json.loads(self.overrides))


#: The dataset's columns, in order.
COLUMNS: tuple[str, ...] = HandRow._fields


def hand_row(
    hand: Hand,
    *,
    seed: str,
    mode: str,
    game: int,
    hand_number: int,
    players: Sequence[str],
    a_seat: int,
) -> HandRow:
    """The row of a finished ``hand``; ``players`` names players A and B."""
    result = hand.result
    if result is None:
        raise GinRummyError("the hand is not over")
    rules = hand.rules
    scored = result.kind != "cancelled"
    by_seat = (players[0], players[1]) if a_seat == 0 else (players[1], players[0])
    return HandRow(
        seed=seed,
        mode=mode,
        game=game,
        hand_number=hand_number,
        profile=rules.profile,
        overrides=json.dumps(dict(rules.overrides), sort_keys=True),
        seat0_player=by_seat[0],
        seat1_player=by_seat[1],
        a_seat=a_seat,
        dealer=hand.dealer,
        deck=" ".join(CARD_TEXT[c] for c in hand.deck),
        moves=[e.text for e in hand.history],
        kind=result.kind,
        winner_seat=result.winner_seat,
        knocker_seat=result.knocker_seat if scored else None,
        points=result.points,
        knocker_deadwood=result.knocker_deadwood if scored else None,
        defender_deadwood=result.defender_deadwood if scored else None,
        result=result.summary(),
    )


# ------------------------------------------------------------------------------------------
# Replaying a row.


def replay_row(row: HandRow) -> Match:
    """Play the row's hand again through the engine, as the first hand of a match dealt by
    the row's dealer, and check that it ends as the row says. Raises
    :class:`~ginrummy.engine.errors.InvalidRecordError` when a move is illegal or the result
    differs, or when the row is malformed (a file from elsewhere: overrides that are not a
    JSON object, moves that are not a list of texts, a missing value)."""
    try:
        return _replay_row(row)
    except GinRummyError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        raise InvalidRecordError(
            f"the row is malformed ({type(exc).__name__}: {str(exc)[:200]})") from None


def _replay_row(row: HandRow) -> Match:
    where = f"{row.mode[:-1]} {row.game}, hand {row.hand_number}"
    try:
        match = Match(row.rules, first_dealer=row.dealer, start=False)
        deck = [int(c) for c in parse_cards(row.deck)]
        match.next_hand(deck)
    except GinRummyError as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None
    play_moves(match, row.moves, where)
    result = match.hand.result
    if result is None:
        raise InvalidRecordError(f"{where}: the moves do not finish the hand")
    if result.summary() != row.result or result.kind != row.kind:
        raise InvalidRecordError(
            f"{where}: the row says {row.result!r} but the replay gives {result.summary()!r}"
        )
    return match


def row_record(row: HandRow, *, source: str | None = None, number: int | None = None) -> str:
    """The row's hand as a match record (TOML, see :mod:`ginrummy.engine.record`), replayed and
    checked first; ``meta`` says where it came from, so ``ginrummy replay`` reads it back."""
    match = replay_row(row)
    meta: dict[str, Any] = {"seed": row.seed, "mode": row.mode, "game": row.game,
                            "hand_number": row.hand_number}
    if source is not None:
        meta["source"] = source
    if number is not None:
        meta["row"] = number
    return dumps(match, players=list(row.players), meta=meta)


# ------------------------------------------------------------------------------------------
# Parquet.


def schema() -> pa.Schema:
    """The Parquet schema of :class:`HandRow` (needs pyarrow)."""
    pa = require("pyarrow", "data", "the hand dataset")
    s, i8, i32, i64 = pa.string(), pa.int8(), pa.int32(), pa.int64()
    types = {
        "seed": s, "mode": s, "game": i64, "hand_number": i32, "profile": s, "overrides": s,
        "seat0_player": s, "seat1_player": s, "a_seat": i8, "dealer": i8, "deck": s,
        "moves": pa.list_(s), "kind": s, "winner_seat": i8, "knocker_seat": i8,
        "points": i32, "knocker_deadwood": i32, "defender_deadwood": i32, "result": s,
    }
    nullable = {"winner_seat", "knocker_seat", "knocker_deadwood", "defender_deadwood"}
    fields = [pa.field(name, types[name], nullable=name in nullable) for name in COLUMNS]
    meta = {"ginrummy.format": str(FORMAT), "ginrummy.version": __version__}
    return pa.schema(fields, metadata=meta)


class ParquetSink:
    """Writes :class:`HandRow` s to a Parquet file as they come, a row group at a time.

    The file is written under a temporary name beside ``path`` and moved into place by
    :meth:`close`, so an interrupted run leaves no truncated file under the real name. Use
    it as a context manager: leaving the block by an exception discards the partial file.
    """

    def __init__(self, path: str | os.PathLike[str], *, row_group: int = ROW_GROUP) -> None:
        pq_module = require("pyarrow.parquet", "data", "--out (the hand dataset)")
        self.path = os.fspath(path)
        self.partial = self.path + ".partial"
        self.row_group = row_group
        self.rows_written = 0
        self._schema = schema()
        self._buffer: list[HandRow] = []
        self._writer: pq.ParquetWriter = pq_module.ParquetWriter(
            self.partial, self._schema, compression="zstd"
        )

    def write(self, rows: Iterable[HandRow]) -> None:
        """Add rows; a row group is written each time :attr:`row_group` rows are waiting."""
        self._buffer.extend(rows)
        while len(self._buffer) >= self.row_group:
            self._flush(self._buffer[: self.row_group])
            del self._buffer[: self.row_group]

    def _flush(self, rows: Sequence[HandRow]) -> None:
        if not rows:
            return
        pa = require("pyarrow", "data", "the hand dataset")
        columns = {name: [r[k] for r in rows] for k, name in enumerate(COLUMNS)}
        self._writer.write_table(pa.Table.from_pydict(columns, schema=self._schema))
        self.rows_written += len(rows)

    def close(self) -> None:
        """Write what is left, finish the file and give it its real name."""
        self._flush(self._buffer)
        self._buffer.clear()
        self._writer.close()
        os.replace(self.partial, self.path)

    def abort(self) -> None:
        """Stop writing and remove the partial file."""
        self._buffer.clear()
        try:
            self._writer.close()
        finally:
            if os.path.exists(self.partial):
                os.remove(self.partial)

    def __enter__(self) -> ParquetSink:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()


def _open(path: str) -> pq.ParquetFile:
    pq_module = require("pyarrow.parquet", "data", "reading the hand dataset")
    try:
        file = pq_module.ParquetFile(path)
    except OSError as exc:
        raise GinRummyError(f"cannot read {path}: {exc}") from None
    except Exception as exc:  # pyarrow raises ArrowInvalid (a ValueError) for non-Parquet
        raise InvalidRecordError(f"{path} is not a Parquet file: {exc}") from None
    missing = [c for c in COLUMNS if c not in file.schema_arrow.names]
    if missing:
        raise InvalidRecordError(
            f"{path} is not a ginrummy hand dataset (no column {', '.join(missing)})"
        )
    return file


def count_rows(path: str) -> int:
    """How many rows (hands) the dataset at ``path`` holds (read from its footer)."""
    return int(_open(path).metadata.num_rows)


def read_row(path: str, number: int) -> HandRow:
    """Row ``number`` (counting from 0, as pandas and polars do) of the dataset at ``path``;
    only the row group that holds it is read."""
    file = _open(path)
    total = file.metadata.num_rows
    if not 0 <= number < total:
        raise GinRummyError(f"{path} has rows 0 to {total - 1}; there is no row {number}")
    start = 0
    for g in range(file.num_row_groups):
        size = file.metadata.row_group(g).num_rows
        if number < start + size:
            table = file.read_row_group(g, columns=list(COLUMNS))
            values = table.slice(number - start, 1).to_pylist()[0]
            return _row_of(values)
        start += size
    raise AssertionError("unreachable: the row groups add up to num_rows")  # pragma: no cover


def _row_of(values: Mapping[str, Any]) -> HandRow:
    return HandRow(**{name: values[name] for name in COLUMNS})
