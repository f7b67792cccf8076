"""Statistics for self-play and tournaments: intervals for shares and means, and ratings.

Pure functions, no I/O. Every interval is a two-sided 95% interval unless ``confidence`` says
otherwise.

* :func:`wilson` — the Wilson score interval of a proportion ``k / n``.
* :func:`mean_interval` — a sample mean with the normal (z) interval ``mean ± z·s/√n``.
* :func:`bradley_terry` — Elo-scale ratings from a round robin, by maximum likelihood.

>>> p = wilson(75, 100)
>>> round(p.estimate, 2), round(p.low, 4), round(p.high, 4)
(0.75, 0.657, 0.8245)
>>> m = mean_interval([1, 2, 3, 4])
>>> m.mean, m.small
(2.5, True)
>>> r = bradley_terry(["a", "b"], [[0, 75], [25, 0]], prior=0)
>>> round(r.ratings[0] - r.ratings[1], 1)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = [
    "SMALL_SAMPLE",
    "MeanEstimate",
    "Proportion",
    "Ratings",
    "bradley_terry",
    "mean_interval",
    "wilson",
    "z_value",
]

#: Below this many observations the normal interval of a mean is flagged as rough.
SMALL_SAMPLE = 30

#: The Elo scale: a rating difference of ``ELO_SCALE`` means odds of 10 to 1.
ELO_SCALE = 400.0


def z_value(confidence: float = 0.95) -> float:
    """The two-sided standard normal quantile: 1.959964 for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


@dataclass(frozen=True)
class Proportion:
    """A share ``successes / trials`` with its interval (``estimate`` is ``None`` when
    ``trials`` is 0; the interval is then the whole of [0, 1])."""

    successes: float
    trials: int
    estimate: float | None
    low: float
    high: float

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "count": self.successes,
            "n": self.trials,
            "share": self.estimate,
            "low": self.low,
            "high": self.high,
        }


