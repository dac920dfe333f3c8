"""Supply dice and D100 trackers of decision-2d6 campaigns (seed 004 "Supply Rolls",
"D100 or Percentage"): the commands, mixed into `Decision2d6Commands`.

The threshold of a supply roll and a tracker's step are campaign settings
(`supply_threshold`, default 3; `d100_step`, default 10). Every refusal comes from
`ledger.rulesets.decision_2d6.rules`; the GM may override one with a stated reason (`--override`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from campaign_ledger.ledger import dice, values
from campaign_ledger.ledger.errors import BadInput, RuleViolation
from campaign_ledger.ledger.rulesets.decision_2d6 import rules as d2
from campaign_ledger.ledger.rulesets.decision_2d6 import rolls
from campaign_ledger.ledger.rulesets.decision_2d6.model import Item, Tracker, item_id, reason, tracker_id

if TYPE_CHECKING:
    from campaign_ledger.ledger.table import Table

Report = dict[str, Any]


SETTING_MAX = 100  # a supply threshold is a die face, a D100 step a percentage: neither goes past 100


def whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what} must be a whole number, not '{value}'.")
    return value


def check_settings(t: Table) -> None:
    """Read every setting once when the campaign is made, so a bad one is refused now, not later."""
    for key in ("supply_threshold", "d100_step"):
        _setting(t, key, 0)


def _setting(t: Table, key: str, default: int) -> int:
    """A whole-number campaign setting, or its default."""
    text = t.campaign.settings.get(key)
    if text is None:
        return default
    try:
        number = int(text)
    except ValueError:
        raise BadInput(f"The campaign setting {key} must be a whole number, not '{text}'.") from None
    return values.integer(number, f"The campaign setting {key}", 0, SETTING_MAX)


def _die(text: str) -> d2.SupplyDie:
    try:
        return d2.SupplyDie[text.strip().upper()]
    except KeyError:
        raise BadInput(f"'{text}' is not a supply die; use D12, D10, D8, D6, D4 or Empty.") from None


def die_name(die: d2.SupplyDie) -> str:
    return "Empty" if die is d2.SupplyDie.EMPTY else die.name


def _one_face(faces: Sequence[int] | None, sides: int, t: Table) -> tuple[int, bool]:
    """One die entered at the table (checked) or rolled by the program."""
    if faces is not None:
        return dice.entered(tuple(faces), 1, sides).faces[0], True
    return t.dice.roll(1, sides).faces[0], False


def _item(t: Table, name: str) -> Item:
    return t.load(item_id(name), f"There is no item named '{name}' in this campaign.")


def _tracker(t: Table, name: str) -> Tracker:
    return t.load(tracker_id(name), f"There is no tracker named '{name}' in this campaign.")


class PoolCommands:
    """Items with supply dice and D100 trackers; `_decision_2d6` runs a command of this ruleset."""

    _decision_2d6: Callable[[Callable[[Table], Report]], Report]

    # --- supply dice: seed "Supply Rolls" ---------------------------------------------------

    def d2d6_add_item(self, name: str, die: str, holder: str | None = None) -> Report:
        def command(t: Table) -> Report:
            if not name.strip():
                raise BadInput("An item needs a name.")
            clean = values.name(name, "An item's name")
            if t.exists(item_id(clean)):
                raise RuleViolation(f"There is already an item named {clean}.")
            owner = rolls.hero(t, holder).name if holder else None
            item = t.add(Item(name=clean, holder=owner, die=die_name(_die(die))))
            return {"item": item.name, "holder": owner, "die": item.die}
        return self._decision_2d6(command)

    def d2d6_supply_roll(self, name: str, faces: Sequence[int] | None = None, purpose: str = "",
                         override: str | None = None) -> Report:
        """A use that needs a supply roll: 3 or lower (the setting) lowers the die one step."""
        def command(t: Table) -> Report:
            item = _item(t, name)
            die, why = _die(item.die), reason(override)
            threshold = _setting(t, "supply_threshold", d2.DEFAULT_SUPPLY_THRESHOLD)
            if die is d2.SupplyDie.EMPTY:
                if why is None:
                    try:
                        d2.supply_roll(die, 0, threshold)  # the rule's refusal (an Empty item)
                    except RuleViolation:
                        raise RuleViolation(f"{item.name} is Empty, so it cannot be used for anything "
                                            "that needs a supply roll (the GM may allow it with --override REASON).") from None
                _no_faces(faces, f"{item.name} is Empty: no supply die is rolled")
                item.used_while_empty(item.name, purpose.strip(), why)
                return {"item": item.name, "die": item.die, "override": why}
            if why is not None:
                raise BadInput(f"{item.name} still has a {item.die}; an override is only for an Empty item.")
            face, entered = _one_face(faces, die.value, t)
            result = d2.supply_roll(die, face, threshold)
            item.supply_rolled(item.name, item.die, face, die_name(result.after), threshold, entered,
                               purpose.strip())
            return {"item": item.name, "before": die_name(result.before), "face": face,
                    "after": item.die, "lowered": result.lowered, "entered": entered,
                    "unit": f"supply roll {item.name}"}
        return self._decision_2d6(command)

    def d2d6_restock(self, name: str, die: str, why: str = "") -> Report:
        """Set an item's supply die (resupplied as its description says, or the GM decides)."""
        def command(t: Table) -> Report:
            item = _item(t, name)
            after = die_name(_die(die))
            if after == item.die:
                raise RuleViolation(f"{item.name} already has {'no supplies' if after == 'Empty' else 'a ' + after}.")
            before = item.die
            item.restocked(item.name, before, after, why.strip())
            return {"item": item.name, "before": before, "after": after}
        return self._decision_2d6(command)

    # --- D100 trackers: seed "D100 or Percentage" -------------------------------------------

    def d2d6_add_tracker(self, name: str, value: int = 100, step: int | None = None,
                         holder: str | None = None) -> Report:
        def command(t: Table) -> Report:
            if not name.strip():
                raise BadInput("A tracker needs a name.")
            clean = values.name(name, "A tracker's name")
            if t.exists(tracker_id(clean)):
                raise RuleViolation(f"There is already a tracker named {clean}.")
            d2.D100Tracker(value)  # a percentage from 0 to 100
            points = _setting(t, "d100_step", d2.DEFAULT_D100_STEP) if step is None else step
            if whole(points, "A tracker's step") < 0:
                raise BadInput(f"A tracker's step cannot be negative, and {points} is.")
            owner = rolls.hero(t, holder).name if holder else None
            tracker = t.add(Tracker(name=clean, holder=owner, value=value, step=points))
            return {"tracker": tracker.name, "holder": owner, "value": value, "step": points}
        return self._decision_2d6(command)

    def d2d6_tracker_roll(self, name: str, faces: Sequence[int] | None = None, purpose: str = "",
                          override: str | None = None) -> Report:
        """A use of a tracker: a d100 at or under the value goes ahead (see `d2.d100_use`)."""
        def command(t: Table) -> Report:
            tracker = _tracker(t, name)
            why = reason(override)
            state = d2.D100Tracker(tracker.value, tuple(tracker.rolls))
            if tracker.value == 0 and why is not None:
                _no_faces(faces, f"{tracker.name} is at 0%: no d100 is rolled")
                tracker.used_at_zero(tracker.name, purpose.strip(), why)
                return {"tracker": tracker.name, "value": 0, "override": why}
            if why is not None:
                raise BadInput(f"{tracker.name} is at {tracker.value}%; an override is only for a tracker at 0%.")
            if tracker.value == 0:
                try:
                    d2.d100_use(state, 1, tracker.step)
                except RuleViolation:
                    raise RuleViolation(f"{tracker.name} is at 0%, so it cannot be used until it is refilled "
                                        "(the GM may allow it with --override REASON).") from None
            face, entered = _one_face(faces, 100, t)
            use = d2.d100_use(state, face, tracker.step)
            before = tracker.value
            tracker.tracker_rolled(tracker.name, before, face, use.tracker.value, use.supplied,
                                   tracker.step, entered, purpose.strip())
            return {"tracker": tracker.name, "before": before, "face": face, "after": tracker.value,
                    "supplied": use.supplied, "entered": entered,
                    "unit": f"tracker roll {tracker.name}"}
        return self._decision_2d6(command)

    def d2d6_tracker_set(self, name: str, value: int, why: str = "") -> Report:
        """Refill or correct a tracker (the GM's word; the reason is kept)."""
        def command(t: Table) -> Report:
            tracker = _tracker(t, name)
            d2.D100Tracker(value)
            if value == tracker.value:
                raise RuleViolation(f"{tracker.name} is already at {value}%.")
            before = tracker.value
            tracker.tracker_set(tracker.name, before, value, why.strip())
            return {"tracker": tracker.name, "before": before, "after": value}
        return self._decision_2d6(command)


def _no_faces(faces: Sequence[int] | None, why: str) -> None:
    """A use the GM allows with nothing left rolls no die: faces given for it would be dropped unread."""
    if faces:
        raise BadInput(f"{why}, so there are no faces to enter: drop --faces "
                       "(the override is recorded without a roll).")
