#!/usr/bin/env python3
"""Undo oracle for Campaign Ledger: "Undo means as if it had never been played."

For each ruleset and seed: generate a random but valid play sequence with entered dice
faces (never program rolls), recording the undo unit each command belongs to; undo a
unit from the middle (with --cascade when the product asks for it); build a scratch
campaign from the commands kept; the two campaigns must agree on every read view and
read table (times and entry numbers ignored), every kept command must be accepted in
the scratch campaign, and `campaign audit` must be clean on both. A redo probe then
plays the reversed commands again on both campaigns: they must be accepted or refused
alike and leave equal state (hidden state that undo failed to restore shows up here).

Plain Python 3, standard library only; drives the `campaign` CLI with subprocess (the
`campaign` on PATH, or --cli), or with --in-process the project's click group in this process
through CliRunner, each call a fresh invocation (then it imports click and the project).
The project's copy of the independent oracle of issue 33; keep it in step with the CLI's
contract (`--json` reports, the `unit` of history entries, `undo --json`'s `reversed`).
The suite runs its fixed cases and 2 seeds per ruleset in process (tests/test_undo_oracle.py);
bench/undo_oracle.sh runs N seeds per ruleset with a `campaign` process per call.
Usage: python3 bench/undo_oracle.py [--system NAME[,NAME]|all] [--seeds N] [--jobs J] [--in-process]
       [--workdir DIR --keep] ...
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import difflib
import json
import os
import random
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

SYSTEMS = ("relics", "beer-run", "action-dice", "decision-2d6")

# Keys and columns that carry entry numbers or times: never compared.
DROP_KEYS = {"entry", "entries", "time", "joined", "opened", "first_entry", "last_entry", "applied_at",
             "history", "about", "key"}
# Read tables that are logs by design (append-only; undo adds rows to them) or ledger internals.
LOG_TABLES = {"stored_events", "stored_snapshots", "ledger_chain", "ledger_commands", "_sqlite_migrations",
              "position", "history", "balances", "balance_changes", "sheet_versions", "sessions",
              "beer_run_intensity", "d2d6_sheet_rows", "d2d6_supply_rows", "d2d6_tracker_rows",
              # later internals: undo-unit bookkeeping, row history, chain checks, file identity, FTS
              "unit_namer", "unit_open", "unit_seen", "unit_taken", "unit_closed", "row_versions",
              "row_versions_dirty", "chain_checked", "ledger_meta", "ledger_signatures", "read_notes",
              "history_fts", "history_fts_config", "history_fts_data", "history_fts_docsize", "history_fts_idx"}

READ_VIEWS = {
    "relics": [("sheet", ["sheet"]), ("pools", ["pools"]), ("status", ["status"])],
    "beer-run": [("sheet", ["beer-run", "sheet"]), ("pools", ["beer-run", "pools"]),
                 ("status", ["beer-run", "status"])],
    "action-dice": [("sheet", ["action-dice", "sheet"]), ("rolls", ["action-dice", "rolls"])],
    "decision-2d6": [("sheet", ["decision-2d6", "sheet"]), ("pools", ["decision-2d6", "pools"])],
}


# --- running the CLI ----------------------------------------------------------------------------

class Cli:
    """How to call the product: argv prefix and a clean environment; counts calls."""

    def __init__(self, argv: list[str], timeout: float = 120.0) -> None:
        self.argv = argv
        self.timeout = timeout
        env = dict(os.environ)
        for k in list(env):  # the campaign file comes from --db only; the ledger stays in that file
            if k == "CAMPAIGN_DB" or k == "PERSISTENCE_MODULE" or k.startswith("POSTGRES_"):
                env.pop(k)
        self.env = env
        self.calls = 0
        self.seconds = 0.0
        self._lock = threading.Lock()

    def run(self, db: str, args: list[str], cwd: str) -> "Result":
        cmd = [*self.argv, "--db", db, "--json", *args]
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=cwd, env=self.env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=self.timeout)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = 124, "", f"Error: (oracle) timed out after {self.timeout}s"
        with self._lock:
            self.calls += 1
            self.seconds += time.monotonic() - start
        data = None
        if rc == 0 and out.strip():
            try:
                data = json.loads(out)
            except ValueError:
                data = None
        return Result(args, rc, data, out, err)


class InProcessCli(Cli):
    """The same contract in this process: each call a fresh invocation of `cli.cli` through click's
    CliRunner (argv, exit status, stdout and stderr as the installed `campaign` gives them).

    The same reports as the subprocess mode on the same seeds, about 9x quicker (seeds 1-4 and the
    fixed cases, 1433 calls: 181 s against 1635 s with --jobs 2, on a loaded 2-core machine), which
    is what lets the suite run the oracle (tests/test_undo_oracle.py); the bench keeps the subprocess
    mode, the product as a GM runs it.
    CliRunner swaps the process's stdin, stdout and environment while it runs, so calls are
    serialized and main() runs trials one at a time in this mode. Imports the project only here."""

    def __init__(self, timeout: float = 120.0) -> None:
        super().__init__(["campaign"], timeout)
        from click.testing import CliRunner

        from campaign_ledger.cli import cli as group
        self.group = group
        self.runner = CliRunner()
        # the campaign file comes from --db only, as in the subprocess mode: unset these for each call
        self.unset = {k: None for k in os.environ
                      if k in ("CAMPAIGN_DB", "PERSISTENCE_MODULE") or k.startswith("POSTGRES_")}

    def run(self, db: str, args: list[str], cwd: str) -> "Result":
        argv = ["--db", db, "--json", *args]
        with self._lock:
            start = time.monotonic()
            res = self.runner.invoke(self.group, argv, env=self.unset, prog_name="campaign", catch_exceptions=True)
            self.calls += 1
            self.seconds += time.monotonic() - start
        rc, out, err = res.exit_code, res.stdout, res.stderr
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            import traceback  # what the installed command would print: a traceback, exit 1
            err += "".join(traceback.format_exception(*res.exc_info)) if res.exc_info else repr(res.exception)
        data = None
        if rc == 0 and out.strip():
            try:
                data = json.loads(out)
            except ValueError:
                data = None
        return Result(args, rc, data, out, err)


@dataclass
class Result:
    args: list[str]
    rc: int
    data: Any
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.rc == 0

    @property
    def error(self) -> str:
        lines = [ln for ln in (self.err + "\n" + self.out).splitlines() if ln.strip()]
        errs = [ln for ln in lines if ln.startswith("Error:")]
        if errs:
            return errs[0]
        return (lines[-1] if lines else f"exit {self.rc}")[:300]

    def unit(self) -> str | None:
        """The undo unit the command was filed under: the report's `unit` (the ledger files the command
        under exactly that key). The history's per-entry `round` is NOT the unit: `challenge open` in an
        Event or `disaster-trait` carry a round there yet belong to no unit."""
        if not isinstance(self.data, dict):
            return None
        # Later contract: each history entry of the report names its unit exactly as `undo --list`
        # does ("push Kira #1"); since issue 35 the report's own `unit` does too (older: "push Kira").
        units = [h.get("unit") for h in self.data.get("history", []) if isinstance(h, dict) and h.get("unit")]
        return units[-1] if units else (self.data.get("unit") or None)

    def history_types(self) -> list[tuple[str, str]]:
        if not isinstance(self.data, dict):
            return []
        return [(h.get("type", ""), h.get("line", "")) for h in self.data.get("history", []) if isinstance(h, dict)]


class Campaign:
    def __init__(self, cli: Cli, path: str) -> None:
        self.cli, self.path, self.dir = cli, path, os.path.dirname(path)

    def call(self, *args: str) -> Result:
        return self.cli.run(self.path, list(args), self.dir)


@dataclass
class Cmd:
    args: list[str]
    unit: str | None
    snapshot: str | None = None  # a copy of the campaign file as it stood just before this command


def copy_campaign(src: str, dst: str) -> None:
    """Copy a campaign file (SQLite in WAL mode: the -wal file too) while no process has it open."""
    shutil.copyfile(src, dst)
    if os.path.exists(src + "-wal"):
        shutil.copyfile(src + "-wal", dst + "-wal")


class Play:
    """The generation log: commands accepted (with their unit) and commands refused (dropped).

    Before each command that begins a unit, the campaign file is copied: everything before a unit's
    first command is kept by any undo of it, so a scratch campaign may start from that copy."""

    def __init__(self, camp: Campaign) -> None:
        self.camp = camp
        self.cmds: list[Cmd] = []
        self.dropped: list[tuple[list[str], str]] = []
        self.units: set[str] = set()

    def do(self, *args: str) -> Result:
        pre = None
        if os.path.exists(self.camp.path):
            pre = os.path.join(self.camp.dir, f"snap-{len(self.cmds)}.db")
            copy_campaign(self.camp.path, pre)
        r = self.camp.call(*args)
        unit = r.unit() if r.ok else None
        keep = bool(unit) and unit not in self.units
        if r.ok:
            self.cmds.append(Cmd(list(args), unit, pre if keep else None))
            if unit:
                self.units.add(unit)
        else:
            self.dropped.append((list(args), r.error))
        if pre and not keep:
            for f in (pre, pre + "-wal"):
                if os.path.exists(f):
                    os.remove(f)
        return r

    def read(self, *args: str) -> Any:
        r = self.camp.call(*args)
        return r.data if r.ok else None


def csv(values: Any) -> str:
    return ",".join(str(v) for v in values)


def pool_count_from(error: str) -> int | None:
    m = re.search(r"This pool rolls (\d+) di(?:e|ce)", error)
    return int(m.group(1)) if m else None


# --- generators ---------------------------------------------------------------------------------

class Generator:
    system = ""

    def __init__(self, rng: random.Random, play: Play, size: int) -> None:
        self.rng, self.play, self.size = rng, play, size

    def do(self, *args: str) -> Result:
        return self.play.do(*args)

    def generate(self) -> None:
        raise NotImplementedError


class RelicsGen(Generator):
    """Relics: PCs with traits, a Scenario, a Scene and an Event, several Challenges played round by
    round (turns of different Challenges interleaved), Stress, Push the Limit, Destiny and Doom spent,
    opportunities, supplies, Check This Out, Disaster traits, the Hand of Doom and Agony traits."""

    system = "relics"
    TYPES = ("Scav", "Venger", "Phantom", "Stallion", "Sparrow")
    LEAD = {5: 5, 4: 4, 3: 3, 2: 2}
    ASSIST = {5: 4, 4: 3, 3: 2, 2: 1, 1: 1}
    TRAITS = [  # name, modifier, cost, target
        ("Keen Eye", "+1 / 1d", "free", "cohort"),
        ("Steady Hands", "+2 / 1d", "destiny-or-doom", "cohort"),
        ("Old Map", "+1d6", "destiny", "cohort"),
        ("Quick Feet", "+1 / 2d", "free", "cohort"),
        ("Smoke Bomb", "-1 / 1d", "destiny", "challenge"),
        ("Tripwire", "-1 / 1d", "free", "challenge"),
    ]
    NAMES = ("Kira", "Bo", "Ash", "Wren")
    CHALLENGES = ("Vault Guards", "Loose Floor", "Watch Dogs", "The Warden", "Alarm Wires", "Back Stairs")

    def __init__(self, rng: random.Random, play: Play, size: int) -> None:
        super().__init__(rng, play, size)
        self.pcs: dict[str, dict[str, Any]] = {}
        self.chs: dict[str, dict[str, Any]] = {}
        self.destiny = self.doom = 0
        self.event_open = self.scene_open = False
        self.disasters: list[tuple[str, str]] = []
        self.cohort_trait = False
        self.next_ch = 0
        self.used_scene: set[str] = set()  # OWNER:TRAIT used once-a-scene in this Scene

    # ---- the model, refreshed from the product's read views when it may be stale ----

    def refresh(self) -> None:
        sheet = self.play.read("sheet")
        if isinstance(sheet, list):
            for s in sheet:
                pc = self.pcs.setdefault(s["name"], {"expertise": s.get("expertise", {}), "traits": []})
                pc.update(stress=s.get("stress", 0), agony=s.get("agony", 0), status=s.get("status", "active"),
                          traits=s.get("traits", []))
        status = self.play.read("status")
        if isinstance(status, dict):
            self.destiny, self.doom = status.get("destiny") or 0, status.get("doom") or 0
            seen = set()
            for c in status.get("challenges", []):
                seen.add(c["name"])
                self.chs.setdefault(c["name"], {}).update(c)
            for name in list(self.chs):
                if name not in seen:
                    self.chs.pop(name)

    def able(self, name: str) -> bool:
        return self.pcs[name].get("status", "active") == "active"

    def in_game(self) -> list[str]:
        return [n for n, p in self.pcs.items() if p.get("status") != "out"]

    def note(self, r: Result) -> None:
        """Update what a report says; mark for refresh what it only hints at."""
        if isinstance(r.data, dict):
            if "destiny" in r.data and isinstance(r.data.get("destiny"), int):
                self.destiny = r.data["destiny"]
            if "doom" in r.data and isinstance(r.data.get("doom"), int):
                self.doom = r.data["doom"]
        for kind, line in r.history_types():
            if kind.endswith("SceneEnded"):
                self.scene_open = False
                self.used_scene.clear()
            if kind.endswith("EncounterEnded"):
                self.event_open = False
            if kind == "Challenge.DisasterStruck":
                m = re.match(r"(.+) round \d+: Disaster on the (Cohort|Challenge) turn", line)
                if m:
                    self.disasters.append((m.group(1), m.group(2).lower()))
            if kind.split(".")[-1] in ("StressedOut", "PushedTheLimit", "Ended", "Resolved", "SceneEnded",
                                       "EncounterEnded", "WentOut", "OutOfTheGame", "AgonyGained",
                                       "ChallengeOpened", "Opened", "TestDecided", "Split"):
                self.stale = True

    # ---- setup ----

    def setup(self) -> None:
        rng = self.rng
        self.do("new", f"Undo oracle relics {rng.randrange(10**6)}", "--ruleset", "relics")
        count = 3 if rng.random() < 0.7 else 4
        for name in self.NAMES[:count]:
            types = rng.sample(self.TYPES, 3)
            ranks = {types[0]: rng.choice((3, 4)), types[1]: rng.choice((2, 3)), types[2]: rng.choice((1, 2))}
            self.do("pc", "add", name, "--expertise", csv(f"{t}={r}" for t, r in ranks.items()),
                    "--primary", types[0])
            self.pcs[name] = {"expertise": ranks, "traits": [], "stress": 0, "agony": 0, "status": "active"}
            for tname, mod, cost, target in rng.sample(self.TRAITS, rng.choice((1, 2))):
                freq = rng.choice(("always", "always", "always", "round", "scene"))
                r = self.do("trait", "add", name, tname, mod, "--cost", cost, "--target", target,
                            "--frequency", freq)
                if r.ok:
                    self.pcs[name]["traits"].append({"name": tname, "modifier": mod, "cost": cost,
                                                     "target": target, "frequency": freq})
        if rng.random() < 0.5:
            self.cohort_trait = self.do("trait", "add", "Cohort", "Old Friends", "+1d6").ok
        if rng.random() < 0.3:
            self.do("motto", rng.choice(list(self.pcs)), "Nobody gets left behind")
        if rng.random() < 0.8:  # Stressed Out sooner: more Push the Limit, more Agony
            self.do("house-rule", "set", "stressed_out_at", str(rng.choice((5, 6, 7))), "--reason", "a harsh table")
        self.do("scenario", "start", "Night at the Vault")
        self.scene_open = self.do("scene", "start", "The vault at midnight").ok
        if rng.random() < 0.8:
            self.event_open = self.do("event", "start", "The alarm", "--simultaneous").ok
        for _ in range(rng.choice((2, 3))):
            self.open_challenge()
        self.refresh()

    def open_challenge(self) -> None:
        rng = self.rng
        if self.next_ch >= len(self.CHALLENGES):
            return
        name = self.CHALLENGES[self.next_ch]
        self.next_ch += 1
        leadable = [t for t in self.TYPES if any(p["expertise"].get(t, 0) >= 2 for p in self.pcs.values())]
        type_ = rng.choice(leadable)
        threat = rng.choice(("Common", "Minor", "Minor", "Major", "Major"))
        args = ["challenge", "open", name, "--threat", threat, "--type", type_, "--rating", str(rng.randint(3, 6))]
        group: list[str] = []
        if rng.random() < 0.4:  # faced by part of the Cohort only (one of them able to lead it)
            leaders = [n for n, p in self.pcs.items() if p["expertise"].get(type_, 0) >= 2]
            group = [rng.choice(leaders)]
            others = [n for n in self.pcs if n not in group]
            if others and rng.random() < 0.5:
                group.append(rng.choice(others))
            args += ["--group", csv(group)]
        if rng.random() < 0.2:
            args += ["--rounds", str(rng.randint(3, 5))]
        r = self.do(*args)
        if r.ok:
            self.chs[name] = {"name": name, "type": type_, "threat": threat, "rating": int(args[args.index("--rating") + 1]),
                              "resolved": 0, "phase": "cohort", "leader": None, "my_group": group}
        if r.ok and rng.random() < 0.5:
            if self.do("trait", "add", name, "Stubborn", rng.choice(("-1 / 1d", "-1 / 2d")), "--challenge",
                       "--cost", "doom").ok:
                self.chs[name]["gm_trait"] = True

    # ---- play ----

    def generate(self) -> None:
        self.stale = False
        self.setup()
        budget = self.size
        idle = 0
        while budget > 0 and idle < 6:
            if self.stale:
                self.refresh()
                self.stale = False
            before = len(self.play.cmds) + len(self.play.dropped)
            self.move()
            spent = len(self.play.cmds) + len(self.play.dropped) - before
            idle = idle + 1 if spent == 0 else 0
            budget -= max(spent, 1)

    def move(self) -> None:
        rng = self.rng
        open_chs = [n for n, c in self.chs.items() if c.get("phase") not in ("resolved", "ended")]
        stressed = [n for n, p in self.pcs.items() if p.get("status") not in ("active", "out")]
        options: list[tuple[float, Callable[[], None]]] = []
        if open_chs:
            options.append((10.0, lambda: self.turn(rng.choice(open_chs))))
        else:
            options.append((4.0, self.open_challenge))
        if stressed:
            options.append((6.0, lambda: self.push(rng.choice(stressed))))
        if len(open_chs) < 3:
            options.append((0.6, self.open_challenge))
        # Commands outside any unit that change Destiny, Doom, Stress or the temporary traits make every
        # earlier round un-undoable (even with --cascade), so they stay rare.
        if self.disasters:
            options.append((0.8, self.disaster_trait))
        if self.scene_open:
            options.append((0.25, self.check_this_out))
        if self.event_open and self.doom >= 5:
            options.append((0.4, self.hand_of_doom))
        if any(p.get("agony", 0) > 0 for p in self.pcs.values()):
            options.append((1.0, self.agony_trait))
            options.append((0.5, self.growth_test))
        options.append((0.3, self.new_trait))
        if not self.scene_open:
            options.append((2.0, self.new_scene))
        total = sum(w for w, _ in options)
        pick = rng.random() * total
        for w, f in options:
            pick -= w
            if pick <= 0:
                f()
                return
        options[-1][1]()

    def faces(self, n: int) -> list[int]:
        return [self.rng.choice((1, 2, 3, 4, 5, 5, 6, 6)) for _ in range(n)]

    def turn(self, name: str) -> None:
        ch = self.chs[name]
        phase = ch.get("phase", "cohort")
        if phase == "cohort":
            self.cohort_turn(name, ch)
        elif phase == "challenge":
            self.challenge_turn(name, ch)
        elif phase == "challenge-stress":
            self.distribute(name, ch, None)
        else:  # an unfinished step (should not happen: every turn is played in one command)
            self.stale = True
            r = self.do("roll", name, "--faces", csv(self.faces(1)), "--best")
            if not r.ok and (n := pool_count_from(r.error)):
                self.note(self.do("roll", name, "--faces", csv(self.faces(n)), "--best"))

    def cohort_turn(self, name: str, ch: dict[str, Any]) -> None:
        rng = self.rng
        type_ = ch.get("type")
        leader = ch.get("leader")
        args = ["cohort-turn", name]
        facing = [n for n in self.in_game() if not ch.get("my_group") or n in ch["my_group"]]
        if not leader or not self.able(leader):
            can = [n for n in facing if self.able(n) and self.pcs[n]["expertise"].get(type_, 0) >= 2]
            if not can:
                return
            leader = rng.choice(can)
            args += ["--leader", leader]
        elif rng.random() < 0.2:
            args += ["--leader", leader]
        opp = None
        others = [n for n in facing if n != leader and self.able(n)]
        if others and rng.random() < 0.15:
            opp = rng.choice(others)
            args += ["--opportunity", opp]
        lead_rank = self.pcs[leader]["expertise"].get(type_, 0)
        size = self.LEAD.get(min(lead_rank, 5), 0)
        size += sum(self.ASSIST.get(min(self.pcs[n]["expertise"].get(type_, 0), 5), 0)
                    for n in others if n != opp)
        destiny = self.destiny
        used = []
        for owner in [leader, *[n for n in others if n != opp]]:
            for t in self.pcs[owner].get("traits", []):
                if t.get("target") != "cohort" or t["name"] == "Motto" or rng.random() > 0.35:
                    continue
                use = f"{owner}:{t['name']}"
                if use in self.used_scene:
                    continue
                if t.get("frequency") == "scene":
                    used.append(use)
                cost = t.get("cost")
                if cost == "destiny-or-doom":
                    cost = rng.choice(("destiny", "doom")) if destiny > 0 else "doom"
                    use += "=" + cost
                if cost == "destiny":
                    if destiny < 1:
                        continue
                    destiny -= 1
                args += ["--trait", use]
                m = re.match(r"\+(\d+)d6", t.get("modifier", ""))
                if m:
                    size += int(m.group(1))
        if self.cohort_trait and rng.random() < 0.3:
            args += ["--trait", "Cohort:Old Friends"]
            size += 1
        if ch.get("gm_trait") and self.doom > 0 and rng.random() < 0.3:
            args += ["--trait", f"{name}:Stubborn"]
        size += ch.get("supplies_dice", 0)
        spend = destiny > 0 and rng.random() < 0.25
        supplies = not ch.get("supplies_dice") and rng.random() < 0.1
        if supplies:
            args += ["--supplies", f"{type_}:2"]
            size += 2
        if spend and size + 1 <= 3 * len(self.in_game()):
            args += ["--destiny", "1"]
            size += 1
        if ch.get("rounds_left") is not None and rng.random() < 0.2:
            args += ["--buy-time"]
        size = max(1, min(size, 3 * len(self.in_game())))
        r = self.do(*args, "--faces", csv(self.faces(size)), "--best")
        if not r.ok and (n := pool_count_from(r.error)) is not None:
            r = self.do(*args, "--faces", csv(self.faces(n)), "--best")
        if r.ok:
            if "--supplies" in args:
                ch["supplies_dice"] = 2
            ch["opp"] = opp
            self.used_scene.update(used)
            self.after_turn(name, r)

    def challenge_turn(self, name: str, ch: dict[str, Any]) -> None:
        rng = self.rng
        args = ["challenge-turn", name]
        destiny = self.destiny
        used = []
        for owner in self.in_game():
            if not self.able(owner) or owner == ch.get("opp"):
                continue
            for t in self.pcs[owner].get("traits", []):
                if t.get("target") == "challenge" and rng.random() < 0.35:
                    use = f"{owner}:{t['name']}"
                    if use in self.used_scene:
                        continue
                    if t.get("cost") == "destiny":
                        if destiny < 1:
                            continue
                        destiny -= 1
                    if t.get("frequency") == "scene":
                        used.append(use)
                    args += ["--trait", use]
        n = max(0, ch.get("rating", 1) - ch.get("resolved", 0))
        r = self.do(*args, "--faces", csv(self.faces(n)), "--best")
        if not r.ok and (n2 := pool_count_from(r.error)) is not None:
            r = self.do(*args, "--faces", csv(self.faces(n2)), "--best")
        if r.ok:
            self.used_scene.update(used)
            ch["opp"] = None
            self.after_turn(name, r)
            if isinstance(r.data, dict) and r.data.get("phase") == "challenge-stress":
                self.distribute(name, self.chs[name], (r.data.get("pool") or {}).get("stress"))

    def distribute(self, name: str, ch: dict[str, Any], amount: int | None) -> None:
        if amount is None:
            st = self.play.read("status")
            pend = ((st or {}).get("turn") or {})
            amount = (ch.get("pending") or {}).get("stress") or pend.get("stress") or 0
        group = [n for n in self.in_game() if not ch.get("my_group") or n in ch["my_group"]]
        split = {n: 0 for n in group}
        for _ in range(int(amount)):
            split[self.rng.choice(group)] += 1
        r = self.do("stress", name, "--stress", csv(f"{n}={v}" for n, v in split.items()))
        if r.ok:
            self.after_turn(name, r)

    def after_turn(self, name: str, r: Result) -> None:
        self.note(r)
        d = r.data if isinstance(r.data, dict) else {}
        ch = self.chs.get(name)
        if ch is not None:
            for k in ("phase", "resolved", "rating"):
                if k in d:
                    ch[k] = d[k]
            if isinstance(d.get("pool"), dict) and d["pool"].get("contributors"):
                lead = [c["pc"] for c in d["pool"]["contributors"] if c.get("role") == "lead"]
                if lead:
                    ch["leader"] = lead[0]
            if ch.get("phase") in ("resolved", "ended"):
                self.chs.pop(name, None)

    def push(self, name: str) -> None:
        r = self.do("push", name)
        self.note(r)
        self.stale = True

    def disaster_trait(self) -> None:
        rng = self.rng
        ch, side = self.disasters.pop()
        self.disasters.clear()
        if side == "cohort":
            on, mod = rng.choice([("Cohort", "-1 / 1d"), (rng.choice(list(self.pcs)), "-1 / 1d"), (ch, "+1 / 1d")])
        else:
            on, mod = rng.choice([(ch, "-1 / 1d"), ("Cohort", "+1 / 1d")])
        self.note(self.do("disaster-trait", ch, f"Rattled {len(self.play.cmds)}", mod, "--on", on,
                          "--lasts", rng.choice(("round", "challenge", "event"))))

    def check_this_out(self) -> None:
        rng = self.rng
        if "Cohort:Check This Out" in self.used_scene:
            return
        pay = "destiny" if self.destiny > 0 else "doom"
        if self.chs and rng.random() < 0.4:
            args = ["check-this-out", "Loose grating", "-1 / 1d", "--pay", pay, "--against", rng.choice(list(self.chs))]
        else:
            args = ["check-this-out", "Loose grating", rng.choice(("+1 / 1d", "+1d6")), "--pay", pay]
        r = self.do(*args)
        if r.ok:
            self.used_scene.add("Cohort:Check This Out")
        self.note(r)
        self.stale = True

    def hand_of_doom(self) -> None:
        rng = self.rng
        if rng.random() < 0.6:
            self.note(self.do("hand-of-doom", "stress"))
        else:
            self.note(self.do("hand-of-doom", "trait", f"Reinforcements {len(self.play.cmds)}", "-1 / 1d"))
        self.stale = True

    def growth_test(self) -> None:
        who = self.rng.choice([n for n, p in self.pcs.items() if p.get("agony", 0) > 0])
        n = self.rng.randint(2, 4)
        self.note(self.do("growth-test", who, "--pool", str(n), "--faces", csv(self.faces(n))))
        self.stale = True

    def agony_trait(self) -> None:
        who = [n for n, p in self.pcs.items() if p.get("agony", 0) > 0]
        self.note(self.do("agony-trait", self.rng.choice(who), f"Shaking hands {len(self.play.cmds)}", "-1 / 1d"))
        self.stale = True

    def new_scene(self) -> None:
        n = len(self.play.cmds)
        self.scene_open = self.do("scene", "start", f"Scene at {n}").ok
        if self.scene_open and self.rng.random() < 0.7:
            self.event_open = self.do("event", "start", f"Event at {n}", "--simultaneous").ok

    def new_trait(self) -> None:
        rng = self.rng
        name = rng.choice(list(self.pcs))
        tname, mod, cost, target = rng.choice(self.TRAITS)
        tname = f"{tname} {len(self.play.cmds)}"
        if self.do("trait", "add", name, tname, mod, "--cost", cost, "--target", target).ok:
            self.pcs[name]["traits"].append({"name": tname, "modifier": mod, "cost": cost, "target": target,
                                             "frequency": "always"})


class BeerRunGen(Generator):
    """Beer Run: characters, GM characters and a difficulty pool; several conflicts, each played round by
    round (goals, situational goals, helping rolls, pools with extra dice, situation and penalty dice, pips),
    interleaved; cedes, Intensity changes and outcome dice now and then."""

    system = "beer-run"
    PCS = {"Ann": "Physical:Brawn={},Physical:Health={},Mental:Wits={},Social:Charm={}",
           "Cal": "Physical:Health={},Physical:Reflexes={},Mental:Nerve={},Social:Fast Talk={}",
           "Dee": "Physical:Health={},Mental:Lore={},Mental:Guts={},Social:Poise={}"}
    GMS = {"Bouncer": "Physical:Muscle={},Physical:Health={},Mental:Attention={},Social:Intimidate={}",
           "Guard": "Physical:Health={},Physical:Grip={},Mental:Alert={},Social:Bark={}"}
    SIZES = ("d4", "d6", "d6", "d8", "d8", "d10")

    def __init__(self, rng: random.Random, play: Play, size: int) -> None:
        super().__init__(rng, play, size)
        self.sheets: dict[str, dict[str, Any]] | None = None
        self.conflicts: dict[str, dict[str, Any]] = {}
        self.kinds: dict[str, str] = {}

    def sheet(self, name: str) -> dict[str, Any]:
        if self.sheets is None:
            data = self.play.read("beer-run", "sheet") or []
            self.sheets = {s["name"]: s for s in data}
        return self.sheets[name]

    def changed(self, r: Result, conflict: str | None = None) -> Result:
        if r.ok:
            self.sheets = None
            if conflict and isinstance(r.data, dict) and isinstance(r.data.get("conflict"), dict):
                self.conflicts[conflict] = r.data["conflict"]
        return r

    def live(self, name: str) -> list[tuple[str, str, int]]:
        """(category, ability, size) of the dice still there, in sheet order."""
        s = self.sheet(name)
        return [(cat, a["name"], a["size"]) for cat, abil in s["abilities"].items() for a in abil if a["size"] > 0]

    def setup(self) -> None:
        rng = self.rng
        self.do("new", f"Undo oracle beer-run {rng.randrange(10**6)}", "--ruleset", "beer-run")
        for name, spec in self.PCS.items():
            self.do("beer-run", "character", "add", name, "--ability",
                    spec.format(*(rng.choice(self.SIZES) for _ in range(4))), "--intensity", str(rng.randint(8, 12)))
            self.kinds[name] = "character"
        for name, spec in self.GMS.items():
            self.do("beer-run", "character", "add", name, "--ability",
                    spec.format(*(rng.choice(self.SIZES) for _ in range(4))), "--intensity", str(rng.randint(6, 10)))
            self.kinds[name] = "character"
        self.do("beer-run", "difficulty", "add", "Locked Door", "--dice",
                f"Lock={rng.choice(self.SIZES)},Bars={rng.choice(self.SIZES)}")
        self.kinds["Locked Door"] = "difficulty"
        plans = [("Back Door", ["Ann", "Bouncer"]), ("Side Alley", ["Cal", "Guard"]),
                 ("Cellar", ["Dee", "Locked Door"])]
        if rng.random() < 0.4:
            plans[0] = ("Back Door", ["Ann", "Cal", "Bouncer"])
        for name, sides in rng.sample(plans, rng.choice((2, 3))):
            args = ["beer-run", "conflict", "open", name]
            for s in sides:
                args += ["--side", s]
            if len(sides) > 2:
                args += ["--target", sides[-1]]
            r = self.changed(self.do(*args))
            if r.ok and isinstance(r.data, dict):
                self.conflicts[name] = r.data.get("conflict") or {}

    def generate(self) -> None:
        self.setup()
        budget, idle = self.size, 0
        while budget > 0 and idle < 6:
            before = len(self.play.cmds) + len(self.play.dropped)
            self.move()
            spent = len(self.play.cmds) + len(self.play.dropped) - before
            idle = idle + 1 if spent == 0 else 0
            budget -= max(spent, 1)

    def move(self) -> None:
        rng = self.rng
        live = [n for n, c in self.conflicts.items() if c.get("phase") != "ended"]
        x = rng.random()
        if not live or x < 0.04:
            return self.extra()
        self.step(rng.choice(live))

    def extra(self) -> None:
        rng = self.rng
        who = rng.choice([n for n, k in self.kinds.items() if k == "character"])
        x = rng.random()
        if x < 0.4:
            self.changed(self.do("beer-run", "intensity", who, "--gain", str(rng.randint(1, 3)), "--reason", "a breather"))
        elif x < 0.7:
            self.changed(self.do("beer-run", "outcome", "gain", who, f"Social:Token {len(self.play.cmds)}=d4",
                                 "--reason", "a win"))
        elif x < 0.9:
            self.changed(self.do("beer-run", "outcome", "inflict", who, "d4", "--reason", "a bruise"))
        else:
            live = [n for n, c in self.conflicts.items() if c.get("phase") != "ended"]
            if live:
                c = rng.choice(live)
                r = self.changed(self.do("beer-run", "conflict", "end", c, "--reason", "the GM calls it"))
                if r.ok:
                    self.conflicts[c]["phase"] = "ended"

    def step(self, name: str) -> None:
        rng = self.rng
        c = self.conflicts[name]
        if not c.get("sides"):
            st = self.play.read("beer-run", "status", name)
            if isinstance(st, list) and st:
                st = st[0]
            if isinstance(st, dict):
                c.update(st)
        sides = c.get("sides", {})
        if c.get("phase") == "effects" or c.get("next_pips"):
            return self.pips(name, c)
        still = [s for s, v in sides.items() if not v.get("out")]
        rolled = [s for s in still if sides[s].get("rolled")]
        if not rolled and rng.random() < 0.05:
            side = rng.choice(still)
            return void(self.changed(self.do("beer-run", "cede", name, side), name))
        for s in still:  # goals first
            if self.kinds.get(s) == "character" and not sides[s].get("goal") and not sides[s].get("rolled"):
                return self.goal(name, c, s)
        if not rolled and rng.random() < 0.2 and self.help(name, c, still):
            return
        waiting = [s for s in still if not sides[s].get("rolled")]
        if waiting:
            self.roll(name, c, waiting[0] if rng.random() < 0.7 else rng.choice(waiting))

    def opponents(self, c: dict[str, Any], side: str) -> list[str]:
        target = c.get("target")
        sides = c.get("sides", {})
        if side == target:
            return [s for s, v in sides.items() if s != side and not v.get("out")]
        return [target] if not sides.get(target, {}).get("out") else []

    def goal(self, name: str, c: dict[str, Any], side: str) -> None:
        rng = self.rng
        opp = self.opponents(c, side)
        x = rng.random()
        if x < 0.2:
            self.changed(self.do("beer-run", "goal", name, side, "find an edge", "--situation",
                                 rng.choice(("d4", "d6"))), name)
        elif x < 0.35 or not opp:
            self.changed(self.do("beer-run", "goal", name, side, "hold the line"), name)
        else:
            abilities = [a for o in opp for (_, a, _) in self.live(o)]
            if not abilities:
                return void(self.changed(self.do("beer-run", "goal", name, side, "hold the line"), name))
            self.changed(self.do("beer-run", "goal", name, side, "take them down", "--ability",
                                 rng.choice(abilities)), name)

    def pool(self, who: str, extras: bool) -> tuple[list[str], list[str], list[int], list[int]]:
        """(base, extra, own dice sizes in pool order, penalty dice sizes) for a roll by `who`."""
        rng = self.rng
        s = self.sheet(who)
        live = self.live(who)
        if s.get("kind") == "difficulty":
            return [], [], [z for (_, _, z) in live], [p["size"] for p in s.get("penalties", [])]
        base: list[str] = []
        sizes: list[int] = []
        for cat in s["abilities"]:
            options = [(a, z) for (k, a, z) in live if k == cat]
            if options:
                a, z = rng.choice(options)
                base.append(a)
                sizes.append(z)
        extra: list[str] = []
        rest = [(a, z) for (_, a, z) in live if a not in base]
        if extras and rest and (s.get("intensity") or 0) >= 3 and rng.random() < 0.35:
            a, z = rng.choice(rest)
            extra.append(a)
            sizes.append(z)
        sizes += [d["size"] for d in s.get("situation", []) if d.get("uses", 0) > 0]
        return base, extra, sizes, [p["size"] for p in s.get("penalties", [])]

    def faces(self, sizes: list[int]) -> str:
        return csv(self.rng.randint(1, z) for z in sizes)

    def roll(self, name: str, c: dict[str, Any], side: str) -> None:
        base, extra, sizes, penalty = self.pool(side, True)
        if self.kinds.get(side) == "character" and (self.sheet(side).get("intensity") or 0) < 1:
            return void(self.changed(self.do("beer-run", "intensity", side, "--gain", "2", "--reason", "second wind")))
        args = ["beer-run", "roll", name, side]
        if base:
            args += ["--base", csv(base)]
        if extra:
            args += ["--extra", csv(extra)]
        args += ["--faces", self.faces(sizes)]
        if penalty:
            args += ["--penalty-faces", self.faces(penalty)]
        goal = c.get("sides", {}).get(side, {}).get("goal") or {}
        if goal.get("kind") == "situation" and goal.get("difficulty"):
            args += ["--difficulty-faces", self.faces(goal["difficulty"])]
        self.changed(self.do(*args), name)

    def help(self, name: str, c: dict[str, Any], still: list[str]) -> bool:
        rng = self.rng
        helpers = [n for n, k in self.kinds.items() if k == "character" and n not in c.get("sides", {})
                   and self.sheet(n).get("status") == "alive" and (self.sheet(n).get("intensity") or 0) >= 1]
        allies = [s for s in still if self.kinds.get(s) == "character" and s != c.get("target")]
        if not helpers or not allies:
            return False
        helper, ally = rng.choice(helpers), rng.choice(allies)
        die = rng.choice(("d4", "d6"))
        _, _, sizes, penalty = self.pool(helper, False)
        args = ["beer-run", "helping", name, helper, ally, "lend a hand", "--die", die,
                "--faces", self.faces(sizes), "--difficulty-faces", self.faces([int(die[1:])] * 3)]
        if penalty:
            args += ["--penalty-faces", self.faces(penalty)]
        return self.changed(self.do(*args), name).ok

    def pips(self, name: str, c: dict[str, Any]) -> None:
        due = c.get("next_pips") or {}
        if not due:
            st = self.play.read("beer-run", "status", name)
            st = st[0] if isinstance(st, list) and st else st
            if isinstance(st, dict):
                c.update(st)
            due = c.get("next_pips") or {}
            if not due:
                return
        on, kept = due["on"], int(due["kept"])
        left = {a: z for (_, a, z) in self.live(on)}
        total = min(kept, sum(left.values()))
        split: dict[str, int] = {}
        for _ in range(total):
            a = self.rng.choice([a for a, z in left.items() if z > 0])
            left[a] -= 1
            split[a] = split.get(a, 0) + 1
        if not split:
            split = {next(iter(left), "Health"): 0}
        self.changed(self.do("beer-run", "pips", name, due["by"], csv(f"{a}={p}" for a, p in split.items())), name)


def void(_: Any) -> None:
    return None


class ActionDiceGen(Generator):
    """Action dice: characters with assets and features; action rolls (ratings, advantage, assets,
    features, tests, GM overrides), conditions set, worsened, eased and treated; asset and feature changes."""

    system = "action-dice"
    ACTIONS = ("climb", "sneak", "persuade", "decipher", "run")
    CONDITIONS = ("Sprained Ankle", "Bruised Ribs", "Shaken")

    def __init__(self, rng: random.Random, play: Play, size: int) -> None:
        super().__init__(rng, play, size)
        self.chars: dict[str, dict[str, Any]] = {}

    def generate(self) -> None:
        rng = self.rng
        self.do("new", f"Undo oracle action-dice {rng.randrange(10**6)}", "--ruleset", "action-dice",
                "--setting", "features_limit=2")
        specs = {"Mara": (["Athletics", "Lockpicks", "Nerve"], ["Cat-like"]),
                 "Tobin": (["Lore", "Charm"], ["Scholar", "Old Debts"]),
                 "Iris": (["Reflexes", "Nerve", "Stealth"], ["Lucky"])}
        for name, (assets, features) in specs.items():
            sizes = {a: rng.choice((4, 6, 8, 10, 12)) for a in assets}
            args = ["action-dice", "character", name]
            for a, z in sizes.items():
                args += ["--asset", f"{a}=d{z}"]
            for f in features:
                args += ["--feature", f]
            if self.do(*args).ok:
                self.chars[name] = {"assets": sizes, "features": list(features), "conditions": {}, "hurt": []}
        budget, idle = self.size, 0
        while budget > 0 and idle < 6:
            before = len(self.play.cmds) + len(self.play.dropped)
            self.move()
            spent = len(self.play.cmds) + len(self.play.dropped) - before
            idle = idle + 1 if spent == 0 else 0
            budget -= max(spent, 1)

    def move(self) -> None:
        rng = self.rng
        name = rng.choice(list(self.chars))
        ch = self.chars[name]
        x = rng.random()
        if x < 0.55:
            self.roll(name, ch)
        elif x < 0.85:
            self.condition(name, ch)
        elif x < 0.93:
            asset = rng.choice(list(ch["assets"]) + ["Grit"])
            z = rng.choice((4, 6, 8, 10, 12))
            if self.do("action-dice", "asset", name, asset, f"d{z}").ok:
                ch["assets"][asset] = z
        else:
            f = f"Knack {len(self.play.cmds)}"
            if self.do("action-dice", "feature", name, f).ok:
                ch["features"].append(f)

    def roll(self, name: str, ch: dict[str, Any]) -> None:
        rng = self.rng
        # mostly the actions a condition impacts (or impacted before it was eased or treated): a roll
        # that a condition change made possible, or that the GM let through, depends on that change
        action = rng.choice(ch["hurt"]) if ch["hurt"] and rng.random() < 0.6 else rng.choice(self.ACTIONS)
        args = ["action-dice", "roll", name, action]
        rating = rng.choice(("XX", "D4", "D6", "D8", "D10", "D12", "++"))
        args += ["--rating", rating]
        if rating == "++":
            args += ["--difficulty", str(rng.randint(7, 10))]
        for _ in range(rng.choice((0, 0, 1, 2))):
            args += ["--advantage"]
        for _ in range(rng.choice((0, 0, 1))):
            args += ["--disadvantage"]
        assets = rng.sample(list(ch["assets"]), rng.randint(0, min(3, len(ch["assets"]))))
        for a in assets:
            args += ["--asset", a]
        for f in rng.sample(ch["features"], rng.randint(0, min(2, len(ch["features"])))):
            args += ["--feature", f]
        sizes = [ch["assets"][a] for a in assets] + [4] * (3 - len(assets))
        args += ["--faces", csv(rng.randint(1, z) for z in sizes)]
        if rng.random() < 0.2:
            args += ["--test"]
        blocked = any(c["level"] == 3 and action in c["impacts"] for c in ch["conditions"].values())
        if blocked:
            if rng.random() < 0.5:
                return
            args += ["--gm-override", "a friend holds the rope"]
        self.do(*args)

    def condition(self, name: str, ch: dict[str, Any]) -> None:
        rng = self.rng
        conds = ch["conditions"]
        if not conds or rng.random() < 0.3:
            cname = rng.choice(self.CONDITIONS)
            level = rng.randint(1, 3)
            impacts = rng.sample(self.ACTIONS, 2)
            r = self.do("action-dice", "condition", name, cname, "--level", str(level), "--impacts", csv(impacts))
            if r.ok:
                conds[cname] = {"level": level, "impacts": impacts}
                ch["hurt"] = sorted(set(ch["hurt"]) | set(impacts))
            return
        cname = rng.choice(list(conds))
        x = rng.random()
        if x < 0.4:
            steps = rng.choice((1, 1, 2))
            if self.do("action-dice", "worsen", name, cname, "--steps", str(steps)).ok:
                conds[cname]["level"] = min(3, conds[cname]["level"] + steps)
        elif x < 0.8:
            steps = rng.choice((1, 1, 2))
            if self.do("action-dice", "ease", name, cname, "--steps", str(steps)).ok:
                conds[cname]["level"] -= steps
                if conds[cname]["level"] < 1:
                    conds.pop(cname)
        else:
            if self.do("action-dice", "treat", name, cname).ok:
                conds.pop(cname)


class Decision2d6Gen(Generator):
    """Decision rolls: characters, decision rolls (targets, difficulties, bonuses, penalties, advantage,
    grants, explosions), contests, supply dice and D100 trackers rolled, restocked and refilled,
    scores changed."""

    system = "decision-2d6"
    LADDER = ("Empty", "D4", "D6", "D8", "D10", "D12")
    LEVELS = ("major-disadvantage", "minor-disadvantage", "neutral", "minor-advantage", "major-advantage")

    def __init__(self, rng: random.Random, play: Play, size: int) -> None:
        super().__init__(rng, play, size)
        self.heroes: dict[str, list[str]] = {}
        self.items: dict[str, str] = {}
        self.trackers: dict[str, int] = {}

    def exploding(self, dice: int) -> list[int]:
        faces: list[int] = []
        need = dice
        while need > 0 and len(faces) < 12:
            f = self.rng.choice((1, 2, 3, 4, 5, 6, 6))
            faces.append(f)
            need += (f == 6) - 1
        while need > 0:  # keep it finite: end the chain on a non-6
            faces.append(1)
            need -= 1
        return faces

    def generate(self) -> None:
        rng = self.rng
        self.do("new", f"Undo oracle decision-2d6 {rng.randrange(10**6)}", "--ruleset", "decision-2d6",
                "--setting", "supply_threshold=3")
        specs = {"Billy": ("Strength=0,Agility=1", "Stealth=2"), "Ogre": ("Strength=3,Wits=-1", ""),
                 "Nell": ("Agility=2,Wits=1", "Lore=1")}
        for name, (stats, attrs) in specs.items():
            args = ["decision-2d6", "pc-add", name, "--level", str(rng.randint(1, 5)), "--will", str(rng.randint(1, 4)),
                    "--fort", str(rng.randint(1, 5)), "--stat", stats]
            if attrs:
                args += ["--attribute", attrs]
            if self.do(*args).ok:
                self.heroes[name] = [kv.split("=")[0] for kv in (stats + ("," + attrs if attrs else "")).split(",")]
        for item, die in (("Torches", "D6"), ("Rations", rng.choice(("D8", "D10")))):
            if self.do("decision-2d6", "item-add", item, "--die", die, "--holder", rng.choice(list(self.heroes))).ok:
                self.items[item] = die
        for tracker, value in (("Arrows", rng.choice((40, 60, 80))), ("Bolts", 100)):
            if self.do("decision-2d6", "tracker-add", tracker, "--value", str(value)).ok:
                self.trackers[tracker] = value
        budget, idle = self.size, 0
        while budget > 0 and idle < 6:
            before = len(self.play.cmds) + len(self.play.dropped)
            self.move()
            spent = len(self.play.cmds) + len(self.play.dropped) - before
            idle = idle + 1 if spent == 0 else 0
            budget -= max(spent, 1)

    def move(self) -> None:
        rng = self.rng
        x = rng.random()
        if x < 0.42:
            self.roll()
        elif x < 0.62:
            self.supply()
        elif x < 0.8:
            self.tracker()
        elif x < 0.88:
            self.contest()
        elif x < 0.94:
            name = rng.choice(list(self.heroes))
            stat = rng.choice(self.heroes[name])
            kind = "--attribute" if stat in ("Stealth", "Lore") else "--stat"
            self.do("decision-2d6", "pc-set", name, kind, f"{stat}={rng.randint(-1, 3)}", "--reason", "training")
        else:
            if rng.random() < 0.5 and self.items:
                item = rng.choice(list(self.items))
                die = rng.choice(self.LADDER[2:])
                if self.do("decision-2d6", "restock", item, die, "--reason", "bought in town").ok:
                    self.items[item] = die
            elif self.trackers:
                t = rng.choice(list(self.trackers))
                v = rng.choice((50, 80, 100))
                if self.do("decision-2d6", "tracker-set", t, str(v), "--reason", "new quiver").ok:
                    self.trackers[t] = v

    def roll(self) -> None:
        rng = self.rng
        name = rng.choice(list(self.heroes))
        stat = rng.choice(self.heroes[name])
        args = ["decision-2d6", "roll", name, stat]
        if rng.random() < 0.5:
            args += ["--difficulty", rng.choice(("simple", "challenging", "strenuous", "impossible"))]
        else:
            args += ["--target", str(rng.randint(6, 18))]
        if rng.random() < 0.3:
            args += ["--bonus", str(rng.randint(1, 3))]
        if rng.random() < 0.3:
            args += ["--penalty", str(-rng.randint(1, 3))]
        if rng.random() < 0.2:
            args += ["--modifier", str(rng.randint(-2, 2))]
        level = rng.choice((-2, -1, 0, 0, 0, 1, 2))
        args += ["--advantage", self.LEVELS[level + 2]]
        grants = rng.choice((0, 0, 0, 1))
        args += ["--grant"] * grants
        final = max(-2, min(2, level + grants))
        dice = {2: 3, -2: 1}.get(final, 2)
        args += ["--faces", csv(self.exploding(dice)), "--for", "a try"]
        self.do(*args)

    def supply(self) -> None:
        rng = self.rng
        live = [i for i, d in self.items.items() if d != "Empty"]
        empty = [i for i, d in self.items.items() if d == "Empty"]
        if empty and rng.random() < 0.4:  # the GM lets an Empty item be used anyway
            self.do("decision-2d6", "supply-roll", rng.choice(empty), "--faces", "1", "--for", "scrounge",
                    "--gm-override", "one last torch")
            return
        if not live:
            item = rng.choice(list(self.items))
            if self.do("decision-2d6", "restock", item, "D6", "--reason", "resupplied").ok:
                self.items[item] = "D6"
            return
        item = rng.choice(live)
        size = int(self.items[item][1:])
        face = rng.randint(1, size)
        if self.do("decision-2d6", "supply-roll", item, "--faces", str(face), "--for", "use it").ok and face <= 3:
            self.items[item] = self.LADDER[self.LADDER.index(self.items[item]) - 1]

    def tracker(self) -> None:
        rng = self.rng
        live = [t for t, v in self.trackers.items() if v > 0]
        out = [t for t, v in self.trackers.items() if v <= 0]
        if out and rng.random() < 0.4:  # the GM lets a 0% tracker be used anyway
            self.do("decision-2d6", "tracker-roll", rng.choice(out), "--faces", str(rng.randint(1, 100)),
                    "--for", "the last arrow", "--gm-override", "found one more")
            return
        if not live:
            t = rng.choice(list(self.trackers))
            if self.do("decision-2d6", "tracker-set", t, "70", "--reason", "refill").ok:
                self.trackers[t] = 70
            return
        t = rng.choice(live)
        face = rng.randint(1, 100)
        r = self.do("decision-2d6", "tracker-roll", t, "--faces", str(face), "--for", "loose a volley")
        if r.ok and isinstance(r.data, dict) and isinstance(r.data.get("after"), int):
            self.trackers[t] = r.data["after"]

    def contest(self) -> None:
        rng = self.rng
        a, b = rng.sample(list(self.heroes), 2)
        sa, sb = rng.choice(self.heroes[a]), rng.choice(self.heroes[b])
        base = ["decision-2d6", "contest", f"{a}:{sa}", f"{b}:{sb}", "--for", "a shoving match"]
        if rng.random() < 0.3:
            base += ["--grant", a]
        rounds = [f"{csv(self.exploding(2))}/{csv(self.exploding(2))}"]
        for _ in range(4):
            args = list(base)
            for rd in rounds:
                args += ["--faces", rd]
            r = self.do(*args)
            if r.ok or "tie" not in r.error:
                return
            rounds.append(f"{csv(self.exploding(2))}/{csv(self.exploding(2))}")


GENERATORS: dict[str, type[Generator]] = {"relics": RelicsGen, "beer-run": BeerRunGen,
                                          "action-dice": ActionDiceGen, "decision-2d6": Decision2d6Gen}


# --- state dumps and comparison ------------------------------------------------------------------

# Columns that hold the entry at which something ended: only whether it ended is state.
ENDED_KEYS = {"ended", "ended_at", "resolved_at", "closed_at", "retired_at"}


def norm(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: (v is not None if k in ENDED_KEYS and (v is None or type(v) is int) else norm(v))
                for k, v in x.items() if k not in DROP_KEYS}
    if isinstance(x, list):
        return [norm(v) for v in x]
    return x


def read_tables(path: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        for name in names:
            if name in LOG_TABLES or name.startswith("sqlite_"):
                continue
            cur = con.execute(f'SELECT * FROM "{name}"')
            cols = [d[0] for d in cur.description]
            rows = [norm({c: v for c, v in zip(cols, row)}) for row in cur.fetchall()]
            out[name] = sorted(rows, key=lambda rec: json.dumps(rec, sort_keys=True, default=str))
    finally:
        con.close()
    return out


def dump(camp: Campaign, system: str) -> tuple[dict[str, Any], list[str]]:
    """Every read view (normalized) and every state read table; problems found on the way."""
    problems: list[str] = []
    views: dict[str, Any] = {}
    for label, args in READ_VIEWS[system]:
        r = camp.call(*args)
        views[label] = norm(r.data) if r.ok else f"<refused: {r.error}>"
        if not r.ok:
            problems.append(f"read view `{' '.join(args)}` refused: {r.error}")
    try:
        for name, rows in read_tables(camp.path).items():
            views[f"table:{name}"] = rows
    except sqlite3.Error as e:
        problems.append(f"read tables unreadable: {e}")
    return views, problems


def audit(camp: Campaign) -> str | None:
    r = camp.call("audit")
    if r.ok and isinstance(r.data, dict) and r.data.get("clean") is True:
        return None
    if isinstance(r.data, dict):
        return f"audit not clean: broken_entry={r.data.get('broken_entry')} read_tables_differ={r.data.get('read_tables_differ')}"
    return f"audit not clean (exit {r.rc}): {r.error}"


def unordered(x: Any) -> Any:
    """The same value with every list sorted: equal here but not as given means only an order differs."""
    if isinstance(x, dict):
        return {k: unordered(v) for k, v in x.items()}
    if isinstance(x, list):
        return sorted((unordered(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    return x


def compare_views(a: dict[str, Any], b: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(keys whose content differs, keys that differ only in the order of a list)."""
    content, order = [], []
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        (order if unordered(a.get(key)) == unordered(b.get(key)) else content).append(key)
    return content, order


