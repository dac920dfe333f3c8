"""`campaign shell` through a real pseudo-terminal: completion, a refusal that leaves the shell
alive, the bottom toolbar after a roll, history across sessions, Ctrl-C and Ctrl-D.

No test sleeps: each `expect` waits for what the shell must print, with a deadline (TIMEOUT)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from campaign_ledger.commands.shell import HISTORY_FILE, quoted, split_line

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60  # a deadline on a shared machine, never a wait: expect returns as soon as the text is there


def drawn(text: str) -> re.Pattern:
    """`text` as the terminal receives it: prompt_toolkit may redraw between any two characters."""
    return re.compile(r"(?:\x1b\[[0-9;?]*[A-Za-z])*".join(re.escape(c) for c in text))


class Shell:
    """`campaign --db PATH shell` on a pseudo-terminal that answers prompt_toolkit's cursor question."""

    def __init__(self, path: str) -> None:
        env = dict(os.environ, TERM="xterm", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        env.pop("CAMPAIGN_DB", None)
        self.child = pexpect.spawn(sys.executable, ["-m", "campaign_ledger.cli", "--db", path, "shell"], cwd=str(ROOT), env=env,
                                   encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 160))

    def prompt(self) -> None:
        """Wait for the prompt; the toolbar is drawn only once the terminal has said where the cursor is."""
        self.child.expect_exact("\x1b[6n")
        self.child.send("\x1b[24;1R")
        self.child.expect_exact("campaign>")

    def run(self, line: str) -> None:
        self.child.sendline(line)
        self.prompt()

    def leave(self) -> int:
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def shell(table):
    sh = Shell(table.path)
    sh.prompt()
    yield sh
    if sh.child.isalive():
        sh.child.terminate(force=True)


def test_tab_offers_the_pcs_after_leader_and_completes_a_unique_one(shell):
    shell.child.send('cohort-turn Guards --leader \t')
    shell.child.expect_exact("Kira")
    shell.child.expect_exact("Bo")
    shell.child.sendcontrol("c")  # Ctrl-C drops the line; the shell stays
    shell.prompt()
    shell.child.send("cohort-turn Guards --leader K\t")
    shell.child.expect(drawn("--leader Kira"))
    shell.child.sendcontrol("c")
    shell.prompt()
    assert shell.leave() == 0


def test_tab_offers_a_round_after_undo(shell, table):
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "5,6,2,3,4")
    shell.child.send("undo Gu\t")
    shell.child.expect(drawn("undo Guards:1"))
    shell.child.sendcontrol("c")
    shell.prompt()
    shell.child.send('undo "Gu\t')  # a half-quoted name completes too
    shell.child.expect(drawn('undo "Guards:1"'))
    shell.child.sendcontrol("c")
    shell.prompt()
    assert shell.leave() == 0


