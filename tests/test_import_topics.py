"""Import asks the allow-list of event types of the header's ruleset first (interchange_check.
ruleset_topics: the core's and that ruleset's, without importing the others) and of every ruleset
before it refuses a type: what it accepts and refuses is the whole list's answer."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from campaign_ledger.ledger.chain import GENESIS
from campaign_ledger.ledger.errors import Unusable
from campaign_ledger.ledger.interchange_check import FORMAT, Checker, known_topics, ruleset_topics

OTHER = "ledger.rulesets.beer_run.conflict:BeerRunConflict.Compared"  # a Beer Run event type (a file of a Relics campaign)


def test_a_rulesets_part_of_the_list_is_part_of_the_whole_list():
    relics, every = ruleset_topics("relics"), known_topics()
    assert relics <= every and "ledger.campaign:Campaign.PCJoined" in relics
    assert "ledger.rulesets.relics.challenge:Challenge.RoundTallied" in relics
    assert ruleset_topics("no such ruleset") == every


def test_a_rulesets_part_of_the_list_imports_no_other_ruleset():
    code = ("import sys; from campaign_ledger.ledger.interchange_check import ruleset_topics; ruleset_topics('relics'); "
            "print(sorted({m.split('.')[3] for m in sys.modules if m.startswith('campaign_ledger.ledger.rulesets.') "
            "and m.count('.') > 3}))")  # a module of a ruleset, not its package (every ruleset is declared)
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "['relics']"


def _refusal(ruleset: object, topic: str) -> str:
    checker = Checker()
    header = {"format": FORMAT, "campaign": "C", "ruleset": ruleset, "first": 1, "previous_hash": GENESIS}
    checker.line(json.dumps(header), 1)
    line = {"entry": 1, "type": topic, "aggregate": "0f3bb39d-f82e-53aa-aa02-b40888184009", "version": 1,
            "hash": "0" * 64, "data": {"a": 1}}
    with pytest.raises(Unusable) as refused:
        checker.line(json.dumps(line), 2)
    return str(refused.value)


@pytest.mark.parametrize("ruleset", ["relics", "beer-run", None, ["relics"]])
def test_a_type_of_another_ruleset_is_known_whatever_the_header_names(ruleset):
    assert OTHER in known_topics()
    assert "does not match its hash" in _refusal(ruleset, OTHER)


@pytest.mark.parametrize("ruleset", ["relics", None])
def test_a_type_no_ruleset_defines_is_refused(ruleset):
    assert "holds an event type this program does not know" in _refusal(ruleset, "ledger.campaign:Campaign.Nope")
