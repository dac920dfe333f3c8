"""Relics of the Moon: modifiers (seed 001 "Modifiers"): Add Dice, Auto Results, Simple, ranks.

The notation is the rules' own (+2d6, A6 / 1d, +1 / 2d); the sign is the polarity. The named
Auto Results (Motto, the GM's Motto, Rallying Cry) live here beside the notation they use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.relics.rules.versions import MOST_DICE, RulesVersion

BENEFICIAL, HINDERING = "beneficial", "hindering"


@dataclass(frozen=True)
class Modifier:
    """Add Dice (+2d6), Auto Result (A6 / 1d) or Simple (+1 / 2d), with its polarity."""

    kind: str  # "add" | "auto" | "simple"
    amount: int  # dice added, the auto face, or the value added/subtracted
    dice: int  # how many dice it touches (add: same as amount)
    polarity: str

    @property
    def signed(self) -> int:
        return self.amount if self.polarity == BENEFICIAL else -self.amount

    def __str__(self) -> str:
        sign = "+" if self.polarity == BENEFICIAL else "-"
        if self.kind == "add":
            return f"{sign}{self.amount}d6"
        if self.kind == "auto":
            return f"A{self.amount} / {self.dice}d"
        return f"{sign}{self.amount} / {self.dice}d"


_ADD = re.compile(r"^([+-]?)\s*(\d+)\s*d6$", re.I)
_AUTO = re.compile(r"^A\s*(\d+)\s*/\s*(\d+)\s*d$", re.I)
_SIMPLE = re.compile(r"^([+-]?)\s*(\d+)\s*/\s*(\d+)\s*d$", re.I)


def parse_modifier(text: str, polarity: str | None = None) -> Modifier:
    """Read the seeds' notation; the sign is the polarity, except for Auto Results."""
    t = text.strip()
    if polarity not in (None, BENEFICIAL, HINDERING):
        raise BadInput(f"A modifier is {BENEFICIAL} or {HINDERING}, not '{polarity}'.")
    if m := _AUTO.match(t):
        mod = Modifier("auto", int(m[1]), int(m[2]), polarity or BENEFICIAL)
    elif m := _ADD.match(t):
        mod = Modifier("add", int(m[2]), int(m[2]), _sign_polarity(m[1], polarity, t))
    elif m := _SIMPLE.match(t):
        mod = Modifier("simple", int(m[2]), int(m[3]), _sign_polarity(m[1], polarity, t))
    else:
        raise BadInput(f"'{text}' is not a modifier; write it as +2d6, -1d6, A6 / 1d, +1 / 2d or -2 / 1d.")
    if mod.amount < 1 or mod.dice < 1 or (mod.kind == "auto" and mod.amount > 9) \
            or max(mod.amount, mod.dice) > MOST_DICE:
        raise BadInput(f"'{text}' has a size the game does not use.")
    return mod


def _sign_polarity(sign: str, polarity: str | None, text: str) -> str:
    implied = HINDERING if sign == "-" else BENEFICIAL
    if polarity and polarity != implied:
        raise BadInput(f"'{text}' reads as {implied}, not {polarity}.")
    return implied


def ranked_simple(rules: RulesVersion, rank: int, polarity: str = BENEFICIAL) -> Modifier:
    """Ranked Simple modifier; the seeds' table is missing, RULES.md rules it."""
    if rank not in rules.ranked_simple:
        raise RuleViolation(f"Ranked modifiers go from rank 1 to {max(rules.ranked_simple)}, not {rank}.")
    amount, dice = rules.ranked_simple[rank]
    return Modifier("simple", amount, dice, polarity)


def ranked_add(rank: int, polarity: str = BENEFICIAL) -> Modifier:
    """Ranked Add Dice: rank n is n d6 (RULES.md; fits Supplies: rank 3 = +3d6)."""
    if not 1 <= rank <= 5:
        raise RuleViolation(f"Ranked modifiers go from rank 1 to 5, not {rank}.")
    return Modifier("add", rank, rank, polarity)


# --- Named Auto Results (001 "Motto and Rallying Cry") -------------------------------------

MOTTO = Modifier("auto", 6, 1, BENEFICIAL)  # A6 / 1d while the PC leads
GM_MOTTO = Modifier("auto", 1, 1, HINDERING)  # the GM's Doom turns a Motto into A1 / 1d
RALLYING_CRY = Modifier("auto", 6, 1, BENEFICIAL)
