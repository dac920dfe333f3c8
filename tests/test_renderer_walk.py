"""Issue 35, finding 2: every line a person reads is written in words, never as Python writes a value.

The walk plays every event type of every ruleset (each ruleset's demo, then a script of the commands
the demo leaves out: corrections, rosters, Tests, splits, deaths, undos that unmake and things made
again), then reads the campaign through every text renderer: the history lines, `undo --list`,
`undo --dry-run` of every unit, the replay of every round and roll (undone ones too), the Markdown,
HTML and CSV exports and the live page's text. None may hold `None`, `True`, `False`, `{` or `[`
(the shared formatter is ledger/words.py). The event types come from the rulesets' aggregates, so a
new event type no command of the walk plays fails `test_the_walk_plays_every_event_type`.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.conftest import Table

ROSTER = "roster.toml"  # written beside the campaigns: a bestiary entry, loaded, undone, loaded again
BESTIARY = """[[challenge]]
name = "Night Watch"
threat = "Minor"
type = "Phantom"
rating = 3

[[challenge.trait]]
name = "Lanterns"
modifier = "-1 / 1d"
cost = "doom"
"""

# Every seat event (ledger/seats.py), undone and made again, played on the Relics campaign.
URL = ("--url", "http://table.test:8000")
SEATS: list[tuple[str, ...]] = [
    ("seat", "add", "Kira", "--player", "Ana", *URL),
    ("seat", "rotate", "Kira", *URL),
    ("undo", "seat rotate Kira #1", "--yes"),
    ("seat", "revoke", "Kira"),
    ("undo", "seat revoke Kira #1", "--yes"),
    ("seat", "revoke", "Kira"),
    ("seat", "add", "Kira", "--player", "Cy", *URL),
    ("undo", "seat add Kira #2", "--yes"),
    ("seat", "add", "Bo", "--player", "Di", *URL),
    ("undo", "seat add Bo #1", "--yes"),
    ("seat", "add", "Bo", "--player", "Di", *URL),
]

# After each ruleset's demo: the commands that play what the demo leaves out.
SCRIPTS: dict[str, list[tuple[str, ...]]] = {
    "relics": [
        ("session", "start", "Session 2"),
        ("scene", "start", "The getaway"),
        ("trait", "add", "Cohort", "Teamwork", "+1 / 1d"),
        ("house-rule", "set", "stressed_out_at", "12", "--reason", "a longer night"),
        ("note", "Ash owes Bo a favour", "--about", "Ash", "--tag", "debts"),
        ("event", "start", "Rooftop chase", "--simultaneous"),
        ("challenge", "open", "Rooftops", "--threat", "minor", "--type", "phantom", "--rating", "4", "--rounds", "2"),
        ("trait", "add", "Rooftops", "Slick Tiles", "-1 / 1d", "--challenge"),
        ("trait", "replace", "Rooftops", "Slick Tiles", "-2 / 1d", "--reason", "rain"),
        ("trait", "remove", "Rooftops", "Slick Tiles", "--reason", "the rain stops"),
        ("challenge", "rate", "Rooftops", "5", "--reason", "more guards"),
        ("check-this-out", "Loose bars", "+1 / 1d", "--pay", "destiny"),
        ("cohort-turn", "Rooftops", "--leader", "Kira", "--opportunity", "Ash", "--buy-time", "--faces", "6,6,5,1"),
        ("challenge-turn", "Rooftops", "--faces", "2,2,2"),  # 0 successes: no Stress to give
        ("challenge", "split", "Rooftops", "--into", "Gutter", "--dice", "1", "--group", "Ash", "--pay", "doom"),
        ("challenge", "close", "Gutter", "--reason", "Ash slips away"),
        ("challenge", "open", "Lock", "--threat", "minor", "--type", "phantom", "--rating", "2", "--test",
         "--needed", "3", "--stress-unresolved"),
        ("cohort-turn", "Lock", "--leader", "Bo", "--supplies", "phantom:2", "--faces", "1,2,2,2,2,2,2"),
        ("stress", "Lock", "--stress", "Bo=2"),
        ("challenge", "open", "Pit", "--threat", "minor", "--type", "phantom", "--rating", "2"),
        ("cohort-turn", "Pit", "--leader", "Kira", "--faces", "1,1,1,1,1"),
        ("disaster-trait", "Pit", "Slipped", "-1 / 1d", "--on", "Kira", "--lasts", "scene"),
        ("hand-of-doom", "trait", "Dread", "-1 / 1d", "--on", "Kira"),
        ("event", "end"),
        ("scene", "end"),
        ("pc", "rename", "Ash", "Ashe"),
        ("pc", "retire", "Ashe", "--reason", "went home"),
        ("pc", "return", "Ashe"),
        ("pc", "expertise", "Kira", "Venger=2", "--reason", "training"),
        ("trait", "replace", "Kira", "Shadowstep", "+2 / 1d", "--reason", "practice"),
        ("trait", "remove", "Kira", "Smoke Bomb", "--reason", "used up"),
        ("recover", "set", "--stress", "Bo=1"),
        ("growth-test", "Bo", "--pool", "2", "--faces", "5,5"),
        ("roster", "load", ROSTER),
        ("undo", "load roster #1", "--yes"),
        ("roster", "load", ROSTER),
        ("pc", "add", "Dex", "--expertise", "Scav=2", "--primary", "Scav"),
        ("undo", "add pc Dex #1", "--yes"),
        ("pc", "add", "Dex", "--expertise", "Scav=2", "--primary", "Scav"),
        ("challenge", "open", "Fence", "--threat", "minor", "--type", "phantom", "--rating", "2"),
        ("undo", "open challenge Fence #1", "--yes"),
        ("challenge", "open", "Fence", "--threat", "minor", "--type", "phantom", "--rating", "2"),
        ("undo", "--yes"),
        ("house-rule", "set", "agony_out_at", "1", "--reason", "a deadly night"),
        ("push", "Bo", "--gm-override", "the GM allows it"),
        *SEATS,
        ("session", "end"),
    ],
    "action-dice": [
        ("action-dice", "asset", "Mara", "Stealth", "d6"),
        ("action-dice", "feature", "Tobin", "Lucky"),
        ("action-dice", "character", "Vex", "--asset", "Knife=d6"),
        ("undo", "add action character Vex #1", "--yes"),
        ("action-dice", "character", "Vex", "--asset", "Knife=d6"),
    ],
    "decision-2d6": [
        ("decision-2d6", "supply-roll", "Torches", "--for", "one more tunnel", "--override",
         "the last stub"),
        ("decision-2d6", "restock", "Torches", "D8", "--reason", "bought more"),
        ("decision-2d6", "tracker-roll", "Arrows", "--for", "an empty quiver", "--override",
         "a stray arrow"),
        ("decision-2d6", "tracker-set", "Arrows", "40", "--reason", "fletched more"),
        ("decision-2d6", "pc-add", "Zed", "--will", "1", "--fort", "1", "--stat", "Strength=1"),
        ("undo", "add character Zed #1", "--yes"),
        ("decision-2d6", "pc-add", "Zed", "--will", "1", "--fort", "1", "--stat", "Strength=1"),
        ("decision-2d6", "item-add", "Rope", "--die", "D6"),
        ("undo", "add item Rope #1", "--yes"),
        ("decision-2d6", "item-add", "Rope", "--die", "D6"),
        ("decision-2d6", "tracker-add", "Bolts", "--value", "30"),
        ("undo", "add tracker Bolts #1", "--yes"),
        ("decision-2d6", "tracker-add", "Bolts", "--value", "30"),
        ("undo", "contest #1", "--yes"),
        ("decision-2d6", "contest", "Billy:Stealth", "Ogre:Wits", "--grant", "Billy", "--faces", "1,3/5,5",
         "--faces", "6,2,1/4,3"),
    ],
    "beer-run": [
        ("beer-run", "outcome", "lift", "Bouncer", "d4", "--reason", "the queue forgot"),
        ("beer-run", "intensity", "Cal", "--gain", "1", "--reason", "a free round"),
        ("beer-run", "character", "add", "Rat", "--ability",
         "Physical:Health=d1,Mental:Wits=d1,Social:Squeak=d1", "--intensity", "3"),
        ("beer-run", "conflict", "open", "Cellar", "--side", "Ann", "--side", "Bouncer", "--side", "Rat",
         "--target", "Rat"),
        ("beer-run", "goal", "Cellar", "Ann", "chase the rat out"),
        ("beer-run", "goal", "Cellar", "Bouncer", "stamp on the rat"),
        ("beer-run", "goal", "Cellar", "Rat", "bite Ann"),
        ("beer-run", "roll", "Cellar", "Ann", "--faces", "8,6,4"),
        ("beer-run", "roll", "Cellar", "Bouncer", "--faces", "9,5"),
        ("beer-run", "roll", "Cellar", "Rat", "--faces", "1,1,1"),
        ("beer-run", "pips", "Cellar", "Ann", "Health=1,Wits=1,Squeak=1"),
        ("beer-run", "conflict", "open", "Alley", "--side", "Ann", "--side", "Cal"),
        ("beer-run", "goal", "Alley", "Cal", "run off with the beer", "--ability", "Brawn"),
        ("beer-run", "cede", "Alley", "Ann"),
        ("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer"),
        ("undo", "--yes"),
        ("beer-run", "conflict", "open", "Yard", "--side", "Cal", "--side", "Bouncer"),
        ("beer-run", "goal", "Yard", "Cal", "slip past"),
        ("beer-run", "goal", "Yard", "Bouncer", "find a bottle", "--situation", "d6"),
        ("beer-run", "roll", "Yard", "Cal", "--faces", "5,6,7", "--penalty-faces", "3"),
        ("beer-run", "roll", "Yard", "Bouncer", "--faces", "9,5", "--difficulty-faces", "1,1,1"),
        ("beer-run", "character", "add", "Dog", "--ability", "Physical:Health=d4", "--intensity", "2"),
        ("undo", "add character Dog #1", "--yes"),
        ("beer-run", "character", "add", "Dog", "--ability", "Physical:Health=d4", "--intensity", "2"),
        ("beer-run", "outcome", "inflict", "Dog", "d4"),  # no --reason: no dangling colon
    ],
}

# Event types no play can make, and why.
UNREACHABLE = {
    "Campaign.Remade": "the campaign is made by `new`, which is no unit of play: it is never unmade",
    "Contest.Remade": "a contest has no name, so its id is random: one made again is a new one",
}

# The read views a GM types, besides the renderers above (each ruleset's own, and the core's).
VIEWS: dict[str, list[tuple[str, ...]]] = {
    "relics": [("status",), ("statement", "destiny")],
    "beer-run": [("beer-run", "status"), ("beer-run", "conflicts"), ("beer-run", "statement")],
    "action-dice": [("action-dice", "rolls")],
    "decision-2d6": [("decision-2d6", "rolls"), ("decision-2d6", "pools", "Torches")],
}
CORE_VIEWS = [("sheet",), ("pools",), ("session", "list"), ("audit",)]

WRITTEN_AS_PYTHON = re.compile(r"\b(None|True|False)\b|[{\[]")


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each ruleset's campaign, played through the CLI as a GM would (every command must be accepted)."""
    folder = tmp_path_factory.mktemp("walk")
    (folder / ROSTER).write_text(BESTIARY, encoding="utf-8")
    made = {}
    for system, script in SCRIPTS.items():
        t = Table(folder / f"{system}.db")
        t("demo", "--system", system)
        for args in script:
            t(*(str(folder / a) if a == ROSTER else a for a in args))
        made[system] = t.path
    return made


