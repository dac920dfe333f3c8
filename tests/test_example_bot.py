"""examples/table_bot.py, the example bot (issue 37): chat messages played through the library."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from campaign_ledger import new_campaign

ROOT = Path(__file__).resolve().parent.parent


def _bot_module():
    spec = importlib.util.spec_from_file_location("table_bot", ROOT / "examples" / "table_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(path: Path):
    camp = new_campaign(path, "Bot Heist")
    camp.pc_add("Kira", {"Phantom": 3, "Venger": 1}, "Phantom")
    camp.pc_add("Bo", {"Venger": 4, "Phantom": 2}, "Venger")
    camp.scenario_start("Night")
    camp.challenge_open("Vault Guards", threat="minor", type="phantom", rating=4)
    return camp


def test_a_session_of_chat_messages_is_recorded_once_each_and_refusals_are_one_line(tmp_path: Path) -> None:
    camp = _table(tmp_path / "bot.db")
    bot = _bot_module().TableBot(camp)
    before = len(camp.history())
    assert bot.reply("Ana", "hello all") is None  # table talk
    said = bot.reply("Ana", '!turn "Vault Guards" leader=Kira faces=6,5,3,1', message_id="m1")
    assert "Cohort dice show 6, 5, 3, 1 (entered from the table)" in said
    again = bot.reply("Ana", '!turn "Vault Guards" leader=Kira faces=6,5,3,1', message_id="m1")  # delivered twice
    assert again == "Already recorded (the same message twice); nothing appended."
    gm = bot.reply("GM", '!gm "Vault Guards" faces=5,6,2 stress=Kira=1,Bo=1', message_id="m2")
    assert "Kira takes 1 Stress" in gm
    assert bot.reply("GM", "!sheet Kira") == "Kira: Stress 1, Agony 0"
    refused = bot.reply("GM", "!turn Nowhere leader=Kira faces=1", message_id="m3")
    assert refused == "Refused (unknown-challenge): There is no Challenge named 'Nowhere' in this campaign."
    assert bot.reply("GM", "!turn Nowhere faces=x").startswith("I could not read that")
    played = len(camp.history())
    assert bot.reply("GM", "!undo", message_id="m4") == "Undone: Vault Guards:1."
    assert bot.reply("GM", "!sheet Kira") == "Kira: Stress 0, Agony 0"
    assert played > before and camp.audit()["clean"]


def test_the_bot_as_a_script_reads_a_chat_from_standard_input_on_a_file_the_gm_plays_too(tmp_path: Path) -> None:
    """Run as a script on a file the GM also writes from the CLI; a missing file is one Error line, exit 1."""
    path = tmp_path / "bot.db"
    _table(path).close()
    subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(path), "note", "from the GM's window"],
                   check=True, capture_output=True)
    chat = ('Ana: !turn "Vault Guards" leader=Kira faces=6,5,3,1\nGM: !history 12\nGM: !nope\n'
            'GM: !undo\nGM: !undo\n')  # the same words twice are two messages: two units undone
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "table_bot.py"), str(path)], input=chat,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bot> Vault Guards round 1: the Cohort turn begins" in done.stdout
    assert "the Cohort turn ends" in done.stdout and "bot> I do not know !nope; try !help." in done.stdout
    assert "Note: from the GM's window" in done.stdout  # the GM's entry, in the bot's history
    assert "bot> Undone: Vault Guards:1.\nbot> Undone: note #1." in done.stdout
    missing = subprocess.run([sys.executable, str(ROOT / "examples" / "table_bot.py"), str(tmp_path / "none.db")],
                             input="", capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1 and missing.stderr.startswith("Error: No campaign file at")
