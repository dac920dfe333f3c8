"""`history --grep` from the FTS5 index against a plain LIKE scan of the history lines.

Run it from the project root:

    python bench/search.py            # 10,000 and 100,000 entries

Each size builds a scratch read file through the migrations (so the index and its triggers
are the ones a campaign file has) and fills the history with lines shaped like a campaign's,
a rare word in one line of 1,000. It then times, RUNS times each, the filter the CLI runs
(`projections.history_search.rows`, which MATCHes `history_fts`) and the query a LIKE scan
would run, checks both find the same entries, and prints the medians and the plan's detail.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

RUNS = 7
WORDS = ("Guards", "Kira", "Bo", "Ash", "Cohort", "pool", "dice", "Destiny", "Doom", "Stress", "round",
         "turn", "resolved", "trait", "Smoke", "Bomb", "vault", "captain", "lead", "assist")


def fill(db, entries: int, seed: int = 13) -> None:
    """History rows like a campaign's; every 1,000th holds the rare word 'zeppelin'."""
    rng = random.Random(seed)
    rows = ({"entry": n, "time": f"2026-11-22T20:{n % 60:02d}:00+00:00", "type": "Challenge.PoolRolled",
             "line": " ".join(rng.choice(WORDS) for _ in range(12)) + (" zeppelin" if n % 1000 == 0 else "")}
            for n in range(1, entries + 1))
    db["history"].insert_all(rows, batch_size=1000)


def _median(run) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    from campaign_ledger.projections import history_search as search
    from campaign_ledger.projections import runner

    for entries in (10_000, 100_000):
        with tempfile.TemporaryDirectory() as scratch:
            db = runner.connect(str(Path(scratch) / "search.db"))
            fill(db, entries)
            fts = [r["entry"] for r in search.rows(db, search.Filters(grep="zeppelin"))]
            like_sql = "SELECT * FROM history WHERE line LIKE ? ORDER BY entry"
            like = [r[0] for r in db.execute(like_sql, ["%zeppelin%"])]
            assert fts == like and len(fts) == entries // 1000, (len(fts), len(like))
            sql, args = search.sql_of(db, search.Filters(grep="zeppelin"))
            plan = "; ".join(r[-1] for r in db.execute("EXPLAIN QUERY PLAN " + sql, args))
            fts_ms = _median(lambda: search.rows(db, search.Filters(grep="zeppelin")))
            like_ms = _median(lambda: db.execute(like_sql, ["%zeppelin%"]).fetchall())
            print(f"{entries:>7} entries, {len(fts)} found: FTS {fts_ms:.2f} ms, LIKE scan {like_ms:.2f} ms "
                  f"({like_ms / fts_ms:.0f}x)\n        plan: {plan}")
            db.conn.close()


if __name__ == "__main__":
    main()
