"""Playing Beer Run at the table: settings, look-ups, setting up, and pricing and throwing a pool.

A round step by step (seed 002 "The Round"): goals, helping rolls, pools and the comparisons
(ledger/systems/beer_run_round.py), then the pips, upper hand first, and Cede
(ledger/systems/beer_run_effects.py). Every rule comes from ledger/rules/beer_run.py; these
modules only sequence the steps, roll (through t.dice) or check entered faces, and have the
aggregates record what happened.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from campaign_ledger.ledger import values
from campaign_ledger.ledger.errors import BadInput, NotFound, RuleViolation
from campaign_ledger.ledger.rulesets.beer_run import rules
from campaign_ledger.ledger.rulesets.beer_run.character import DIFFICULTY, BeerRunCharacter, character_id
from campaign_ledger.ledger.rulesets.beer_run.conflict import BeerRunConflict, conflict_id
from campaign_ledger.ledger.table import Table

DEFAULT_INTENSITY = 10  # ruling: the seed gives no starting Intensity; setting `intensity`


@dataclass(frozen=True)
class Faces:
    """Faces typed at the table (own dice, penalty dice, difficulty dice), or none: the program rolls."""

    own: tuple[int, ...] | None = None
    penalty: tuple[int, ...] | None = None
    difficulty: tuple[int, ...] | None = None
    roll: bool = False

    def __post_init__(self) -> None:
        if self.roll and self.own is not None:
            raise BadInput("Give --faces from the table or --roll, not both.")
        if self.own is None and (self.penalty is not None or self.difficulty is not None):
            raise BadInput("Enter the pool's own faces with --faces too, or let the program roll every die.")

    @property
    def entered(self) -> bool:
        return self.own is not None


# --- campaign settings (`campaign new X --ruleset beer-run --setting KEY=VALUE`) ----------------

def check_settings(t: Table) -> None:
    """Read every setting once when the campaign is made, so a bad one is refused now, not later."""
    categories(t)
    starting_intensity(t)


def categories(t: Table) -> tuple[str, ...]:
    text = t.campaign.settings.get("categories")
    if text is None:
        return rules.DEFAULT_CATEGORIES
    names = tuple(c.strip() for c in text.split(",") if c.strip())
    if not names or len({n.casefold() for n in names}) != len(names):
        raise BadInput(f"The campaign's categories setting must name different categories, not '{text}'.")
    return names


def starting_intensity(t: Table) -> int:
    text = t.campaign.settings.get("intensity", str(DEFAULT_INTENSITY))
    if not values.is_number(text.strip()):
        raise BadInput(f"The campaign's intensity setting must be a whole number, not '{text}'.")
    return values.integer(int(text), "The campaign's intensity setting", 0, rules.INTENSITY_MAX)


def dead_strike_back(t: Table) -> bool:
    """rules.resolve_effects: by default a side killed by the upper hand still lands its pips."""
    return t.campaign.settings.get("dead_strike_back", "yes").strip().lower() not in ("no", "false", "0")


# --- looking things up --------------------------------------------------------------------------

def character(t: Table, name: str) -> BeerRunCharacter:
    return t.load(character_id(name), f"There is no character named '{name.strip()}' in this campaign.")


def conflict(t: Table, name: str) -> BeerRunConflict:
    return t.load(conflict_id(name), f"There is no conflict named '{name.strip()}' in this campaign.")


def category(t: Table, name: str) -> str:
    for c in categories(t):
        if c.casefold() == name.strip().casefold():
            return c
    raise RuleViolation(f"{name.strip()} is not a category of this campaign ({', '.join(categories(t))}).")


def ability_name(ch: BeerRunCharacter, name: str) -> str:
    for a in ch.abilities:
        if a["name"].casefold() == name.strip().casefold():
            return a["name"]
    raise NotFound(f"{ch.name} has no ability called {name.strip()}.")


def dice_text(sizes: Sequence[int]) -> str:
    return ", ".join(rules.format_die(s) for s in sizes)


# --- setting up -----------------------------------------------------------------------------

def new_abilities(t: Table, given: Sequence[tuple[str, str, str]]) -> list[rules.Ability]:
    """(category, name, die) as typed -> abilities; Health is spelled as the rules spell it."""
    abilities: list[rules.Ability] = []
    for cat, name, die in given:
        if not name.strip():
            raise BadInput("Every ability needs a name, e.g. Physical:Brawn=d8.")
        name = rules.HEALTH if name.strip().casefold() == rules.HEALTH.casefold() \
            else values.name(name, "An ability's name")
        if any(a.name.casefold() == name.casefold() for a in abilities):
            raise BadInput(f"{name} is named twice.")
        abilities.append(rules.Ability(name, category(t, cat), rules.parse_die(die)))
    return abilities


def open_conflict(t: Table, name: str, sides: Sequence[str], target: str | None) -> BeerRunConflict:
    if not name.strip():
        raise BadInput("A conflict needs a name.")
    name = values.name(name, "A conflict's name")
    if t.exists(conflict_id(name)):
        raise RuleViolation(f"There is already a conflict named {conflict(t, name).name}.")
    chars = [character(t, s) for s in sides]
    if len({c.name for c in chars}) != len(chars):
        raise BadInput("A side is named twice.")
    if len(chars) < 2:
        raise RuleViolation("A conflict needs at least two sides.")
    for c in chars:
        c.check_alive()
    if target is None:
        if len(chars) > 2:
            raise BadInput("With more than two sides, say which side the others oppose with --target.")
        target = chars[1].name
    matches = [c.name for c in chars if c.name.casefold() == target.strip().casefold()]
    if not matches:
        raise BadInput(f"The target {target} must be one of the sides.")
    return t.add(BeerRunConflict(name=name, sides=[c.name for c in chars], target=matches[0],
                                 static=[c.name for c in chars if c.kind == DIFFICULTY]))


# --- pools and faces (seed "Assemble Dice Pool", "Extra Dice", "Compare Rolls") ------------------

def _default_base(ch: BeerRunCharacter, cats: Sequence[str]) -> list[str]:
    """Unless told, the biggest die left in each category (the first of equal ones)."""
    base = []
    for cat in cats:
        live = [a for a in ch.sheet() if a.category == cat and a.size > 0]
        if live:
            base.append(max(live, key=lambda a: a.size).name)
    return base


def price(t: Table, ch: BeerRunCharacter, base: Sequence[str], extra: Sequence[str],
          override: str | None) -> tuple[list[str], tuple[int, ...], int]:
    """The abilities rolled, their dice and the Intensity cost; the GM may override a refusal."""
    if ch.kind == DIFFICULTY:
        if base or extra:
            raise BadInput(f"{ch.name} is a difficulty pool and rolls all its dice; leave out --base and --extra.")
        live = [a for a in ch.sheet() if a.size > 0]
        return [a.name for a in live], tuple(a.size for a in live), 0
    cats = categories(t)
    base = [ability_name(ch, n) for n in base] if base else _default_base(ch, cats)
    extra = [ability_name(ch, n) for n in extra]
    try:
        pool = rules.build_pool(ch.sheet(), base, extra, ch.intensity, cats)
        return [*base, *extra], pool.dice, pool.cost
    except RuleViolation:
        if not override:
            raise
    chosen = [rules.find(ch.sheet(), n) for n in (*base, *extra)]
    for a in chosen:  # even the GM's word cannot roll a die that is gone, or one die twice
        if a.size == 0:
            raise RuleViolation(f"{a.name} is gone; no override can roll it.")
        if sum(b.name == a.name for b in chosen) > 1:
            raise RuleViolation(f"{a.name} is one die; no override can roll it twice.")
    return [*base, *extra], tuple(a.size for a in chosen), rules.roll_cost(len(extra))


def throw(t: Table, sizes: Sequence[int], given: tuple[int, ...] | None, entered: bool,
          what: str, option: str) -> list[int]:
    """Faces for these dice: rolled through t.dice, or the table's faces checked against them."""
    if not entered:
        return [t.dice.roll(1, s).faces[0] for s in sizes]
    if given is None:
        if not sizes:
            return []
        raise BadInput(f"Enter the faces of the {what} ({dice_text(sizes)}) with {option}.")
    if not sizes:
        raise BadInput(f"There are no {what} to roll; leave out {option}.")
    return list(rules.check_faces(sizes, given))


def held_dice(ch: BeerRunCharacter) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Situation dice that join this roll and penalty dice that oppose it (RULES.md "Beer Run")."""
    return rules.spend_situation_dice(ch.held_situation())[0], rules.spend_penalty_dice(ch.held_penalties())[0]


def upper_name(comparison: rules.Comparison, sides: tuple[str, str]) -> str | None:
    return None if comparison.upper_hand is None else sides[comparison.upper_hand]
