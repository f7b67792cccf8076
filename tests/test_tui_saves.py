"""The save file: atomic writes, exact resumes, and nothing ever lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from ginrummy.engine.match import Match
from ginrummy.tui.saves import (
    CorruptSaveError,
    SavedMatch,
    SaveLockedError,
    SaveMeta,
    SaveStore,
)

META = SaveMeta(level="random", human_seat=0, match_seed="s1", computer_seed="s1/computer")


def saved_match(moves: list[str] | None = None) -> SavedMatch:
    match = Match("traditional", seed="s1")
    for move in moves or []:
        match.play(move)
    return SavedMatch(match, ("Ann", "Computer"), META)


def store_in(tmp_path: Path) -> SaveStore:
    store = SaveStore(tmp_path / "data")
    store.prepare()
    return store


def test_a_save_reads_back_as_the_same_match(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    original = saved_match(["pass", "pass", "draw"])
    store.write(original)
    again = store.read()
    assert again.names == ("Ann", "Computer")
    assert again.meta == META
    assert again.match.hand.moves == ["pass", "pass", "draw"]
    assert again.match.hand.hands == original.match.hand.hands
    # Hands not dealt yet come from the saved seed, as they would have without the save.
    assert again.match.decks(5) == original.match.decks(5)


def test_writing_replaces_the_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_in(tmp_path)
    store.write(saved_match(["pass"]))
    before = store.current.read_bytes()

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("ginrummy.tui.saves.os.replace", broken)
    with pytest.raises(OSError, match="disk full"):
        store.write(saved_match(["pass", "pass"]))
    assert store.current.read_bytes() == before
    assert sorted(p.name for p in store.dir.iterdir()) == ["current.toml"]


def test_the_lock_clears_half_written_temporaries_only(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.write(saved_match())
    (store.dir / ".current-abc.tmp").write_text("half a save")
    store.prepare()
    with store.lock():
        assert sorted(p.name for p in store.dir.iterdir()) == ["current.toml", "lock"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"this is not toml [[", "not valid TOML"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"format = 99\nprofile = 'traditional'\nfirst_dealer = 0\n", "format 99"),
        (b"format = 1\nprofile = 'traditional'\nfirst_dealer = 0\nplayers = ['a', 'b']\n",
         "no 'meta' table"),
    ],
)
def test_unreadable_saves_say_why(tmp_path: Path, content: bytes, reason: str) -> None:
    store = store_in(tmp_path)
    store.current.write_bytes(content)
    with pytest.raises(CorruptSaveError, match=reason):
        store.read()


def test_a_save_whose_moves_do_not_replay_is_corrupt(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.write(saved_match(["pass", "pass", "draw"]))
    text = store.current.read_text()
    store.current.write_text(text.replace('"draw"', '"take"'))
    with pytest.raises(CorruptSaveError, match="hand 1, move 3 'take'"):
        store.read()


def test_a_name_with_a_control_character_is_corrupt(tmp_path: Path) -> None:
    """An escape sequence in a saved name would reach the terminal: the save is corrupt."""
    store = store_in(tmp_path)
    store.write(saved_match())
    text = store.current.read_text()
    assert '"Ann"' in text
    store.current.write_text(text.replace('"Ann"', '"\\u001b[2JEvil"', 1))
    with pytest.raises(CorruptSaveError, match="control character"):
        store.read()


def test_bad_meta_is_corrupt(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.write(saved_match())
    text = store.current.read_text()
    store.current.write_text(text.replace("human_seat = 0", "human_seat = 7"))
    with pytest.raises(CorruptSaveError, match="human_seat"):
        store.read()


def test_set_aside_keeps_every_byte_and_never_overwrites(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.current.write_bytes(b"first broken save")
    one = store.set_aside("corrupt")
    store.current.write_bytes(b"second broken save")
    two = store.set_aside("corrupt")
    assert one != two
    assert one.read_bytes() == b"first broken save"
    assert two.read_bytes() == b"second broken save"
    assert one.name.startswith("current.corrupt-") and one.suffix == ".toml"
    assert not store.exists()


def test_archive_files_the_match_under_finished(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.write(saved_match(["pass"]))
    content = store.current.read_bytes()
    kept = store.archive()
    assert kept.parent == store.finished_dir
    assert kept.read_bytes() == content
    assert not store.exists()


def test_one_table_per_data_directory(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    second = SaveStore(store.dir)
    with store.lock():
        # The first table is writing its save (a temporary file until the rename): a second
        # one started now is refused and leaves that file alone.
        writing = store.dir / ".current-inflight.tmp"
        writing.write_text("the first table's next save")
        second.prepare()
        with pytest.raises(SaveLockedError, match="another 'ginrummy play'"), second.lock():
            pass
        assert writing.read_text() == "the first table's next save"
    with second.lock():  # free again once the first table is done
        pass
