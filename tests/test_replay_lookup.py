"""Replay finds a named round from its own rows of the command log (indexed), not the whole log:
the units it finds must be exactly those the whole log names, after undos, corrections and
replays of undone rounds, in any case of the name."""
from campaign_ledger.ledger import replay, what_if
from campaign_ledger.ledger.application import open_ledger
from tests.test_replay import demo  # noqa: F401 (the demo fixture)


def _same_as_the_whole_log(t) -> list[str]:
    app = open_ledger(t.path)
    every = replay.incarnations(app.recorder)
    keys = {f.unit.key for f in every if replay.named_incarnations(app.recorder, f.unit.key) is not None}
    for key in keys | {k.upper() for k in keys} | {"Vault Guards:9"}:
        whole = [f for f in every if f.unit.key.casefold() == key.casefold()]
        assert (replay.named_incarnations(app.recorder, key) or []) == whole, key
    return sorted(keys)


def test_a_round_found_by_its_rows_is_the_round_the_whole_log_names(demo):  # noqa: F811
    assert _same_as_the_whole_log(demo) == ["Vault Guards:1", "Vault Guards:2", "Vault Guards:3"]
    demo("replay", "Vault Guards:3", "--drop-trait", "nothing", "--commit")  # a second Vault Guards:3
    demo("undo", "--yes")  # the correction: the round it corrected stands again
    demo("undo", "--yes", "Vault Guards:3")  # both Vault Guards:3 now undone
    demo("undo", "--yes", "push Bo #1")
    assert _same_as_the_whole_log(demo) == ["Vault Guards:1", "Vault Guards:2", "Vault Guards:3"]
    app = open_ledger(demo.path)
    found = replay.find_unit(app, "vault guards:3")
    assert found.reversal is not None and found.undone_at == replay.find_unit(app, "Vault Guards:3").undone_at
    assert demo.json("replay", "vault guards:3")["round"] == "Vault Guards:3"


def test_a_name_that_is_no_round_is_found_in_the_whole_log(demo):  # noqa: F811
    app = open_ledger(demo.path)
    assert replay.named_incarnations(app.recorder, "add pc Kira") is None
    assert "There is no round or roll 'Nope:1'" in demo.refused("replay", "Nope:1")


def test_the_log_queries_of_a_replay_use_the_indexes(demo):  # noqa: F811
    import sqlite3

    from campaign_ledger.ledger.unit_log import REVERSING
    conn = sqlite3.connect(demo.path)
    plans = [" ".join(str(r) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))
             for sql, params in (("SELECT * FROM ledger_commands WHERE unit = ? COLLATE NOCASE", ("A:1",)),
                                 (f"SELECT * FROM ledger_commands WHERE {REVERSING} AND first_entry > ?", (3,)))]
    assert "ledger_commands_unit" in plans[0] and "ledger_commands_reversing" in plans[1]


def test_an_aggregate_version_at_an_entry_is_the_stores_answer(demo):  # noqa: F811
    from uuid import UUID

    from campaign_ledger.ledger.chain import chained
    from campaign_ledger.ledger.rulesets.relics.replay import version_at
    app = open_ledger(demo.path)
    log = chained(app.recorder)
    ids = [UUID(r[0]) for r in log._select("SELECT DISTINCT originator_id FROM stored_events")]
    last = log.head()[0]
    assert ids and last > 50
    for aggregate_id in ids:
        assert [version_at(log, aggregate_id, e) for e in range(last + 2)] == \
            [log.version_at(aggregate_id, e) for e in range(last + 2)], aggregate_id


def test_a_scratch_copied_in_bulk_or_as_read_replays_as_one_copied_entry_by_entry(demo, monkeypatch, tmp_path):  # noqa: F811
    from tests.conftest import Table
    from tests.test_replay import _rounds
    other = Table(tmp_path / "d2d6.db")
    other("demo", "--system", "decision-2d6")
    from campaign_ledger.ledger.ids import CAMPAIGN_ID
    app = open_ledger(other.path)  # the campaign loads from a snapshot: its first event says its ruleset
    app.take_snapshot(CAMPAIGN_ID, version=app.repository.get(CAMPAIGN_ID).version)
    rolls = [f.unit.key for f in replay.incarnations(app.recorder)
             if " roll (#" in f.unit.key and not any(w in f.unit.key for w in ("supply", "tracker"))]
    asked = [(demo, k, ()) for k in _rounds(demo)] + [(demo, "Vault Guards:2", ("--leader", "Kira"))] \
        + [(other, k, ()) for k in rolls]
    lazily, fill = [], what_if._lazily
    monkeypatch.setattr(what_if, "_lazily", lambda app, copy, path, upto: lazily.append(upto) or fill(app, copy, path, upto))
    bulk = [t.json("replay", key, *more) for t, key, more in asked]
    assert len(lazily) >= len(asked)  # every round's and roll's what-if was filled as it read
    copies = []
    monkeypatch.setattr(what_if, "_copied_whole", lambda *a: copies.append(a) and False)
    monkeypatch.setattr(what_if, "_lazily", lambda *a: False)
    assert [t.json("replay", key, *more) for t, key, more in asked] == bulk
    assert len(copies) >= len(asked) and len(bulk) > 5 and rolls


