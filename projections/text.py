"""Plain-text renderings of what the CLI prints (the JSON is the same data, unformatted)."""
from __future__ import annotations

from typing import Any

from campaign_ledger.ledger.words import faces, said
from campaign_ledger.projections import actors


def history_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return NO_ENTRIES
    width = len(str(rows[-1]["entry"]))
    return "\n".join(history_line(r, width) for r in rows)


NO_ENTRIES = "No entries."


def history_line(r: dict[str, Any], width: int) -> str:
    """One entry's line, its number padded to `width` (the last number's length: the lines align)."""
    return f"#{r['entry']:<{width}}  {r['time']}  {unit_tag(r)}{actors.tag(r)}{r['line']}"


def unit_tag(row: dict[str, Any]) -> str:
    """`[G:2] `: the undo unit an entry belongs to (as `undo --list` names it), and once undone,
    where and by what: `[G:2; undone at #57 by undo G:2] `. Nothing for entries outside any unit."""
    unit = row.get("unit")
    if row.get("reversed_at") is not None:
        by = f" by {row['reversed_by']}" if row.get("reversed_by") else ""
        return f"[{unit or '-'}; undone at #{row['reversed_at']}{by}] "
    return f"[{unit}] " if unit else ""


def sheets_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "No PCs yet."
    blocks = []
    for r in rows:
        expertise = ", ".join(f"{t} {n}" for t, n in r["expertise"].items()) or "none"
        retired = f": {r['retired']}" if r.get("retired") and r["status"] == "retired" else ""
        lines = [f"{r['name']}  ({r['status']}{retired})",
                 f"  Expertise: {expertise}; primary {r['primary']}",
                 f"  Stress {r['stress']}  Agony {r['agony']}"]
        lines += [f"  Trait {trait_text(t)}" for t in r["traits"]]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def trait_text(t: dict[str, Any]) -> str:
    limits = [f"once a {t['frequency']}"] if t.get("frequency", "always") != "always" else []
    limits += [f"{'/'.join(t['types'])} only"] if t.get("types") else []
    if t.get("duration"):
        limits.append(f"temporary ({t.get('source')}), lasts "
                      + ("for good" if t["duration"] == "semi-permanent" else f"the {t['duration']}"))
    extra = f"; {', '.join(limits)}" if limits else ""
    said = f" \"{t['words']}\"" if t.get("words") else ""  # a Motto's words
    return f"{t['name']}{said}: {t['modifier']} {t['polarity']}, costs {t['cost']}, targets the {t['target']} pool{extra}"


def pools_text(p: dict[str, Any]) -> str:
    if "at" in p:
        return f"At entry #{p['at']}: Destiny {p['destiny']}  Doom {p['doom']}"
    scenario = f"Scenario: {p['scenario']}\n" if p.get("scenario") else ""
    cohort = "".join(f"\n  Cohort trait {trait_text(t)}" for t in p.get("cohort_traits", []))
    return f"{scenario}Destiny {p['destiny']}  Doom {p['doom']}{cohort}"


def statement_text(s: dict[str, Any]) -> str:
    lines = [f"Statement of {s['balance']}:"]
    lines += [f"#{r['entry']:<5} {r['change']:+3d}  = {r['balance']:<3}  {r['line'] or ''}" for r in s["entries"]]
    return "\n".join(lines)


def _dice_line(pending: dict[str, Any]) -> str:
    dice = list(pending.get("autos", [])) + list(pending.get("faces", []))
    return "  Dice: " + "  ".join(f"{i}={v}" for i, v in enumerate(dice, 1))


def shell_word(name: str) -> str:
    """A name as the GM types it in a suggested command: bare, in double quotes when it has spaces,
    and quoted by the shell's own rules when it holds a quote or `$` (`'Gate "X"'`), so the line
    can be copied as it stands."""
    import shlex

    if any(c in name for c in '"\\$`'):
        return shlex.quote(name)
    return f'"{name}"' if " " in name else name