def defined_events(system: str) -> set[str]:
    """Every event type the ruleset's aggregates define (`Character.Reversed` stands for an undo of a
    Character), besides eventsourcing's base and its unused default creation event."""
    from eventsourcing.domain import Aggregate

    from campaign_ledger.ledger import rulesets
    from campaign_ledger.ledger.reversible import Reversible

    package = rulesets.find(system).package
    found = set()
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        for _, kind in inspect.getmembers(importlib.import_module(info.name), inspect.isclass):
            if issubclass(kind, Reversible) and kind.__module__.startswith(package):
                found |= _events_of(kind, Aggregate)
    return found


def _events_of(kind: type, aggregate: type) -> set[str]:
    return {f"{kind.__name__}.{name}" for name, value in vars(kind).items()
            if inspect.isclass(value) and issubclass(value, aggregate.Event) and name not in ("Event", "Created")}


def core_events() -> set[str]:
    from eventsourcing.domain import Aggregate

    from campaign_ledger.ledger.campaign import Campaign
    return _events_of(Campaign, Aggregate)


def played_events(path: str) -> set[str]:
    """The event types in a campaign's ledger; an undo (or a making again) by the kind of thing undone."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.reversible import Reversible

    app, kinds, seen = open_ledger(path), {}, set()
    try:
        for notification in app.recorder.select_notifications(1, 10**7):
            e = app.mapper.to_domain_event(notification)
            if e.originator_id not in kinds:
                kinds[e.originator_id] = type(app.repository.get(e.originator_id)).__name__
            seen.add(f"{kinds[e.originator_id]}.{type(e).__name__}" if isinstance(e, (Reversible.Reversed, Reversible.Remade))
                     else type(e).__qualname__)
    finally:
        app.close()
    return seen


@pytest.mark.parametrize("system", sorted(SCRIPTS))
def test_the_walk_plays_every_event_type_of_every_ruleset(campaigns: dict[str, str], system: str) -> None:
    missing = defined_events(system) - played_events(campaigns[system]) - set(UNREACHABLE)
    assert not missing, f"no command of the walk plays {sorted(missing)}: add one to SCRIPTS[{system!r}]"


def test_the_walk_plays_every_seat_event(campaigns: dict[str, str]) -> None:
    from eventsourcing.domain import Aggregate

    from campaign_ledger.ledger.seats import Seat

    missing = _events_of(Seat, Aggregate) - played_events(campaigns["relics"])
    assert not missing, f"no command of the walk plays {sorted(missing)}: add one to SEATS"


def test_the_walk_plays_every_event_type_of_the_campaign_itself(campaigns: dict[str, str]) -> None:
    played = set().union(*(played_events(path) for path in campaigns.values()))
    missing = core_events() - played - set(UNREACHABLE)
    assert not missing, f"no command of the walk plays {sorted(missing)}"


@pytest.mark.parametrize("system", sorted(SCRIPTS))
def test_every_text_renderer_writes_every_value_in_words(campaigns: dict[str, str], system: str) -> None:
    leaks = [f"{where}: {line}" for where, text in texts(campaigns[system], system) for line in text.splitlines()
             if WRITTEN_AS_PYTHON.search(line)]
    assert not leaks, "\n".join(leaks[:30])


def texts(path: str, system: str) -> Iterator[tuple[str, str]]:
    """Everything the campaign shows a person, as (where, text)."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.errors import LedgerError
    from campaign_ledger.ledger.replay import incarnations
    from campaign_ledger.ledger.rulesets.relics.replay import Changes
    from campaign_ledger.projections import runner, views
    from campaign_ledger.projections.text import replay_text, undo_text
    from campaign_ledger.web import page
    from campaign_ledger.web.view import build

    t = Table(path)
    app, db = open_ledger(path), runner.connect(path)
    try:
        runner.catch_up(app, db)
        for row in views.history(db):
            assert row["line"] != row["type"], f"#{row['entry']}: {row['type']} has no history line"
            yield f"history #{row['entry']} ({row['type']})", row["line"]
        yield "undo --list", t("undo", "--list", "--limit", "100000").stdout
        shown: set[str] = set()  # every unit's plan once: alone, or in the cascade of an older unit
        for unit in reversed(app.undo_list(10**6)):  # oldest first
            if unit["unit"] not in shown:
                plan = app.undo(unit["unit"], True, dry_run=True)
                shown.update(r["unit"] for r in plan["reversed"])
                yield f"undo {unit['unit']} --dry-run", undo_text(plan)
        for key in dict.fromkeys(f.unit.key for f in incarnations(app.recorder)):
            try:
                yield f"replay {key}", replay_text(app.replay(key, Changes()))
            except LedgerError as refused:  # a unit that is no round or roll: refused in words too
                yield f"replay {key} (refused)", str(refused)
        for fmt in ("md", "csv"):
            yield f"export --format {fmt}", t("export", "--format", fmt, "--gm-notes").stdout
        yield "export --format html", visible(t("export", "--format", "html", "--gm-notes").stdout)
        for show_gm in (False, True):
            yield f"live page (show_gm={show_gm})", visible(page.whole(build(app, db, show_gm), None))
        for view in CORE_VIEWS + VIEWS[system]:
            yield " ".join(view), t(*view).stdout
    finally:
        db.conn.close()
        app.close()


