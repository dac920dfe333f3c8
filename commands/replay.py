"""Replay: a recorded round or roll played again on its own faces with other choices, side by side."""
from __future__ import annotations

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import campaign_of, emit, json_option, show_report
from campaign_ledger.commands.parsing import parse_placing, parse_stress

COMMANDS = click.Group()  # added to `campaign` by cli.py


@COMMANDS.command()
@click.argument("round_name", metavar="[ROUND]", required=False)
@click.option("--leader", help="Another leader.")
@click.option("--assist", "assists", multiple=True, help="Other assisting PCs (repeatable).")
@click.option("--destiny", type=int, help="Other Destiny spent on dice.")
@click.option("--add-trait", "add", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]", help="A trait added.")
@click.option("--drop-trait", "drop", multiple=True, metavar="OWNER:TRAIT", help="A recorded trait removed.")
@click.option("--place", "places", multiple=True, metavar="TRAIT=DICE", help="Other Cohort placements.")
@click.option("--faces", help="Faces for a Cohort pool that now rolls more dice than were recorded.")
@click.option("--challenge-place", "challenge_places", multiple=True, metavar="TRAIT=DICE",
              help="Other Challenge placements.")
@click.option("--challenge-faces", help="Faces for a Challenge pool that now rolls more dice (or all, for a what-if).")
@click.option("--stress", help="Another Stress distribution, e.g. Kira=2,Bo=1.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="A single roll (action-dice, decision-2d6): change one of its choices, e.g. advantages=1.")
@click.option("--commit", is_flag=True, help="Append the correction: a reversal plus the corrected round.")
@click.option("--cascade", is_flag=True, help="With --commit: also reverse every later round.")
@json_option
@click.pass_context
def replay(ctx: click.Context, round_name: str | None, leader: str | None, assists: tuple[str, ...],
           destiny: int | None, add: tuple[str, ...], drop: tuple[str, ...], places: tuple[str, ...],
           faces: str | None, challenge_places: tuple[str, ...], challenge_faces: str | None,
           stress: str | None, sets: tuple[str, ...], commit: bool, cascade: bool) -> None:
    """Re-run a recorded round or roll (default: the latest) on its own faces with other choices, side by side.

    Example: campaign replay "Vault Guards:2" --drop-trait "Bo:Steady Hands" --leader Kira
    """
    from campaign_ledger.ledger.dice import parse_faces
    from campaign_ledger.projections.text import replay_commit_text, replay_text

    report = campaign_of(ctx).replay(
        round_name, leader=leader, assists=assists or None, destiny=destiny, add_traits=add, drop_traits=drop,
        places=parse_placing(places, False).given, faces=parse_faces(faces) if faces else None,
        challenge_places=parse_placing(challenge_places, False).given,
        challenge_faces=parse_faces(challenge_faces) if challenge_faces else None, stress=parse_stress(stress),
        sets=_sets(sets), commit=commit, cascade=cascade)
    if commit:
        return show_report(ctx, report, replay_commit_text)
    emit(ctx, report, replay_text)


def _sets(values: tuple[str, ...]) -> dict[str, str]:
    result = {}
    for value in values:
        key, eq, text = value.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"Write a changed choice as KEY=VALUE, e.g. advantages=1, not '{value}'.")
        result[key.strip()] = text.strip()
    return result