def diff_views(a: dict[str, Any], b: dict[str, Any], left: str, right: str, limit: int = 24,
               keys: list[str] | None = None) -> list[str]:
    lines: list[str] = []
    for key in (keys if keys is not None else sorted(set(a) | set(b))):
        if a.get(key) == b.get(key):
            continue
        only_order = unordered(a.get(key)) == unordered(b.get(key))
        ta = json.dumps(a.get(key), indent=1, sort_keys=True, default=str).splitlines()
        tb = json.dumps(b.get(key), indent=1, sort_keys=True, default=str).splitlines()
        d = [ln for ln in difflib.unified_diff(ta, tb, left, right, n=1, lineterm="")][2:]
        lines.append(f"{key} differs{' (only the order of a list)' if only_order else ''}:")
        lines += ["    " + ln for ln in d[:limit]]
        if len(d) > limit:
            lines.append(f"    ... {len(d) - limit} more diff lines")
    return lines


def compare_into(t: "Trial", a: dict[str, Any], b: dict[str, Any], left: str, right: str, what: str,
                 kind: str, ignore_order: bool) -> None:
    content, order = compare_views(a, b)
    if content:
        t.fail(kind, f"{what}: state differs ({', '.join(content)}):")
        t.details += ["  " + ln for ln in diff_views(a, b, left, right, keys=content)]
    if order and not ignore_order:
        t.fail(kind + " (list order only)", f"{what}: only the order of a list differs ({', '.join(order)}):")
        t.details += ["  " + ln for ln in diff_views(a, b, left, right, keys=order, limit=12)]


