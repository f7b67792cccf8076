"""The sealed-deal shuffle ``ginrummy-shuffle-v1``: published vectors, checked three ways
(``ginrummy.engine.shuffle``, the independent snippet printed in docs/sealed-deals.md, and verify.js
under Node), the unbiased byte sampler, Fisher–Yates, and the client seed rules."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginrummy.engine.cards import CARD_TEXT
from ginrummy.engine.shuffle import (
    MAX_NONCE,
    SealedDeal,
    SealError,
    accept_below,
    check_client_seed,
    commitment,
    fisher_yates,
    random_stream,
    shuffle_deck,
    shuffle_message,
    uniform_below,
)
from sealed_node import big, run_js

DOC = Path(__file__).resolve().parents[1] / "docs/sealed-deals.md"
LONG_SEED = "0123456789abcdef" * 16

# The published test vectors (docs/sealed-deals.md, "Test vectors"): server seed, client seed,
# nonce, dealer -> commitment, deck from the top, and how many stream bytes are thrown away.
VECTORS: list[tuple[str, str, int, int, str, str, int]] = [
    (
        "00" * 32, "0", 1, 0,
        "72ec4863727d1f2fb0a260d7ee0ca4786ec61b22633ad2801dc336d2ac70513f",
        "8c 8s As Jd Kd 9s 4s Js 2d 7s Jh 9c Kh Qs 4d 5c Ad 2h 8d Td 2c 5s Jc Tc Ah 2s "
        "6c Ac 8h Qd Ks 3h 9d 6s 4h 9h 6h Th 7h Kc Ts 7c 7d 3c 3s 5d Qc 5h 3d 6d Qh 4c",
        2,
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "player seed", 1, 1,
        "16f34e9245dccef0e4f8c8a4f7f0151bde327c50e7582493d2a348dd0cf7dd2a",
        "Ts Qs 2h 8c 7d As 7c Qh 9h Jc 3s 8s 5d 6s Kd Th 9c 6d Qc 3h 5c 2d 2c 7s Ad Tc "
        "3d 9d 3c 9s 5h 2s Jh 4h Ah 6c 6h Td Js Kh 4c 4s Qd Jd Ks Kc 5s 8d Ac 7h 8h 4d",
        4,
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "player seed", 2, 1,
        "ca3b4fe0dba9e797942f288a8a7b0bc474fb647abf9ab14b215b3c10a869489b",
        "Qd 4d 5c Jh 6d 4c 7s 9s 6c 3c 2h Ad 8d As Js Kd Ks 5d 9c Kc 7h 8c 3h 7d 7c 3d "
        "Jc 6h Ac 9h Jd Th 6s Ts Qs Ah Td 5h 4s Tc 8h 9d 4h 2c Kh Qh 8s 5s 2s 3s Qc 2d",
        4,
    ),
    (
        "ff" * 32, "ginrummy", MAX_NONCE, 0,
        "0c2e535cc77a39df8700b4a14c9ba9792745da9b4853dd364ce05dcadbe9e443",
        "9d Js Kc Jc 9c 3d 3c Qs As 6s 5c 2s Tc Jh 6h 2c Ac 6c 6d Kd 3s Qd 8c 8h 5d Jd "
        "7h 5s 4s 5h 2d 4h 3h 9h Kh Qc 7s 9s 7d Th 8d 4d Ks Ts Ah 8s Qh Ad 7c Td 4c 2h",
        1,
    ),
    (
        "a63e34393d059920f24d08d5dcb6732ca67693540ffbff95c7ed06f8206727cf",
        "caf\u00e9 \u2665 \U0001f0a1", 7, 1,
        "4d7e3f0a1a07ac0a6711991993996dfdbe67a40a4b8d70772979062a69753e40",
        "Jh Qc 7c 2s 2c 9d Th Kd 2d 6h 6c 3s Jd Kc Ah 9h 5c 6s Ac Qh 4h 4s 9s Tc 7d 5h "
        "5d 7s 8d Kh 3c Ad 8s 5s Qs 8h Td 7h 3d 6d Ts Jc 8c Js Qd 3h Ks 9c As 4c 4d 2h",
        0,
    ),
    (
        "ad436e7074ae53c656dfbb485cec752c669785d0413a8223db2197438035ef80",
        LONG_SEED, 12345678901234, 0,
        "9fcc6b04d849eb1e5dfb91c5df9d9ebbdb769381bd3f1207a8073d6fd5174ef5",
        "8d 2s 9h 2d 4s 3d 8h 8s 6d 2h 3h Th Qc 9c 4h Qd Tc As 7h 6c Td 9d 7c 4d Ah 3c "
        "7d Kc Ad Kd 5d 5s Qs Ts 6s Jh 5h Kh 8c Ac 4c 2c 6h Js 9s Jd 5c Ks 3s Jc Qh 7s",
        2,
    ),
]

IDS = [f"vector{i}" for i in range(1, len(VECTORS) + 1)]


def _doc_snippet() -> dict[str, Any]:
    """Run the "verify by hand" block of docs/sealed-deals.md and return its namespace."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- verify-by-hand -->\n```python\n(.*?)```", text, re.S)
    assert found, "the docs lost their verify-by-hand snippet"
    code = found.group(1)
    assert "ginrummy" not in code.replace("ginrummy-shuffle-v1", ""), "it must stand alone"
    namespace: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


