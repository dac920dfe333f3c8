"""Helpers for the odds tests: brute force and a chi-square test of a seeded sample against exact odds.

The p-value is the regularised upper incomplete gamma function Q(df/2, x/2) (Numerical Recipes'
series and continued fraction), so the suite needs no statistics package.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Hashable, Mapping

SAMPLE = 100_000
MIN_EXPECTED = 5  # a chi-square bin needs at least five expected rolls


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)  # Lentz's continued fraction for Q
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square_p(observed: Mapping[Hashable, int], exact: Mapping[Hashable, Fraction]) -> float:
    """P-value of the sample against the exact odds; sparse outcomes are pooled into one bin."""
    n = sum(observed.values())
    assert set(observed) <= set(exact), set(observed) - set(exact)
    bins: list[tuple[float, int]] = []
    rare_expected, rare_seen = 0.0, 0
    for outcome, p in exact.items():
        expected = float(p) * n
        if expected < MIN_EXPECTED:
            rare_expected += expected
            rare_seen += observed.get(outcome, 0)
        else:
            bins.append((expected, observed.get(outcome, 0)))
    if rare_expected:
        bins.append((rare_expected, rare_seen))
    statistic = sum((seen - expected) ** 2 / expected for expected, seen in bins)
    return _gamma_q((len(bins) - 1) / 2, statistic / 2)
