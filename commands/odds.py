"""`campaign odds`: exact odds of a roll before its dice, for the campaign's ruleset; appends nothing.

One command for every ruleset: it reads which ruleset the campaign plays and hands the rest of
the command line to that ruleset's options (the same options its roll or turn takes), so a GM
types the turn they are thinking of. A malformed option is exit 2, a rule's refusal exit 1.
"""
from __future__ import annotations

from typing import Any, Callable

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import caught_up, emit, json_option
from campaign_ledger.commands.parsing import parse_trait_uses
from campaign_ledger.commands.odds_text import jsonable, relics_text

PARSERS: dict[str, click.Command] = {}  # ruleset id (and a mode: "decision-2d6 contest") -> its odds' options
FREE = "without a campaign"  # the mode of `campaign odds --ruleset ID ...`: the pool described in full


COMMANDS = click.Group()  # added to `campaign` by cli.py


class OddsCommand(click.Command):
    """Its help lists each ruleset's options under the command's own."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for key, parser in PARSERS.items():
            rows = [r for r in (p.get_help_record(ctx) for p in parser.get_params(ctx)) if r and "--help" not in r[0]]
            ruleset, _, mode = key.partition(" ")
            article = "an" if ruleset[0] in "aeiou" else "a"
            title = f"{ruleset}, {mode}" if mode == FREE else f"In {article} {ruleset} campaign{', a ' + mode if mode else ''}"
            with formatter.section(f"{title}: campaign odds {parser.options_metavar}"):
                formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


@COMMANDS.command("odds", cls=OddsCommand, context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@json_option
@click.pass_context
def odds(ctx: click.Context, args: tuple[str, ...]) -> None:
    """Exact odds of a roll before the dice: of the pool waiting on a turn, or of one described with
    the options its turn or roll takes (the campaign's ruleset decides which). Nothing is recorded.
    With --ruleset ID no campaign is opened (none is made): the pool is described in full.

    Example: campaign odds "Vault Guards" --leader Kira --assist Bo --trait Kira:"Keen Eye" --destiny 1
    """
    words = list(args)
    described = _take_ruleset(words)
    if described is not None:  # no campaign file is opened, so none is made
        app = db = None
        key = f"{described} {FREE}"
    else:
        app, db = caught_up(ctx)
        key = app.campaign().ruleset
        if key not in PARSERS:
            raise BadInput(f"Odds for {key} campaigns are not worked out yet.")
        if words and f"{key} {words[0]}" in PARSERS:  # a mode of the ruleset's roll: `campaign odds contest ...`
            key = f"{key} {words.pop(0)}"
    parser = PARSERS[key]
    try:
        with parser.make_context("campaign odds", words, parent=ctx) as sub:
            sub.obj = {"app": app, "db": db}
            result, text = parser.invoke(sub)
    except BadInput as e:  # a value that does not parse is a malformed command: exit 2
        raise click.UsageError(str(e)) from None
    emit(ctx, jsonable(result), lambda _: text(result))


def _take_ruleset(words: list[str]) -> str | None:
    """`--ruleset ID` (or `--ruleset=ID`) anywhere: odds of a pool described in full, without a campaign."""
    for i, word in enumerate(words):
        if word == "--ruleset" or word.startswith("--ruleset="):
            value = word.partition("=")[2] if "=" in word else (words[i + 1] if i + 1 < len(words) else "")
            del words[i:i + (1 if "=" in word else 2)]
            known = [k.partition(" ")[0] for k in PARSERS if k.endswith(FREE)]
            found = [k for k in known if k == value.strip().lower()]
            if not found:
                raise click.UsageError(f"--ruleset takes one of {', '.join(known)}, not '{value}'.")
            return found[0]
    return None


def parser(ruleset: str, usage: str) -> Callable[[Callable[..., Any]], click.Command]:
    """Register a ruleset's odds options (a plain click command, never on `cli` itself)."""
    def register(f: Callable[..., Any]) -> click.Command:
        command = click.command(f"odds ({ruleset})", options_metavar=usage,
                                context_settings={"help_option_names": []})(click.pass_context(f))
        PARSERS[ruleset] = command
        return command
    return register


# --- Relics of the Moon ---------------------------------------------------------------------------

@parser("relics", "CHALLENGE [--challenge-turn] [cohort-turn's Huddle options]")
@click.argument("challenge_name", metavar="CHALLENGE")
@click.option("--challenge-turn", is_flag=True, help="The Challenge turn's pool (with its --trait options).")
@click.option("--leader", help="The PC leading (as cohort-turn).")
@click.option("--assist", "assists", multiple=True, help="An assisting PC. Repeatable.")
@click.option("--trait", "traits", multiple=True, metavar="OWNER:TRAIT[=destiny|doom]", help="A trait activated.")
@click.option("--destiny", type=int, default=0, help="Destiny spent 1:1 for extra dice.")
@click.option("--opportunity", metavar="PC", help="This PC creates an opportunity.")
@click.option("--supplies", metavar="TYPE:RANK[:trade]", help="Supplies spent for the Challenge.")
@click.option("--buy-time", is_flag=True, help="Buy one more round (1 Destiny).")
@click.option("--gm-motto", metavar="PC", help="The GM's Motto (A1 / 1d) on this PC.")
def relics_odds(ctx: click.Context, challenge_name: str, challenge_turn: bool, leader: str | None,
                assists: tuple[str, ...], traits: tuple[str, ...], destiny: int, opportunity: str | None,
                supplies: str | None, buy_time: bool, gm_motto: str | None) -> tuple[dict, Callable]:
    from campaign_ledger.commands.relics import parse_supplies
    from campaign_ledger.ledger.rulesets.relics import odds as odds_of
    from campaign_ledger.ledger.rulesets.relics.odds_pools import Huddle, relics_pool
    from campaign_ledger.ledger.rulesets.relics.turns import Tactics

    tactics = Tactics(opportunity, parse_supplies(supplies), buy_time, gm_motto)
    described = any((challenge_turn, leader, assists, traits, destiny, opportunity, supplies, buy_time, gm_motto))
    if challenge_turn and any((leader, assists, destiny, opportunity, supplies, buy_time, gm_motto)):
        raise BadInput("A Challenge turn's pool takes only --trait; the other options are the Cohort's Huddle.")
    if destiny < 0:
        raise BadInput("Destiny spent on dice cannot be negative.")
    huddle = Huddle(challenge_turn, leader, list(assists) or None, parse_trait_uses(traits), destiny, tactics, described)
    found = relics_pool(ctx.obj["app"], challenge_name, huddle)
    pool = odds_of.pending_pool(found["pending"])
    if found["side"] == "cohort":
        context = odds_of.CohortContext(found["rules"], found["threat"], found["pcs"], found["destiny"],
                                        found["rating"], found["resolved"], (found["test"] or {}).get("needed"))
        figures = odds_of.cohort_odds(pool, context)
    else:
        figures = odds_of.challenge_odds(pool)
    result = {"ruleset": "relics", "challenge": found["challenge"], "round": found["round"], "side": found["side"],
              "waiting": found["waiting"], "assumed_leader": found["assumed_leader"],
              "threat": found["threat"], "rating": found["rating"],
              "already_resolved": found["resolved"],
              "pool": {"roll": pool.rolled, "autos": list(pool.autos),
                       **({"cap": found["pending"]["pool"].get("cap"),
                           "lost_to_cap": found["pending"]["pool"].get("lost_to_cap", 0)}
                          if found["side"] == "cohort" else {}),
                       "simple": [{k: m[k] for k in ("label", "modifier", "polarity")}
                                  for m in found["pending"].get("simple", [])]},
              **figures}
    return result, relics_text
from campaign_ledger.commands import odds_rulesets  # noqa: E402,F401  (registers the other rulesets' odds)
from campaign_ledger.commands import odds_free  # noqa: E402,F401  (and every ruleset's odds without a campaign)