SNIPPET = _doc_snippet()


# -------------------------------------------------------------------------------------------
# The vectors, three ways.


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vectors_by_the_module(vector: tuple[str, str, int, int, str, str, int]) -> None:
    seed_hex, client, nonce, dealer, commit, deck, _ = vector
    seed = bytes.fromhex(seed_hex)
    assert commitment(seed, nonce, dealer) == commit
    assert " ".join(CARD_TEXT[c] for c in shuffle_deck(seed, client, nonce)) == deck
    sealed = SealedDeal(seed, nonce, dealer, client)
    assert sealed.commitment == commit
    assert " ".join(CARD_TEXT[c] for c in sealed.deck()) == deck


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vectors_by_the_docs_snippet(vector: tuple[str, str, int, int, str, str, int]) -> None:
    seed_hex, client, nonce, dealer, commit, deck, _ = vector
    seed = bytes.fromhex(seed_hex)
    assert SNIPPET["commitment"](seed, nonce, dealer) == commit
    assert " ".join(SNIPPET["deck"](seed, client, nonce)) == deck


def test_vectors_by_verify_js() -> None:
    calls: list[tuple[str, list[Any]]] = []
    for seed_hex, client, nonce, dealer, *_ in VECTORS:
        calls.append(("commitmentOf", [seed_hex, big(nonce), dealer]))
        calls.append(("shuffleDeck", [seed_hex, client, big(nonce)]))
    out = run_js(calls)
    for i, (_, _, _, _, commit, deck, _) in enumerate(VECTORS):
        assert out[2 * i] == {"value": commit}, IDS[i]
        assert out[2 * i + 1] == {"value": deck.split()}, IDS[i]


def test_verify_js_takes_plain_number_nonces() -> None:
    seed_hex, client, nonce, dealer, commit, deck, _ = VECTORS[1]
    out = run_js([("commitmentOf", [seed_hex, nonce, dealer]),
                  ("shuffleDeck", [seed_hex, client, nonce])])
    assert out == [{"value": commit}, {"value": deck.split()}]


def test_the_docs_publish_the_same_vectors() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"### Vector (\d+)\n\n```text\n(.*?)```", text, re.S)
    assert [int(n) for n, _ in blocks] == list(range(1, len(VECTORS) + 1))
    for (_, body), vector in zip(blocks, VECTORS, strict=True):
        fields = dict(re.findall(r"^(\w+) *= (.*)$", body, re.M))
        client = fields["client_seed"]
        repeated = re.fullmatch(r'"(.*)" repeated (\d+) times.*', client)
        client = repeated.group(1) * int(repeated.group(2)) if repeated else client[1:-1]
        assert (
            fields["server_seed"], client, int(fields["nonce"]), int(fields["dealer"]),
            fields["commitment"], fields["deck"],
        ) == vector[:6]


