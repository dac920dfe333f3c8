"""What the undo properties of issue 33 share (tests/test_undo_property_relics.py, _rulesets.py).

Play is driven through the ledger application, every command recorded with the entry it began
at. Once play is over one unit is undone (with --cascade: whatever used it goes too), as the undo
oracle (bench/undo_oracle.py) does through the CLI, and the campaign must be as if that had never
been played: a scratch campaign plays the commands kept, each accepted, and the read tables of
the two agree, incrementally and after a rebuild. Tables are compared as the oracle compares
them: all but its logs and ledger internals, through its norm (entry numbers and times dropped,
an `ended` column as ended or not), so a row a reversal should have removed or restored shows.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import Phase
from hypothesis import strategies as st

from bench.undo_oracle import LOG_TABLES, diff_views, norm
from campaign_ledger.ledger import units
from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.projections import runner

# A failing example is reported as drawn: shrinking one of these took over 5 minutes.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@dataclass
class Played:
    """A campaign played through the application, and the commands it accepted, to play again."""

    path: str
    app: Any = None
    commands: list[tuple[int, str, tuple, dict]] = field(default_factory=list)  # (first entry, method, args, kwargs)

    def __post_init__(self) -> None:
        self.app = open_ledger(self.path)

    def __call__(self, method: str, *args: Any, **kwargs: Any) -> bool:
        """One command; a refusal appends nothing (tests/test_refusals.py) and is no failure here."""
        first = (self.app.recorder.max_notification_id() or 0) + 1
        try:
            getattr(self.app, method)(*args, **kwargs)
        except LedgerError:
            return False
        self.commands.append((first, method, args, kwargs))
        return True

    @property
    def entries(self) -> int:
        return self.app.recorder.max_notification_id() or 0


def state(db: Any) -> dict[str, list]:
    """Every read table but the logs and ledger internals, each as a sorted list of normalized rows."""
    return {t: sorted((norm(r) for r in rows), key=repr) for t, rows in runner.tables(db) if t not in LOG_TABLES}


def same(now: dict, expected: dict, label: str, played: str = "") -> None:
    assert now == expected, "\n".join(diff_views(now, expected, label, "never played")) + played


def undo_a_unit(play: Played, scratch_path: str, set_up: int, data: st.DataObject) -> str | None:
    """Undo a unit drawn among those after `set_up` (with --cascade) and check the property against
    a scratch campaign of the commands kept. Returns the unit drawn (None: nothing to undo)."""
    live = {u.key: u for u in units.live_units(play.app.recorder)}
    after = [u for u in live.values() if u.first > set_up]
    if not after:
        return None
    # Rounds are what tables contest most, and a round with other commands played in its midst (a
    # Disaster trait, another Challenge's turn...) is where undo must keep what lies between: each
    # kind is drawn from as often as any unit.
    rounds = [u for u in after if units.ROUND.match(u.key)]
    around = [u for u in rounds if any(u.first < v.first < u.last for v in after)]
    for _ in range(3):  # undo may refuse even with --cascade (a later command outside the rounds changed
        # what the unit changed: README "Undo"); then it appends nothing, and another unit is tried
        target = data.draw(st.sampled_from(data.draw(st.sampled_from([k for k in (after, rounds, around) if k]))))
        entries = play.entries
        try:
            report = play.app.undo(target.key, cascade=True)
            break
        except LedgerError:
            assert play.entries == entries
            after, rounds, around = ([u for u in k if u is not target] for k in (after, rounds, around))
            if not after:
                return None
    else:
        return None
    gone = {e for r in report["reversed"] for e in live[r["unit"]].entries}
    assert target.first in gone
    scratch = open_ledger(scratch_path)
    for first, method, args, kwargs in play.commands:
        if first not in gone:  # a kept command refused here: the undo missed something that used the unit
            getattr(scratch, method)(*args, **kwargs)
    db, fresh = runner.connect(play.path), runner.connect(scratch_path)
    runner.catch_up(play.app, db)
    runner.catch_up(scratch, fresh)
    expected = state(fresh)
    played = "\nplayed (first entry, command; * undone):\n" + "\n".join(
        f"  {'*' if first in gone else ' '} #{first} {method}{args}{kwargs or ''}" for first, method, args, kwargs
        in play.commands) + f"\nundo {target.key!r} --cascade reversed {[r['unit'] for r in report['reversed']]}"
    same(state(db), expected, f"after undo {target.key!r}", played)
    runner.rebuild(play.app, db)
    same(state(db), expected, f"after undo {target.key!r}, rebuilt", played)
    return target.key
