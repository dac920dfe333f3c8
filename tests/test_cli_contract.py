"""The one CLI contract (docs/json-contract.md, "The CLI contract"): what a script or a GM can rely on from
every command, whatever its ruleset."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from campaign_ledger.cli import cli
from campaign_ledger.commands.lazy import subcommands

ROOT = Path(__file__).resolve().parent.parent


def _walk(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the click tree, groups included."""
    found = [path]
    for name, command in subcommands(group).items():
        found += _walk(command, path + (name,)) if isinstance(command, click.Group) else [path + (name,)]
    return found


COMMAND_PATHS = _walk(cli)


def test_version_prints_the_package_version():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"campaign {version}"


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "campaign")
def test_dash_h_is_help_for_every_command(path):
    short = CliRunner().invoke(cli, [*path, "-h"])
    long = CliRunner().invoke(cli, [*path, "--help"])
    assert short.exit_code == 0, short.output
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: ")


# Values that do not parse: the command is malformed (exit 2), whichever layer reads the value.
MALFORMED = [
    ("cohort-turn", "Guards", "--faces", "x"),
    ("pc", "add", "Zed", "--expertise", "Phantom3", "--primary", "Phantom"),
    ("challenge", "open", "Wall", "--threat", "Huge", "--type", "Phantom", "--rating", "4"),
    ("trait", "add", "Kira", "Odd", "+9 / 1x"),
    ("history", "--limit", "0"),
    ("history", "--limit", "-3"),
]


@pytest.mark.parametrize("args", MALFORMED, ids=" ".join)
def test_a_value_that_does_not_parse_exits_2_and_appends_nothing(table, args):
    table.refused(*args)
    assert table(*args, ok=False).exit_code == 2


# A well-formed command the rules or the campaign refuse: exit 1.
REFUSED_BY_A_RULE = [
    ("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"),  # already in the Cohort
    ("cohort-turn", "Nobody", "--faces", "1,2,3"),  # no such Challenge
    ("undo", "No Such Unit:9", "--yes"),
]


@pytest.mark.parametrize("args", REFUSED_BY_A_RULE, ids=" ".join)
def test_a_rules_refusal_exits_1(table, args):
    table.refused(*args)
    assert table(*args, ok=False).exit_code == 1


def test_a_missing_campaign_file_is_not_found_not_malformed(empty):
    assert empty("sheet", ok=False).exit_code == 1


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for name in path:
        command = subcommands(command)[name]  # type: ignore[arg-type]
    return command


@pytest.mark.parametrize("path", [p for p in COMMAND_PATHS if p and not isinstance(_command(p), click.Group)],
                         ids=" ".join)
def test_every_command_takes_json_and_answers_a_malformed_call_in_json(request, path):
    """Click parses before any file is opened; `odds` parses its options against the campaign's ruleset."""
    t = request.getfixturevalue("table" if path == ("odds",) else "empty")
    result = t(*path, "--json", "--no-such-option", ok=False)
    assert result.exit_code == 2, result.output
    answer = json.loads(result.stdout)
    assert answer == {"error": answer["error"], "code": 2, "rule": None} and "--json" not in answer["error"]
    assert result.stderr.strip() == f"Error: {answer['error']}"


def test_a_rules_refusal_under_json_is_json_on_stdout_and_the_error_line_on_stderr(table):
    result = table("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom", "--json", ok=False)
    assert json.loads(result.stdout) == {"error": "There is already a PC named Kira.", "code": 1, "rule": "already-exists"}
    assert result.stderr == "Error: There is already a PC named Kira.\n"


def test_without_json_a_refusal_prints_nothing_on_stdout(table):
    assert table("challenge", "open", "Wall", "--threat", "Huge", "--type", "Phantom", "--rating", "4",
                 ok=False).stdout == ""


@pytest.mark.parametrize("args, given, recorded", [
    (("trait", "add", "Kira", "Eye", "+1 / 1d", "--cost", "DESTINY", "--frequency", "Scene", "--target", "Cohort"),
     "cost", "destiny"),
    (("challenge", "open", "Wall", "--threat", "major", "--type", "SPARROW", "--rating", "3"), "threat", "Major"),
])
def test_a_fixed_value_is_a_choice_taken_in_any_case_and_recorded_in_the_rules_spelling(table, args, given, recorded):
    assert recorded in table(*args).stdout


