"""What every attack in bench/attacks/ shares: the `campaign` beside this interpreter run as a GM
would (a whole process, so SIGKILL and concurrency are real), a campaign to attack, and the
ledger's own tables read straight from the file (no read tables caught up on the way).

Run the attacks from the project root with the project's .venv: `.venv/bin/python bench/attacks/X.py`.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CAMPAIGN = str(Path(sys.executable).parent / "campaign")
TRACEBACK_WORDS = ("Traceback", "unexpectedly")


def scratch(prefix: str) -> str:
    """A scratch folder for one attack, in memory when the machine has /dev/shm (the audits each
    write a scratch rebuild; on a syncing disk that is most of a run)."""
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    return tempfile.mkdtemp(prefix=f"campaign-attack-{prefix}-", dir=shm)


def env(**extra: str) -> dict[str, str]:
    """The environment for a `campaign` process: no key, no CAMPAIGN_DB, unless given."""
    e = {k: v for k, v in os.environ.items() if k not in ("CAMPAIGN_KEY", "CAMPAIGN_DB", "CAMPAIGN_COMMAND_KEY")}
    e.update(extra)
    return e


def campaign(db: str, *args: str, timeout: float = 120, memory: int | None = None, fsize: int | None = None,
             **extra: str) -> subprocess.CompletedProcess:
    """`campaign --db DB ARGS` as a process; its exit code, stdout and stderr (`memory`: its address
    space capped at that many bytes, so a runaway read fails instead of taking the machine; `fsize`:
    the largest file it may write, as `ulimit -f` sets)."""
    def cap() -> None:
        import resource
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if fsize:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([CAMPAIGN, "--db", db, *args], capture_output=True, text=True, timeout=timeout,
                          env=env(**extra), preexec_fn=cap if memory or fsize else None)


def start(db: str, *args: str, **extra: str) -> subprocess.Popen:
    """`campaign --db DB ARGS` started, not waited for (to be killed)."""
    return subprocess.Popen([CAMPAIGN, "--db", db, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env(**extra))


def crashed(text: str) -> bool:
    """A traceback or a catch-all message reached the GM."""
    return any(word in text for word in TRACEBACK_WORDS)


def one_error_line(stderr: str) -> bool:
    lines = stderr.strip().split("\n")
    return len(lines) == 1 and lines[0].startswith("Error: ")


def audit(db: str, *args: str, **extra: str) -> tuple[bool, dict[str, Any] | None, str]:
    """Whether `audit` calls the campaign clean, its JSON report (None if it printed none), and what it said."""
    result = campaign(db, "audit", "--json", *args, **extra)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        report = None
    return result.returncode == 0, report, result.stdout + result.stderr


def query(db: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Rows from the file itself, read-only."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def entries(db: str) -> int:
    if not os.path.exists(db):
        return 0
    try:
        return query(db, "SELECT coalesce(max(rowid), 0) FROM stored_events")[0][0]
    except sqlite3.Error:
        return 0


def commands_by_key(db: str) -> dict[str, list[tuple[int, int]]]:
    """Each idempotency key in the command log with the entries of each command that carries it
    (a key on two commands is a doubled command)."""
    found: dict[str, list[tuple[int, int]]] = {}
    for first, last, detail in query(db, "SELECT first_entry, last_entry, detail FROM ledger_commands"):
        try:
            key = json.loads(detail or "{}").get("key")
        except json.JSONDecodeError:
            key = None
        if key:
            found.setdefault(key, []).append((first, last))
    return found


def copy_file(source: str, target: str) -> None:
    """A consistent copy through SQLite's backup (a plain copy can miss the WAL)."""
    for stale in (target, target + "-wal", target + "-shm"):
        if os.path.exists(stale):
            os.remove(stale)
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def heist(db: str) -> None:
    """A Relics campaign ready to play: Kira and Bo, a scenario, the Guards (rating 12)."""
    for line in (("new", "Test Heist"),
                 ("pc", "add", "Kira", "--expertise", "Phantom=3,Venger=1", "--primary", "Phantom"),
                 ("pc", "add", "Bo", "--expertise", "Phantom=3,Venger=4", "--primary", "Venger"),
                 ("scenario", "start", "Night"),
                 ("challenge", "open", "Guards", "--threat", "Major", "--type", "Phantom", "--rating", "12")):
        result = campaign(db, *line)
        assert result.returncode == 0, (line, result.stdout, result.stderr)


def rehash_export(lines: list[str]) -> list[str]:
    """An export with every hash recomputed as import checks them, and its closing line to match:
    what a forger with the program's source does to make an edited file import."""
    from campaign_ledger.ledger.chain import GENESIS, anchor_line, link_hash
    from campaign_ledger.ledger.interchange_check import _command_of, state_of

    header = json.loads(lines[0])
    previous, out, count = header.get("previous_hash") or GENESIS, [lines[0]], 0
    for raw in lines[1:]:
        if not raw.strip():
            continue
        row = json.loads(raw)
        if row.get("end") is True:
            row.update(entries=count, last_hash=previous, anchor=anchor_line(count, previous))
            out.append(json.dumps(row))
            continue
        row["hash"] = previous = link_hash(previous, row["entry"], row["aggregate"], row["version"], row["type"],
                                           state_of(row, 0), _command_of(row), header.get("chain_v2_from"))
        count = row["entry"]
        out.append(json.dumps(row, ensure_ascii=False))
    return out


def why_not_clean(report: dict[str, Any] | None, said: str) -> str:
    """The audit's reason in one line: a stuck table, a broken chain, or read tables that differ."""
    if not report:
        return said.strip()[-200:]
    if report.get("stuck"):
        return f"stuck: {report['stuck']}"
    if report.get("broken_entry") is not None:
        return f"chain: {report.get('chain')}"
    if report.get("read_tables_differ"):
        return f"read tables differ: {str(report['read_tables_differ'])[:200]}"
    return said.strip()[-200:]
