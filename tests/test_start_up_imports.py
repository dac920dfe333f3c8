"""What a command's start-up imports: only what its work needs (issue 36, bench/startup.py).

Each check runs a fresh interpreter, as `campaign` does: an import cost is paid once per process,
so only a new process shows whether a module is loaded at start-up."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def loaded_after(code: str) -> set[str]:
    """The modules imported once `code` ran in a new process."""
    probe = code + "\nimport sys\nprint(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(run.stdout.split())


def test_the_read_tables_library_loads_without_dateutils_parser() -> None:
    """sqlite-utils imports dateutil.parser for its CLI's recipes; no command calls them, so the
    parser (17-19 ms) waits until a recipe is used, and a recipe still works."""
    loaded = loaded_after("import campaign_ledger.cli, sqlite_utils")
    assert "sqlite_utils.db" in loaded
    assert "dateutil.parser._parser" not in loaded
    used = loaded_after("import campaign_ledger.cli, sqlite_utils.recipes as r\nassert r.parsedate('2024-01-02') == '2024-01-02'")
    assert "dateutil.parser._parser" in used


def test_a_campaign_process_freezes_what_it_holds_before_it_exits() -> None:
    """`campaign` freezes every live object at exit (gc.freeze), after its other exit handlers, so
    the interpreter's final collections do not walk the classes its imports defined."""
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
             "sys.argv = ['campaign', '--help']\n"
             "from campaign_ledger import cli\n"
             "cli.main()\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("frozen True")


def test_refusal_sentences_are_compiled_when_a_refusal_is_read_not_at_start_up() -> None:
    """Every command imports campaign_ledger/refusals.py; its sentence patterns are compiled only when a
    refusal's rule is first asked for, and then still name the rule."""
    probe = ("import re\n"
             "calls, real = [], re.compile\n"
             "re.compile = lambda pattern, flags=0: calls.append(pattern) or real(pattern, flags)\n"
             "import campaign_ledger.refusals as refusals\n"
             "print(len(calls))\n"
             "print(refusals.rule_of_sentence(\"There is no PC named 'Zed'.\"), len(calls) > 0)\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[:2] == ["0", "unknown-pc True"]


def modules_of_command(*args: str) -> set[str]:
    """The modules a whole `campaign ARGS...` process imported (printed as it exits)."""
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('MODULES', ' '.join(sys.modules)))\n"
             "from campaign_ledger import cli\n"
             "cli.main()\n")
    run = subprocess.run([sys.executable, "-c", probe, *args], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.rsplit("MODULES ", 1)[1].split())


def test_a_relics_write_leaves_the_roster_parser_and_read_only_tables_alone(tmp_path: Path) -> None:
    """A write on a writable file never reads its tables read-only (nor makes scratch folders for
    them), and only a roster needs the TOML parser: neither is imported by a Relics turn, nor are the
    ruleset's command modules other than the turns' own, nor the library's returned shapes (typing only)."""
    db = str(tmp_path / "c.db")
    for args in (["new", "Bench", "--ruleset", "relics"], ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"],
                 ["scenario", "start", "Night"], ["challenge", "open", "Guards", "--threat", "major",
                                                  "--type", "phantom", "--rating", "3"]):
        subprocess.run([sys.executable, "-c", "from campaign_ledger import cli; cli.main()", "--db", db, *args], cwd=ROOT, check=True,
                       capture_output=True)
    loaded = modules_of_command("--db", db, "cohort-turn", "Guards", "--leader", "Kira", "--faces", "2,2,2")
    assert "campaign_ledger.ledger.rulesets.relics.turns" in loaded
    assert not {"tomllib", "campaign_ledger.projections.read_only", "campaign_ledger.ledger.scratch_folders"} & loaded
    others = {f"campaign_ledger.commands.rulesets.relics.{m}" for m in ("corrections", "gm", "roster", "setup", "views")}
    assert not (others | {"campaign_ledger.shapes"}) & loaded, others & loaded


def test_a_campaign_process_collects_no_garbage_until_its_start_up_allowance_is_spent() -> None:
    """`campaign` raises the young generation's threshold to START_UP_ALLOCATIONS while its imports
    run; the first collection after (the allowance spent, or any explicit one) restores the usual
    thresholds and drops its callback, so a long run (serve, shell, a rebuild) collects as before."""
    probe = ("import gc, sys\n"
             "usual = gc.get_threshold()\n"
             "sys.argv = ['campaign', '--help']\n"
             "from campaign_ledger import cli\n"
             "try:\n"
             "    cli.main()\n"
             "except SystemExit:\n"
             "    pass\n"
             "print(gc.get_threshold()[0] == cli.START_UP_ALLOCATIONS != usual[0], len(gc.callbacks))\n"
             "gc.collect()\n"
             "print(gc.get_threshold() == usual, len(gc.callbacks))\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-2:] == ["True 1", "True 0"]