# --- one trial ----------------------------------------------------------------------------------

@dataclass
class Trial:
    system: str
    seed: str
    status: str = "PASS"  # PASS, FAIL, SKIP, ERROR
    summary: str = ""
    details: list[str] = field(default_factory=list)
    kind: list[str] = field(default_factory=list)  # failure classes, for grouping
    workdir: str = ""

    def fail(self, kind: str, line: str) -> None:
        self.status = "FAIL"
        if kind not in self.kind:
            self.kind.append(kind)
        self.details.append(line)


def q(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)


def write_repro(path: str, system: str, cmds: list[Cmd], undo_args: list[str], kept: list[Cmd]) -> None:
    with open(path, "w") as f:
        f.write("#!/bin/sh\n# Reproduce: the original campaign, the undo, and the scratch campaign.\n"
                "# Run in an empty directory with the product's `campaign` on PATH.\nset -u\n")
        f.write("o() { campaign --db original.db \"$@\" >/dev/null || echo \"original refused: $*\"; }\n")
        f.write("s() { campaign --db scratch.db \"$@\" >/dev/null || echo \"SCRATCH REFUSED: $*\"; }\n")
        for c in cmds:
            f.write(f"o {q(c.args)}   # unit: {c.unit}\n")
        f.write(f"campaign --db original.db {q(undo_args)}\n")
        for c in kept:
            f.write(f"s {q(c.args)}\n")
        for label, args in (READ_VIEWS[system] if kept else []):
            f.write(f"echo '== {' '.join(args)}: undone (<) vs scratch (>)'\n"
                    f"campaign --db original.db --json {q(args)} > o_{label}.json\n"
                    f"campaign --db scratch.db --json {q(args)} > s_{label}.json\n"
                    f"diff o_{label}.json s_{label}.json\n")


