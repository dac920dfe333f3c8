"""A table bot: the players' and the GM's chat messages played into a campaign through the library.

A Discord or Matrix bot hooks in the same way: its message handler calls `TableBot.reply(author,
text)` and posts the answer. Here the chat is standard input, one `AUTHOR: MESSAGE` a line:

    python examples/table_bot.py heist.db < session.txt

    GM: !sheet Kira
    Ana: !turn "Vault Guards" leader=Kira faces=6,5,3,1
    GM: !gm "Vault Guards" faces=5,6,2 stress=Kira=1,Bo=1
    GM: !undo
    Ana: !history 3

The bot keeps one handle open for the whole session (`open_campaign`), sees what the GM types in
another window (each call catches up first), gives every message its own idempotency key (a message
delivered twice by a flaky chat is recorded once), and answers a refusal with the CLI's one line
and its rule id, never a traceback.
"""
from __future__ import annotations

import hashlib
import shlex
import sys
from typing import Any, Callable

from campaign_ledger import Campaign, CampaignError, open_campaign


def _options(words: list[str]) -> dict[str, str]:
    """`leader=Kira faces=6,5,3,1` -> {"leader": "Kira", "faces": "6,5,3,1"}."""
    pairs = [w.split("=", 1) for w in words]
    if any(len(p) != 2 for p in pairs):
        raise ValueError("options are written NAME=VALUE")
    return {k: v for k, v in pairs}


def _numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _pairs(text: str) -> dict[str, int]:
    """`Kira=1,Bo=1` -> {"Kira": 1, "Bo": 1}."""
    return {name: int(value) for name, value in (p.split("=", 1) for p in text.split(",") if p)}


class TableBot:
    """Answers `!` messages with the campaign's own words; anything else is table talk, ignored."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.commands: dict[str, Callable[[list[str], str], str]] = {
            "sheet": self.sheet, "turn": self.turn, "gm": self.challenge, "undo": self.undo,
            "history": self.history, "help": self.help}

    def reply(self, author: str, text: str, message_id: str | None = None) -> str | None:
        """The answer to one chat message, or None when it is not for the bot."""
        if not text.startswith("!"):
            return None
        try:
            name, *words = shlex.split(text[1:])
        except ValueError:
            return "I could not read that message (an unclosed quote?)."
        command = self.commands.get(name.lower())
        if command is None:
            return f"I do not know !{name}; try !help."
        # The chat's id for the message is its key: the same message delivered twice is recorded once,
        # and the same words sent again later (a second `!undo`) are a new command.
        key = hashlib.sha256(f"{author}\x1f{message_id or text}".encode()).hexdigest()[:16]
        try:
            return command(words, key)
        except CampaignError as e:  # the CLI's words and rule: what a bot can branch on
            return f"Refused ({e.rule or 'malformed'}): {e}"
        except (ValueError, IndexError) as e:
            return f"I could not read that: {e}. Try !help."

    def sheet(self, words: list[str], key: str) -> str:
        found: Any = self.campaign.sheet(words[0] if words else None)
        rows = found if isinstance(found, list) else [found]
        return "\n".join(f"{r['name']}: Stress {r.get('stress', 0)}, Agony {r.get('agony', 0)}" for r in rows)

    def turn(self, words: list[str], key: str) -> str:
        """`!turn CHALLENGE leader=PC faces=...`: the Cohort turn with the faces the table rolled."""
        options = _options(words[1:])
        report = self.campaign.cohort_turn(words[0], leader=options.get("leader"), faces=_numbers(options["faces"]),
                                           best=True, key=key)
        return self._said(report)

    def challenge(self, words: list[str], key: str) -> str:
        """`!gm CHALLENGE faces=... stress=PC=N,...`: the Challenge turn, the GM's roll."""
        options = _options(words[1:])
        stress = _pairs(options["stress"]) if "stress" in options else None
        report = self.campaign.challenge_turn(words[0], faces=_numbers(options["faces"]), best=True, stress=stress,
                                              key=key)
        return self._said(report)

    def undo(self, words: list[str], key: str) -> str:
        report: Any = self.campaign.undo(words[0] if words else None, key=key)
        if report.get("repeated"):
            return self._said(report)
        return "Undone: " + ", ".join(r["unit"] for r in report.get("reversed", [])) + "."

    def history(self, words: list[str], key: str) -> str:
        lines = self.campaign.history(limit=int(words[0]) if words else 5)
        return "\n".join(f"#{h['entry']} {h['line']}" for h in lines)

    def help(self, words: list[str], key: str) -> str:
        return "!sheet [PC] | !turn CHALLENGE leader=PC faces=1,2,3 | !gm CHALLENGE faces=... stress=PC=N | !undo | !history [N]"

    @staticmethod
    def _said(report: Any) -> str:
        if report.get("repeated"):
            return "Already recorded (the same message twice); nothing appended."
        return "\n".join(h["line"] for h in report.get("history", []))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python examples/table_bot.py CAMPAIGN_FILE < messages", file=sys.stderr)
        return 2
    try:
        campaign = open_campaign(argv[1])
    except CampaignError as e:
        print(f"Error: {e}", file=sys.stderr)
        return e.code
    bot = TableBot(campaign)
    with campaign:
        for number, line in enumerate(sys.stdin, 1):  # a chat service gives each message its own id
            author, colon, text = line.partition(":")
            answer = bot.reply(author.strip(), text.strip(), f"line-{number}") if colon else None
            if answer is not None:
                print(f"bot> {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
