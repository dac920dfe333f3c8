"""The shell's bottom line: the pools and what the turn waits for, so a GM never has to ask.

Worked out once after every command (never on each redraw), from the read tables (read-only,
commands/glance.py: the file, or the campaign's schema with CAMPAIGN_READ=postgres): what the last
command appended is there, since every command catches the tables up before it prints. Where the tables do not hold it (the step a Relics turn waits for
lives on the Challenge aggregate), the line asks the command that says it: `status --json`,
run in-process through `ask`. A file that cannot be read gives a plain line.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # cli.py imports every command module at start; sqlite3 loads only for the shell
    import sqlite3

Ask = Callable[[list[str]], Any]  # runs a command with --json in-process; its answer, or None if refused
Query = Callable[["sqlite3.Connection", Ask], list[str]]


def toolbar_line(path: str, ask: Ask = lambda _: None) -> str:
    """`Moon Heist (relics) | Destiny 2 | Doom 6 | Vault Guards round 3: waiting for the Cohort's roll`."""
    from campaign_ledger.commands import glance

    try:
        with glance.opened(path) as conn:
            about = dict(conn.execute("SELECT key, value FROM campaign").fetchall()) if conn is not None else {}
            if not about:
                return f"{path}: no campaign yet (`new NAME` begins one)"
            ruleset = about.get("ruleset", "")
            parts = [f"{about.get('name', '?')} ({ruleset})", *RULESETS.get(ruleset, lambda *_: [])(conn, ask)]
    except glance.errors():
        return f"{os.path.basename(path)}: the read tables are not readable yet"
    return " | ".join(parts)


def _relics(conn: "sqlite3.Connection", ask: Ask) -> list[str]:
    status = ask(["status"])
    if not isinstance(status, dict):  # the tables still say the pools and which Challenges are open
        pools = conn.execute("SELECT destiny, doom FROM pools WHERE id = 1").fetchone() or (0, 0)
        status = {"destiny": pools[0], "doom": pools[1], "challenges": [
            {"name": n, "resolved": r, "rating": k, "round": d, "waiting_for": None} for n, r, k, d in conn.execute(
                "SELECT name, resolved, rating, round FROM challenges WHERE phase NOT IN ('resolved', 'ended') "
                "ORDER BY opened")]}
    parts = [f"Destiny {status.get('destiny', 0)}", f"Doom {status.get('doom', 0)}"]
    for ch in status.get("challenges", []):
        waiting = f": waiting for {ch['waiting_for']}" if ch.get("waiting_for") else ""
        parts.append(f"{ch['name']} {ch['resolved']}/{ch['rating']} round {ch.get('round') or 1}{waiting}")
    return parts


def _beer_run(conn: "sqlite3.Connection", _: Ask) -> list[str]:
    people = conn.execute("SELECT name, intensity FROM beer_run_sheets WHERE kind = 'character' "
                          "AND status != 'dead' ORDER BY joined").fetchall()
    parts = ["Intensity " + ", ".join(f"{n} {i}" for n, i in people)] if people else []
    parts += [f"{name} round {rnd}: {status}" for name, rnd, status in conn.execute(
        "SELECT name, round, status FROM beer_run_conflicts WHERE status != 'ended' ORDER BY opened")]
    return parts


def _action_dice(conn: "sqlite3.Connection", _: Ask) -> list[str]:
    rows = conn.execute("SELECT c.name, group_concat(k.name || ' ' || k.level, ', ') FROM action_dice_characters c "
                        "LEFT JOIN action_dice_conditions k ON k.character_id = c.id "
                        "GROUP BY c.id ORDER BY c.joined").fetchall()
    return [f"{name}: {conditions}" if conditions else name for name, conditions in rows]


def _decision_2d6(conn: "sqlite3.Connection", _: Ask) -> list[str]:
    supplies = [f"{item} {die}" for item, die in conn.execute("SELECT item, die FROM d2d6_supplies ORDER BY entry")]
    trackers = [f"{name} {value}" for name, value in conn.execute("SELECT tracker, value FROM d2d6_trackers "
                                                                 "ORDER BY entry")]
    return ["Supplies " + ", ".join(supplies)] * bool(supplies) + ["Trackers " + ", ".join(trackers)] * bool(trackers)


RULESETS: dict[str, Query] = {"relics": _relics, "beer-run": _beer_run, "action-dice": _action_dice,
                              "decision-2d6": _decision_2d6}