ROUND_KEY = re.compile(r"^.+:\d+$")


def single_command_units_reused(cmds: list[Cmd]) -> dict[str, list[int]]:
    """Units other than rounds (`Challenge:2`, `Conflict:1`) are one command each (README: a Push the
    Limit, a roll, a condition change ... are each their own unit): such a name on two commands means
    two units were filed under one name."""
    seen: dict[str, list[int]] = {}
    for i, c in enumerate(cmds):
        if c.unit and not ROUND_KEY.match(c.unit):
            seen.setdefault(c.unit, []).append(i)
    return {k: v for k, v in seen.items() if len(v) > 1}


def undo_unit(camp: Campaign, unit: str) -> tuple[str, list[str], list[str], str]:
    """(outcome, reversed units, the undo argv used, message). outcome: direct, cascade, refused."""
    r = camp.call("undo", unit, "--yes")
    if r.ok:
        return "direct", [x["unit"] for x in (r.data or {}).get("reversed", [])], ["undo", unit, "--yes"], ""
    first = r.error
    if "--cascade" not in first:
        return "refused", [], ["undo", unit, "--yes"], first
    r2 = camp.call("undo", unit, "--cascade", "--yes")
    if r2.ok:
        return "cascade", [x["unit"] for x in (r2.data or {}).get("reversed", [])], \
            ["undo", unit, "--cascade", "--yes"], first
    return "refused", [], ["undo", unit, "--cascade", "--yes"], f"{first} / with --cascade: {r2.error}"