def waiting_text(name: str, phase: str, pending: dict[str, Any] | None, offered: dict | None = None) -> list[str]:
    """What the table must do next, as the command that does it."""
    pending = pending or {}
    q = shell_word(name)
    if phase.endswith("-roll"):
        to_roll = pending["pool"]["size"] - len(pending["autos"])
        autos = f" (auto results {faces(pending['autos'])})" if pending["autos"] else ""
        return [f"Waiting for the roll: {to_roll}d6 to roll{autos}.",
                f"  Next: campaign roll {q} --faces ... (or without --faces to let the program roll)"]
    if phase.endswith("-place"):
        lines = ["Waiting for the Simple modifiers to be placed.", _dice_line(pending)]
        if offered is not None:
            labels = [m["label"] for m in pending["simple"]]
            where = "; ".join(f"{labels[int(i)]} on {'+'.join(map(str, d)) or 'no die'}" for i, d in offered.items())
            lines.append(f"  Offered: {where}")
        lines.append(f"  Next: campaign place {q} --place TRAIT=DICE ... (or --best for the offered placement)")
        return lines
    if phase == "challenge-stress":
        return [f"The Challenge scored {pending['stress']} Stress.",
                f"  Next: campaign stress {q} --stress NAME=N,NAME=N"]
    if phase == "challenge":
        return [f"Next: campaign challenge-turn {q}"]
    if phase == "cohort":
        return [f"Next: campaign cohort-turn {q}"]
    if phase == "ended":
        return [f"{name} has ended unresolved."]
    return [f"{name} is resolved."]


def report_text(report: dict[str, Any]) -> str:
    lines = [f"#{r['entry']}  {r['line']}" for r in report.get("history", [])]
    if "phase" in report:
        lines += waiting_text(report["challenge"], report["phase"], report.get("pool"), report.get("offered"))
        if report.get("odds"):
            lines.append(f"  {report['odds']}")
        lines.append(f"Destiny {report['destiny']}  Doom {report['doom']}  "
                     f"Resolved {report['resolved']}/{report['rating']}")
    return "\n".join(lines) or "Nothing to record."


def status_text(s: dict[str, Any]) -> str:
    lines = []
    if s["turn"]:
        t = s["turn"]
        lines.append(f"Unfinished: the {t['side'].capitalize()} turn of {t['challenge']}, round {t['round']}.")
    else:
        lines.append("No turn is in progress.")
    for c in s["challenges"]:
        lines.append(f"{c['name']} ({c['threat']} {c['type']} {c['rating']}): round {c['round']}, "
                     f"{c['resolved']} resolved, leader {c['leader'] or 'none yet'}; waiting for {c['waiting_for']}")
        if c["phase"] not in ("cohort", "challenge"):
            lines += ["  " + line for line in waiting_text(c["name"], c["phase"], c["pending"])]
        if c.get("odds"):
            lines.append(f"  {c['odds']}")
    if s.get("finished"):
        lines.append("Finished: " + ", ".join(f"{c['name']} ({c['phase']})" for c in s["finished"]))
    spent = [f"{u['trait']} ({u['scope']})" for u in s.get("trait_uses", []) if u["spent"]]
    if spent:
        lines.append("Used up for now: " + ", ".join(spent))
    lines.append(pools_text(s))
    return "\n".join(lines)


def undo_text(plan: dict[str, Any]) -> str:
    head = "Would reverse" if plan.get("dry_run") else "Reverses"
    lines = [f"Without --cascade this undo is refused: {plan['needs_cascade']}", "With --cascade:"] if plan.get("needs_cascade") else []
    for r in plan["reversed"]:
        lines.append(f"{head} {r['unit']} (entries #{r['entries'][0]}-#{r['entries'][1]}):")
        lines += [f"  {change}" for change in r["changes"]]
    return "\n".join(lines)


