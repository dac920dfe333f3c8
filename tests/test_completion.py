"""Shell completion (click's `_CAMPAIGN_COMPLETE`) offers the campaign's own names, as README says,
for bash, zsh and fish; the same names the interactive shell offers (commands/completion.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_ledger.cli import cli
from campaign_ledger.commands.completion import BY_COMMAND, BY_PARAM, matching, names, walk

ROOT = Path(__file__).resolve().parent.parent


def complete(path: str, words: str, shell: str = "bash") -> list[str]:
    """What a shell gets from `campaign` for the words typed (the last one possibly empty)."""
    env = dict(os.environ, _CAMPAIGN_COMPLETE=f"{shell}_complete", CAMPAIGN_DB=path, COMP_WORDS=words,
               COMP_CWORD=str(len(words.split()) - (0 if words.endswith(" ") else 1)),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    if shell == "fish":  # fish passes the word being completed itself
        env["COMP_CWORD"] = "" if words.endswith(" ") else words.split()[-1]
    out = subprocess.run([sys.executable, "-m", "campaign_ledger.cli"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    if shell == "bash":
        return [line.split(",", 1)[1] for line in out.stdout.splitlines() if line]
    if shell == "zsh":  # type, value, help: three lines each
        return out.stdout.splitlines()[1::3]
    lines = out.stdout.splitlines()
    if lines and "," not in lines[0]:  # fish, click 8.4 and later: type, value, help, as zsh
        return lines[1::3]
    return [line.split(",", 1)[1].split("\t")[0] for line in lines if line]  # fish, click 8.1-8.3: type,value\thelp


def test_the_pcs_are_offered_after_leader(table):
    assert complete(table.path, "campaign cohort-turn Guards --leader ") == ["Kira", "Bo"]
    assert complete(table.path, "campaign cohort-turn Guards --leader k") == ["Kira"]  # any case


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_get_the_same_names(table, shell):
    assert complete(table.path, "campaign cohort-turn Guards --leader ", shell) == ["Kira", "Bo"]


def test_challenges_traits_rounds_and_choices(table):
    table("trait", "add", "Kira", "Keen Eye", "+2 / 1d", "--cost", "destiny")
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,6,2,3,4")
    assert complete(table.path, "campaign roll G") == ["Guards"]
    assert "Kira:Keen Eye" in complete(table.path, "campaign cohort-turn Guards --trait ")
    assert complete(table.path, "campaign undo ")[0] == "Guards:1"  # the newest unit first
    assert complete(table.path, "campaign replay ") == ["Guards:1"]  # only what replay re-runs
    assert [c.lower() for c in complete(table.path, "campaign challenge open X --threat M")] == ["minor", "major"]
    assert complete(table.path, "campaign cohort-t") == ["cohort-turn"]


def test_a_reversed_round_is_not_offered_again(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,6,2,3,4")
    table("undo", "Guards:1", "--yes")
    assert "Guards:1" not in complete(table.path, "campaign undo ")


def test_no_campaign_file_offers_nothing_and_creates_nothing(tmp_path):
    path = str(tmp_path / "none.db")
    assert complete(path, "campaign push ") == []
    assert not os.path.exists(path)


def test_every_name_the_tables_name_is_a_parameter_of_some_command():
    """The tables in commands/completion.py must follow the commands: a renamed option would
    silently lose its completion."""
    params = {(" ".join(path), p.name or "") for path, command in walk(cli) for p in command.params}
    assert set(BY_COMMAND) <= params, set(BY_COMMAND) - params
    assert set(BY_PARAM) <= {p for _, p in params}, set(BY_PARAM) - {p for _, p in params}


def test_names_matches_any_case_and_survives_a_file_that_is_not_a_campaign(tmp_path):
    assert matching(["Kira", "Bo", "kim"], "KI") == ["Kira", "kim"]
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    assert names(str(junk), "pc") == []


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_activation_scripts_readme_gives_work(shell):
    env = dict(os.environ, _CAMPAIGN_COMPLETE=f"{shell}_source",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "campaign_ledger.cli"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "_CAMPAIGN_COMPLETE" in out.stdout and "campaign" in out.stdout


def test_retire_and_rename_offer_the_active_pcs_and_return_the_retired(table):
    """Issue 35, finding 11: `pc return`, `pc retire` and `pc rename` offered no names, and --leader
    offered a retired PC, who cannot lead."""
    assert complete(table.path, "campaign pc retire ") == ["Kira", "Bo"]
    assert complete(table.path, "campaign pc return ") == []
    table("pc", "retire", "Bo", "--reason", "moved away")
    assert complete(table.path, "campaign pc retire ") == ["Kira"]
    assert complete(table.path, "campaign pc rename ") == ["Kira"]
    assert complete(table.path, "campaign pc return ") == ["Bo"]
    assert complete(table.path, "campaign cohort-turn Guards --leader ") == ["Kira"]
    assert complete(table.path, "campaign cohort-turn Guards --assist ") == ["Kira"]


def test_a_turn_is_offered_only_the_challenges_still_open(table):
    table("challenge", "open", "Gate", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    table("challenge", "close", "Guards", "--reason", "bribed the captain")
    assert complete(table.path, "campaign cohort-turn ") == ["Gate"]
    assert complete(table.path, "campaign challenge abandon ") == ["Gate"]
    assert complete(table.path, "campaign history --challenge ") == ["Gate", "Guards"]  # what was, too


def test_a_beer_run_round_is_offered_only_the_conflicts_still_open(tmp_path):
    from tests.conftest import Table
    run = Table(tmp_path / "run.db")
    run("demo", "--system", "beer-run")  # its Back Door ends
    run("beer-run", "conflict", "open", "Side Door", "--side", "Ann", "--side", "Bouncer")
    assert complete(run.path, "campaign beer-run roll ") == ["Side Door"]
    assert complete(run.path, "campaign beer-run conflict end ") == ["Side Door"]
    assert complete(run.path, "campaign beer-run status ") == ["Back Door", "Side Door"]  # an ended one reads too


def test_a_dead_beer_run_character_is_offered_only_where_it_can_still_be_read(tmp_path):
    """Zoe dies in Fight: no roll, goal, help, Intensity or outcome die is hers any more (each is
    refused, 'Zoe is dead.'); her sheet and statement still read. A difficulty pool is a side, and
    takes a lasting penalty, but holds no Intensity and cannot help."""
    from tests.conftest import Table
    run = Table(tmp_path / "run.db")
    run("new", "Deaths", "--ruleset", "beer-run")
    for name, health in (("Ann", "d6"), ("Zoe", "d1")):
        run("beer-run", "character", "add", name, "--ability", f"Physical:Health={health}")
    run("beer-run", "difficulty", "add", "Lock", "--dice", "d6")
    run("beer-run", "conflict", "open", "Fight", "--side", "Ann", "--side", "Zoe")
    run("beer-run", "goal", "Fight", "Ann", "knock her down", "--ability", "Health")
    run("beer-run", "goal", "Fight", "Zoe", "run")
    run("beer-run", "roll", "Fight", "Ann", "--faces", "6")
    run("beer-run", "roll", "Fight", "Zoe", "--faces", "1")
    run("beer-run", "pips", "Fight", "Ann", "Health=1")  # Zoe dies
    for words in ("beer-run conflict open Yard --side ", "beer-run roll Yard ", "beer-run goal Yard ",
                  "beer-run cede Yard ", "beer-run pips Yard ", "beer-run outcome inflict ", "beer-run outcome lift "):
        assert complete(run.path, f"campaign {words}") == ["Ann", "Lock"], words
    for words in ("beer-run intensity ", "beer-run outcome gain ", "beer-run helping Yard ", "beer-run helping Yard Ann "):
        assert complete(run.path, f"campaign {words}") == ["Ann"], words
    assert complete(run.path, "campaign beer-run sheet ") == ["Ann", "Zoe", "Lock"]  # a dead one still reads