def wilson(successes: float, trials: int, confidence: float = 0.95) -> Proportion:
    """The Wilson score interval for ``successes`` out of ``trials``.

    With ``p = k/n`` and ``z`` the normal quantile::

        centre    = (p + z²/(2n)) / (1 + z²/n)
        halfwidth = z / (1 + z²/n) · √(p(1−p)/n + z²/(4n²))

    Unlike the plain ``p ± z√(p(1−p)/n)`` it stays inside [0, 1] and keeps its coverage near
    0% and 100%. ``successes`` may be fractional (a tie counted as half a win).
    """
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 0:
        raise ValueError(f"trials must be a whole number of 0 or more, not {trials!r}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, not {successes!r}")
    if trials == 0:
        return Proportion(successes, 0, None, 0.0, 1.0)
    z = z_value(confidence)
    n = trials
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Proportion(successes, n, p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MeanEstimate:
    """A sample mean with its normal interval.

    ``sd`` is the sample standard deviation (``n − 1`` in the denominator). ``low``/``high``
    are ``None`` below two observations; ``small`` is true below :data:`SMALL_SAMPLE`
    observations, where the normal interval is only a rough guide.
    """

    n: int
    mean: float | None
    sd: float | None
    low: float | None
    high: float | None
    small: bool

    def as_dict(self) -> dict[str, float | int | bool | None]:
        return {
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "low": self.low,
            "high": self.high,
            "small_sample": self.small,
        }


def mean_interval(values: Iterable[float], confidence: float = 0.95) -> MeanEstimate:
    """The mean of ``values`` with the interval ``mean ± z · s / √n``.

    ``s`` is the sample standard deviation ``√(Σ(x − mean)² / (n − 1))``. By the central limit
    theorem the interval covers the true mean about ``confidence`` of the time for large ``n``;
    for ``n`` under :data:`SMALL_SAMPLE` the result is flagged ``small``.
    """
    xs = [float(v) for v in values]
    n = len(xs)
    small = n < SMALL_SAMPLE
    if n == 0:
        return MeanEstimate(0, None, None, None, None, True)
    mean = math.fsum(xs) / n
    if n == 1:
        return MeanEstimate(1, mean, None, None, None, True)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    sd = math.sqrt(var)
    half = z_value(confidence) * sd / math.sqrt(n)
    return MeanEstimate(n, mean, sd, mean - half, mean + half, small)


@dataclass(frozen=True)
class Ratings:
    """Elo-scale ratings from :func:`bradley_terry`, in the order of ``names``.

    ``low``/``high`` are the 95% intervals from the curvature of the likelihood (relative to
    the anchor: the mean when anchored on the mean, the named player otherwise, whose own
    interval is then zero-width).
    """

    names: tuple[str, ...]
    ratings: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    anchor: str | None
    anchor_rating: float
    prior: float

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {
            name: {"rating": r, "low": lo, "high": hi}
            for name, r, lo, hi in zip(self.names, self.ratings, self.low, self.high, strict=True)
        }


def bradley_terry(
    names: Sequence[str],
    wins: Sequence[Sequence[float]],
    *,
    prior: float = 1.0,
    anchor: str | None = None,
    anchor_rating: float = 1500.0,
    confidence: float = 0.95,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> Ratings:
    """Ratings on the Elo scale from a round robin, by Bradley–Terry maximum likelihood.

    ``wins[i][j]`` is what player ``i`` scored against player ``j`` (a win 1, a tie ½). The
    model gives each player a strength ``γ`` with ``P(i beats j) = γᵢ / (γᵢ + γⱼ)``; on the Elo
    scale ``Rᵢ = 400·log₁₀ γᵢ``, so ``P(i beats j) = 1 / (1 + 10^((Rⱼ − Rᵢ)/400))``. A player
    who scores 75% against another is ``400·log₁₀ 3 ≈ 190.8`` points above it.

    The maximum is found by Hunter's MM iteration ``γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)`` (``Wᵢ`` the
    total score of ``i``, ``nᵢⱼ`` the games between ``i`` and ``j``). A player who wins (or
    loses) every game has no finite maximum, so each pair that met is credited ``prior``
    extra games split evenly (``prior = 1``: one virtual tie per pair, a mild pull towards
    equal strength that fades as real games accumulate); ``prior = 0`` gives the plain
    maximum likelihood and raises when it does not exist.

    Ratings are shifted so that their mean is ``anchor_rating`` (1500), or, with ``anchor``
    naming a player, so that this player's rating is ``anchor_rating``. Intervals come from the
    inverse of the observed information ``Iᵢᵢ = Σⱼ nᵢⱼ pᵢⱼ pⱼᵢ``, ``Iᵢⱼ = −nᵢⱼ pᵢⱼ pⱼᵢ``
    (a pseudo-inverse, since ratings are only defined up to a shift).
    """
    k = len(names)
    if k < 2:
        raise ValueError("ratings need at least two players")
    if len(set(names)) != k:
        raise ValueError("player names must be different")
    if anchor is not None and anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not one of the players")
    if prior < 0:
        raise ValueError(f"prior must be 0 or more, not {prior!r}")
    w = np.array(wins, dtype=float)
    if w.shape != (k, k):
        raise ValueError(f"wins must be a {k}×{k} table")
    if (w < 0).any() or np.diag(w).any():
        raise ValueError("wins must be 0 or more, with nothing on the diagonal")
    games = w + w.T
    met = games > 0
    w = w + met * (prior / 2.0)
    games = games + met * prior
    _check_linked(met, names, "never met the others: their ratings cannot be compared")
    if prior == 0:
        problem = (
            "won every game or lost every game against the rest: "
            "the ratings are infinite (use a prior above 0)"
        )
        _check_linked(w > 0, names, problem)
        _check_linked(w.T > 0, names, problem)
    score = w.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(max_iterations):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = score / denom
        new /= math.exp(float(np.log(new).mean()))
        done = float(np.abs(np.log(new) - np.log(gamma)).max()) < tolerance
        gamma = new
        if done:
            break
    theta = np.log(gamma)
    p = gamma[:, None] / (gamma[:, None] + gamma[None, :])
    info = -games * p * p.T
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info)
    scale = ELO_SCALE / math.log(10.0)
    ratings = theta * scale
    if anchor is None:
        shift = anchor_rating - float(ratings.mean())
        var = np.diag(cov)
    else:
        a = list(names).index(anchor)
        shift = anchor_rating - float(ratings[a])
        var = np.diag(cov) - 2 * cov[:, a] + cov[a, a]
    ratings = ratings + shift
    half = z_value(confidence) * scale * np.sqrt(np.clip(var, 0.0, None))
    return Ratings(
        names=tuple(names),
        ratings=tuple(float(r) for r in ratings),
        low=tuple(float(r) for r in ratings - half),
        high=tuple(float(r) for r in ratings + half),
        anchor=anchor,
        anchor_rating=anchor_rating,
        prior=prior,
    )


def _check_linked(edges: np.ndarray, names: Sequence[str], problem: str) -> None:
    """Raise ``problem`` unless every player is reached from the first along ``edges``.

    Called with the games played (symmetric: the players form one group), then, for the plain
    maximum likelihood, with "scored against" in both directions: together these say that the
    graph of results is strongly connected, which is when the maximum exists (Ford, 1957).
    """
    k = len(names)
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in range(k):
            if edges[i, j] and j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != k:
        missing = ", ".join(names[j] for j in range(k) if j not in seen)
        raise ValueError(f"{missing}: {problem}")