def entries(path: str) -> int:
    """The ledger's entries as another process sees them (this one may hold an older snapshot)."""
    code = "import sys; from tests.conftest import Table; print(Table(sys.argv[1]).entries())"
    return int(subprocess.run([sys.executable, "-c", code, path], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout)


def test_a_refused_line_prints_its_error_and_the_shell_goes_on(shell, table):
    before = entries(table.path)
    shell.child.sendline("push Nobody")
    shell.child.expect_exact("Error: There is no PC named 'Nobody' in this campaign.")
    shell.prompt()
    shell.child.sendline("challenge open X --threat Huge --type Phantom --rating 2")  # malformed (exit 2)
    shell.child.expect_exact("Error:")
    shell.prompt()
    shell.child.sendline('pc add "Unclosed')
    shell.child.expect_exact("Error: No closing quotation")
    shell.prompt()
    shell.child.sendline("--json push Nobody")  # --json refusals as on the command line
    shell.child.expect_exact('"code": 1')
    shell.prompt()
    assert entries(table.path) == before
    shell.child.sendline("pc add Cy --expertise Scav=2 --primary Scav")
    shell.child.expect_exact("Cy joined the Cohort")
    shell.prompt()
    assert entries(table.path) == before + 2
    assert shell.leave() == 0


def test_the_toolbar_shows_pools_and_what_the_turn_waits_for_and_follows_a_roll(shell):
    shell.child.expect_exact("Test Heist (relics) | Destiny 2 | Doom 2 | Guards 0/4 round 1: waiting for the Cohort turn")
    shell.run("cohort-turn Guards --leader Kira")
    shell.child.expect_exact("Guards 0/4 round 1: waiting for the Cohort's roll")
    shell.run("roll Guards --faces 1,5,6,2,3")  # 1 net success; the botch gives the GM 1 Doom
    shell.child.expect_exact("Destiny 2 | Doom 3 | Guards 1/4 round 1: waiting for the Challenge turn")
    assert shell.leave() == 0


def test_history_is_kept_beside_the_campaign_file_across_sessions(table):
    first = Shell(table.path)
    first.prompt()
    first.run("pools")
    assert first.leave() == 0
    assert "pools" in (Path(table.path).parent / HISTORY_FILE).read_text()
    second = Shell(table.path)
    second.prompt()
    second.child.send("\x1b[A")  # up: the last line of the earlier session
    second.child.expect_exact("pools")
    second.child.sendcontrol("c")
    second.prompt()
    assert second.leave() == 0


def test_exit_leaves_and_a_nested_shell_is_refused(shell):
    shell.child.sendline("shell")
    shell.child.expect_exact("Error: this is already the campaign shell.")
    shell.prompt()
    shell.child.sendline("exit")
    shell.child.expect(pexpect.EOF)


@pytest.mark.parametrize("text, expected", [
    ("", ([], "", 0)),
    ("undo ", (["undo"], "", 5)),
    ('cohort-turn "Vault G', (["cohort-turn"], "Vault G", 12)),
    ("trait add 'Bo' Lu", (["trait", "add", "Bo"], "Lu", 15)),
    (r"push Big\ Bo", (["push"], "Big Bo", 5)),
])
def test_a_line_splits_like_the_shell_even_with_a_quote_still_open(text, expected):
    assert split_line(text) == expected


def test_a_completed_name_is_quoted_as_it_must_be_typed():
    assert quoted("Kira") == "Kira"
    assert quoted("Guards:1") == "Guards:1"
    assert quoted("Vault Guards") == '"Vault Guards"'
    assert quoted("Keen Eye=") == '"Keen Eye='  # a placement: the dice follow, then the quote
    assert quoted("Mara's climb roll (#3)") == "\"Mara's climb roll (#3)\""
    assert quoted("Guards:1", opened="'") == "'Guards:1'"  # the quote the GM opened is kept
    assert quoted("Mara's climb roll (#3)", opened="'") == "'Mara'\"'\"'s climb roll (#3)'"


def test_lines_piped_in_run_one_by_one_with_the_worst_exit_code(table):
    """Without a terminal (a script feeding the shell) there is no prompt: each line runs in turn."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", table.path, "shell", "--json"], cwd=ROOT, env=env,
                         input="pools\npush Nobody\n\nsheet Kira\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert out.stderr.strip() == "Error: There is no PC named 'Nobody' in this campaign."
    assert '"destiny": 2' in out.stdout and '"code": 1' in out.stdout and '"name": "Kira"' in out.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through Linux's /proc")
def test_a_long_session_does_not_pile_up_open_files(table, capsys):
    """One warm process runs many commands: each closes what it opened as it ends, with no garbage
    collection to find them (it is off here)."""
    import gc

    from campaign_ledger.cli import cli
    from campaign_ledger.commands.shell import run_line

    def held() -> int:
        links = []
        for fd in os.listdir("/proc/self/fd"):
            try:
                links.append(os.readlink(f"/proc/self/fd/{fd}"))
            except OSError:
                continue
        return sum(link.startswith(table.path) for link in links)
    gc.disable()
    try:
        for i in range(40):
            assert run_line(cli, ["--db", table.path], "pools" if i % 2 else f"pc add P{i} --expertise Scav=2 --primary Scav") == 0
            assert held() == 0, f"line {i + 1} left the campaign file open"
    finally:
        gc.enable()
    capsys.readouterr()


def test_a_key_from_the_environment_is_not_given_to_every_line(table):
    """$CAMPAIGN_COMMAND_KEY names one command: in the shell it would refuse every line after the first."""
    env = dict(os.environ, CAMPAIGN_COMMAND_KEY="k1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    lines = "pc add Cy --expertise Scav=2 --primary Scav\npc add Di --expertise Scav=2 --primary Scav\n"
    out = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", table.path, "shell"], cwd=ROOT, env=env,
                         input=lines, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Cy joined the Cohort" in out.stdout and "Di joined the Cohort" in out.stdout
    assert out.stderr.startswith("Note: a key names one command")


def test_no_other_command_pays_for_the_shell():
    """prompt_toolkit loads when the shell starts, never on `campaign`'s start (cli.py imports every command module)."""
    code = "import sys, campaign_ledger.cli; print(sorted(m for m in ('prompt_toolkit', 'pexpect') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_help_clear_and_quit_do_what_a_shell_user_expects(shell):
    """Issue 35, finding 11: `clear` and `help` were refused as unknown commands."""
    shell.child.sendline("help")
    shell.child.expect_exact("Usage: campaign [OPTIONS] COMMAND")
    shell.child.expect_exact("`clear` (or Ctrl-L) clears the screen")
    shell.prompt()
    shell.child.sendline("help cohort-turn")
    shell.child.expect_exact("Usage: campaign cohort-turn [OPTIONS] CHALLENGE")
    shell.prompt()
    shell.child.sendline("clear")
    shell.child.expect_exact("\x1b[2J")  # the screen erased
    shell.prompt()
    shell.child.send("cl\t")
    shell.child.expect(drawn("clear"))
    shell.child.sendcontrol("c")
    shell.prompt()
    shell.child.sendline("Quit")
    shell.child.expect(pexpect.EOF)
    assert "Error" not in shell.child.before


def test_help_clear_and_quit_piped_in(table):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    before = entries(table.path)
    out = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", table.path, "shell"], cwd=ROOT, env=env,
                         input="help\nhelp pools\nclear\nEXIT\nnote never run\n", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert "Usage: campaign [OPTIONS] COMMAND" in out.stdout and "Usage: campaign pools [OPTIONS]" in out.stdout
    assert entries(table.path) == before
