"""Names for the names rule's tests (tests/test_names.py, tests/web/test_names_api.py)."""

from __future__ import annotations

from ginrummy.words.names import NAME_LENGTH

#: Deceptive names the rule refuses (the kinds issue 37 found accepted), each with a word of
#: the reason it must give.
DECEPTIVE = [
    ("A\u200bnn", "U+200B"),  # zero-width space
    ("\u200b\u200b", "U+200B"),
    ("\u2060Ann", "U+2060"),  # word joiner
    ("Ann\ufeff", "U+FEFF"),
    ("\u3164", "Hangul filler"),  # Hangul filler, alone and beside letters
    ("Ann\u3164", "Hangul filler"),
    ("\uffa0", "Hangul filler"),
    ("\u115f\u1160", "Hangul filler"),
    ("\u202eAnn", "bidirectional"),  # overrides, embeddings, isolates, marks
    ("Ann\u202dBob", "bidirectional"),
    ("Ann\u202a", "bidirectional"),
    ("\u2066Ann\u2069", "bidirectional"),
    ("Ann\u2067", "bidirectional"),
    ("Ann\u200f", "bidirectional"),
    ("\u061cAnn", "bidirectional"),
    ("A\ufe0f\ufe0f\ufe0f", "run of variation selectors"),  # variation-selector runs
    ("\u2764\ufe0f\ufe0e", "run of variation selectors"),
    ("A\U000e0100\U000e0101", "run of variation selectors"),
    ("\ufe0f", "follows no character"),
    ("A\u200d\u200dB", "run of variation selectors or joiners"),
    ("Ann\u200d", "joins no two"),
    ("Ann\U000e0041\U000e0042", "tag character"),  # tag characters (hidden text)
    ("\U0001f3f4\U000e0078\U000e0079\U000e007f", "tag character"),  # not a real flag
    ("Ann\u2028Bob", "line break"),  # line and paragraph separators
    ("Ann\u2029", "line break"),
    ("Ann\nBob", "control character"),
    ("\x1b[2JEvil", "control character"),
    ("   ", "no visible character"),
    ("\u2800", "U+2800"),  # braille blank
    ("\u00ad", "U+00AD"),  # soft hyphen
    ("\u0301Ann", "combining mark"),
    ("Z\u0300\u0301\u0302\u0303\u0304\u0305", "combining marks"),
    ("B" * (NAME_LENGTH + 1), "at most"),
    ("\ufdfa" * 3, "at most"),  # short as typed, 54 characters once normalised
]

#: Names that must keep working, as they are kept.
FINE = [
    ("Ann", "Ann"),
    ("  Ｋｉｍ  ", "Kim"),  # full width: NFKC
    ("Ann \u00a0\u3000 Bob", "Ann Bob"),  # spaces of any kind, one space kept
    ("\u2764\ufe0f", "\u2764\ufe0f"),  # ❤️
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467",) * 2,  # 👨‍👩‍👧
    ("\U0001f1eb\U0001f1f7",) * 2,  # 🇫🇷
    ("\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",) * 2,  # Scotland
    ("\U0001f469\U0001f3fd\u200d\U0001f4bb",) * 2,  # 👩🏽‍💻
    ("1\ufe0f\u20e3",) * 2,  # 1️⃣
    ("\u2764\ufe0f\u200d\U0001f525",) * 2,  # ❤️‍🔥
    ("\U0001f3f3\ufe0f\u200d\U0001f308",) * 2,  # 🏳️‍🌈
    ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",) * 2,  # Persian, with a ZWNJ
    ("\u0915\u094d\u200d\u0937",) * 2,  # Devanagari with a ZWJ
    ("\uae40\ubbfc\uc900",) * 2,  # Hangul syllables
    ("Zoe\u0308", "Zo\u00eb"),  # composed by NFKC
    ("\u00d1and\u00fa",) * 2,
    ("\u738b\u5c0f\u660e",) * 2,
    ("\u05e2\u05b4\u05d1\u05b0\u05e8\u05b4\u05d9\u05ea",) * 2,  # Hebrew with points
    ("\u0f40\u0fb2\u0f80",) * 2,  # Tibetan stack
    ("\u8fbb\U000e0100",) * 2,  # a Han character with its ideographic variation selector
    ("Ann \u00e9 \u2665", "Ann \u00e9 \u2665"),
]
