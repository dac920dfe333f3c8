"""A renamed PC is one character under its name now, in what reads the whole campaign (issue 35):
the HTML export's Stress chart draws one line for it, and the audit counts its dice under one name."""
from __future__ import annotations

import re
import sqlite3

from sqlite_utils import Database

from campaign_ledger.projections.export_html import render
from tests.conftest import Table


def _renamed_mid_scene(t: Table) -> Table:
    """Bo takes Stress as Bo, is renamed, takes more as Bo Vale; Kira leads a roll before and after
    her own rename."""
    t("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4,5")
    t("challenge-turn", "Guards", "--faces", "6,6,2,2", "--stress", "Bo=2")
    t("pc", "rename", "Bo", "Bo Vale")
    t("pc", "rename", "Kira", "Kira Vale")
    t("cohort-turn", "Guards", "--leader", "Kira Vale", "--faces", "1,2,3,4,5")
    t("challenge-turn", "Guards", "--faces", "6,6,6,2", "--stress", "Bo Vale=3")
    return t


def test_the_stress_chart_draws_a_renamed_pc_as_one_line_under_its_name_now(table: Table) -> None:
    _renamed_mid_scene(table)
    last = table.json("history", "--limit", "1")[0]["entry"]
    with sqlite3.connect(table.path) as conn:
        html = render(Database(conn), 1, last, "Everything")
    figure = re.search(r'<figure class="chart" id="figure-stress">.*?</figure>', html, re.S).group(0)
    legend = re.findall(r"</span>([^<]+)</li>", figure)
    assert legend == ["Kira Vale (0 \u2192 0)", "Bo Vale (0 \u2192 5)"], legend
    assert re.findall(r'data-series="([^"]+)"', figure) == ["Kira Vale", "Bo Vale"]
    bo = re.search(r'data-series="Bo Vale" stroke="[^"]+" points="([^"]+)"', figure).group(1)
    assert len({y for _, y in (p.split(",") for p in bo.split())}) == 3   # 0, then 2 as Bo, then 5 as Bo Vale


def test_the_audit_counts_a_renamed_pcs_dice_under_its_name_now(table: Table) -> None:
    _renamed_mid_scene(table)
    dice = table.json("audit")["dice"]
    assert dice["Kira Vale"]["entered"] == 10 and "Kira" not in dice, dice
    assert "Kira Vale: 10 entered, 0 rolled" in table("audit").stdout


def test_an_undone_rename_leaves_the_dice_under_the_name_kept(table: Table) -> None:
    table("cohort-turn", "Guards", "--leader", "Kira", "--faces", "1,2,3,4,5")
    table("pc", "rename", "Kira", "Kira Vale")
    table("undo", "--yes")
    dice = table.json("audit")["dice"]
    assert dice["Kira"]["entered"] == 5 and "Kira Vale" not in dice, dice