def test_the_docs_worked_example_is_vector_2() -> None:
    seed_hex, client, nonce, *_ = VECTORS[1]
    message = shuffle_message(client, nonce)
    stream = random_stream(bytes.fromhex(seed_hex), message)
    block0 = bytes(itertools.islice(stream, 32))
    text = DOC.read_text(encoding="utf-8")
    assert f"`{message.hex()}`" in text
    assert f"`{block0.hex()}`" in text
    assert block0[:4] == bytes([0x44, 0xED, 0xFF, 0xB6])


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_thrown_away_bytes(vector: tuple[str, str, int, int, str, str, int]) -> None:
    """Counts the stream bytes the sampler rejects, as the docs state them per vector."""
    seed_hex, client, nonce, _, _, _, rejected = vector
    stream = random_stream(bytes.fromhex(seed_hex), shuffle_message(client, nonce))
    read = 0

    def counting() -> Any:
        nonlocal read
        for b in stream:
            read += 1
            yield b

    counted = counting()
    deck = list(range(52))
    fisher_yates(deck, lambda n: uniform_below(n, counted))
    assert deck == shuffle_deck(bytes.fromhex(seed_hex), client, nonce)
    assert read - 51 == rejected


# -------------------------------------------------------------------------------------------
# No card is favoured.


def test_every_result_comes_from_equally_many_bytes() -> None:
    """Exhaustive over the 256 byte values, for every bound a byte can serve: each result
    below n is reached by the same number of accepted bytes, and exactly 256 % n bytes are
    thrown away."""
    for n in range(1, 257):
        results: Counter[int] = Counter()
        rejected = 0
        for b in range(256):
            got = _draw_from([b], n)
            if got is None:
                rejected += 1
            else:
                results[got] += 1
        assert rejected == 256 % n, n
        assert set(results) == set(range(n)), n
        assert set(results.values()) == {256 // n}, n


def _draw_from(stream: list[int], n: int) -> int | None:
    try:
        return uniform_below(n, iter(stream))
    except SealError:
        return None


def test_rejected_bytes_are_skipped_not_reduced() -> None:
    assert accept_below(52) == 208
    assert uniform_below(52, iter([208, 255, 207])) == 207 % 52
    assert uniform_below(52, iter([255, 3])) == 3
    assert uniform_below(50, iter([250, 249])) == 249 % 50


@pytest.mark.parametrize("size", range(1, 7))
def test_fisher_yates_is_a_bijection(size: int) -> None:
    """Every sequence of draws gives a different order, so uniform draws give uniform decks."""
    bounds = list(range(size, 1, -1))
    orders = set()
    for draws in itertools.product(*(range(b) for b in bounds)):
        asked: list[int] = []
        feed = iter(draws)

        def draw(n: int, feed: Any = feed, asked: list[int] = asked) -> int:
            asked.append(n)
            return int(next(feed))

        items = list(range(size))
        fisher_yates(items, draw)
        assert asked == bounds
        orders.add(tuple(items))
    assert len(orders) == len(list(itertools.permutations(range(size))))


def test_top_card_spread_over_many_deals() -> None:
    """A loose chi-square sanity check on fixed seeds (deterministic, so it cannot flake):
    5,200 deals put each card on top about 100 times."""
    counts = Counter(
        shuffle_deck(i.to_bytes(32, "big"), "chi", 1)[0] for i in range(5200)
    )
    chi2 = sum((counts[c] - 100) ** 2 / 100 for c in range(52))
    assert chi2 < 110  # 51 degrees of freedom: above 110 has probability below 1e-5


# -------------------------------------------------------------------------------------------
# Inputs.

BAD_CLIENT_SEEDS: list[tuple[Any, str]] = [
    ("", "empty"),
    ("x" * 257, "257 bytes of UTF-8; the limit is 256"),
    ("é" * 129, "258 bytes of UTF-8"),
    ("tab\there", "control character (U+0009)"),
    ("next\u0085line", "control character (U+0085)"),
    ("del\x7f", "control character (U+007F)"),
    (" lucky", "may not begin or end with a space"),
    ("lucky ", "may not begin or end with a space"),
    ("half \ud83c", "not valid Unicode"),
]


@pytest.mark.parametrize(("seed", "message"), BAD_CLIENT_SEEDS)
def test_bad_client_seeds_are_refused(seed: str, message: str) -> None:
    with pytest.raises(SealError, match=re.escape(message)):
        check_client_seed(seed)
    with pytest.raises(SealError):
        shuffle_deck(bytes(32), seed, 1)


def test_verify_js_refuses_the_same_client_seeds() -> None:
    out = run_js([("clientSeedProblem", [seed]) for seed, _ in BAD_CLIENT_SEEDS]
                 + [("clientSeedProblem", [LONG_SEED]), ("clientSeedProblem", ["é" * 128])])
    for (seed, message), got in zip(BAD_CLIENT_SEEDS, out, strict=False):
        assert message in got["value"], seed
        with pytest.raises(SealError) as caught:
            check_client_seed(seed)
        assert str(caught.value) == got["value"]
    assert out[-2:] == [{"value": None}, {"value": None}]


def test_good_client_seeds_are_used_exactly() -> None:
    check_client_seed(LONG_SEED)
    check_client_seed("é" * 128)
    a = shuffle_deck(bytes(32), "lucky", 1)
    assert a != shuffle_deck(bytes(32), "Lucky", 1)
    assert a != shuffle_deck(bytes(32), "lucky!", 1)
    # No normalisation: composed and decomposed é are different seeds.
    assert shuffle_deck(bytes(32), "caf\u00e9", 1) != shuffle_deck(bytes(32), "cafe\u0301", 1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: shuffle_deck(bytes(31), "x", 1), "exactly 32 bytes"),
        (lambda: shuffle_deck("00" * 32, "x", 1), "exactly 32 bytes"),  # type: ignore[arg-type]
        (lambda: shuffle_deck(bytes(32), "x", -1), "nonce"),
        (lambda: shuffle_deck(bytes(32), "x", 2**64), "nonce"),
        (lambda: shuffle_deck(bytes(32), "x", True), "nonce"),
        (lambda: commitment(bytes(32), 1, 2), "dealer"),
        (lambda: SealedDeal(bytes(32), 1, 0, version="v0"), "unknown shuffle version"),
        (lambda: SealedDeal(bytes(32), 1, 0).deck(), "client seed"),
    ],
)
def test_bad_inputs_are_refused(call: Callable[[], object], message: str) -> None:
    with pytest.raises(SealError, match=message):
        call()


