"""Replay a contested Relics round: the very faces that were rolled, with other choices.

The round's choices are read back from its events (leader, assists, traits and how
they were paid, Destiny, faces, placements, Stress). The changed round is played on a
scratch copy of the ledger as it stood before it, then the later entries that still
stand (not undone) as recorded. The recorded column is never re-computed: it is the
ledger's own figures, at the round's last entry and now, so a replay cannot disagree
with the record it is compared to. A round that was undone can be replayed too (undo.py
lists only live units, so the lookup of units, reversed ones included, lives here).
"""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger import scratch_folders
from campaign_ledger.ledger.campaign import Campaign
from campaign_ledger.ledger.chain import chained
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from campaign_ledger.ledger.replay import Found, incarnations, incarnations_after, scratch, side_by_side
from campaign_ledger.ledger.rulesets.relics.replay_choices import Changes, changed, described, events_of, recorded_choices
from campaign_ledger.ledger.rulesets.relics.replay_play import play, play_on  # noqa: F401 (the commit plays on a Table)
from campaign_ledger.ledger.units import Unit


def _start(app: Any, unit: Unit) -> int:
    """The round's first entry of play: a committed correction's own reversal comes before it."""
    from campaign_ledger.ledger.reversible import Reversible
    first, last = unit.ranges[0]
    for n in app.recorder.select_notifications(first, last - first + 1, stop=last):
        if not isinstance(app.mapper.to_domain_event(n), Reversible.Reversed):
            return n.id
    return first


def figures(app: Any, challenge: str, versions: dict[Any, int] | None = None) -> dict[str, Any]:
    """Pools, the Challenge and every PC's Stress and Agony; at `versions` (aggregate id -> version) if given."""
    def get(aggregate_id: Any) -> Any:
        if versions is None:
            return app.repository.get(aggregate_id)
        return app.repository.get(aggregate_id, version=versions[aggregate_id])
    camp = get(CAMPAIGN_ID)
    ch = get(challenge_id(challenge))
    result = {"Destiny": camp.destiny, "Doom": camp.doom, f"{ch.name} dice resolved": ch.resolved,
              f"{ch.name} waiting for": ch.phase}
    for name in camp.pcs:
        pc = get(pc_id(name))
        result[f"{name} Stress"] = pc.stress
        result[f"{name} Agony"] = pc.agony
    return result


def ledger_figures(app: Any, challenge: str, entry: int | None = None) -> dict[str, Any]:
    """The ledger's own figures at `entry` (None: now): the aggregates as the record leaves them there
    (each at its version then, asked of the store: no reading of the entries before it)."""
    if entry is None:
        return figures(app, challenge)
    return figures(app, challenge, _VersionsAt(chained(app.recorder), entry))


class _VersionsAt(dict):
    """aggregate id -> its version after `entry`, looked up as `figures` asks for each."""

    def __init__(self, recorder: Any, entry: int) -> None:
        super().__init__()
        self.recorder, self.entry = recorder, entry

    def __missing__(self, aggregate_id: Any) -> int:
        version = version_at(self.recorder, aggregate_id, self.entry)
        if version is None:
            raise KeyError(aggregate_id)
        self[aggregate_id] = version
        return version


def version_at(recorder: Any, aggregate_id: Any, entry: int) -> int | None:
    """The aggregate's version after `entry` (None: not made by then), as `version_at` in
    ledger/chain_queries.py answers it, by bisecting its versions (their entries rise with them):
    a few indexed lookups, where a scan of every version the campaign aggregate ever had (one per
    command of a long campaign) would grow with it."""
    oid = aggregate_id if recorder.id_column != "rowid" else aggregate_id.hex
    table, column = recorder.events_table_name, recorder.id_column
    low, high = (recorder._select(f"SELECT {end}(originator_version) FROM {table} WHERE originator_id = ?",
                                  (oid,))[0][0] for end in ("min", "max"))  # apart, each is one index probe
    if low is None:
        return None

    def entry_of(version: int) -> int:
        rows = recorder._select(f"SELECT {column} FROM {table} WHERE originator_id = ? AND originator_version <= ? "
                                "ORDER BY originator_version DESC LIMIT 1", (oid, version))  # a gap reads its elder
        return rows[0][0]
    if entry_of(low) > entry:
        return None
    while low < high:  # entry_of(low) <= entry throughout
        middle = (low + high + 1) // 2
        low, high = (middle, high) if entry_of(middle) <= entry else (low, middle - 1)
    return low


def recorded_tallies(app: Any, unit: Unit) -> dict[str, int]:
    """Each side's successes as the round's own entries tallied them."""
    return {f"{e.side.capitalize()} successes": e.successes
            for e in events_of(app, unit) if isinstance(e, Challenge.RoundTallied)}


