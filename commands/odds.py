"""`campaign odds`: exact odds of a roll before its dice, for the campaign's ruleset; appends nothing.

One command for every ruleset: it reads which ruleset the campaign plays and hands the rest of
the command line to that ruleset's options (the same options its roll or turn takes), so a GM
types the turn they are thinking of. A malformed option is exit 2, a rule's refusal exit 1.
"""
from __future__ import annotations

from typing import Any

import click

from campaign_ledger.ledger.errors import BadInput
from campaign_ledger.commands.plumbing import emit, json_option, warn
from campaign_ledger.commands.odds_parsers import FREE, PARSERS, Parsed, parser
from campaign_ledger.commands.odds_text import text_of



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
    from campaign_ledger.odds import jsonable, odds_without_campaign

    words = list(args)
    described = _take_ruleset(words)
    campaign = None
    if described is not None:  # no campaign file is opened, so none is made
        key = f"{described} {FREE}"
    else:
        campaign = _campaign(ctx)
        key = campaign.ruleset()
        if key not in PARSERS:
            raise BadInput(f"Odds for {key} campaigns are not worked out yet.")
        if words and f"{key} {words[0]}" in PARSERS:  # a mode of the ruleset's roll: `campaign odds contest ...`
            key = f"{key} {words.pop(0)}"
    parser = PARSERS[key]
    try:
        with parser.make_context("campaign odds", words, parent=ctx) as sub:
            names, options = parser.invoke(sub)
    except BadInput as e:  # a value that does not parse is a malformed command: exit 2
        raise click.UsageError(str(e)) from None
    result = campaign.odds(*names, exact=True, **options) if campaign is not None else \
        odds_without_campaign(described or "", exact=True, **options)
    emit(ctx, jsonable(result), lambda _: text_of(result))


def _campaign(ctx: click.Context) -> Any:
    """The library's handle on --db, each warning line said once: odds reads the campaign's ruleset
    (to know its options) and then the odds."""
    from campaign_ledger.campaign import Campaign

    obj, said = ctx.find_root().obj, set()

    def once(line: str) -> None:
        if line not in said:
            said.add(line)
            warn(line)
    return Campaign(obj["db"], warn=once, bound=obj)


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
def relics_odds(challenge_name: str, challenge_turn: bool, leader: str | None, assists: tuple[str, ...],
                traits: tuple[str, ...], destiny: int, opportunity: str | None, supplies: str | None,
                buy_time: bool, gm_motto: str | None) -> Parsed:
    from campaign_ledger.commands.rulesets.relics.turns import parse_supplies

    return (challenge_name,), {"challenge_turn": challenge_turn, "leader": leader, "assists": assists,
                               "traits": traits, "destiny": destiny, "opportunity": opportunity,
                               "supplies": parse_supplies(supplies), "buy_time": buy_time, "gm_motto": gm_motto}


from campaign_ledger.commands import odds_free, odds_rulesets  # noqa: E402,F401  (after Relics: the other rulesets' odds options register)
