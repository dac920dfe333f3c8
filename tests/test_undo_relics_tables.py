"""Undo as if never played, in Relics' read tables (issue 33 findings 2 and 3): after an undo every
table holding game state reads as it does in a campaign that never played the undone commands, and
every state attribute an undo restores that a table shows has a projection that writes it back."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.rulesets.relics.bestiary import Bestiary
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.rulesets.relics.character import Character
from campaign_ledger.projections import runner
from tests.conftest import Table

# Logs by design (a row per entry; undo adds rows to them), left out of the comparison.
LOGS = ("history", "balances", "balance_changes", "sheet_versions", "row_versions", "row_versions_dirty", "notes",
        "read_notes")
ENTRY = {"entry", "time", "opened", "joined", "first_entry", "last_entry", "started", "key"}
ENDED = {"ended"}  # the entry something ended at: only whether it ended is state


def _play(path: Path, commands: list[tuple[str, ...]]) -> Table:
    t = Table(path)
    for command in commands:
        t(*command)
    return t


def _state(t: Table) -> dict[str, list[str]]:
    """Every read table holding game state, caught up, without entry numbers and times."""
    t("history", "--limit", "1")  # any read command catches the read tables up
    db = runner.connect(t.path)
    try:
        return {name: sorted(repr({k: (v is not None if k in ENDED else v) for k, v in row.items()
                                   if k not in ENTRY}) for row in rows)
                for name, rows in runner.tables(db) if name not in LOGS}
    finally:
        db.conn.close()


def _views(t: Table) -> dict:
    return {"pools": t.json("pools"), "sheet": t.json("sheet"), "status": t.json("status")}


def _as_never_played(tmp_path: Path, played: list, undo: tuple[str, ...], kept: list) -> None:
    """Play, undo, and compare with a campaign that played only what was kept."""
    undone = _play(tmp_path / "undone.db", played)
    undone("undo", *undo, "--yes")
    scratch = _play(tmp_path / "scratch.db", kept)
    assert _views(undone) == _views(scratch)
    assert _state(undone) == _state(scratch)
    assert undone.differs_from_rebuild() == []


START = [("new", "Heist"), ("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"),
         ("pc", "add", "Bo", "--expertise", "Phantom=3", "--primary", "Phantom"),
         ("house-rule", "set", "stressed_out_at", "2", "--reason", "a harsh table"),
         ("scenario", "start", "Night"), ("scene", "start", "Vault"), ("event", "start", "Alarm", "--simultaneous"),
         ("challenge", "open", "G", "--threat", "Common", "--type", "Phantom", "--rating", "2", "--group", "Bo"),
         ("challenge", "open", "W", "--threat", "Minor", "--type", "Phantom", "--rating", "5", "--group", "Kira"),
         ("challenge", "open", "Y", "--threat", "Minor", "--type", "Phantom", "--rating", "5", "--group", "Kira"),
         ("cohort-turn", "G", "--leader", "Bo", "--faces", "1,1,2"), ("challenge-turn", "G", "--faces", "2,2"),
         ("cohort-turn", "G", "--faces", "6,6,6")]  # G resolved, its Disaster of round 1 still waiting for its trait
DISASTER = ("disaster-trait", "G", "Rattled", "-1 / 1d", "--on", "Cohort", "--lasts", "event")


def test_an_event_long_disaster_trait_ended_by_undone_rounds_played_around_it_is_open_again(tmp_path):
    """Finding 2: the trait is made between W:1's turns, and W:2 (which used W:1) ends the Event and
    with it the trait; W:1 and Y:1 interleave, so the three are reversed together, around the trait."""
    rounds = [("cohort-turn", "W", "--leader", "Kira", "--faces", "1,5,5"),
              ("cohort-turn", "Y", "--leader", "Kira", "--faces", "2,3,4"),  # uses the Doom W:1's botch added
              DISASTER,
              ("challenge-turn", "W", "--faces", "5,2,2,2"), ("stress", "W", "--stress", "Kira=1"),
              ("challenge-turn", "Y", "--faces", "2,2,2,2,2"),
              ("cohort-turn", "W", "--faces", "2,3,4"), ("challenge-turn", "W", "--faces", "5,2,2,2"),
              ("stress", "W", "--stress", "Kira=1")]  # Kira Stressed Out: W, the Event, Rattled and the Scene end
    _as_never_played(tmp_path, START + rounds, ("W:1", "--cascade"), START + [DISASTER])
    assert [t["name"] for t in Table(tmp_path / "undone.db").json("pools")["cohort_traits"]] == ["Rattled"]


def test_a_disaster_trait_made_and_ended_by_undone_play_leaves_no_row(tmp_path):
    """Finding 3: the trait's row, ended, stayed in `traits` after the cascade that unmade it."""
    played = START[:-1] + [DISASTER, ("cohort-turn", "G", "--faces", "6,6,6")]  # G resolved after the trait
    _as_never_played(tmp_path, played, ("G:1", "--cascade"), START[:-3])


