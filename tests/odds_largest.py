"""The largest inputs `campaign odds --ruleset ...` accepts in each ruleset, and the first ones past its
bounds: shared by tests/test_odds_bounds.py (each answered, or refused up front) and bench/odds.py
(each answered within the 2 s budget). Each: (name, arguments, answered: True, or refused: False)."""
from __future__ import annotations

MIXED = ("d12", "d10", "d8", "d6")


def _pool(n: int, sizes: tuple[str, ...] = MIXED) -> str:
    return ",".join(sizes[i % len(sizes)] for i in range(n))


COHORT = ("--threat", "Minor", "--rating", "100", "--pcs", "34")
LARGEST: list[tuple[str, tuple[str, ...], bool]] = [
    ("relics, 100 dice, +1/2d +2/1d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 2d", "--trait",
                                       "+2 / 1d", *COHORT), True),
    ("relics, 100 dice, +1/5d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 5d", *COHORT), True),
    ("relics, 100 dice, +1/2d -1/2d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 2d", "--trait",
                                       "-1 / 2d", *COHORT), True),
    ("relics, 100 dice, +1/2d +2/1d -1/1d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 2d",
                                            "--trait", "+2 / 1d", "--trait", "-1 / 1d", *COHORT), True),
    ("relics, 15 dice, +1/100d", ("--ruleset", "relics", "--dice", "15", "--trait", "+1 / 100d", *COHORT), True),
    ("relics, 12 dice, three x/100d", ("--ruleset", "relics", "--dice", "12", "--trait", "+1 / 100d", "--trait",
                                       "+2 / 100d", "--trait", "-1 / 100d", *COHORT), True),
    ("relics, Challenge 100, all resolved", ("--ruleset", "relics", "--dice", "100", "--challenge-turn",
                                             "--threat", "Ultimate", "--resolved", "100", "--trait", "+1 / 2d",
                                             "--trait", "-2 / 1d"), True),
    ("relics, 100 dice, +1/100d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 100d", *COHORT), False),
    ("relics, 100 dice, +1/3d -1/2d", ("--ruleset", "relics", "--dice", "100", "--trait", "+1 / 3d", "--trait",
                                       "-1 / 2d", *COHORT), False),
    ("beer-run, d1000,d6 vs d6", ("--ruleset", "beer-run", "--pool", "d1000,d6", "--against", "d6"), True),
    ("beer-run, 12 mixed vs 12 mixed", ("--ruleset", "beer-run", "--pool", _pool(12), "--against", _pool(12)), True),
    ("beer-run, 8 x d100 vs 8 x d92", ("--ruleset", "beer-run", "--pool", _pool(8, ("d100", "d99", "d98", "d97")),
                                       "--against", _pool(8, ("d92", "d91", "d90", "d89"))), True),
    ("beer-run, 30 x d12 vs d6", ("--ruleset", "beer-run", "--pool", _pool(30, ("d12",)), "--against", "d6"), True),
    ("beer-run, goal d1000", ("--ruleset", "beer-run", "--pool", "d1000,d1000", "--goal", "d1000"), True),
    ("beer-run, 30 mixed vs 30 mixed", ("--ruleset", "beer-run", "--pool", _pool(30), "--against", _pool(30)), False),
    ("beer-run, d1000000 vs d6", ("--ruleset", "beer-run", "--pool", "d1000000", "--against", "d6"), False),
    ("action-dice, difficulty 10, three d12", ("--ruleset", "action-dice", "--difficulty", "10", "--asset", "d12",
                                               "--asset", "d12", "--asset", "d12", "--disadvantage"), True),
    ("action-dice, difficulty 11", ("--ruleset", "action-dice", "--difficulty", "11"), False),
    ("decision-2d6, target 290, major advantage", ("--ruleset", "decision-2d6", "--target", "290", "--advantage",
                                                  "major-advantage"), True),
    ("decision-2d6, target 400", ("--ruleset", "decision-2d6", "--target", "400"), False),
]
