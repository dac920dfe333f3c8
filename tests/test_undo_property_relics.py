"""Undo over the Relics play a table really has (issue 33): Scenes and simultaneous Events whose
Challenges are faced by groups, Disaster traits lasting a round, a Challenge, an Event or a Scene,
Stress that leaves PCs Stressed Out (which ends the Event and the Scene), Push the Limit, and the
GM ending Scenes and Events. tests/test_undo.py's property plays one Challenge's rounds only.
The property and how state is compared: tests/undo_property.py.
"""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign_ledger.ledger.ids import CAMPAIGN_ID, challenge_id, pc_id
from campaign_ledger.ledger.rulesets.relics.turns import Placing, Throw
from tests.undo_property import NO_SHRINK, Played, undo_a_unit

PCS = ("Kira", "Bo", "Ash")
DURATIONS = ("round", "challenge", "event", "scene")
faces = st.sampled_from((1, 1, 2, 3, 5, 6, 6))  # Disasters (1s) and criticals (6s) both come up


class Play(Played):
    """The campaign under test and the Challenges opened in it."""

    challenges: list[str]

    def __post_init__(self) -> None:
        super().__post_init__()
        self.challenges = []

    def challenge(self, name: str) -> Any:
        return self.app.repository.get(challenge_id(name))

    def open(self, threat: str, type_: str, rating: int, group: list[str]) -> None:
        name = f"Ch{len(self.challenges) + 1}"
        if self("open_challenge", name, threat, type_, rating, group=group):
            self.challenges.append(name)


def _setup(path: str, data: st.DataObject) -> Play:
    p = Play(path)
    p("start", "Undo a whole evening", "relics", None)
    p("add_pc", "Kira", {"Phantom": 3, "Venger": 2}, "Phantom")
    p("add_pc", "Bo", {"Phantom": 2, "Venger": 4}, "Venger")
    p("add_pc", "Ash", {"Phantom": 2, "Venger": 2}, "Phantom")
    p("add_trait", "Kira", "Keen", "+1 / 2d", None, "free", "cohort")
    p("add_trait", "Cohort", "Old Friends", "+1d6", None, "free", "cohort")
    p("set_house_rule", "stressed_out_at", "3", "Stressed Out sooner: Events and Scenes end in play")
    p("start_scenario", "Night at the Vault")
    _new_scene(p, data)
    return p


def _new_scene(p: Play, data: st.DataObject) -> None:
    """A Scene; in it mostly a simultaneous Event of two Challenges, each faced by its own group."""
    p("start_scene", f"Scene {len(p.challenges)}")
    if data.draw(st.integers(0, 3)) < 3:
        p("start_encounter", f"Event {len(p.challenges)}", "simultaneous")
        p.open("Minor", "Phantom", data.draw(st.integers(2, 4)), ["Kira", "Ash"])
        p.open("Minor", "Venger", data.draw(st.integers(2, 4)), ["Bo"])
    else:
        p.open("Common", "Phantom", data.draw(st.integers(2, 4)), [])


def _opening(p: Play, data: st.DataObject) -> None:
    """Open as issue 33's finding 2 did: a Disaster waits on one Challenge of the Event while another
    Challenge's round is under way (a trait made now lies inside that round; undo must keep it)."""
    if len(p.challenges) < 2:
        return
    first, second = p.challenges
    p("cohort_turn", first, "Kira", None, [], 0, Throw(), Placing())
    ch = p.challenge(first)
    if ch.phase == "cohort-roll":
        p("roll", first, Throw((1,) * (ch.pending["pool"]["size"] - len(ch.pending["autos"]))), Placing(best=True), None)
    _turn(p, data, first)  # its Challenge turn and Stress
    _turn(p, data, second)  # the other's Cohort turn


def _facing(p: Play, ch: Any) -> list[str]:
    return [n for n in (ch.group or PCS) if not p.app.repository.get(pc_id(n)).out]


def _turn(p: Play, data: st.DataObject, name: str) -> None:
    """One step of a round of the Challenge: the Cohort's turn, or the Challenge's turn and its Stress."""
    app, ch = p.app, p.challenge(name)
    facing = _facing(p, ch)
    if not facing:
        return
    if ch.phase == "cohort":
        current = ch.leader and app.repository.get(pc_id(ch.leader))
        leader = None if current and not current.stressed_out else data.draw(st.sampled_from(facing))
        p("cohort_turn", name, leader, None, [], 0, Throw(), Placing())
        ch = p.challenge(name)
        if ch.phase == "cohort-roll":
            count = ch.pending["pool"]["size"] - len(ch.pending["autos"])
            p("roll", name, Throw(tuple(data.draw(st.lists(faces, min_size=count, max_size=count)))),
              Placing(best=True), None)
    elif ch.phase == "challenge":
        count = ch.rating - ch.resolved
        p("challenge_turn", name, [], Throw(tuple(data.draw(st.lists(faces, min_size=count, max_size=count)))),
          Placing(best=True), None)
    ch = p.challenge(name)
    if ch.phase == "challenge-stress":
        stress, split = ch.pending["stress"], {n: 0 for n in facing}
        for _ in range(stress):
            split[data.draw(st.sampled_from(facing))] += 1
        p("distribute", name, split)


def _disaster_trait(p: Play, data: st.DataObject, name: str) -> None:
    """The GM's trait after a Disaster, on the side the rules allow, lasting any of the four durations."""
    side = p.challenge(name).disaster["side"]
    on_challenge = data.draw(st.booleans())
    owner = name if on_challenge else data.draw(st.sampled_from(("Cohort", *PCS)))
    hindering = on_challenge == (side == "challenge")
    p("disaster_trait", name, f"Rattled {p.entries}", "-1 / 1d" if hindering else "+1 / 1d", owner,
      data.draw(st.sampled_from(DURATIONS)))


def _move(p: Play, data: st.DataObject) -> None:
    app = p.app
    live = [n for n in p.challenges if p.challenge(n).phase not in ("resolved", "ended")]
    struck = [n for n in p.challenges if p.challenge(n).disaster]
    stressed = [n for n in PCS if app.repository.get(pc_id(n)).stressed_out]
    camp = app.repository.get(CAMPAIGN_ID)
    moves = ["turn"] * 4 * bool(live) + ["disaster"] * 3 * bool(struck) + ["push"] * bool(stressed)
    moves += ["end event"] * (camp.encounter is not None) + ["end scene"] * (camp.scene is not None)
    moves += ["new scene"] * (camp.scene is None or not live)
    move = data.draw(st.sampled_from(moves))
    if move == "turn":
        _turn(p, data, data.draw(st.sampled_from(live)))
    elif move == "disaster":
        _disaster_trait(p, data, data.draw(st.sampled_from(struck)))
    elif move == "push":
        p("push_the_limit", data.draw(st.sampled_from(stressed)))
    elif move == "end event":
        p("end_encounter", "the GM moves on")
    elif move == "end scene":
        p("end_scene", "the GM cuts away")
    else:
        if camp.scene is not None:
            p("end_scene", "")
        _new_scene(p, data)


@settings(max_examples=12, deadline=None, phases=NO_SHRINK,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_undoing_any_unit_of_an_evening_leaves_relics_as_if_it_had_never_been_played(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("undo")
    p = _setup(str(folder / "c.db"), data)
    set_up = p.entries
    _opening(p, data)
    for _ in range(data.draw(st.integers(6, 24))):
        _move(p, data)
    undo_a_unit(p, str(folder / "scratch.db"), set_up, data)