def test_the_latest_round_replays_from_a_what_if_filled_as_read_as_from_a_whole_copy(demo, monkeypatch):  # noqa: F811
    """The latest round's what-if copies only the aggregates it reads (what_if.Lazily), not every
    entry before it, and from a snapshot where there is one: the same report as a whole copy gives."""
    from campaign_ledger.ledger.ids import CAMPAIGN_ID

    app = open_ledger(demo.path)  # a snapshot the what-if must load from: the campaign's, a few events back
    app.take_snapshot(CAMPAIGN_ID, version=app.repository.get(CAMPAIGN_ID).version - 3)
    app.close()
    demo("challenge", "open", "Late Door", "--threat", "minor", "--type", "phantom", "--rating", "2", "--rounds", "2")
    demo("cohort-turn", "Late Door", "--leader", "Kira", "--faces", "6,5,2,1,3")
    demo("challenge-turn", "Late Door", "--faces", "6")
    demo("stress", "Late Door", "--stress", "Ash=1")
    asked = [(), ("Late Door:1",), ("Late Door:1", "--leader", "Bo", "--stress", "Bo=1"), ("Late Door:1", "--leader", "Bo")]
    filled, fill = [], what_if._lazily
    monkeypatch.setattr(what_if, "_lazily", lambda app, copy, path, upto: filled.append(upto) or fill(app, copy, path, upto))
    as_read = [demo.json("replay", *args) for args in asked]
    assert len(filled) == len(asked) and as_read[2]["after_round"] != as_read[1]["after_round"]
    monkeypatch.setattr(what_if, "_lazily", lambda *a: False)
    assert [demo.json("replay", *args) for args in asked] == as_read


def test_the_latest_round_found_from_the_logs_end_is_the_one_the_whole_log_finds(demo, monkeypatch, tmp_path):  # noqa: F811
    """`replay` alone finds the newest live round from the end of the command log (its rows, then
    that round's own rows), not the whole log: the same round as the whole log, through undos, a
    correction, a round played again after its undo, rounds interleaved, and a roll (the whole log)."""
    from tests.conftest import Table
    from tests.test_replay_corrected import CORRECTED

    def both(t):
        app = open_ledger(t.path)
        quick, whole = replay._latest_from_the_end(app), None
        with monkeypatch.context() as m:
            m.setattr(replay, "_latest_from_the_end", lambda app: None)
            whole = replay.find_unit(app, None)
        assert replay.find_unit(app, None) == whole
        app.close()
        return quick, whole

    quick = [both(demo)[0]]
    demo("undo", "--yes")  # the newest unit: the round then comes before it, or is it
    quick.append(both(demo)[0])
    demo(*CORRECTED, "--commit")
    quick.append(both(demo)[0])
    demo("challenge", "open", "Late Door", "--threat", "minor", "--type", "phantom", "--rating", "2", "--rounds", "2")
    demo("cohort-turn", "Late Door", "--leader", "Kira", "--faces", "6,5,2,1,3")  # Late Door:1 begun ...
    demo("note", "between the turns")
    quick.append(both(demo)[0])
    demo("challenge", "open", "Side Gate", "--threat", "minor", "--type", "phantom", "--rating", "2", "--rounds", "2")
    demo("cohort-turn", "Side Gate", "--leader", "Kira", "--faces", "6,5,2,1,3")  # a round begun later ...
    demo("challenge-turn", "Side Gate", "--faces", "1")
    demo("challenge-turn", "Late Door", "--faces", "6")
    demo("stress", "Late Door", "--stress", "Ash=1")  # ... than Late Door:1, whose rows end the log
    quick.append(both(demo)[0])
    demo("undo", "--yes", "--cascade")
    quick.append(both(demo)[0])
    assert [q and q.unit.key for q in quick][3:5] == ["Late Door:1", "Side Gate:1"]
    assert sum(q is not None for q in quick) >= 4  # found from the end, most of the time
    other = Table(tmp_path / "d2d6.db")
    other("demo", "--system", "decision-2d6")
    assert both(other)[0] is None  # a roll among the newest units: named from the campaign's start
