"""ginrummy.selfplay.stats against published values and against the definitions the formulas come
from."""

from __future__ import annotations

import math
import statistics

import pytest

from ginrummy.selfplay.stats import SMALL_SAMPLE, bradley_terry, mean_interval, wilson, z_value

Z95 = 1.959963984540054  # the 97.5% point of the standard normal (printed tables: 1.96)


def score_test_bounds(k: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson interval from its definition: every p that the score test
    |k/n − p| ≤ z·√(p(1−p)/n) does not reject, found by bisection (no closed formula)."""
    phat = k / n

    def accepted(p: float) -> bool:
        return abs(phat - p) <= z * math.sqrt(p * (1 - p) / n)

    def edge(inside: float, outside: float) -> float:
        for _ in range(200):
            mid = (inside + outside) / 2
            if accepted(mid):
                inside = mid
            else:
                outside = mid
        return (inside + outside) / 2

    centre = phat if 0 < k < n else (1e-12 if k == 0 else 1 - 1e-12)
    return edge(centre, 0.0) if k > 0 else 0.0, edge(centre, 1.0) if k < n else 1.0


def test_z_value() -> None:
    assert z_value() == pytest.approx(Z95, abs=1e-12)
    assert z_value(0.90) == pytest.approx(1.6448536, abs=1e-6)
    with pytest.raises(ValueError):
        z_value(1.0)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table II, method 3 (score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    p = wilson(k, n)
    assert p.low == pytest.approx(low, abs=6e-5)
    assert p.high == pytest.approx(high, abs=6e-5)
    assert p.estimate == k / n


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 10), (50, 100), (999, 1000), (7, 2000)])
def test_wilson_is_the_inverted_score_test(k: int, n: int) -> None:
    p = wilson(k, n)
    low, high = score_test_bounds(k, n, Z95)
    assert p.low == pytest.approx(low, abs=1e-9)
    assert p.high == pytest.approx(high, abs=1e-9)
    assert 0.0 <= p.low <= k / n <= p.high <= 1.0


def test_wilson_other_confidence_is_narrower() -> None:
    wide, narrow = wilson(30, 100, 0.99), wilson(30, 100, 0.80)
    assert wide.low < narrow.low < 0.3 < narrow.high < wide.high


def test_wilson_fractional_successes_and_empty() -> None:
    half = wilson(2.5, 5)
    assert half.estimate == 0.5
    assert half.low == pytest.approx(1 - half.high)
    empty = wilson(0, 0)
    assert (empty.estimate, empty.low, empty.high) == (None, 0.0, 1.0)
    for bad in [(-1, 5), (6, 5), (1, -1)]:
        with pytest.raises(ValueError):
            wilson(*bad)


def test_mean_interval_textbook() -> None:
    data = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, sample variance 32/7
    m = mean_interval(data)
    sd = math.sqrt(32 / 7)
    assert m.mean == 5
    assert m.sd == pytest.approx(sd)
    assert m.low == pytest.approx(5 - 1.959964 * sd / math.sqrt(8), abs=1e-6)
    assert m.high == pytest.approx(5 + 1.959964 * sd / math.sqrt(8), abs=1e-6)
    assert m.small


def test_mean_interval_large_sample_matches_stdlib() -> None:
    data = [(i * 37) % 101 for i in range(500)]
    m = mean_interval(data)
    half = Z95 * statistics.stdev(data) / math.sqrt(len(data))
    assert m.mean == pytest.approx(statistics.fmean(data))
    assert (m.low, m.high) == pytest.approx((m.mean - half, m.mean + half))
    assert not m.small
    assert mean_interval(range(SMALL_SAMPLE)).small is False
    assert mean_interval(range(SMALL_SAMPLE - 1)).small is True


def test_mean_interval_degenerate() -> None:
    assert mean_interval([]).mean is None
    one = mean_interval([4])
    assert (one.mean, one.low, one.high, one.small) == (4, None, None, True)
    same = mean_interval([3, 3, 3])
    assert (same.low, same.high) == (3, 3)


ELO_75 = 400 * math.log10(3)  # a 75% score: odds 3 to 1


def test_ratings_two_players_75_percent() -> None:
    r = bradley_terry(["strong", "weak"], [[0, 750], [250, 0]], prior=0)
    assert r.ratings[0] - r.ratings[1] == pytest.approx(ELO_75, abs=1e-6)
    assert r.ratings[0] - r.ratings[1] == pytest.approx(190.85, abs=0.01)
    assert sum(r.ratings) / 2 == pytest.approx(1500)


def test_ratings_prior_pulls_towards_equal_then_fades() -> None:
    few = bradley_terry(["a", "b"], [[0, 3], [1, 0]])  # 3.5 : 1.5 with the virtual tie
    assert few.ratings[0] - few.ratings[1] == pytest.approx(400 * math.log10(3.5 / 1.5))
    many = bradley_terry(["a", "b"], [[0, 3000], [1000, 0]])
    assert many.ratings[0] - many.ratings[1] == pytest.approx(ELO_75, abs=0.1)
    perfect = bradley_terry(["a", "b"], [[0, 10], [0, 0]])
    assert perfect.ratings[0] - perfect.ratings[1] == pytest.approx(400 * math.log10(21))


def test_ratings_recover_bradley_terry_strengths() -> None:
    # Strengths 1, 2, 4: P(b beats a) = 2/3, P(c beats a) = 4/5, P(c beats b) = 2/3. Results
    # in exactly those proportions make these strengths the maximum of the likelihood.
    wins = [[0, 100, 60], [200, 0, 100], [240, 200, 0]]
    step = 400 * math.log10(2)
    r = bradley_terry(["a", "b", "c"], wins, prior=0)
    assert r.ratings == pytest.approx((1500 - step, 1500, 1500 + step), abs=1e-6)
    anchored = bradley_terry(["a", "b", "c"], wins, prior=0, anchor="a", anchor_rating=1000)
    assert anchored.ratings == pytest.approx((1000, 1000 + step, 1000 + 2 * step), abs=1e-6)
    assert anchored.low[0] == anchored.high[0] == pytest.approx(1000)


def test_rating_interval_is_the_log_odds_standard_error() -> None:
    # Two players, n games, share p: the log-odds estimate has variance 1/(n p (1-p)).
    n, p = 400, 0.75
    r = bradley_terry(["a", "b"], [[0, n * p], [n * (1 - p), 0]], prior=0, anchor="b")
    half = Z95 * (400 / math.log(10)) / math.sqrt(n * p * (1 - p))
    assert r.high[0] - r.ratings[0] == pytest.approx(half, rel=1e-6)
    assert r.ratings[0] - r.low[0] == pytest.approx(half, rel=1e-6)
    centred = bradley_terry(["a", "b"], [[0, n * p], [n * (1 - p), 0]], prior=0)
    assert centred.high[0] - centred.ratings[0] == pytest.approx(half / 2, rel=1e-6)


def test_ratings_refuse_what_has_no_answer() -> None:
    with pytest.raises(ValueError, match="infinite"):
        bradley_terry(["a", "b"], [[0, 5], [0, 0]], prior=0)
    with pytest.raises(ValueError, match="infinite"):
        # a and b beat c every time: no finite maximum although a-b is balanced.
        bradley_terry(["a", "b", "c"], [[0, 3, 4], [3, 0, 4], [0, 0, 0]], prior=0)
    with pytest.raises(ValueError, match="never met"):
        bradley_terry(["a", "b", "c", "d"], [[0, 1, 0, 0], [1, 0, 0, 0],
                                             [0, 0, 0, 1], [0, 0, 1, 0]])
    with pytest.raises(ValueError):
        bradley_terry(["a"], [[0]])
    with pytest.raises(ValueError):
        bradley_terry(["a", "a"], [[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        bradley_terry(["a", "b"], [[0, 1], [1, 0]], anchor="c")
    with pytest.raises(ValueError):
        bradley_terry(["a", "b"], [[1, 1], [1, 0]])