def entry_count(camp: Campaign) -> int | None:
    r = camp.call("history", "--limit", "1")
    if r.ok and isinstance(r.data, list) and r.data:
        return r.data[-1].get("entry")
    return None


def check(t: Trial, cli: Cli, system: str, cmds: list[Cmd], orig: Campaign, workdir: str,
          units: list[str], opts: argparse.Namespace, expect_refusal: bool = False,
          expect_reversed: set[str] | None = None) -> None:
    """Undo one of `units` (tried in order) on `orig`, then check the property."""
    reused = single_command_units_reused(cmds)
    for key, where in reused.items():
        t.fail("unit name reused", f"unit {key!r} names {len(where)} separate commands "
               f"({', '.join(q(cmds[i].args) for i in where)}): undo treats them as one unit")
    chosen = None
    tried = []
    before = entry_count(orig)
    for unit in units[:opts.tries]:
        outcome, reversed_units, undo_args, msg = undo_unit(orig, unit)
        if outcome == "refused":
            tried.append(f"{unit!r} ({msg.split(' / with --cascade: ')[-1]})")
            if len(tried) == 1 and entry_count(orig) != before:  # "a refused command appends nothing"
                t.fail("refused undo appended entries", f"undo {unit!r} was refused but the ledger grew")
            continue
        chosen = (unit, outcome, reversed_units, undo_args, msg)
        break
    if chosen is None:
        if t.status != "FAIL":
            t.status = "SKIP"
        t.summary = (f"{len(cmds)} cmds; none of {len(tried)} candidate units could be undone, even with "
                     f"--cascade; first: {tried[0] if tried else '-'}")
        if opts.verbose:
            t.details += [f"refused even with --cascade: {x}" for x in tried]
        if t.status == "FAIL":
            key = next(iter(reused), units[0] if units else "")
            write_repro(os.path.join(workdir, "repro.sh"), system, cmds, ["undo", key, "--dry-run"], [])
        return
    unit, outcome, reversed_units, undo_args, msg = chosen
    if expect_refusal and outcome != "cascade":
        t.fail("undo without --cascade accepted", f"undo {unit!r} without --cascade was accepted; expected a refusal")
    if outcome == "direct" and reversed_units != [unit]:
        t.fail("undo reversed other units", f"undo {unit!r} (no --cascade) reversed {reversed_units}")
    if unit not in reversed_units:
        t.fail("undo did not reverse its unit", f"undo {unit!r} reversed {reversed_units}, not the unit itself")
    rset = set(reversed_units)
    if not rset & {c.unit for c in cmds}:
        t.details.append("nothing the oracle recorded was reversed; no scratch campaign to compare")
        return
    known = {c.unit for c in cmds if c.unit}
    if rset - known:
        t.status = "ERROR"
        t.details.append(f"oracle: the product reversed units the oracle never recorded: {sorted(rset - known)}")
        return
    if expect_reversed is not None and rset != expect_reversed:
        t.fail("cascade reversed an unexpected set", f"expected to reverse {sorted(expect_reversed)}, got {sorted(rset)}")
    kept = [c for c in cmds if c.unit not in rset]
    redo = [c for c in cmds if c.unit in rset]
    # Every command before the first reversed one is kept: unless --full-replay, the scratch campaign
    # starts from the copy of the original taken just before it and replays the kept commands after it.
    first = min(i for i, c in enumerate(cmds) if c.unit in rset)
    start = 0
    scratch_path = os.path.join(workdir, "scratch.db")
    if not opts.full_replay and cmds[first].snapshot and os.path.exists(cmds[first].snapshot):
        copy_campaign(cmds[first].snapshot, scratch_path)
        start = first
    t.summary = (f"{len(cmds)} cmds; undo {unit!r} {'(--cascade) ' if outcome == 'cascade' else ''}"
                 f"reversed {len(rset)} unit{'s' * (len(rset) != 1)} / {len(redo)} cmds"
                 + (f"; {len(tried)} candidate(s) refused first, even with --cascade" if tried else ""))
    if tried and opts.verbose:
        t.details += [f"refused even with --cascade: {x}" for x in tried]
    # the scratch campaign: the kept commands, in order
    scratch = Campaign(cli, scratch_path)
    refused = []
    for c in [c for c in cmds[start:] if c.unit not in rset]:
        r = scratch.call(*c.args)
        if not r.ok:
            refused.append((c, r.error))
    for c, err in refused[:3]:
        t.fail("kept command refused in scratch (missed dependent)",
               f"kept command refused in scratch (undo missed a dependent): campaign {q(c.args)} -> {err}")
    if len(refused) > 3:
        t.details.append(f"... and {len(refused) - 3} more kept commands refused")
    for camp, label in ((orig, "undone"), (scratch, "scratch")):
        bad = audit(camp)
        if bad:
            t.fail("audit not clean", f"{label} campaign: {bad}")
    a, pa = dump(orig, system)
    b, pb = dump(scratch, system)
    for p in pa + pb:
        t.details.append(p)
    compare_into(t, a, b, "undone", "scratch", "after undo vs the scratch campaign", "state differs from scratch",
                 opts.ignore_order)
    if t.status == "PASS" and opts.redo and redo:
        redo_probe(t, system, orig, scratch, redo[:opts.redo], opts.ignore_order)
    if t.status == "FAIL":
        write_repro(os.path.join(workdir, "repro.sh"), system, cmds, undo_args, kept)