def audit_text(r: dict[str, Any]) -> str:
    lines = [f"Ledger: {r['entries']} entries; hash chain {r['chain']}."]
    if r["broken_entry"] is not None:
        lines.append(f"BROKEN at entry #{r['broken_entry']}: the ledger was changed outside the program.")
        return "\n".join(lines)
    if r.get("chain_only"):
        return "\n".join(lines + ["Chain only: snapshots and read tables not checked (`campaign audit` checks all).",
                                   "Clean." if r["clean"] else "NOT clean."])
    differ = r.get("read_tables_differ") or []
    if r.get("stuck_entry") is not None:
        lines.append(f"Read tables: STUCK at entry #{r['stuck_entry']}: {r['stuck']}")
    else:
        lines.append("Read tables: " + (f"differ from a rebuild: {', '.join(differ)}" if differ else
                                        "equal a fresh rebuild."))
    lines += [f"  note on entry #{n['entry']}: {n['note']}" for n in r.get("read_notes", [])]
    lines.append(f"GM overrides: {len(r['overrides'])}" + "".join(f"\n  #{o['entry']} {o['reason']}" for o in r["overrides"]))
    lines.append(f"House-rule changes: {len(r['house_rules'])}" + "".join(
        f"\n  #{h['entry']} {h['rule']}: {h['reason'] or 'no reason given'}" for h in r["house_rules"]))
    lines.append(f"Reversals: {len(r['reversals'])}" + "".join(f"\n  #{v['entry']} undo {v['unit']}" for v in r["reversals"]))
    lines.append(f"Corrected rounds: {len(r.get('corrections', []))}" + "".join(
        f"\n  #{c['entries'][0]}-#{c['entries'][1]} correct #{c['corrects'][0]}-#{c['corrects'][1]}"
        for c in r.get("corrections", [])))
    undone = r.get("undone_program_rolls", [])
    lines.append(f"Program rolls undone: {len(undone)}" + "".join(
        f"\n  #{u['entry']} {u['by']} rolled {faces(u['faces'])} ({u['unit']}, undone at #{u['undone_at']})" for u in undone))
    if "actors" in r:
        lines.append(f"Entries by actor: {actors.counted_text(r['actors'])}")
    lines.append("Dice entered at the table / rolled by the program:")
    lines += [f"  {who}: {d['entered']} entered, {d['rolled']} rolled" for who, d in r["dice"].items()]
    lines.append("Clean." if r["clean"] else "NOT clean.")
    return "\n".join(lines)


def replay_text(r: dict[str, Any]) -> str:
    """Recorded (the ledger's own) and replayed figures; "reproduces" only when no row differs."""
    undone = f" (undone at entry #{r['undone_at']})" if r.get("undone_at") is not None else ""
    lines = [f"Replay of {r['round']}{undone} on its recorded faces:"]
    tables = [(title, r[key]) for title, key in (("after the round", "after_round"),
                                                  ("now, after the later entries", "after_later_rounds")) if key in r]
    for title, rows in tables:  # the recorded column as wide as its widest value (`Complete Failure`)
        width = max([10] + [len(_shown(row["recorded"])) + 2 for row in rows])
        lines.append(f"  {title}:{'':<{max(1, 38 - len(title))}}{'recorded':<{width + 1}}replayed")
        lines += [f"  {'*' if row['changed'] else ' '} {row['figure']:<36} {_shown(row['recorded']):<{width}} "
                  f"{_shown(row['replayed'])}" for row in rows]
    lines += [f"  note: {n}" for n in r.get("notes", [])]
    differ = any(row["changed"] for _, rows in tables for row in rows)
    lines.append("  The replay differs from the record (rows marked *)." if differ
                 else "  The replay reproduces the record.")
    return "\n".join(lines)


def replay_commit_text(r: dict[str, Any]) -> str:
    """The entries a committed replay appended, then the replay's notes (faces it left out, say)."""
    return "\n".join([report_text(r), *(f"note: {n}" for n in r.get("notes", []))])


def _shown(value: Any) -> str:
    """A figure one side lacks (a PC not yet in play, a turn not taken) shows as '-'; any other in
    words (`yes`, `6, 6, 2`), never as Python writes it."""
    return "-" if value is None else said(value)