@pytest.mark.parametrize("option, args", [
    ("--ruleset", ("new", "X", "--ruleset", "chess")),
    ("--threat", ("challenge", "open", "Wall", "--threat", "Huge", "--type", "Phantom", "--rating", "3")),
    ("--type", ("hand-of-doom", "challenge", "Warden", "--threat", "Major", "--type", "Pilot", "--rating", "3")),
    ("--cost", ("trait", "add", "Kira", "Eye", "+1 / 1d", "--cost", "gold")),
    ("--target", ("trait", "add", "Kira", "Eye", "+1 / 1d", "--target", "gm")),
    ("--frequency", ("trait", "add", "Kira", "Eye", "+1 / 1d", "--frequency", "hourly")),
])
def test_a_value_outside_a_choice_is_malformed_and_the_help_lists_the_choices(table, option, args):
    line = table.refused(*args)
    assert line.startswith(f"Error: Invalid value for '{option}'") and table(*args, ok=False).exit_code == 2
    help_lines = table(*args[:-2], "--help").stdout.splitlines()
    assert any(l.strip().startswith(f"{option} [") and "|" in l for l in help_lines)


def test_completion_offers_a_choices_values():
    from click.shell_completion import ShellComplete
    complete = ShellComplete(cli, {}, "campaign", "_CAMPAIGN_COMPLETE")
    offered = [c.value for c in complete.get_completions(["trait", "add", "Kira", "Eye", "+1", "--cost"], "d")]
    assert offered == ["destiny", "doom", "destiny-or-doom"]


def _a_round_to_undo(table) -> None:
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "6,2,3,3,4")
    table("challenge-turn", "Guards", "--faces", "6,6,6", "--stress", "Kira=3")


def _undo_at_a_terminal(table, monkeypatch, answer: str):
    from campaign_ledger.commands import records
    monkeypatch.setattr(records, "_on_a_terminal", lambda: True)
    return table.runner.invoke(cli, ["--db", table.path, "undo"], input=answer)


def test_undo_at_a_terminal_asks_before_it_says_it_reversed(table, monkeypatch):
    _a_round_to_undo(table)
    before = table.entries()
    out = _undo_at_a_terminal(table, monkeypatch, "y\n").stdout
    asked = out.index("Reverse Guards:1? [y/N]: y")
    assert "Kira: Stress 3 -> 0" in out[:asked] and out.index("Undo Guards:1") > asked
    assert "Would reverse" not in out and table.entries() > before


def test_undo_declined_at_a_terminal_appends_nothing(table, monkeypatch):
    _a_round_to_undo(table)
    before = table.entries()
    result = _undo_at_a_terminal(table, monkeypatch, "\n")
    assert result.exit_code == 1 and "Undo Guards" not in result.stdout and table.entries() == before
    assert result.stderr == "Error: nothing was appended: the reversal was not confirmed.\n"


def test_undo_from_a_script_reverses_without_a_would_reverse_line(table):
    _a_round_to_undo(table)
    out = table("undo").stdout
    assert out.startswith("#") and "Undo Guards:1" in out and "Would reverse" not in out


def test_the_rolls_of_a_character_the_campaign_lacks_are_not_found_not_an_empty_list(tmp_path):
    from tests.conftest import Table

    t = Table(tmp_path / "ad.db")
    t("new", "Archive", "--ruleset", "action-dice")
    t("action-dice", "character", "Mara", "--asset", "Athletics=d8")
    assert t.json("action-dice", "rolls", "Mara") == []
    refused = t("--json", "action-dice", "rolls", "Nobody", ok=False)
    assert refused.exit_code == 1 and "no character named 'Nobody'" in refused.stdout


def test_the_command_index_is_current_and_help_lists_every_command_without_importing_one():
    """`campaign --help` reads commands/index.py; a module's command missing from it (or moved)
    is named with the line to write (or run `python3 -m campaign_ledger.commands.index`)."""
    from campaign_ledger.commands import index

    built = index.build()
    missing = [index.line(name, *entry) for name, entry in built.items() if index.INDEX.get(name) != entry]
    assert not missing and set(index.INDEX) == set(built), "\n".join(missing) or set(index.INDEX) - set(built)
    code = ("import sys; from campaign_ledger import cli; from click.testing import CliRunner; "
            "from campaign_ledger.commands.index import INDEX;"
            "out = CliRunner().invoke(cli.cli, ['--help']).output;"
            "print(sorted({m for m, _ in INDEX.values()} & set(sys.modules))); print(out)")
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    imported, help_text = run.stdout.split("\n", 1)
    assert imported == "[]"
    listed = [line.split()[0] for line in help_text.split("Commands:\n", 1)[1].splitlines() if line.startswith("  ")]
    assert listed == sorted(built)


