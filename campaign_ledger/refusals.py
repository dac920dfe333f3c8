"""The `rule` of a refusal under `--json`: a short, stable id of the rule that refused the command,
so a script can tell "no such PC" from "the turn is unfinished" without reading the sentence.

An error may name its rule itself (`RuleViolation("...", rule="motto-once")`); otherwise the
sentence's kind is read here, first match wins, then the error's class gives a general one.
A malformed command (exit 2) has no rule: `null`. docs/json-contract.md lists the ids.
"""
from __future__ import annotations

import functools
import re
from typing import Any

# (rule id, what the sentence says), in the order they are tried. A `{}` id takes the named thing
# from the sentence, lower case, spaces as dashes: `There is no PC named` -> unknown-pc.
SENTENCES: tuple[tuple[str, str], ...] = (
    ("no-campaign-file", r"^No campaign file at "),
    ("not-a-campaign-file", r" is (a folder|an empty file|not a campaign file)| belongs to another application|"
                            r"holds the read tables of another campaign|from a newer version"),
    ("campaign-exists", r"already holds (a|the) campaign"),
    ("read-only-media", r"is on read-only media"),
    ("key-used", r"^key \S+ was already used for "),
    ("wrong-ruleset", r"^This is an? \S+ campaign"),
    ("unknown-{}", r"^There is no (PC|Challenge|character|conflict|item|tracker|session|round|entry|ability)\b"),
    ("unknown-{}", r" has no (trait|asset|condition|feature|ability|stat)\b"),
    ("unknown-unit", r"^No unit '|^There is no round or roll "),
    ("unknown-balance", r"^No balance named "),
    ("unknown-name", r"^Nothing in this campaign is named "),
    ("unknown-modifier", r"^No Simple modifier "),
    ("unknown-side", r" is not a side of |^No side against "),
    ("empty-range", r"^The range #\d+-#\d+ holds no entries"),
    ("already-exists", r"^There is already an? |already names a PC or a Challenge"),
    ("turn-unfinished", r" turn on .+ is unfinished"),
    ("turn-waiting", r" is waiting for "),
    ("already-rolled", r" has already rolled|pool is already rolled"),
    ("later-play-used-it", r"^Later play used what |^Later entries changed "),
    ("nothing-to-undo", r"^There is nothing to (undo|replay)"),
    ("pool-empty", r"^The (Destiny|Doom) pool (is empty|holds )"),
    ("no-{}", r"^No (Scenario|Scene|Event|session) (has started|is going on|is open)"),
    ("{}-open", r"^(Session|Scene|Event) \d+ \(.*\) is still open"),
    ("stressed-out", r" is Stressed Out and contributes nothing"),
    ("not-stressed-out", r" is not Stressed Out|^Only a Stressed Out PC"),
    ("not-confirmed", r"the reversal was not confirmed"),
)


@functools.cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The sentences compiled, once, when a refusal is first read: every command imports this
    module, few are refused, and compiling them all costs about 2.5 ms of each start-up."""
    return tuple((rule, re.compile(pattern)) for rule, pattern in SENTENCES)


# The general rule of each kind of refusal no sentence above matched.
BY_CLASS = {"RollStands": "roll-stands", "NotFound": "not-found", "Unusable": "unusable", "Conflict": "busy",
            "ReadModelStuck": "read-tables-stuck", "RuleViolation": "game-rule", "LedgerError": "game-rule"}


def rule_of(error: Any) -> str | None:
    """The rule id of a refusal (None for a malformed value: BadInput)."""
    named = getattr(error, "rule", None)
    if named:
        return named
    kinds = [cls.__name__ for cls in type(error).__mro__]
    if "BadInput" in kinds:
        return None
    return rule_of_sentence(str(error)) or next((BY_CLASS[kind] for kind in kinds if kind in BY_CLASS), "game-rule")


def rule_of_sentence(text: str) -> str | None:
    """The rule a refusal's sentence names (see SENTENCES), or None."""
    for rule, pattern in _compiled():
        found = pattern.search(text)
        if found:
            return rule.format(_slug(found.group(1))) if "{}" in rule else rule
    return None


def _slug(text: str | None) -> str:
    return (text or "").strip().lower().replace(" ", "-")
