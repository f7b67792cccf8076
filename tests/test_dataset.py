"""The dataset of self-play hands: ``simulate --out FILE.parquet`` and ``replay --row``.

Every row read back must be the hand the engine played: the deck the run's seed deals, moves
that replay to the stored result, and the figures of the run's own records.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.engine.errors import InvalidRecordError
from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match
from ginrummy.engine.record import loads
from ginrummy.engine.rules import get_rules
from ginrummy.selfplay.dataset import (
    COLUMNS,
    HandRow,
    ParquetSink,
    count_rows,
    read_row,
    replay_row,
)
from ginrummy.selfplay.simulate import (
    HandRecord,
    Setup,
    iter_parts,
    play_one_match,
    run_hands,
    split,
)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def rows_of(path: Path) -> list[HandRow]:
    table = pq.read_table(path)
    assert tuple(table.column_names) == COLUMNS
    return [HandRow(**d) for d in table.to_pylist()]


def same_result(row: HandRow, record: HandRecord) -> None:
    assert (row.dealer, row.a_seat, row.kind, row.winner_seat, row.points) == (
        record.dealer, record.a_seat, record.kind, record.winner_seat, record.points)
    assert (row.knocker_deadwood, row.defender_deadwood) == (
        record.knocker_deadwood, record.defender_deadwood)


def test_hands_dataset_is_what_the_engine_played(tmp_path: Path) -> None:
    out = tmp_path / "hands.parquet"
    result = invoke("simulate", "simple", "random", "--hands", "30", "--seed", "d",
                    "--rule", "gin_bonus=30", "--workers", "2", "--no-progress",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "30 hands written" in result.output
    rows = rows_of(out)
    assert len(rows) == count_rows(str(out)) == 30
    rules = get_rules("traditional", gin_bonus=30)
    records = run_hands(Setup.of(rules, ["simple", "random"], seed="d"), 30)
    for i, (row, record) in enumerate(zip(rows, records, strict=True)):
        assert (row.seed, row.mode, row.game, row.hand_number) == ("d", "hands", i, 1)
        assert row.rules == rules and json.loads(row.overrides) == {"gin_bonus": 30}
        a, b = ("simple", "random") if row.a_seat == 0 else ("random", "simple")
        assert row.players == (a, b)
        dealt = Hand(rules, seed=f"d/hand/{i}", dealer=row.dealer)
        assert loads_deck(row.deck) == [int(c) for c in dealt.deck]
        same_result(row, record)
        hand = replay_row(row).hand  # raises unless the moves replay to the stored result
        assert hand.result is not None and hand.result.summary() == row.result
        assert len(row.moves) == len(hand.history) and row.moves == hand.moves


def loads_deck(text: str) -> list[int]:
    from ginrummy.engine.cards import parse_cards

    return [int(c) for c in parse_cards(text)]


def test_matches_dataset_numbers_the_hands_of_each_match(tmp_path: Path) -> None:
    out = tmp_path / "m.parquet"
    result = invoke("simulate", "simple", "simple", "--matches", "3", "--seed", "m",
                    "--rule", "target=40", "--workers", "1", "--no-progress", "--json",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["count"] == 3  # the note goes to stderr under --json
    rows = rows_of(out)
    setup = Setup.of(get_rules("traditional", target=40), ["simple", "simple"], seed="m")
    matches = [play_one_match(setup, i) for i in range(3)]
    assert len(rows) == sum(len(m.hands) for m in matches)
    expected = [(m.index, n, h) for m in matches for n, h in enumerate(m.hands, 1)]
    for row, (index, number, record) in zip(rows, expected, strict=True):
        assert (row.mode, row.game, row.hand_number) == ("matches", index, number)
        same_result(row, record)
        replay_row(row)
    assert (rows[1].game, rows[1].hand_number) == (0, 2)
    decks = Match(setup.rules, seed="m/match/0").decks
    assert loads_deck(rows[1].deck) == list(decks(1))


def test_a_row_that_does_not_replay_is_refused() -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="x")
    row = next(iter_parts(split(setup, "hands", 1, 1, rows=True))).rows[0]
    with pytest.raises(InvalidRecordError, match="the replay gives"):
        replay_row(row._replace(result="gin: seat 0 scores 99"))
    with pytest.raises(InvalidRecordError, match="move 1"):
        replay_row(row._replace(moves=["discard 2c", *row.moves]))


@pytest.mark.parametrize(("field", "value"), [
    ("overrides", "{not json"), ("overrides", "[1, 2]"), ("overrides", "[" * 5000),
    ("moves", None), ("moves", [3, 4]), ("deck", None), ("profile", None),
])
def test_a_malformed_row_is_refused_with_the_records_error(field: str, value: object) -> None:
    """A dataset from elsewhere may hold anything in a row: each is the record's error (which
    `replay --row` reports), never a TypeError or a JSON error from inside."""
    setup = Setup.of("traditional", ["random", "random"], seed="x")
    row = next(iter_parts(split(setup, "hands", 1, 1, rows=True))).rows[0]
    with pytest.raises(InvalidRecordError):
        replay_row(row._replace(**{field: value}))


def test_the_sink_writes_row_groups_as_rows_arrive(tmp_path: Path) -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="s")
    path = tmp_path / "s.parquet"
    with ParquetSink(path, row_group=7) as sink:
        for part in iter_parts(split(setup, "hands", 20, 3, rows=True)):
            sink.write(part.rows)
            assert len(sink._buffer) < 7  # never more than a row group waits in memory
        assert not path.exists()  # written under a temporary name until closed
    file = pq.ParquetFile(path)
    assert [file.metadata.row_group(g).num_rows for g in range(file.num_row_groups)] == [7, 7, 6]
    assert file.schema_arrow.metadata[b"ginrummy.format"] == b"1"
    assert read_row(str(path), 15).game == 15
    assert not (tmp_path / "s.parquet.partial").exists()


def test_an_interrupted_run_leaves_no_file(tmp_path: Path) -> None:
    setup = Setup.of("traditional", ["random", "random"], seed="s")
    path = tmp_path / "x.parquet"
    with pytest.raises(KeyboardInterrupt), ParquetSink(path) as sink:
        sink.write(next(iter_parts(split(setup, "hands", 2, 2, rows=True))).rows)
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_parts_are_handed_over_before_the_run_ends() -> None:
    """The runner keeps a bounded window of jobs: the first part comes out long before the
    last job finishes, so a consumer that writes and drops parts holds little."""
    setup = Setup.of("traditional", ["random", "random"], seed="w")
    jobs = split(setup, "hands", 60, 1)
    for workers in (1, 2):
        finished = 0

        def count(n: int) -> None:
            nonlocal finished
            finished += n

        parts = iter_parts(jobs, workers=workers, progress=count)
        next(parts)
        assert finished <= 4 * workers < len(jobs)
        parts.close()


def test_replay_prints_a_row_as_a_record(tmp_path: Path) -> None:
    out = tmp_path / "h.parquet"
    assert invoke("simulate", "random", "simple", "--hands", "20", "--seed", "r",
                  "--workers", "1", "--no-progress", "--out", str(out)).exit_code == 0
    result = invoke("replay", str(out), "--row", "17")
    assert result.exit_code == 0, result.output
    match = loads(result.output)  # a record that replays, with its result checked
    row = read_row(str(out), 17)
    assert match.hand.moves == row.moves
    assert match.hand.result is not None and match.hand.result.summary() == row.result
    assert "row = 17" in result.output and 'game = 17' in result.output
    record = tmp_path / "17.toml"
    record.write_text(result.output, encoding="utf-8")
    sheet = invoke("replay", str(record))
    assert sheet.exit_code == 0 and row.result.split(":")[0] in sheet.output
    # A row changed by someone else: the file, the row and the reason, no traceback.
    table = pq.read_table(out)
    column = table.column_names.index("overrides")
    table = table.set_column(column, "overrides",
                             pa.array(["{not json"] * table.num_rows, pa.string()))
    broken = tmp_path / "broken.parquet"
    pq.write_table(table, broken)
    refused = invoke("replay", str(broken), "--row", "3")
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert f"{broken}, row 3: the row is malformed (JSONDecodeError" in refused.output
    missing = invoke("replay", str(out), "--row", "20")
    assert missing.exit_code == 1 and "rows 0 to 19; there is no row 20" in missing.output
    assert "--row" in invoke("replay", str(out)).output


def test_without_pyarrow_out_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = invoke("simulate", "random", "--hands", "2", "--no-progress",
                    "--out", str(tmp_path / "h.parquet"))
    assert result.exit_code == 1
    assert 'pip install "ginrummy[data]"' in result.output
    assert list(tmp_path.iterdir()) == []


def test_out_in_a_missing_folder_is_refused_before_playing() -> None:
    result = invoke("simulate", "random", "--hands", "2", "--no-progress",
                    "--out", "/no/such/folder/h.parquet")
    assert result.exit_code == 2 and "does not exist" in result.output
