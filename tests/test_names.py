"""The names rule (issue 37, item 7): one rule for every name a person gives, refusing names
that do not show what they say (invisible, reordering, blank), keeping letters of every script
and ordinary emoji; used by the store and the terminal's ``--name`` (the web's name fields in
tests/web/test_names_api.py)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from ginrummy.cli import main
from ginrummy.engine.errors import GinRummyError, InvalidNameError
from ginrummy.server.store import Store
from ginrummy.tui.saves import printable_name
from ginrummy.words.names import NAME_LENGTH, clean_name, name_problem
from names_support import DECEPTIVE, FINE


@pytest.mark.parametrize("name,why", DECEPTIVE)
def test_deceptive_names_are_refused_with_the_reason(name: str, why: str) -> None:
    with pytest.raises(InvalidNameError) as caught:
        clean_name(name)
    assert why in caught.value.reason, caught.value.reason
    assert isinstance(caught.value, GinRummyError) and repr(name) in str(caught.value)
    assert name_problem(name) == caught.value.reason
    assert not printable_name(name)


@pytest.mark.parametrize("name,kept", FINE)
def test_letters_of_every_script_and_ordinary_emoji_are_kept(name: str, kept: str) -> None:
    assert clean_name(name) == kept
    assert name_problem(name) is None and printable_name(name)


def test_the_reason_says_where_the_character_is() -> None:
    assert name_problem("Ann\u202eBob") == (
        "contains U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4, a bidirectional control, "
        "which would reorder the text shown around the name")


#: A character Unicode says to show as nothing, a bidi control, a tag, a separator or a blank:
#: what the rule refuses anywhere in a name (outside an emoji that needs it).
_HIDDEN = st.sampled_from(
    [chr(c) for c in (0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x180E, 0x200B, 0x200E,
                      0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060,
                      0x2061, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x206F, 0x2800, 0x3164,
                      0xFEFF, 0xFFA0, 0x1BCA0, 0x1D173, 0xE0001, 0xE0020, 0xE0041, 0xE007F)])


@given(st.text(max_size=60))
def test_whatever_is_kept_is_normalised_one_line_and_kept_again_unchanged(text: str) -> None:
    try:
        kept = clean_name(text)
    except InvalidNameError:
        return
    assert kept == unicodedata.normalize("NFKC", kept) == kept.strip()
    assert 0 < len(kept) <= NAME_LENGTH and "  " not in kept
    assert clean_name(kept) == kept
    assert not any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs") for c in kept)


@given(st.text(st.characters(categories=["Lu", "Ll", "Lo", "Nd"]), min_size=1, max_size=12),
       st.integers(0, 12), _HIDDEN)
def test_a_hidden_character_anywhere_in_a_fine_name_is_refused(
    letters: str, where: int, hidden: str
) -> None:
    assume(name_problem(letters) is None)
    where = min(where, len(letters))
    assert name_problem(letters[:where] + hidden + letters[where:]) is not None


@given(st.text(st.characters(categories=["Lu", "Ll", "Lt", "Lo", "Nd"]), min_size=1,
               max_size=6))
def test_letters_and_digits_of_every_script_are_names(letters: str) -> None:
    # Every letter but the four Hangul fillers (letters by category, blank on screen).
    assume(not set(letters) & set("\u115f\u1160\u3164\uffa0"))
    kept = unicodedata.normalize("NFKC", letters)
    assume(len(kept) <= NAME_LENGTH)
    # NFKC turns a few presentation forms (Thai sara am, Arabic isolated vowel forms) into a
    # combining mark first: a name cannot start with one.
    assume(unicodedata.category(kept[0])[0] != "M")
    assert name_problem(letters) is None, (letters, name_problem(letters))


def test_the_store_keeps_names_by_the_rule(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'names.sqlite3'}")
    try:
        ann, _token = store.create_player("  Ａｎｎ  ")
        assert ann.name == "Ann"
        for name, _why in DECEPTIVE[:12:3]:
            with pytest.raises(InvalidNameError):
                store.create_player(name)
            with pytest.raises(InvalidNameError):
                store.rename_player(ann.id, name)
        assert store.rename_player(ann.id, "\u2764\ufe0f Ann").name == "\u2764\ufe0f Ann"
        with store.engine.connect() as conn:
            from sqlalchemy import text

            assert conn.execute(text("SELECT name FROM players")).scalars().all() == [
                "\u2764\ufe0f Ann"]
    finally:
        store.close()


@pytest.mark.parametrize("name,why", [DECEPTIVE[0], DECEPTIVE[4], DECEPTIVE[8],
                                      DECEPTIVE[16], DECEPTIVE[23]])
def test_the_terminal_refuses_a_deceptive_name_before_anything_is_saved(
    tmp_path: Path, name: str, why: str
) -> None:
    done = CliRunner().invoke(main, ["play", "--data-dir", str(tmp_path), "--name", name])
    assert done.exit_code == 2 and why in " ".join(done.output.split()), done.output
    assert not list(tmp_path.iterdir())
