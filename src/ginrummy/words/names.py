"""Player names: the one rule for every name a person gives (the web's new player and rename,
the store, the terminal's ``--name``), so that a name shows what it says.

:func:`clean_name` returns the name as it is kept, or raises
:class:`~ginrummy.engine.errors.InvalidNameError` saying why it is refused. A name is normalised
(Unicode NFKC: full-width and other compatibility forms become the plain letters, digits and
spaces they stand for), every run of spaces becomes one space, and the ends are trimmed. It is
refused when it holds

* a control character (U+0000 to U+001F, U+007F to U+009F) or a line or paragraph separator
  (U+2028, U+2029): a name is one line of text;
* a bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which
  reorders the text shown around the name;
* any other character Unicode says to show as nothing (its ``Default_Ignorable_Code_Point``
  property: zero-width spaces, the Hangul fillers, tag characters, ...), and the blank braille
  pattern U+2800, with three exceptions that ordinary text needs, each only where it does
  something: one variation selector right after a character (❤️, 1️⃣), one zero-width joiner
  or non-joiner between two characters (👨‍👩‍👧, Persian's ‌, Indic conjuncts), and the tag
  characters of the flags of England, Scotland and Wales;
* a combining mark with nothing to sit on (at the start), or more than
  :data:`MOST_MARKS` nonspacing marks in a row (Unicode's UTS #39, section 5.4);
* no visible character at all (a letter, digit, punctuation mark or symbol), or more than
  :data:`NAME_LENGTH` characters once normalised.

Letters of every script are kept, emoji too (flags are pairs of regional indicators, plain
symbols). Names that look like another person's name in another script (a Cyrillic "а" for a
Latin "a") are not detected here.

>>> clean_name("  Ａｎｎ  ")
'Ann'
>>> name_problem("Ann\\u3164")
'contains the Hangul filler U+3164 (HANGUL FILLER) at character 4, which shows as blank'
"""

from __future__ import annotations

import re
import unicodedata

from ..engine.errors import InvalidNameError

__all__ = ["NAME_LENGTH", "MOST_MARKS", "clean_name", "name_problem"]

#: Longest name kept, in characters (code points) once normalised.
NAME_LENGTH = 40

#: Most nonspacing marks in a row (UTS #39, 5.4 "Optional Detection": more is refused).
MOST_MARKS = 4

#: Characters Unicode says to show as nothing (``Default_Ignorable_Code_Point`` of
#: DerivedCoreProperties.txt, Unicode 15.0), as inclusive ranges.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)

#: Bidirectional controls: marks, embeddings, overrides and isolates.
BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                           *range(0x2066, 0x206A)])

#: Variation selectors (standard, ideographic, Mongolian free ones).
VARIATION_SELECTORS = frozenset([*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0),
                                 0x180B, 0x180C, 0x180D, 0x180F])

#: The zero-width joiner and non-joiner.
JOINERS = frozenset([0x200D, 0x200C])

#: The Hangul fillers: letters by category, blank on screen.
HANGUL_FILLERS = frozenset([0x115F, 0x1160, 0x3164, 0xFFA0])

#: Blank characters that are not default-ignorable (they take space but show nothing).
BLANKS = frozenset([0x2800])  # BRAILLE PATTERN BLANK

#: The flags written with tag characters that Unicode recommends (RGI): black flag, the
#: subdivision's tag letters, cancel tag.
TAG_FLAGS = tuple(
    "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in region) + "\U000E007F"
    for region in ("gbeng", "gbsct", "gbwls")
)

_TAG_FLAG = re.compile("|".join(TAG_FLAGS))
#: The spaces (category Zs); NFKC turns all but U+1680 into U+0020 already.
_SPACES = re.compile("[\u0020\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")