# --- global options anywhere, the rule that refused, and what a write's JSON carries ---------------

def test_global_options_are_taken_after_the_command_name_too(table, tmp_path):
    before = table.json("pools")
    moved = CliRunner().invoke(cli, ["pools", "--db", table.path, "--json"])
    assert moved.exit_code == 0, moved.output
    assert json.loads(moved.stdout) == before
    written = CliRunner().invoke(cli, ["pc", "add", "Ash", "--expertise", "Phantom=2", "--primary", "Phantom",
                                       f"--db={table.path}", "--key", "k-ash", "--json"])
    assert written.exit_code == 0, written.output
    assert json.loads(written.stdout)["key"] == "k-ash"
    assert table.json("sheet", "Ash")["name"] == "Ash"
    literal = CliRunner().invoke(cli, ["--db", table.path, "note", "--", "--db is my favourite option"])
    assert literal.exit_code == 0, literal.output  # after `--`, an argument stays an argument
    assert "--db is my favourite option" in table("history", "--limit", "1").stdout


@pytest.mark.parametrize("args, rule", [
    (("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"), "already-exists"),
    (("cohort-turn", "Nobody", "--faces", "1,2,3"), "unknown-challenge"),
    (("undo", "No Such Unit:9", "--yes"), "unknown-unit"),
    (("push", "Kira"), "not-stressed-out"),
    (("statement", "gold"), "unknown-balance"),
    (("beer-run", "sheet"), "wrong-ruleset"),
    (("trait", "add", "Kira", "Odd", "+9 / 1x"), None),
    (("history", "--limit", "0"), None),
])
def test_a_refusal_under_json_names_the_rule_that_refused_it(table, args, rule):
    result = table(*args, "--json", ok=False)
    answer = json.loads(result.stdout)
    assert set(answer) == {"error", "code", "rule"} and answer["rule"] == rule, answer
    assert answer["code"] == (2 if rule is None else 1)


def test_an_unfinished_turn_is_the_rule_turn_unfinished(table):
    table("challenge", "open", "Wall", "--threat", "Minor", "--type", "Phantom", "--rating", "2")
    table("cohort-turn", "Guards", "--leader", "Kira")  # the pool waits for its roll
    answer = json.loads(table("cohort-turn", "Wall", "--leader", "Bo", "--json", ok=False).stdout)
    assert answer["rule"] == "turn-unfinished" and answer["code"] == 1


def test_a_missing_file_is_the_rule_no_campaign_file(empty):
    assert json.loads(empty("sheet", "--json", ok=False).stdout)["rule"] == "no-campaign-file"


def test_every_rule_id_is_listed_in_the_docs_contract():
    from campaign_ledger import failures, refusals

    readme = (ROOT / "docs" / "json-contract.md").read_text().split("## The CLI contract", 1)[1].split("\n## ", 1)[0]
    ids = {rule for rule, _ in refusals.SENTENCES} | set(refusals.BY_CLASS.values()) | set(failures.RULES) | {"aborted"}
    listed = lambda rule: (f"`{rule.split('{}')[0]}" if rule.endswith("{}") else f"{rule.split('{}')[1]}`") \
        if "{}" in rule else f"`{rule}`"
    missing = sorted(i for i in ids if listed(i) not in readme)
    assert missing == [], missing


def test_a_turn_reports_its_tally_and_the_tides(table):
    report = table.json("cohort-turn", "Guards", "--leader", "Kira", "--assist", "Bo", "--faces", "1,6,6,5,2")
    tally = report["tally"]
    assert report["entries"] == sorted(report["entries"]) and all(isinstance(e, int) for e in report["entries"])
    assert tally["side"] == "cohort" and tally["faces"] == [1, 6, 6, 5, 2] and tally["results"] == [1, 6, 6, 5, 2]
    assert (tally["successes"], tally["botches"], tally["disaster"]) == (2, 1, False)
    assert tally["tides"] == {"destiny": 0, "doom": 1, "destiny_lost_to_cap": 0}  # the botch: 1 Doom
    waiting = table.json("challenge-turn", "Guards")
    assert waiting["tally"] is None and waiting["entries"]
    rolled = table.json("roll", "Guards", "--faces", "2,2")
    assert rolled["tally"]["side"] == "challenge" and rolled["tally"]["results"] == [4, 4, 2, 2]
    assert rolled["tally"]["tides"] is None