def test_verify_js_refuses_bad_inputs() -> None:
    out = run_js([
        ("shuffleDeck", ["00" * 31, "x", 1]),
        ("shuffleDeck", ["zz" * 32, "x", 1]),
        ("shuffleDeck", ["00" * 32, "x", -1]),
        ("shuffleDeck", ["00" * 32, "x", big(2**64)]),
        ("commitmentOf", ["00" * 32, 1, 2]),
    ])
    assert "64 hex digits" in out[0]["error"]
    assert "64 hex digits" in out[1]["error"]
    assert "nonce" in out[2]["error"]
    assert "nonce" in out[3]["error"]
    assert "dealer" in out[4]["error"]


def test_the_commitment_binds_seed_nonce_and_dealer() -> None:
    base = commitment(bytes(32), 1, 0)
    assert commitment(bytes(31) + b"\x01", 1, 0) != base
    assert commitment(bytes(32), 2, 0) != base
    assert commitment(bytes(32), 1, 1) != base


def test_the_server_seed_stays_out_of_sight() -> None:
    seed = bytes(range(32))
    sealed = SealedDeal(seed, 1, 0, "lucky")
    assert seed.hex() not in repr(sealed)
    assert "server_seed" not in sealed.public()
    assert sealed.revealed()["server_seed"] == seed.hex()
    assert sealed.public() == {
        "version": "ginrummy-shuffle-v1",
        "commitment": commitment(seed, 1, 0),
        "client_seed": "lucky",
        "nonce": 1,
    }


def test_random_client_seeds_from_js_are_valid() -> None:
    out = run_js([("randomClientSeed", []), ("randomClientSeed", [])])
    seeds = [o["value"] for o in out]
    assert all(re.fullmatch(r"[0-9a-f]{16}", s) for s in seeds)
    assert seeds[0] != seeds[1]