def _ignorable(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _label(ch: str) -> str:
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')})"


def _visible(ch: str) -> bool:
    """A character that shows something by itself: a letter, digit, punctuation mark or
    symbol (or one this Python does not know yet, such as a newer emoji), not a blank one."""
    if not ch:
        return False
    code = ord(ch)
    return (unicodedata.category(ch)[0] in "LNPS" or unicodedata.category(ch) in ("Co", "Cn")) \
        and not _ignorable(code) and code not in BLANKS


def _joining(ch: str) -> bool:
    return ord(ch) in VARIATION_SELECTORS or ord(ch) in JOINERS


def _class_problem(text: str) -> str | None:
    """Why a character of ``text`` is refused whatever surrounds it, or ``None``."""
    flags = {i for m in _TAG_FLAG.finditer(text) for i in range(m.start() + 1, m.end())}
    for i, ch in enumerate(text):
        code, category, where = ord(ch), unicodedata.category(ch), f"at character {i + 1}"
        if category == "Cc":
            return f"contains the control character U+{code:04X} {where}; a name is plain text"
        if category in ("Zl", "Zp"):
            return f"contains {_label(ch)} {where}, a line break; a name is one line"
        if category == "Cs":
            return f"contains U+{code:04X} {where}, a lone surrogate, which is not a character"
        if code in BIDI_CONTROLS:
            return (f"contains {_label(ch)} {where}, a bidirectional control, which would "
                    "reorder the text shown around the name")
        if 0xE0000 <= code <= 0xE007F and i not in flags:
            return (f"contains the tag character {_label(ch)} {where}, which shows as nothing "
                    "(tags belong only in the flags of England, Scotland and Wales)")
        if code in HANGUL_FILLERS:
            return f"contains the Hangul filler {_label(ch)} {where}, which shows as blank"
        if code in VARIATION_SELECTORS or code in JOINERS or i in flags:
            continue  # judged by their neighbours (_joining_problem)
        if _ignorable(code) or code in BLANKS or category == "Cf":
            return f"contains {_label(ch)} {where}, which shows as nothing"
    return None


def _joining_problem(text: str) -> str | None:
    """Why a variation selector, joiner or combining mark of ``text`` is out of place."""
    marks = 0
    for i, ch in enumerate(text):
        code, category = ord(ch), unicodedata.category(ch)
        before = text[i - 1] if i else ""
        where = f"at character {i + 1}"
        if code in VARIATION_SELECTORS or code in JOINERS:
            after = text[i + 1] if i + 1 < len(text) else ""
            if after and _joining(after) and not (
                    code in VARIATION_SELECTORS and ord(after) in JOINERS):
                return (f"has a run of variation selectors or joiners {where} "
                        f"(U+{code:04X} U+{ord(after):04X}): one after a character is all an "
                        "emoji or a script needs")
            if code in VARIATION_SELECTORS and not _visible(before):
                return f"contains {_label(ch)} {where}, which follows no character it could vary"
            if code in JOINERS and (not before or before == " " or not _visible(after)):
                return f"contains {_label(ch)} {where}, which joins no two characters"
        if category == "Mn" and code not in VARIATION_SELECTORS:
            marks += 1
            if marks > MOST_MARKS:
                return (f"has more than {MOST_MARKS} combining marks in a row {where}; "
                        "they would spill over the text around the name")
        else:
            marks = 0
        if i == 0 and category[0] == "M":
            return f"starts with the combining mark {_label(ch)}, which has nothing to sit on"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` is refused (a clause: "contains ..."), or ``None`` when it is fine (as
    :func:`clean_name` would keep it)."""
    try:
        clean_name(name)
    except InvalidNameError as exc:
        return exc.reason
    return None


def clean_name(name: str) -> str:
    """``name`` as it is kept: NFKC, spaces collapsed, trimmed; or
    :class:`~ginrummy.engine.errors.InvalidNameError` with the reason (see the module)."""
    why = _class_problem(name)  # first on the text as typed: its positions are the person's
    if why is None:
        text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip(" ")
        why = _class_problem(text) or _joining_problem(text)
        if why is None and not any(_visible(ch) for ch in text):
            why = "has no visible character: use at least one letter, digit or symbol"
        if why is None and len(text) > NAME_LENGTH:
            why = (f"is {len(text)} characters long once normalised; a name has at most "
                   f"{NAME_LENGTH}")
        if why is None:
            return text
    raise InvalidNameError(name, why)