def compare(app: Any, found: Found, changes: Changes) -> dict[str, Any]:
    """The ledger's figures beside the changed round's, after the round and now.

    Recorded: the ledger at the round's last entry, and as it stands now. Replayed: the
    changed round on a copy of the ledger before it, then the later entries still standing.
    """
    unit = found.unit
    record = recorded_choices(app, unit)
    trial = changed(record, changes)
    last = unit.ranges[-1][1]
    with scratch_folders.folder("replay") as tmp:
        what_if = scratch(app, _start(app, unit) - 1, tmp, lazily=True)  # later play reads aggregates alone
        copied = what_if.recorder.max_notification_id() or 0
        replayed = play(what_if, trial)
        notes = replayed.pop("notes")
        result: dict[str, Any] = {"round": unit.key, "undone_at": found.undone_at, "after_round": side_by_side(
            {**recorded_tallies(app, unit), **ledger_figures(app, record.challenge, last)},
            {**replayed, **figures(what_if, record.challenge)})}
        if (app.recorder.max_notification_id() or 0) > last and _as_recorded(app, what_if, found, copied):
            now = ledger_figures(app, record.challenge)  # the later entries would play exactly as recorded
            result["after_later_rounds"] = side_by_side(now, now)
        elif (app.recorder.max_notification_id() or 0) > last:
            for label, action in _later(app, unit):
                try:
                    action(what_if)
                except LedgerError as e:
                    notes.append(f"{label} (changed): could not be played again: {e}")
            result["after_later_rounds"] = side_by_side(ledger_figures(app, record.challenge),
                                                         figures(what_if, record.challenge))
        if found.undone_at is not None:
            notes.insert(0, f"{unit.key} was undone at entry #{found.undone_at}: the recorded figures after the "
                            "round are the ledger's before that undo, and now after it; the replayed round is a "
                            "what-if (--commit plays it again now)")
        result["notes"] = notes
        result["choices"] = {"recorded": described(record), "replayed": described(trial)}
    return result


def _as_recorded(app: Any, what_if: Any, found: Found, copied: int) -> bool:
    """Does the replayed round leave every aggregate it or the record's round touched exactly as the
    record left it? Then every later entry, played on its recorded choices and faces, does what it
    did, and the campaign now is the record's: nothing later need be played again (so a replay of
    an early round costs what the round costs, not what the campaign since costs).

    Undos and corrections after it change nothing here: they are later entries like any other,
    and playing only what still stands (`_later`) ends where the record does, since reversing a
    unit leaves the state a campaign played without it would hold (ledger/undo.py; the undo tests
    check it against a scratch campaign). Not for a round that was itself undone or corrected:
    its what-if keeps the round the record took back."""
    unit = found.unit
    if found.reversal is not None:
        return False
    touched = {e.originator_id for e in events_of(app, unit)}
    touched |= {n.originator_id for n in what_if.recorder.select_notifications(copied, 10**6, inclusive_of_start=False)}
    versions = _VersionsAt(chained(app.recorder), unit.last)
    for aggregate_id in touched:
        try:
            recorded = app.repository.get(aggregate_id, version=versions[aggregate_id]).state()
        except KeyError:
            return False  # the what-if made something the record had not made by then
        if what_if.repository.get(aggregate_id).state() != recorded:
            return False
    return True


NOT_PLAY = ("note",)  # the GM's notes: nothing of the game to play again after a replayed round


def _later(app: Any, unit: Unit) -> list[tuple[str, Any]]:
    """What came after the round and still stands, as actions that play it again on a scratch ledger.

    Units reversed since are left out, and so are the undo entries that reversed only
    units from this round on (this round included: an undone round's what-if plays it).
    """
    every = incarnations_after(app.recorder, unit.first, NOT_PLAY)  # by the names of what follows
    if every is None:
        every = incarnations(app.recorder)
    owner = {first: f for f in every for first, _ in f.unit.ranges}
    reversed_in: dict[int, list[Found]] = {}
    for f in every:
        if f.reversal is not None:
            reversed_in.setdefault(f.reversal[0], []).append(f)
    actions: list[tuple[str, Any]] = []
    played: set[int] = set()
    for first, last, command in chained(app.recorder).commands_after(unit.first):
        mine = owner.get(first)
        if mine is not None and (mine.unit == unit or mine.reversal is not None):
            continue
        if command == "undo" and all(f.unit.first >= unit.first for f in reversed_in.get(first, [])):
            continue
        if command in NOT_PLAY:
            continue
        events = [app.mapper.to_domain_event(n)
                  for n in app.recorder.select_notifications(first, last - first + 1, stop=last)]
        if mine is not None and any(isinstance(e, Challenge.PoolBuilt) for e in events):
            if mine.unit.first not in played:
                played.add(mine.unit.first)
                choices = recorded_choices(app, mine.unit)
                actions.append((mine.unit.key, lambda target, c=choices: play(target, c)))
            continue
        setup = _setup_actions(app, events, command)
        actions += [(f"entry #{first} ({command})", action) for action in setup]
        if not setup:
            actions.append((f"entry #{first} ({command})", _not_replayed))
    return actions


def _not_replayed(target: Any) -> None:
    raise LedgerError("replay cannot play this kind of entry again")


def _setup_actions(app: Any, events: list[Any], command: str) -> list[Any]:
    """Commands other than rounds, read back from their events (those that can be played again)."""
    from campaign_ledger.ledger.rulesets.relics.character import Character
    actions: list[Any] = []
    for e in events:
        if isinstance(e, Character.PushedTheLimit):
            name = app.repository.get(e.originator_id, version=e.originator_version).name
            actions.append(lambda target, n=name: target.push_the_limit(n))
        elif isinstance(e, Character.Joined):
            actions.append(lambda target, e=e: target.add_pc(e.name, e.expertise, e.primary))
        elif isinstance(e, (Character.TraitGained, Challenge.TraitGained)):
            owner = app.repository.get(e.originator_id, version=e.originator_version).name
            actions.append(lambda target, e=e, o=owner: target.add_trait(
                o, e.name, e.modifier, e.polarity, e.cost, e.target, isinstance(e, Challenge.TraitGained)))
        elif isinstance(e, Campaign.ScenarioStarted):
            actions.append(lambda target, e=e: target.start_scenario(e.title))
        elif isinstance(e, Campaign.SessionStarted):
            actions.append(lambda target, e=e: target.start_session(e.title))
        elif isinstance(e, Campaign.SessionEnded):
            actions.append(lambda target: target.end_session())
        elif isinstance(e, Challenge.Opened):
            actions.append(lambda target, e=e: target.open_challenge(e.name, e.threat, e.type, e.rating))
    return actions