def redo_probe(t: Trial, system: str, undone: Campaign, scratch: Campaign, redo: list[Cmd],
               ignore_order: bool) -> None:
    """Play the reversed commands again on both campaigns: accepted or refused alike, the same reports
    (less entry numbers, times and the unit's name, which may hold an aggregate's version), equal state."""
    for i, c in enumerate(redo):
        ru, rs = undone.call(*c.args), scratch.call(*c.args)
        if ru.ok != rs.ok:
            t.fail("redo differs (hidden state not restored)",
                   f"redo probe, command {i + 1}: campaign {q(c.args)} -> undone: "
                   f"{'accepted' if ru.ok else ru.error}; scratch: {'accepted' if rs.ok else rs.error}")
            return
        if ru.ok:
            nu, ns = norm(ru.data), norm(rs.data)
            for n in (nu, ns):
                if isinstance(n, dict):
                    n.pop("unit", None)
            if nu != ns:
                t.fail("redo differs (hidden state not restored)",
                       f"redo probe, command {i + 1}: campaign {q(c.args)} reports differ:")
                t.details += ["  " + ln for ln in diff_views({"report": nu}, {"report": ns}, "undone", "scratch")]
                return
    for camp, label in ((undone, "undone+redo"), (scratch, "scratch+redo")):
        bad = audit(camp)
        if bad:
            t.fail("audit not clean", f"{label} campaign: {bad}")
    a, _ = dump(undone, system)
    b, _ = dump(scratch, system)
    compare_into(t, a, b, "undone+redo", "scratch+redo", f"after the redo probe ({len(redo)} cmds)",
                 "redo differs (hidden state not restored)", ignore_order)


