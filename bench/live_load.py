"""The live view under load: 50 stream clients for 30 s while the GM plays 100 commands.

Run it from the project root:

    python3 bench/live_load.py [--clients 50] [--seconds 30] [--commands 100]

It makes a campaign in a temporary folder, starts `campaign serve --port 0` as its own process,
opens CLIENTS streams on loopback (asyncio, one connection each), and meanwhile a second process
plays COMMANDS commands (`note`, `trait add` and `note --about`, in turn, each a whole `campaign`
invocation in that process, as a GM's script would run them), spread over the first two thirds of the time. It
prints, for the streams: the updates each received (every client must receive every update the
server sent: the same sequence of entries, ending at the ledger's last), the delay from a command's
end to the first and last client receiving it; for the server: its resident memory (VmRSS) sampled
every second, first and last thirds compared (the commands are played in the first two thirds, so
the last third shows the server idle with every stream open; what grows while commands are played
is the campaign itself, held in SQLite's page caches, bounded by their size); and how long it took to stop on Ctrl-C. It stops by
itself after SECONDS (plus the stop).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}

WRITER = r"""
import json, sys, time
from campaign_ledger.cli import cli
db, count, spread = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
start = time.monotonic()
for i in range(count):
    args = (["note", f"load note {i}", "--tag", "load"] if i % 3 == 0
            else ["trait", "add", "Kira", f"Trick {i}", "+1 / 1d"] if i % 3 == 1
            else ["note", f"about Bo {i}", "--about", "Bo"])
    cli.main(["--db", db, "--json", *args], standalone_mode=False)
    print(json.dumps({"i": i, "done": time.time()}), flush=True)
    time.sleep(max(0.0, start + (i + 1) * spread / count - time.monotonic()))
"""


def campaign(db: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "campaign_ledger.cli", "--db", str(db), *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise SystemExit(f"campaign {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def make(folder: Path) -> Path:
    db = folder / "load.db"
    for args in (["new", "Load Test"], ["pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom"],
                 ["pc", "add", "Bo", "--expertise", "Venger=4", "--primary", "Venger"],
                 ["scenario", "start", "Under load"], ["scene", "start", "The long night"],
                 ["house-rule", "set", "destiny_cap_per_pc", "1000", "--reason", "load"],
                 ["challenge", "open", "Guards", "--threat", "Minor", "--type", "Phantom", "--rating", "4"]):
        campaign(db, *args)
    return db


async def client(port: int, received: list[tuple[int, float]], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    ident = None
    try:
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(reader.readline(), 0.5)
            except asyncio.TimeoutError:
                continue
            if not line:
                break
            text = line.decode().rstrip("\r\n")
            if text.startswith("id:"):
                ident = int(text[3:].strip())
            elif text == "" and ident is not None:
                received.append((ident, time.time()))
                ident = None
    finally:
        writer.close()


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


async def main(clients: int, seconds: float, commands: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="live-load-"))
    db = make(folder)
    server = subprocess.Popen([sys.executable, "-m", "campaign_ledger.cli", "--db", str(db), "--json", "serve", "--port", "0"],
                              cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = json.loads(server.stdout.readline())["port"]
    stop = asyncio.Event()
    streams: list[list[tuple[int, float]]] = [[] for _ in range(clients)]
    tasks = [asyncio.create_task(client(port, streams[i], stop)) for i in range(clients)]
    memory: list[tuple[float, int]] = []
    began = time.monotonic()
    while not all(streams) and time.monotonic() - began < 10:   # every client has its first view
        await asyncio.sleep(0.05)
    writer = await asyncio.create_subprocess_exec(sys.executable, "-c", WRITER, str(db), str(commands),
                                                  str(seconds * 2 / 3), cwd=ROOT, env=ENV,
                                                  stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        memory.append((time.monotonic() - began, rss_kb(server.pid)))
        await asyncio.sleep(1)
    out, err = await writer.communicate()
    stop.set()
    await asyncio.gather(*tasks)
    stopping = time.monotonic()
    server.send_signal(signal.SIGINT)
    server.wait(timeout=30)
    stopped = time.monotonic() - stopping
    report(streams, out.decode(), memory, stopped, db, commands, server.returncode, err.decode())


def report(streams: list[list[tuple[int, float]]], writer_out: str, memory: list[tuple[float, int]],
           stopped: float, db: Path, commands: int, code: int, writer_err: str) -> None:
    done = [json.loads(line)["done"] for line in writer_out.splitlines() if line.startswith("{\"i\"")]
    last = json.loads(campaign(db, "--json", "history", "--limit", "1"))[-1]["entry"]
    sequences = [[ident for ident, _ in s] for s in streams]
    same = all(seq == sequences[0] for seq in sequences)
    print(f"clients: {len(streams)}; commands played: {len(done)} of {commands}; ledger's last entry: #{last}")
    print(f"updates per client: {min(map(len, sequences))}-{max(map(len, sequences))}; every client the same "
          f"sequence: {same}; every client ends at #{last}: {all(seq and seq[-1] == last for seq in sequences)}")
    arrivals: dict[int, list[float]] = {}
    for s in streams:
        for ident, at in s:
            arrivals.setdefault(ident, []).append(at)
    entries = sorted(arrivals)
    delays_first, delays_all = [], []
    for when in done:  # a command's update: the first entry any client saw after the command ended
        later = [e for e in entries if min(arrivals[e]) >= when]
        if later:
            delays_first.append(min(arrivals[later[0]]) - when)
            delays_all.append(max(arrivals[later[0]]) - when)
    if delays_first:
        print(f"command end -> first client: median {statistics.median(delays_first) * 1000:.0f} ms, "
              f"max {max(delays_first) * 1000:.0f} ms; -> all {len(streams)} clients: median "
              f"{statistics.median(delays_all) * 1000:.0f} ms, max {max(delays_all) * 1000:.0f} ms")
    third = max(len(memory) // 3, 1)
    early, late = [kb for _, kb in memory[:third]], [kb for _, kb in memory[-third:]]
    print(f"server memory (VmRSS): first third median {statistics.median(early) / 1024:.1f} MiB, last third "
          f"median {statistics.median(late) / 1024:.1f} MiB, peak {max(kb for _, kb in memory) / 1024:.1f} MiB "
          f"({len(memory)} samples)")
    print(f"server memory in the last third (commands done, {len(streams)} streams still open): "
          f"{min(late) / 1024:.1f}-{max(late) / 1024:.1f} MiB")
    print(f"stopped on Ctrl-C in {stopped:.2f} s, exit code {code}")
    if writer_err.strip():
        print("writer said:", writer_err.strip()[-500:])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--commands", type=int, default=100)
    options = parser.parse_args()
    asyncio.run(main(options.clients, options.seconds, options.commands))
