"""The same faces fed to a 0.2.0 and a 0.6.1 campaign differ exactly where RULES.md's table says."""
from tests.conftest import Table


def _play(tmp_path, version):
    t = Table(tmp_path / f"{version}.db")
    t("new", "Versions", "--rules-version", version)
    t("pc", "add", "Kira", "--expertise", "Phantom=3", "--primary", "Phantom")
    t("pc", "add", "Bo", "--expertise", "Phantom=2,Venger=5", "--primary", "Venger")
    t("trait", "add", "Kira", "Keen", "+3 / 1d")
    t("scenario", "start", "S")
    t("challenge", "open", "Vault", "--threat", "Major", "--type", "Phantom", "--rating", "6")
    t("cohort-turn", "Vault", "--leader", "Kira", "--trait", "Kira:Keen", "--faces", "6,2,3,2", "--place", "Keen=1")
    t("challenge-turn", "Vault", "--faces", "2,2,2", "--stress", "Kira=2,Bo=1")
    t("challenge", "open", "Brawl", "--threat", "Common", "--type", "Venger", "--rating", "4")
    t("cohort-turn", "Brawl", "--leader", "Bo")
    return t


def _lines(t):
    return {r["entry"]: r["line"] for r in t.json("history")}


def test_the_versions_differ_exactly_where_the_rules_table_says(tmp_path):
    old, new = _play(tmp_path, "0.2.0"), _play(tmp_path, "0.6.1")
    a, b = _lines(old), _lines(new)
    assert a.keys() == b.keys()
    differ = {e: (a[e], b[e]) for e in a if a[e] != b[e]}
    tides = next(e for e in a if a[e].startswith("The Tides shift"))
    autos = next(e for e in a if a[e].startswith("Vault round 1: Challenge pool"))
    result = next(e for e in a if a[e].startswith("Vault round 1: Challenge result"))
    lead = next(e for e in a if a[e].startswith("Brawl round 1: Cohort pool"))
    assert set(differ) == {1, tides, autos, result, lead}
    # Destiny from an overpowering success: one per PC (2) under 0.2.0, three under 0.6.1
    assert differ[tides] == ("The Tides shift after Vault round 1: Destiny +2, Doom +1",
                             "The Tides shift after Vault round 1: Destiny +3, Doom +1")
    # A Major Threat turns resolved dice into A6 under 0.2.0, A5 under 0.6.1 (3 successes either way)
    assert "auto results 6, 6, 6" in differ[autos][0] and "auto results 5, 5, 5" in differ[autos][1]
    # Lead dice: a matching Primary Expertise gives +3d6 under 0.2.0; rank 5 gives +5d6 under 0.6.1
    assert "lead Bo +3d6" in differ[lead][0] and "lead Bo +5d6" in differ[lead][1]
    assert old.json("sheet") == new.json("sheet")
    assert (old.json("pools")["destiny"], new.json("pools")["destiny"]) == (2 + 2, 2 + 3)
    assert old.json("pools")["doom"] == new.json("pools")["doom"]


def test_a_campaign_keeps_its_version_after_a_house_rule(tmp_path):
    t = _play(tmp_path, "0.2.0")
    t("house-rule", "set", "stressed_out_at", "9")
    assert "0.2.0" in t.json("history")[0]["line"]
    assert t.json("audit")["house_rules"][0]["rule"] == "stressed_out_at"
