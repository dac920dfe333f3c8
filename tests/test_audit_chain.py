"""`audit --chain`: the quick check reads the chain and command log streamed, and finds every
tampering of the entries, the chain and the command log that the full audit finds, at the same entry."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_tamper import FORGEABLE, copy, pristine, recompute  # noqa: F401 (fixtures)
from tests.test_tamper import chain_delete, chain_edit, chain_insert, chain_reorder

CHAIN = [(f, False) for f in FORGEABLE + [chain_edit, chain_delete, chain_insert, chain_reorder]] + \
    [(f, True) for f in FORGEABLE]
IDS = [f.__name__ + ("-recomputed" if forged else "") for f, forged in CHAIN]


def _tampered(copy, tamper, forged):  # noqa: F811
    """The copy's campaign tampered with (hashes recomputed after, for a forger): the Table and the anchor."""
    t, conn, anchor = copy
    tamper(conn, forged)
    if forged:
        recompute(conn)
    return t, anchor


@pytest.mark.parametrize("tamper,forged", CHAIN, ids=IDS)
def test_the_quick_check_names_the_entry_the_full_audit_names(copy, tamper, forged):  # noqa: F811
    t, anchor = _tampered(copy, tamper, forged)
    given = ["--anchor", anchor] if forged else []
    quick = t("audit", "--chain", "--json", *given, ok=False)
    full = json.loads(t("audit", "--json", *given, ok=False).stdout)
    report = json.loads(quick.stdout)
    assert quick.exit_code == 1 and report["chain_only"] and not report["clean"]
    assert (report["broken_entry"], report["chain"]) == (full["broken_entry"], full["chain"])


@pytest.mark.parametrize("tamper,forged", CHAIN[:2] + CHAIN[-1:])
def test_the_quick_check_in_two_halves_names_the_entry_too(copy, tamper, forged, monkeypatch):  # noqa: F811
    """ledger/chain_halves.py through a second process (a long ledger's; here at any length)."""
    from campaign_ledger.ledger import side_process

    monkeypatch.setattr(side_process, "SIDE_FROM", 0)
    test_the_quick_check_names_the_entry_the_full_audit_names(copy, tamper, forged)


@pytest.mark.parametrize("tamper,forged", CHAIN, ids=IDS)
def test_the_chain_checked_as_two_spans_finds_what_checking_it_whole_finds(copy, tamper, forged):  # noqa: F811
    """ledger/chain_halves.py: the first span's break, else the second's, at every place it may be cut."""
    from campaign_ledger.ledger.application import open_ledger
    from campaign_ledger.ledger.chain import chained

    t, _ = _tampered(copy, tamper, forged)
    app = open_ledger(t.path)
    try:
        chain = chained(app.recorder)
        whole = chain.verify_all()
        assert whole is not None or forged
        for middle in range(0, (app.recorder.max_notification_id() or 0) + 2):
            assert (chain.verify_span(1, middle) or chain.verify_span(middle + 1, None)) == whole, middle
    finally:
        app.close()


def test_the_quick_check_of_a_clean_campaign_is_clean_and_compares_no_tables(copy):  # noqa: F811
    t, conn, anchor = copy
    report = t.json("audit", "--chain", "--anchor", anchor)
    assert report["clean"] and report["chain_only"] and report["broken_entry"] is None
    assert "read_tables_differ" not in report and report["dice"] == {}
    assert "Chain only" in t("audit", "--chain").stdout


def test_a_break_the_quick_check_finds_locks_writes_as_the_full_audit_does(copy):  # noqa: F811
    t, conn, anchor = copy
    conn.execute("UPDATE ledger_commands SET unit = 'forged' WHERE first_entry = "
                 "(SELECT max(first_entry) FROM ledger_commands)")  # past the entries the tables applied
    t("audit", "--chain", ok=False)
    assert "hash chain is broken" in t.refused("session", "start", "After the forgery")


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=8)


@given(last=st.integers(min_value=0), name=st.text(), unit=st.none() | st.text(),
       detail=st.dictionaries(st.text(max_size=8), _JSON, max_size=4), spaced=st.booleans())
def test_a_command_row_hashes_as_its_whole_canonical_json_however_its_detail_is_spelled(last, name, unit, detail,
                                                                                      spaced):
    """command_bytes builds the canonical row from its parts and keeps each detail's canonical
    spelling: the bytes must be those of dumping the whole row at once, the first time and again."""
    import json

    from campaign_ledger.ledger.chain_hash import command_bytes

    whole = json.dumps([last, name, unit, detail], sort_keys=True, separators=(",", ":")).encode()
    stored = json.dumps(detail) if spaced else json.dumps(detail, sort_keys=True, separators=(",", ":"))
    assert command_bytes((last, name, unit, stored)) == whole
    assert command_bytes((last, name, unit, stored)) == whole  # from the kept spelling
    assert command_bytes((last, name, unit, detail)) == whole