def middle_units(rng: random.Random, cmds: list[Cmd]) -> list[str]:
    """Undoable units whose first command lies in the middle half of the sequence, shuffled."""
    first: dict[str, int] = {}
    for i, c in enumerate(cmds):
        if c.unit and c.unit not in first:
            first[c.unit] = i
    n = len(cmds)
    middle = [u for u, i in first.items() if n * 0.25 <= i <= n * 0.75]
    if not middle:
        middle = list(first)[len(first) // 3: max(len(first) // 3 + 1, 2 * len(first) // 3)]
    rng.shuffle(middle)
    rest = [u for u in first if u not in middle]
    rng.shuffle(rest)
    return middle + rest


def random_trial(cli: Cli, system: str, seed: int, root: str, opts: argparse.Namespace) -> Trial:
    t = Trial(system, str(seed))
    workdir = os.path.join(root, f"{system}-{seed}")
    os.makedirs(workdir, exist_ok=True)
    t.workdir = workdir
    try:
        rng = random.Random(f"{system}:{seed}")
        orig = Campaign(cli, os.path.join(workdir, "original.db"))
        play = Play(orig)
        GENERATORS[system](rng, play, opts.size).generate()
        cmds = play.cmds
        with open(os.path.join(workdir, "campaign_ledger.commands.json"), "w") as f:
            json.dump({"commands": [{"args": c.args, "unit": c.unit} for c in cmds],
                       "dropped": [{"args": a, "error": e} for a, e in play.dropped]}, f, indent=1)
        units = middle_units(rng, cmds)
        if not units:
            t.status, t.summary = "SKIP", "the generated sequence holds no undoable unit"
            return t
        check(t, cli, system, cmds, orig, workdir, units, opts)
        t.summary += f"; {len(play.dropped)} refused during generation (dropped)"
        if opts.verbose:
            t.details += [f"dropped: campaign {q(a)} -> {e}" for a, e in play.dropped]
    except Exception as e:  # an oracle bug, reported as such
        t.status = "ERROR"
        t.details.append(f"oracle error: {type(e).__name__}: {e}")
    return t


def run_fixed(cli: Cli, root: str, opts: argparse.Namespace, case: "Fixed") -> Trial:
    t = Trial(case.system, case.name)
    workdir = os.path.join(root, f"{case.system}-{case.name}")
    os.makedirs(workdir, exist_ok=True)
    t.workdir = workdir
    try:
        orig = Campaign(cli, os.path.join(workdir, "original.db"))
        play = Play(orig)
        for args in case.script:
            r = play.do(*args)
            if not r.ok:
                t.status = "ERROR"
                t.details.append(f"oracle: fixed script refused: campaign {q(args)} -> {r.error}")
                return t
        check(t, cli, case.system, play.cmds, orig, workdir, [case.unit], opts,
              expect_refusal=case.expect_refusal, expect_reversed=case.expect_reversed)
        if case.why:
            t.summary = f"[{case.why}] {t.summary}"
    except Exception as e:
        t.status = "ERROR"
        t.details.append(f"oracle error: {type(e).__name__}: {e}")
    return t


@dataclass
class Fixed:
    system: str
    name: str
    script: list[list[str]]
    unit: str
    expect_refusal: bool = False  # undo without --cascade must be refused
    expect_reversed: set[str] | None = None  # the units --cascade must reverse
    why: str = ""


GUARDS = "Vault Guards"
# The product's own demo (ledger/demo.py) as CLI commands: three rounds of one Challenge, round 1 a
# Disaster, round 2 a critical and a botch that leave Bo Stressed Out, Bo Pushes the Limit, round 3
# resolves the Challenge.
DEMO_SCRIPT = [
    ["new", "The Moon Heist"],
    ["pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom"],
    ["pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2,Stallion=1", "--primary", "Venger"],
    ["pc", "add", "Ash", "--expertise", "Sparrow=3,Stallion=2,Phantom=1", "--primary", "Sparrow"],
    ["trait", "add", "Kira", "Shadowstep", "+1 / 1d", "--cost", "free", "--target", "cohort"],
    ["trait", "add", "Kira", "Smoke Bomb", "-1 / 1d", "--cost", "destiny", "--target", "challenge"],
    ["trait", "add", "Bo", "Steady Hands", "+2 / 1d", "--cost", "destiny-or-doom", "--target", "cohort"],
    ["session", "start", "Session 1: the vault"],
    ["scenario", "start", "Night at the Vault"],
    ["challenge", "open", GUARDS, "--threat", "Major", "--type", "Phantom", "--rating", "5"],
    ["trait", "add", GUARDS, "Alarm Bells", "-1 / 1d", "--challenge", "--cost", "doom", "--target", "cohort"],
    ["cohort-turn", GUARDS, "--leader", "Kira", "--trait", "Kira:Shadowstep", "--trait", f"{GUARDS}:Alarm Bells",
     "--faces", "1,1,2,3,6", "--place", "Alarm Bells=5", "--place", "Shadowstep=4"],
    ["challenge-turn", GUARDS, "--trait", "Kira:Smoke Bomb", "--faces", "6,6,6,5,5", "--place", "Smoke Bomb=1",
     "--stress", "Bo=5"],
    ["cohort-turn", GUARDS, "--trait", "Bo:Steady Hands=doom", "--destiny", "1", "--faces", "6,5,4,3,5,1",
     "--place", "Steady Hands=1"],
    ["challenge-turn", GUARDS, "--faces", "6,5", "--stress", "Bo=5"],
    ["push", "Bo"],
    ["cohort-turn", GUARDS, "--faces", "6,6,2,3,4"],
    ["session", "end"],
]

# The same shape with a temporary trait that ends when round 3 resolves the Challenge: the Disaster
# of round 1 becomes a Cohort trait that lasts the Challenge.
EXPIRY_SCRIPT = [
    ["new", "The Moon Heist (a trait that ends with the Challenge)"],
    ["pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom"],
    ["pc", "add", "Bo", "--expertise", "Venger=4,Phantom=2", "--primary", "Venger"],
    ["scenario", "start", "Night at the Vault"],
    ["challenge", "open", GUARDS, "--threat", "Minor", "--type", "Phantom", "--rating", "4"],
    ["cohort-turn", GUARDS, "--leader", "Kira", "--faces", "1,1,2,3"],          # a Disaster: -2
    ["challenge-turn", GUARDS, "--faces", "5,2,3,4", "--stress", "Kira=1,Bo=0"],
    ["disaster-trait", GUARDS, "Rattled", "-1 / 1d", "--on", "Cohort", "--lasts", "challenge"],
    ["cohort-turn", GUARDS, "--faces", "5,5,3,4"],                               # 2 resolved
    ["challenge-turn", GUARDS, "--faces", "5,6", "--stress", "Kira=1,Bo=1"],
    ["cohort-turn", GUARDS, "--faces", "6,5,2,3"],                               # resolved: Rattled ends
]


# A round in the middle whose effect a later round relied on without writing anything it wrote: H:1
# resolves H, so when G:1 leaves Kira (the only PC facing what is left) Stressed Out, the Event and
# the Scene end; without H:1 nothing ends.
EVENT_SCRIPT = [
    ["new", "Middle round"],
    ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"],
    ["pc", "add", "Bo", "--expertise", "Venger=3", "--primary", "Venger"],
    ["house-rule", "set", "stressed_out_at", "3", "--reason", "quick"],
    ["scenario", "start", "S"],
    ["scene", "start", "Sc"],
    ["event", "start", "E", "--simultaneous"],
    ["challenge", "open", "H", "--threat", "Common", "--type", "Venger", "--rating", "1", "--group", "Bo"],
    ["challenge", "open", "G", "--threat", "Common", "--type", "Phantom", "--rating", "5", "--group", "Kira"],
    ["cohort-turn", "H", "--leader", "Bo", "--faces", "5,2,2"],                   # H:1 resolves H
    ["cohort-turn", "G", "--leader", "Kira", "--faces", "2,2,2"],
    ["challenge-turn", "G", "--faces", "5,5,5,2,2", "--stress", "Kira=3"],        # Kira Stressed Out
    ["scene", "start", "Next"],
]

# Two Pushes the Limit at the same Agony (a Growth Test in between) get the same unit name.
REPUSH_SCRIPT = [
    ["new", "Push twice"],
    ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"],
    ["pc", "add", "Bo", "--expertise", "Venger=3", "--primary", "Venger"],
    ["house-rule", "set", "stressed_out_at", "3", "--reason", "quick"],
    ["scenario", "start", "S"],
    ["challenge", "open", "G", "--threat", "Common", "--type", "Phantom", "--rating", "6"],
    ["cohort-turn", "G", "--leader", "Kira", "--faces", "2,2,2"],
    ["challenge-turn", "G", "--faces", "5,5,5,2,2,2", "--stress", "Kira=3,Bo=0"],
    ["push", "Kira"],                                          # Agony 1
    ["growth-test", "Kira", "--pool", "2", "--faces", "5,5"],  # passed: Agony 0
    ["cohort-turn", "G", "--faces", "2,2,2"],
    ["challenge-turn", "G", "--faces", "5,5,5,2,2,2", "--stress", "Kira=3,Bo=0"],
    ["push", "Kira"],                                          # Agony 1 again
]

# Undo a condition change of a character who has other conditions.
ORDER_SCRIPT = [
    ["new", "Order", "--ruleset", "action-dice"],
    ["action-dice", "character", "Iris", "--asset", "Reflexes=d6"],
    ["action-dice", "condition", "Iris", "Shaken", "--level", "1", "--impacts", "climb"],
    ["action-dice", "condition", "Iris", "Bruised Ribs", "--level", "1", "--impacts", "run"],
    ["action-dice", "condition", "Iris", "Sprained Ankle", "--level", "1", "--impacts", "run"],
]

FIXED = [
    Fixed("relics", "fixed-demo", DEMO_SCRIPT, f"{GUARDS}:2", True,
          {f"{GUARDS}:2", "push Bo #1", f"{GUARDS}:3"},
          "the known case: the demo's 3 rounds, round 3 resolves; undo round 2"),
    Fixed("relics", "fixed-expiry", EXPIRY_SCRIPT, f"{GUARDS}:2", True, {f"{GUARDS}:2", f"{GUARDS}:3"},
          "the same with a Disaster trait that ends when round 3 resolves the Challenge"),
    Fixed("relics", "fixed-event-end", EVENT_SCRIPT, "H:1", False, None,
          "a middle round a later round relied on"),
    Fixed("relics", "fixed-repush", REPUSH_SCRIPT, "push Kira #1", False, None,
          "two Pushes the Limit at the same Agony"),
    Fixed("action-dice", "fixed-order", ORDER_SCRIPT, "condition Iris Bruised Ribs #1", False, None,
          "a condition change undone beside other conditions"),
]


# --- main ---------------------------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    """The options; `parser().parse_args([])` gives the defaults a caller in Python starts from."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--system", default="all", help="relics, beer-run, action-dice, decision-2d6 or all")
    p.add_argument("--seeds", type=int, default=4, help="random trials per ruleset (default 4)")
    p.add_argument("--seed-base", type=int, default=1, help="first seed (default 1); seeds are consecutive")
    p.add_argument("--size", type=int, default=30, help="generated commands per trial, roughly (default 30)")
    p.add_argument("--redo", type=int, default=6,
                   help="redo probe: play at most this many reversed commands again on both campaigns (0: off)")
    p.add_argument("--tries", type=int, default=6, help="candidate units tried when undo is refused even with --cascade")
    p.add_argument("--no-fixed", action="store_true", help="leave out the fixed cases")
    p.add_argument("--ignore-order", action="store_true",
                   help="accept views that differ only in the order of a list (reported as FAIL by default)")
    p.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="trials run in parallel (one at a time with --in-process)")
    p.add_argument("--cli", default=os.environ.get("CAMPAIGN_CLI", "campaign"),
                   help="the command that runs the product (default: $CAMPAIGN_CLI or `campaign` on PATH)")
    p.add_argument("--in-process", action="store_true",
                   help="call the project's click group in this process (CliRunner) instead of a `campaign` "
                        "process per call: the same verdicts, about 9x quicker; needs the project importable")
    p.add_argument("--full-replay", action="store_true",
                   help="build the scratch campaign from nothing (default: from a copy of the original taken "
                        "just before the first reversed command, then the kept commands after it)")
    p.add_argument("--workdir", default=None, help="where campaigns are built (default: a new temp dir)")
    p.add_argument("--keep", action="store_true", help="keep the campaigns of passing trials too")
    p.add_argument("-v", "--verbose", action="store_true", help="print details of passing trials too")
    return p


