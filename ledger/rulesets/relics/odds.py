"""Relics of the Moon: exact odds of a pool before its faces, Simple modifiers placed as --best does.

Counted, not expanded: a placement touches at most as many dice as the Simple modifiers have parts,
so it sees at most that many of each face. For every such capped count of the six faces the rules'
placement is resolved once (`rules.placement_counts`, the rules' `best_placement` worked on counts,
its searches shared between pools that differ only in their 1s); the dice beyond the caps fall as they
fell (a 1 a botch, a 5 or 6 a success) and are counted in whole numbers of face sequences. The work is
known before it starts (`placements`), and a pool past MOST_PLACEMENTS is refused before any.
Every figure comes from `ledger.rulesets.relics.rules` (tally, tides, the Destiny cap, dice resolved).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Mapping

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.ledger.odds import Dist, at_least, chance, marginal, mean, percent
from campaign_ledger.ledger.rulesets.relics.rules import placement_counts as placement
from campaign_ledger.ledger.rulesets.relics import rules as relics

Key = tuple[int, int, int, int, int]  # successes, criticals, overpowering, botches, major botches
FACES = 6


@dataclass(frozen=True)
class Pool:
    """A pool before its faces: dice to roll, the Auto Result faces, the Simple modifiers to place."""

    rolled: int
    autos: tuple[int, ...] = ()
    simple: tuple[relics.Modifier, ...] = ()

    @property
    def parts(self) -> int:
        """How many dice the Simple modifiers can touch at most (one part per die and side)."""
        return sum(m.dice for m in self.simple)


def _key(t: relics.Tally) -> Key:
    return t.successes, t.criticals, t.overpowering, t.botches, t.major_botches


def _tally(key: Key) -> relics.Tally:
    return relics.Tally((), *key)


MOST_PLACEMENTS = 120_000  # the work of the slowest pool `odds` answers in about a second (bench/odds.py)


def placements(pool: Pool) -> int:
    """The work a pool's odds take: the capped face counts a placement can see (at most as many of each
    face as the dice it can touch), times the choices of value for each side that places."""
    q = min(pool.parts, pool.rolled)
    vectors = [1] + [0] * pool.rolled  # capped count vectors over the faces so far, by dice used
    for _ in range(FACES):
        vectors = [sum(vectors[used - k] for k in range(min(q, used) + 1)) for used in range(pool.rolled + 1)]
    sides = {m.polarity for m in pool.simple}
    choices = 1
    for polarity in sides:
        choices *= len({m.amount for m in pool.simple if m.polarity == polarity}) + 1
    return sum(vectors) * choices


def check_size(pool: Pool) -> None:
    """Refuse, before any work, a pool whose exact odds would take more than a second or two."""
    work = placements(pool)
    if work > MOST_PLACEMENTS:
        raise BadInput(f"These odds would weigh {work:,} placements of the Simple modifiers on {pool.rolled} dice; "
                       f"campaign odds works out at most {MOST_PLACEMENTS:,} (fewer dice, or modifiers on fewer dice).")


def _sequences(faces: int, q: int, n: int) -> dict[tuple[int, ...], list[int]]:
    """For `faces` faces: capped counts (at most q of each) -> [face sequences of length z, z = 0..n]."""
    table: dict[tuple[int, ...], list[int]] = {(): [1] + [0] * n}
    for _ in range(faces):
        grown: dict[tuple[int, ...], list[int]] = {}
        for kept, ways in table.items():
            for k in range(q + 1):
                vec = [0] * (n + 1)
                for z, w in enumerate(ways):
                    if w:
                        for c in ([k] if k < q else range(q, n - z + 1)):
                            if z + c <= n:
                                vec[z + c] += w * comb(z + c, c)
                if any(vec):
                    grown[kept + (k,)] = vec
        table = grown
    return table


def outcomes(pool: Pool) -> Dist:
    """The joint distribution of the tally (successes, criticals, overpowering, botches, major)."""
    found, total = weights(pool)
    return {key: Fraction(w, total) for key, w in found.items()}


def _divided(figures: Any, total: int) -> Any:
    """Figures worked out on face-sequence counts, as probabilities (every figure is linear in them)."""
    if isinstance(figures, dict):
        return {k: _divided(v, total) for k, v in figures.items()}
    return figures if figures is None else Fraction(figures, total)


def weights(pool: Pool) -> tuple[dict[Key, int], int]:
    """The tally's distribution as whole numbers of face sequences, and their total (6 ** dice rolled):
    the figures are summed on these and divided once, which is most of their cost saved."""
    if pool.rolled < 0:
        raise ValueError("a pool rolls 0 dice or more")
    check_size(pool)
    n, q = pool.rolled, min(pool.parts, pool.rolled)
    blanks, hits = _sequences(3, q, n), _sequences(2, q, n)  # faces 2-4 tally nothing; 5 and 6 a success
    blank_rows = [(kept, sum(kept), [(z, w) for z, w in enumerate(ways) if w]) for kept, ways in blanks.items()]
    autos = dict(placement.counts_of(pool.autos))
    found: dict[Key, int] = {}
    lowest = autos.pop(1, 0)  # a 1 is the lowest result: the search below the other dice is shared
    for kept_hits, hit_ways in hits.items():
        by_key: list[dict[Key, list[int]]] = [{} for _ in range(q + 1)]
        for kept_blanks, blank_count, blank_ways in blank_rows:
            room = n - sum(kept_hits) - blank_count
            if room < 0:
                continue
            kept = dict(autos)
            for face, k in zip((2, 3, 4, 5, 6), kept_blanks + kept_hits):
                if k:
                    kept[face] = kept.get(face, 0) + k
            ones = range(min(q, room) + 1)
            keys = placement.resolve_lowest(1, [lowest + k for k in ones], tuple(sorted(kept.items())), pool.simple)
            for k, key in zip(ones, keys):
                into = by_key[k].get(key)
                if into is None:
                    into = by_key[k][key] = [0] * (n + 1)
                for z, w in blank_ways:
                    into[z] += w
        for k in range(q + 1):
            _spread(found, by_key[k], k, q, sum(kept_hits), hit_ways, n)
    return {key: w for key, w in sorted(found.items()) if w}, 6 ** n


def _spread(found: dict[Key, int], by_key: dict[Key, list[int]], ones: int, q: int, kept_hits: int,
            hit_ways: list[int], n: int) -> None:
    """Add every split of the n dice into 1s, blanks and hits: the dice beyond the caps as they fell."""
    for (s0, c0, o0, b0, m0), blank_ways in by_key.items():
        for b in ([ones] if ones < q else range(q, n + 1)):
            extra_b, ways_b = b - ones, comb(n, b)
            for s in range(kept_hits, n - b + 1):
                w = hit_ways[s] and blank_ways[n - b - s]
                if w:
                    key = (s0 + s - kept_hits - extra_b, c0, o0, b0 + extra_b, m0)
                    found[key] = found.get(key, 0) + ways_b * comb(n - b, s) * hit_ways[s] * blank_ways[n - b - s]


def summary(joint: Dist) -> dict[str, Any]:
    """What any side's roll can come to: net successes, Disaster, expected criticals and botches."""
    successes = marginal(joint, lambda k: k[0])
    return {
        "successes": successes,
        "at_least": at_least(successes),
        "disaster": chance(joint, lambda k: _tally(k).disaster),
        "expected": {"successes": mean(successes), "criticals": mean(joint, lambda k: k[1]),
                     "overpowering": mean(joint, lambda k: k[2]), "botches": mean(joint, lambda k: k[3]),
                     "major_botches": mean(joint, lambda k: k[4])},
    }