def test_a_round_long_disaster_trait_inside_an_undone_round_leaves_no_row_when_the_campaign_is_unchanged(tmp_path):
    """Found by tests/test_undo_property_relics.py: a round-long trait on the Challenge made between
    its round's turns and ended by the round's end, the round undone with the next: the campaign's
    own state was the same before and after, so no reversal of it ran, and the ended row stayed."""
    start = [("new", "X"), ("pc", "add", "Bo", "--expertise", "Phantom=2", "--primary", "Phantom"),
             ("scenario", "start", "S"), ("challenge", "open", "G", "--threat", "Common", "--type", "Phantom",
                                          "--rating", "4")]
    played = start + [("cohort-turn", "G", "--leader", "Bo", "--faces", "1,2"),
                      ("disaster-trait", "G", "Rattled", "+1 / 1d", "--on", "G", "--lasts", "round"),
                      ("challenge-turn", "G", "--faces", "1,1,2,3"), ("cohort-turn", "G", "--leader", "Bo",
                                                                     "--faces", "2,2")]
    _as_never_played(tmp_path, played, ("G:1", "--cascade"), start)


def test_an_undone_cohort_trait_leaves_no_row(tmp_path):
    played = START[:5] + [("trait", "add", "Cohort", "Old Friends", "+1d6")]
    _as_never_played(tmp_path, played, ("add trait Cohort #1",), START[:5])


def test_an_undone_opportunity_leaves_no_row_and_a_kept_one_stays(tmp_path):
    played = START[:5] + [("challenge", "open", "W", "--threat", "Minor", "--type", "Phantom", "--rating", "5"),
                          ("cohort-turn", "W", "--leader", "Kira", "--opportunity", "Bo", "--faces", "2,3,4")]
    _as_never_played(tmp_path, played, ("W:1",), played[:-1])


# --- every attribute an undo can restore, and the rows that show it --------------------------------

AGGREGATES = (Campaign, Character, Challenge, Bestiary)
# State no read table shows (the views read it from the aggregate), with why.
UNSHOWN = {
    Campaign: {"settings": "the campaign's settings, read from the ledger",
               "pcs": "a list of members: each PC's own rows go with its own aggregate (runner.unmake)",
               "turn": "the turn in progress, read from the ledger by `status`",
               "encounters": "a count the next Event's number comes from; the stage row shows the open one",
               "house_rules": "read from the ledger by every view that applies them"},
    Character: {},
    Challenge: {"pending": "the turn in progress, read from the ledger by `status`",
                "encounter": "read from the ledger", "group": "read from the ledger",
                "rounds_left": "read from the ledger", "test": "read from the ledger",
                "supplies": "read from the ledger", "outcome": "read from the ledger",
                "disaster": "read from the ledger"},
    Bestiary: {"name": "a constant"},
}


def _attributes(cls: type) -> set[str]:
    """Every game-state attribute the class keeps: its defaults, and every `self.x =` of its source
    (the trait bodies it shares with the other trait holder included)."""
    names = set(cls.STATE_DEFAULTS)
    for klass in cls.__mro__:
        if klass.__module__.startswith("campaign_ledger.ledger."):
            for node in ast.walk(ast.parse(inspect.getsource(inspect.getmodule(klass)))):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                        isinstance(node.value, ast.Name) and node.value.id == "self":
                    names.add(node.attr)
    return {n for n in names if not n.startswith("_")}


def test_every_state_attribute_a_read_table_shows_has_a_restorer(tmp_path):
    """A projection declares what of an undo it writes back (`RESTORED`); every other attribute is
    one no read table shows. A new attribute fails here until one or the other is said."""
    Table(tmp_path / "x.db")("new", "Heist")  # a Relics campaign: its projections loaded
    restored: dict[type, set[str]] = {cls: set() for cls in AGGREGATES}
    for module in runner.MODULES:
        for cls, names in getattr(module, "RESTORED", {}).items():
            restored.setdefault(cls, set()).update(names)
    for cls in AGGREGATES:
        attributes = _attributes(cls)
        assert attributes - restored[cls] - UNSHOWN[cls].keys() == set(), cls.__name__
        assert restored[cls] <= attributes and not restored[cls] & UNSHOWN[cls].keys(), cls.__name__


def test_an_undone_rename_spells_the_uses_of_the_pcs_traits_as_before(tmp_path):
    played = [("new", "Heist"), ("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"),
              ("trait", "add", "Kira", "Smoke Bomb", "+1 / 1d", "--cost", "free", "--target", "cohort",
               "--frequency", "scene"),
              ("scenario", "start", "Night"), ("scene", "start", "Vault"),
              ("challenge", "open", "G", "--threat", "Common", "--type", "Phantom", "--rating", "5"),
              ("cohort-turn", "G", "--leader", "Kira", "--trait", "Kira:Smoke Bomb", "--faces", "2,2,2", "--best"),
              ("challenge-turn", "G", "--faces", "2,2,2,2,2"), ("pc", "rename", "Kira", "Kara")]
    _as_never_played(tmp_path, played, (), played[:-1])
    assert [u["trait"] for u in Table(tmp_path / "undone.db").json("status")["trait_uses"]] == ["Kira:Smoke Bomb"]