def report(t: Trial, verbose: bool = False) -> list[str]:
    """The lines printed for one trial: its verdict, and its details when it did not pass."""
    lines = [f"{t.status:5} {t.system:13} seed={t.seed:<6} {t.summary}"]
    if t.status != "PASS" or verbose:
        lines += [f"      {line}" for line in t.details]
        if t.status == "FAIL":
            lines.append(f"      campaigns and repro.sh: {t.workdir}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = parser()
    opts = p.parse_args(argv)
    systems = SYSTEMS if opts.system == "all" else tuple(s.strip() for s in opts.system.split(","))
    for s in systems:
        if s not in SYSTEMS:
            p.error(f"unknown system {s!r}; choose from {', '.join(SYSTEMS)} or all")
    if opts.in_process:
        cli: Cli = InProcessCli()
    else:
        argv0 = shlex.split(opts.cli)
        if not shutil.which(argv0[0]):
            print(f"undo oracle: cannot find {argv0[0]!r} (activate the product's virtualenv or pass --cli)",
                  file=sys.stderr)
            return 2
        cli = Cli(argv0)
    root = opts.workdir or tempfile.mkdtemp(prefix="undo-oracle-")
    os.makedirs(root, exist_ok=True)
    started = time.monotonic()

    jobs: list[Callable[[], Trial]] = []
    for s in systems:
        if not opts.no_fixed:
            jobs += [lambda case=case: run_fixed(cli, root, opts, case) for case in FIXED if case.system == s]
        for seed in range(opts.seed_base, opts.seed_base + opts.seeds):
            jobs.append(lambda s=s, seed=seed: random_trial(cli, s, seed, root, opts))

    results: list[Trial] = []
    # In process, trials run one after another in this thread: CliRunner swaps sys.stdout while a call
    # runs, so a verdict printed by another thread meanwhile would land in that call's output.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) if not opts.in_process else None
    with pool or contextlib.nullcontext():
        trials = (pool.submit(j).result for j in jobs) if pool else iter(jobs)
        for get in list(trials):
            t = get()
            results.append(t)
            print("\n".join(report(t, opts.verbose)), flush=True)
            if t.status in ("PASS", "SKIP") and not opts.keep:
                shutil.rmtree(t.workdir, ignore_errors=True)
            elif t.workdir and os.path.isdir(t.workdir):
                for f in os.listdir(t.workdir):  # the copies taken for scratch campaigns
                    if f.startswith("snap-"):
                        os.remove(os.path.join(t.workdir, f))

    passed = sum(t.status == "PASS" for t in results)
    failed = sum(t.status in ("FAIL", "ERROR") for t in results)
    skipped = sum(t.status == "SKIP" for t in results)
    print()
    for s in systems:
        mine = [t for t in results if t.system == s]
        kinds = sorted({k for t in mine for k in t.kind})
        print(f"  {s:13} {sum(t.status == 'PASS' for t in mine)} passed, "
              f"{sum(t.status in ('FAIL', 'ERROR') for t in mine)} failed, {sum(t.status == 'SKIP' for t in mine)} skipped"
              + (f"  [{'; '.join(kinds)}]" if kinds else ""))
    print(f"  {cli.calls} CLI calls, {time.monotonic() - started:.0f}s; campaigns under {root}"
          + ("" if failed or opts.keep else " (passing ones removed)"))
    if skipped:
        print(f"  {skipped} trial(s) skipped: no middle unit could be undone even with --cascade")
    print(f"undo oracle: {passed} passed, {failed} failed")
    if not failed and not opts.keep and not opts.workdir:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