@dataclass(frozen=True)
class CohortContext:
    """What the Tides and the rating need: the campaign's rules and where things stand."""

    rules: relics.RulesVersion
    threat: str
    pcs: int
    destiny: int  # Destiny in the pool now (after any spent in the Huddle)
    rating: int
    resolved: int
    needed: int | None = None  # a Test: the successes it needs to pass


def cohort_odds(pool: Pool, context: CohortContext) -> dict[str, Any]:
    """A Cohort turn: the summary, the Tides (capped Destiny, Doom), dice resolved toward the rating."""
    joint, total = weights(pool)
    cap = context.rules.destiny_cap_per_pc * context.pcs

    def tides(k: Key) -> tuple[int, int, int]:
        destiny, doom = relics.tides(context.rules, _tally(k), context.threat, context.pcs)
        applied, lost = relics.cap_destiny(context.destiny, destiny, cap)
        return applied, doom, lost

    resolved = marginal(joint, lambda k: relics.dice_resolved(context.rating, context.resolved, k[0]))
    unresolved = context.rating - context.resolved
    return _divided({
        **summary(joint),
        "destiny": marginal(joint, lambda k: tides(k)[0]),
        "doom": marginal(joint, lambda k: tides(k)[1]),
        "expected_tides": {"destiny": mean(joint, lambda k: tides(k)[0]), "doom": mean(joint, lambda k: tides(k)[1]),
                           "destiny_lost_to_cap": mean(joint, lambda k: tides(k)[2])},
        "resolved": resolved,
        "resolves_challenge": chance(resolved, lambda n: unresolved > 0 and n == unresolved),
        "passes_test": None if context.needed is None else chance(joint, lambda k: k[0] >= context.needed),
    }, total)


def challenge_odds(pool: Pool) -> dict[str, Any]:
    """A Challenge turn: each success is one Stress for the group facing it (none on 0 or less)."""
    joint, total = weights(pool)
    stress = marginal(joint, lambda k: max(k[0], 0))
    return _divided({**summary(joint), "stress": stress, "expected_stress": mean(stress)}, total)


def pending_pool(pending: Mapping[str, Any]) -> Pool:
    """The pool a Challenge waits on (its PoolBuilt state): dice to roll, autos, Simple modifiers."""
    autos = tuple(pending.get("autos", ()))
    simple = tuple(relics.parse_modifier(a["modifier"], a["polarity"]) for a in pending.get("simple", ()))
    return Pool(pending["pool"]["size"] - len(autos), autos, simple)


def pool_line(pending: Mapping[str, Any]) -> str:
    """One line for `campaign status`: the dice, what waits to be placed, and the odds that matter."""
    pool = pending_pool(pending)
    if placements(pool) > MOST_PLACEMENTS:
        return f"Pool: {pool.rolled}d6 to roll. Odds: not worked out (past campaign odds' bound)."
    odds = summary(outcomes(pool))
    autos = f" + auto results {', '.join(map(str, pool.autos))}" if pool.autos else ""
    placing = "; to place: " + ", ".join(f"{a['label']} {a['modifier']}" for a in pending.get("simple", ())) \
        if pending.get("simple") else ""
    first = "at least 1 Stress" if pending.get("side") == "challenge" else "at least 1 success"
    return (f"Pool: {pool.rolled}d6 to roll{autos}{placing}. Odds: {first} "
            f"{percent(odds['at_least'].get(1, Fraction(0)))}, Disaster {percent(odds['disaster'])}.")