def test_a_beer_run_roll_reports_its_pairs_upper_hand_and_kept_successes(tmp_path):
    from tests.conftest import Table

    t = Table(tmp_path / "br.db")
    t("demo", "--system", "beer-run")
    t("beer-run", "conflict", "open", "Bar", "--side", "Ann", "--side", "Bouncer")
    t("beer-run", "goal", "Bar", "Ann", "get a beer")
    t("beer-run", "goal", "Bar", "Bouncer", "throw her out")
    first = t.json("beer-run", "roll", "Bar", "Ann", "--faces", "5,4,3")
    assert first["comparisons"] == [] and first["entries"]
    second = t.json("beer-run", "roll", "Bar", "Bouncer", "--faces", "6,2", "--penalty-faces", "3")
    [compared] = second["comparisons"]
    assert compared["side"] == "Ann" and compared["opponent"] == "Bouncer" and compared["kind"] == "opposed"
    assert compared["pairs"][0] == [5, 6] and compared["upper_hand"] == "Bouncer"
    assert compared["kept"] == [2, 1] and compared["scored"] == [3, 1]


def test_a_sheet_of_one_is_an_object_and_of_all_a_list(table):
    assert table.json("sheet", "kira")["name"] == "Kira"
    assert [s["name"] for s in table.json("sheet")] == ["Kira", "Bo"]


def test_entries_is_never_a_count_or_a_pair_without_a_name_saying_so(table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2,2,2")
    [unit] = [u for u in table.json("undo", "--list") if u["unit"] == "Guards:1"]
    assert unit["entry_range"] == [unit["entries"][0], unit["entries"][-1]]
    audit = table.json("audit")
    assert audit["entry_count"] == table.entries()
    assert table.json("rebuild")["entry_count"] == table.entries()
    statement = table.json("statement", "doom")
    assert statement["changes"] == statement["entries"] and all("entry" in row for row in statement["changes"])


LEAVES = [p for p in COMMAND_PATHS if p and not isinstance(_command(p), click.Group)]


def _arguments(path: tuple[str, ...]) -> list[str]:
    """A word for each required argument (what a GM types without a campaign behind it)."""
    return ["X" for p in _command(path).params if isinstance(p, click.Argument) and p.required
            for _ in range(max(p.nargs, 1))]


@pytest.mark.parametrize("path", [p for p in LEAVES if p not in (("new",), ("demo",), ("shell",))], ids=" ".join)
def test_every_command_refused_under_json_answers_error_code_and_rule(empty, path):
    """Without a campaign file every command but `new`, `demo` and `shell` (where `new` can be typed) is
    refused: one JSON value on stdout (`action-dice difficulty` needs no campaign: it is refused a
    rating that is not one)."""
    words = ["X"] if path == ("action-dice", "difficulty") else _arguments(path)
    result = empty(*path, *words, "--json", ok=False)
    assert result.exit_code in (1, 2), result.output
    answer = json.loads(result.stdout)
    assert set(answer) == {"error", "code", "rule"} and answer["code"] == result.exit_code
    assert (answer["rule"] is None) == (result.exit_code == 2), answer
    assert result.stderr.strip() == f"Error: {answer['error']}"


def _a_typed_option(path: tuple[str, ...]) -> click.Option | None:
    """An option whose value click parses (a number, a choice), if the command has one."""
    return next((p for p in _command(path).params if isinstance(p, click.Option) and not p.is_flag
                 and not p.count and isinstance(p.type, (click.types.IntParamType, click.Choice))), None)


@pytest.mark.parametrize("path", [p for p in LEAVES if _a_typed_option(p) is not None], ids=" ".join)
def test_every_command_answers_a_malformed_value_with_exit_2_and_no_rule(empty, path):
    option = _a_typed_option(path)
    result = empty(*path, *_arguments(path), option.opts[0], "not-a-value", "--json", ok=False)
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["rule"] is None
