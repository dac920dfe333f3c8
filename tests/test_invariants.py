"""Invariants over random play (hypothesis): caps hold, replay equals live state, rebuild equals incremental."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger.application import open_ledger
from campaign_ledger.ledger.rulesets.relics.challenge import Challenge
from campaign_ledger.ledger.errors import LedgerError
from campaign_ledger.ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from campaign_ledger.ledger.rulesets.relics.turns import Placing, Throw, TraitUse
from campaign_ledger.projections import runner

PCS = ("Kira", "Bo", "Ash")
faces = st.integers(1, 6)


def _setup(path: str):
    app = open_ledger(path)
    app.start("Prop", "relics", None)
    for name, phantom in zip(PCS, (3, 4, 2)):
        app.add_pc(name, {"Phantom": phantom, "Stallion": 1}, "Phantom")
    app.add_trait("Kira", "Keen", "+1 / 2d", None, "destiny", "cohort")
    app.add_trait("Bo", "Lucky", "A6 / 1d", None, "destiny-or-doom", "cohort")
    app.add_trait("Ash", "Grit", "+2d6", None, "free", "cohort")
    app.start_scenario("S")
    app.open_challenge("Guards", "Major", "Phantom", 12)
    app.add_trait("Guards", "Bells", "-1 / 1d", None, "doom", "cohort", challenge=True)
    return app


def _play_round(app, data) -> None:
    ch = app.repository.get(challenge_id("Guards"))
    if ch.phase == "resolved":
        return
    if ch.phase == "cohort":
        current = ch.leader and app.repository.get(pc_id(ch.leader))
        leader = None if current and not current.stressed_out else data.draw(st.sampled_from(PCS))
        uses = data.draw(st.lists(st.sampled_from([TraitUse("Kira", "Keen"), TraitUse("Bo", "Lucky", "destiny"),
                                                   TraitUse("Bo", "Lucky", "doom"), TraitUse("Ash", "Grit"),
                                                   TraitUse("Guards", "Bells")]), max_size=3, unique_by=lambda u: u.name))
        destiny = data.draw(st.integers(0, 3))
        app.cohort_turn("Guards", leader, None, uses, destiny, Throw(), Placing())
    ch = app.repository.get(challenge_id("Guards"))
    if ch.phase in ("cohort-roll", "challenge-roll"):
        count = ch.pending["pool"]["size"] - len(ch.pending["autos"])
        app.roll("Guards", Throw(tuple(data.draw(st.lists(faces, min_size=count, max_size=count)))),
                 Placing(best=True), None)
    elif ch.phase == "challenge":
        count = ch.rating - ch.resolved
        app.challenge_turn("Guards", [], Throw(tuple(data.draw(st.lists(faces, min_size=count, max_size=count)))),
                           Placing(best=True), None)
    ch = app.repository.get(challenge_id("Guards"))
    if ch.phase == "challenge-stress":
        stress = ch.pending["stress"]
        first = data.draw(st.integers(0, stress))
        app.distribute("Guards", {"Kira": first, "Bo": stress - first})
    for name in PCS:
        if app.repository.get(pc_id(name)).stressed_out and data.draw(st.booleans()):
            app.push_the_limit(name)


def _replayed(app, aggregate_id):
    aggregate = None
    for event in app.events.get(aggregate_id):
        aggregate = event.mutate(aggregate)
    return aggregate


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_play_keeps_every_invariant(tmp_path_factory, data):
    path = str(tmp_path_factory.mktemp("prop") / "c.db")
    app = _setup(path)
    db = runner.connect(path)
    for _ in range(data.draw(st.integers(1, 8))):
        try:
            _play_round(app, data)
        except LedgerError:
            pass  # refusals append nothing (tests/test_refusals.py); the invariants must still hold
        runner.catch_up(app, db)
        camp = app.repository.get(CAMPAIGN_ID)
        in_game = sum(not app.repository.get(pc_id(n)).out for n in PCS)
        assert 0 <= camp.destiny <= 3 * in_game
        assert camp.doom >= 0
    for event in app.events.get(challenge_id("Guards")):
        if isinstance(event, Challenge.PoolBuilt) and event.side == "cohort":
            assert event.pool["size"] <= event.pool["cap"]
    for aggregate_id in (CAMPAIGN_ID, challenge_id("Guards"), *(pc_id(n) for n in PCS)):
        assert vars(_replayed(app, aggregate_id)) == vars(app.repository.get(aggregate_id))
    incremental = list(runner.tables(db))
    runner.rebuild(app, db)
    assert list(runner.tables(db)) == incremental
