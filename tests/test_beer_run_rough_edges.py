"""Issue 35's last play-through of Beer Run: the rough edges a GM met, each held here.

An undo's lines name the die that changed (`Attention d3 -> gone`), not the list of ability names
that reads the same before and after; a lasting penalty given without a reason ends its line in
words, not in a dangling colon."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Table


@pytest.fixture
def run(tmp_path: Path) -> Table:
    t = Table(tmp_path / "run.db")
    t("demo", "--system", "beer-run")  # Ann takes the Bouncer's Attention d4 to zero in two rounds
    return t


def test_undo_names_the_ability_die_that_changed(run: Table) -> None:
    listing = run("undo", "--list").stdout
    assert "Bouncer: abilities Attention d3 -> gone, intensity 7 -> 5" in listing
    assert "Ann: abilities Health d6 -> d5" in listing and "Ann: abilities Six-pack none -> d6" in listing
    assert "Cal: intensity 6 -> 5, penalties none -> d6 (next roll)" in listing
    assert "abilities (Muscle, Health" not in listing
    plan = run("undo", "Back Door:2", "--cascade", "--dry-run").stdout
    assert "  Bouncer: abilities Attention gone -> d3\n" in plan


def test_the_history_line_of_an_undo_gives_the_dice_it_restores(run: Table) -> None:
    run("undo", "Back Door:2", "--cascade", "--yes")
    lines = [r["line"] for r in run.json("history")]
    assert any(line.endswith("Bouncer abilities -> (Muscle d10, Health d8, Attention d3, Intimidate d6), "
                             "intensity -> 7") for line in lines), lines[-4:]


def test_a_lasting_penalty_without_a_reason_ends_in_words(run: Table) -> None:
    out = run("beer-run", "outcome", "inflict", "Ann", "d4").stdout
    assert out.strip().endswith("Ann suffers a lasting penalty d4")
    assert run("beer-run", "outcome", "inflict", "Ann", "d6", "--reason", "a bad name").stdout.strip() \
        .endswith("Ann suffers a lasting penalty d6: a bad name")


@pytest.mark.parametrize("args", [
    ("beer-run", "outcome", "inflict", "Ann", "d" + "9" * 5000),  # past what Python reads: crashed (ValueError)
    ("beer-run", "outcome", "inflict", "Ann", "d9223372036854775808"),  # "A number (sizes) is too large"
    ("beer-run", "outcome", "gain", "Ann", "Social:Luck=d99999999999999999999"),  # "A number (size) ..."
    ("beer-run", "character", "add", "Zed", "--ability", "Physical:Health=d99999999999999999999"),
    ("odds", "--ruleset", "beer-run", "--pool", "d" + "9" * 5000, "--against", "d6"),  # crashed
])
def test_a_die_too_large_is_refused_in_the_dice_words(run: Table, args: tuple[str, ...]) -> None:
    before = run.entries()
    out = run(*args, ok=False)
    assert out.exit_code == 2, out.output
    assert out.output.startswith("Error: A die can be at most d9223372036854775807, not ") and "(" not in out.output
    assert len(out.output) < 120 and run.entries() == before


def test_status_says_a_goal_in_words_and_names_the_one_side_a_round_waits_on(run: Table) -> None:
    """`oppose goal 'x'` named the recorded kind; `goal "Yard" SIDE` made the GM work out who."""
    run("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer")
    run("beer-run", "goal", "Yard", "Bouncer", "find a bottle", "--situation", "d6")
    out = run("beer-run", "status", "Yard").stdout.splitlines()
    assert "  Bouncer: situational goal 'find a bottle' (a d6); to roll" in out
    assert '    Next: campaign beer-run goal Yard Cal "GOAL"' in out
    assert any(line.startswith("    Next: campaign beer-run roll Yard SIDE --faces") for line in out)  # both to roll
    run("beer-run", "goal", "Yard", "Cal", "get in")
    run("beer-run", "roll", "Yard", "Cal", "--faces", "1,1,1", "--penalty-faces", "1")
    out = run("beer-run", "status", "Yard").stdout.splitlines()
    assert "  Cal: goal 'get in'; rolled" in out
    assert any(line.startswith("    Next: campaign beer-run roll Yard Bouncer --faces") for line in out)


def test_the_docs_beer_run_lines_play_as_they_stand(tmp_path: Path) -> None:
    """The Beer Run page's lines (docs/rulesets/beer-run.md, once README's) are what a new GM types
    first: they opened a conflict against a Bouncer and let Cal help without adding either, landed
    pips before the Bouncer rolled and ceded after the round had begun. Each line, in order, must
    be accepted."""
    import shlex

    page = (Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "beer-run.md").read_text(encoding="utf-8")
    block = page.split("```sh\n", 1)[1].split("```", 1)[0]
    t = Table(tmp_path / "run.db")
    played = 0
    for line in block.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";")
        lexer.whitespace_split = True
        words = list(lexer)  # `#` comments dropped, `;` a word of its own
        if words[:1] == ["export"]:
            continue
        while words:
            args, words = (words[:words.index(";")], words[words.index(";") + 1:]) if ";" in words else (words, [])
            assert args[0] == "campaign", line
            t(*args[1:])
            played += 1
    assert played >= 20 and "Ann gains the goal 'slip past the Bouncer'" in "\n".join(r["line"] for r in t.json("history"))


def test_a_statement_of_no_one_is_refused_not_empty(run: Table) -> None:
    """`beer-run statement Nobody` said 'No Intensity changes yet.' (exit 0), as if Nobody had played."""
    assert run.refused("beer-run", "statement", "Nobody") == "Error: There is no character named 'Nobody' in this campaign."
    assert run("beer-run", "statement", "ann").stdout.startswith("#2    Ann   +10  = 10   starting Intensity")


@pytest.mark.parametrize("amounts", [(), ("--gain", "0"), ("--gain", "2", "--lose", "2")])
def test_an_intensity_change_of_nothing_is_malformed(run: Table, amounts: tuple[str, ...]) -> None:
    """No amount is a command missing its value (exit 2, as the other rulesets), not a rule (it was exit 1)."""
    before = run.entries()
    out = run("beer-run", "intensity", "Ann", *amounts, ok=False)
    assert out.exit_code == 2 and out.stderr.startswith("Error: Give an amount of Intensity") and run.entries() == before


@pytest.mark.parametrize("replace", ["x", "0", "99999999999999999999"])
def test_replace_names_dice_by_number_not_faces(run: Table, replace: str) -> None:
    """`goal --replace x` said 'Faces must be whole numbers...': --replace takes positions in --against."""
    run("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer")
    out = run("beer-run", "goal", "Yard", "Cal", "find a bottle", "--situation", "d6", "--against", "d4,d6",
              "--replace", replace, ok=False)
    assert out.exit_code == 2 and out.stderr == \
        f"Error: --replace names dice of --against by number from 1, e.g. 1,3; not '{replace}'.\n"


def test_undo_says_the_pips_a_round_waits_to_land_in_words(run: Table) -> None:
    """`Yard: due by Cal on Bouncer kept 3 -> none` was the recorded dict written out."""
    run("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer")
    run("beer-run", "goal", "Yard", "Cal", "get in")
    run("beer-run", "goal", "Yard", "Bouncer", "stop him")
    run("beer-run", "roll", "Yard", "Bouncer", "--faces", "1,1", "--penalty-faces", "1")
    run("beer-run", "roll", "Yard", "Cal", "--faces", "4,8,10", "--penalty-faces", "1")  # Cal keeps 3
    assert "  Yard: pips due Cal's 3 pips on Bouncer -> none\n" in run("undo", "--dry-run").stdout
    assert "pips due none -> Cal's 3 pips on Bouncer;" in run("undo", "--list").stdout


def test_pips_on_an_ability_named_twice_are_refused_as_such(run: Table) -> None:
    """`pips Yard Cal Health=1,Muscle=1,Health=1` said 'The pips must add up to 3, not 2': the
    second Health replaced the first."""
    run("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer")
    run("beer-run", "goal", "Yard", "Cal", "get in")
    run("beer-run", "goal", "Yard", "Bouncer", "stop him")
    run("beer-run", "roll", "Yard", "Bouncer", "--faces", "1,1", "--penalty-faces", "1")
    run("beer-run", "roll", "Yard", "Cal", "--faces", "4,8,10", "--penalty-faces", "1")  # Cal keeps 3
    out = run("beer-run", "pips", "Yard", "Cal", "Health=1,Muscle=1,health=1", ok=False)
    assert out.exit_code == 2 and out.stderr == \
        "Error: health is named twice in 'Health=1,Muscle=1,health=1'; give each name once.\n"


def test_one_penalty_die_shows_its_face(run: Table) -> None:
    """`penalty d4 against it show 1`: one die shows, two dice show."""
    run("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer")
    run("beer-run", "goal", "Yard", "Cal", "get in")
    run("beer-run", "goal", "Yard", "Bouncer", "stop him")
    out = run("beer-run", "roll", "Yard", "Bouncer", "--faces", "1,1", "--penalty-faces", "3").stdout
    assert "Bouncer rolls Muscle d10, Intimidate d6: 1, 1 (entered from the table); penalty d4 against it shows 3" in out


def test_the_live_page_and_the_html_export_show_beer_run_in_its_own_terms(run: Table) -> None:
    """The page showed the Bouncer's lost Attention as `d0`, a next-roll penalty as a bare `d6`, and
    under every round `Destiny 0 → 0 · Doom 0 → 0` (a Beer Run campaign has neither), but not the
    Intensity the round spent."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.projections import runner
    from tests.test_renderer_walk import visible
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    app, db = open_ledger(run.path), runner.connect(run.path)
    try:
        runner.catch_up(app, db)
        live = visible(page.whole(build(app, db, False), None))
    finally:
        db.conn.close()
        app.close()
    exported = visible(run("export", "--format", "html").stdout)
    assert "Destiny" not in live and "Doom" not in live
    assert "Destiny 0" not in exported and "Doom 0" not in exported  # (its charts still draw Destiny and Doom)
    for text in (live, exported):
        assert "#23\u2013#31 \u00b7 Intensity: " in text  # round 2: Ann 9 -> 7, Bouncer 7 -> 5
    assert "Mental: Attention gone (of d4)" in live and "d0" not in live
    assert "Penalty dice: d6 (next roll)" in live and "Penalty dice: d4 (lasting)" in live
