"""The library's face (issue 37): every command and read view of the CLI is a call of the Campaign
handle, named by the command's words (`campaign pc add` is `pc_add`), documented, and typed; the
face imports nothing heavy until a call is made."""
from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import click

from campaign_ledger.campaign import Campaign
from campaign_ledger.cli import cli
from campaign_ledger.commands.lazy import subcommands

ROOT = Path(__file__).resolve().parent.parent
# Commands that are not a call on an open campaign, and what stands for them.
NOT_CALLS = {"new": "campaign_ledger.new_campaign", "import": "campaign_ledger.campaign.import_campaign",
             "demo": "campaign_ledger.campaign.demo_campaign", "serve": "the HTTP API itself",
             "shell": "a terminal's loop over the CLI"}


def _paths(group: click.Group, prefix: str = "") -> list[str]:
    found = []
    for name, command in subcommands(group).items():
        found += _paths(command, f"{prefix}{name} ") if isinstance(command, click.Group) else [f"{prefix}{name}"]
    return found


def method_name(path: str) -> str:
    return path.replace("-", "_").replace(" ", "_")


def test_every_cli_command_is_a_documented_call_of_the_handle() -> None:
    paths = _paths(cli)
    assert len(paths) > 90
    missing = [p for p in paths if p not in NOT_CALLS and not callable(getattr(Campaign, method_name(p), None))]
    assert missing == [], missing
    for path in paths:
        if path in NOT_CALLS:
            continue
        method = getattr(Campaign, method_name(path))
        assert method.__doc__ and method.__doc__.strip(), path
        hints = inspect.signature(method)
        assert hints.return_annotation is not inspect.Signature.empty, path


def test_the_module_functions_standing_for_commands_exist() -> None:
    import importlib

    for target in NOT_CALLS.values():
        if target.startswith("campaign_ledger."):
            module, _, name = target.rpartition(".")
            assert callable(getattr(importlib.import_module(module), name)), target


def test_importing_the_face_loads_no_ledger() -> None:
    code = ("import sys, campaign_ledger; print(sorted(m for m in ('eventsourcing', 'sqlite_utils', "
            "'campaign_ledger.ledger') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_faces_given_as_anything_but_whole_numbers_are_refused_as_malformed(tmp_path: Path) -> None:
    """A bot's `faces="1,2"` (a string: each character would be a die) or `[1, "x"]` is one code-2
    refusal naming what was given, not an unforeseen failure, and nothing is appended."""
    import pytest

    from campaign_ledger import CampaignError, new_campaign

    camp = new_campaign(tmp_path / "c.db", "Faces")
    camp.pc_add("Kira", {"Phantom": 3}, "Phantom")
    camp.scenario_start("Night")
    camp.challenge_open("Guards", threat="major", type="phantom", rating=3)
    before = len(camp.history())
    for bad in ("1,2", [1, "x"], 5, [True]):
        with pytest.raises(CampaignError) as refused:
            camp.cohort_turn("Guards", leader="Kira", faces=bad)  # type: ignore[arg-type]
        assert (refused.value.code, refused.value.rule) == (2, None) and "whole numbers" in str(refused.value)
    assert len(camp.history()) == before


def test_the_typed_shapes_name_exactly_the_fields_the_calls_return(tmp_path: Path) -> None:
    """The TypedDicts of campaign_ledger/shapes.py are what a bot's editor and mypy trust: each names
    the very fields its call returns on each ruleset's demo, no fewer and no more (an undo plan's and
    its reversals', all they may hold: a plan says `needs_cascade` only when later play used the unit)."""
    from typing import get_type_hints

    from campaign_ledger import shapes
    from campaign_ledger.campaign import demo_campaign

    def fields(shape: type) -> set[str]:
        return set(get_type_hints(shape))

    sheets = {"relics": shapes.RelicsSheet, "beer-run": shapes.BeerRunSheet, "action-dice": shapes.ActionDiceSheet,
              "decision-2d6": shapes.Decision2d6Sheet}
    for ruleset, shape in sheets.items():
        camp = demo_campaign(tmp_path / f"{ruleset}.db", ruleset)
        rows = camp.sheet()
        assert rows and all(set(row) == fields(shape) for row in rows), (ruleset, rows[0])
        assert all(set(u) | {"confirmed_by", "actors"} == fields(shapes.UnitListed) for u in camp.undo_list(3)), ruleset
        plan = camp.undo(dry_run=True)
        assert set(plan) <= fields(shapes.UndoPlan) and all(set(r) <= fields(shapes.Reversal) for r in plan["reversed"])
        if ruleset == "relics":
            assert set(camp.pools()) == fields(shapes.RelicsPools)
            assert set(camp.session_list()[0]) == fields(shapes.Session)
            assert set(camp.audit()) == fields(shapes.AuditReport)
            assert all(set(h) | {"confirmed_by"} == fields(shapes.HistoryLine) for h in camp.history(limit=5))
        if ruleset == "decision-2d6":
            assert set(camp.pools()) == fields(shapes.Decision2d6Pools)


def test_arguments_of_the_wrong_kind_are_one_malformed_refusal_never_a_python_error(tmp_path: Path) -> None:
    """What a bot passes is read before the call opens anything (`dict(None)`, `int("x")`): every
    public call raises nothing but CampaignError (campaign_ledger/handle.py `one_refusal`), code 2,
    and nothing is appended."""
    import pytest

    from campaign_ledger import CampaignError, new_campaign

    camp = new_campaign(tmp_path / "c.db", "Kinds")
    before = len(camp.history())
    for bad in (lambda: camp.pc_add("Kira", None, "Phantom"),  # type: ignore[arg-type]
                lambda: camp.note("x", tags=None),  # type: ignore[arg-type]
                lambda: camp.history(limit="3"),  # type: ignore[arg-type]
                lambda: camp.session_list(3)):  # type: ignore[call-arg]
        with pytest.raises(CampaignError) as refused:
            bad()
        assert (refused.value.code, refused.value.rule) == (2, None), refused.value
    assert len(camp.history()) == before


def test_beer_run_faces_given_as_a_string_are_refused_not_split(tmp_path: Path) -> None:
    import pytest

    from campaign_ledger import CampaignError, new_campaign

    camp = new_campaign(tmp_path / "b.db", "Brawl", ruleset="beer-run")
    with pytest.raises(CampaignError) as refused:
        camp.beer_run_roll("Nowhere", "Ann", faces="246")  # type: ignore[arg-type]
    assert refused.value.code == 2 and "whole numbers" in str(refused.value)