def visible(html: str) -> str:
    """The text a browser shows (not the stylesheet, not the script)."""
    parser = _Visible()
    parser.feed(html)
    return "\n".join(parser.parts)


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


# --- issue 35, finding 1: a text view that returned nothing printed an empty line --------------------

def test_no_function_that_promises_a_value_can_fall_off_its_end() -> None:
    """`br_status_text` built its lines and never returned them: `beer-run status` printed an empty
    line, exit 0. A function annotated to return a value (not None) must end in a return or a raise
    on every path its last statement takes."""
    root = Path(__file__).resolve().parent.parent
    falling = []
    for folder in ("campaign_ledger", "commands", "ledger", "projections", "web"):
        for path in sorted((root / folder).rglob("*.py")) if (root / folder).is_dir() else [root / folder]:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _promises_a_value(node) \
                        and _falls_through(node.body):
                    falling.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert not falling, falling


def _promises_a_value(f: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    returns = ast.unparse(f.returns) if f.returns else ""
    if not returns or "None" in returns or returns.startswith(("Iterator", "Iterable", "Generator", "NoReturn")):
        return False
    generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(f))
    stub = all(isinstance(s, ast.Expr) for s in f.body)  # a docstring and `...`: a protocol's
    return not generator and not stub


def _falls_through(body: list[ast.stmt]) -> bool:
    last = body[-1] if body else None
    if last is None:
        return True
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        return _falls_through(last.body) or _falls_through(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _falls_through(last.body)
    if isinstance(last, ast.Try):
        return (_falls_through(last.body + last.orelse) and _falls_through(last.finalbody)) \
            or any(_falls_through(h.body) for h in last.handlers)
    if isinstance(last, ast.While):
        return not (isinstance(last.test, ast.Constant) and last.test.value)
    if isinstance(last, ast.Match):
        return any(_falls_through(c.body) for c in last.cases)
    return True


def test_a_file_whose_history_was_written_the_old_way_reads_in_words_after_its_next_catch_up(tmp_path: Path) -> None:
    """The history table keeps each line as written: m017 derives the read model again for a file
    with a line written the old way (`[1, 1, 2, 3, 6]`, an undo's `-> True`), once."""
    import sqlite3

    t = Table(tmp_path / "old.db")
    t("demo")
    t("undo", "push Bo #1", "--cascade", "--yes")
    with sqlite3.connect(t.path) as db:  # as the read tables were kept before m017
        db.execute("UPDATE history SET line = 'Vault Guards round 1: Cohort dice show [1, 1, 2, 3, 6]' WHERE entry = 20")
        db.execute("UPDATE history SET line = replace(line, '-> yes', '-> True') WHERE type LIKE '%Reversed'")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm017_lines_in_words'")
    lines = [r["line"] for r in t.json("history")]
    assert "Vault Guards round 1: Cohort dice show 1, 1, 2, 3, 6 (entered from the table)" in lines
    assert any(line.endswith("Stressed Out -> yes") for line in lines)
    assert not [line for line in lines if WRITTEN_AS_PYTHON.search(line)]


# --- the final play-through of issue 35: a line ends in its words, and a change says what changed ----

DANGLING = re.compile(r"[:;,] +$")  # `Ann suffers a lasting penalty d4: `: a reason left out left its colon
SAME_WORDS = re.compile(r"\b(\S+(?: \S+)*?) (\([^()]*\)|[^ ,;()]+) -> \2(?:[,;]|$)")  # `abilities (A, B) -> (A, B)`


@pytest.mark.parametrize("system", sorted(SCRIPTS))
def test_every_line_ends_in_words_and_every_change_says_what_changed(campaigns: dict[str, str], system: str) -> None:
    """A line whose optional part was left out ends in a dangling `: ` (a heading's own `:` ends the
    line; the visible text of the HTML export and the live page breaks at their tags, and the Markdown
    export reads the same); an undo's change whose words are the same before and after (an ability's
    die lowered, shown as the list of ability names) says nothing."""
    html = ("export --format html", "live page")
    rough = [f"{where}: {line}" for where, text in texts(campaigns[system], system) for line in text.splitlines()
             if (DANGLING.search(line) and not where.startswith(html)) or SAME_WORDS.search(line)]
    assert not rough, "\n".join(rough[:30])
