"""The read-model tables, created here and only here, beside the ledger in the campaign file."""
from sqlite_utils import Database, Migrations

migrations = Migrations("campaign-ledger-read-model")


@migrations()
def m001_read_model(db: Database) -> None:
    db["position"].create({"name": str, "entry": int}, pk="name")
    db["campaign"].create({"key": str, "value": str}, pk="key")
    db["sheets"].create({"id": str, "name": str, "primary_type": str, "scav": int, "venger": int,
                         "phantom": int, "stallion": int, "sparrow": int, "stress": int, "agony": int,
                         "status": str, "joined": int}, pk="id")
    db["traits"].create({"owner_id": str, "owner": str, "name": str, "modifier": str, "polarity": str,
                         "cost": str, "target": str, "entry": int}, pk=("owner_id", "name"))
    db["pools"].create({"id": int, "scenario": str, "destiny": int, "doom": int}, pk="id")
    db["balances"].create({"entry": int, "destiny": int, "doom": int}, pk="entry")
    db["challenges"].create({"id": str, "name": str, "threat": str, "type": str, "rating": int,
                             "resolved": int, "leader": str, "round": int, "phase": str,
                             "opened": int}, pk="id")
    db["history"].create({"entry": int, "time": str, "type": str, "line": str}, pk="entry")


@migrations()
def m002_time_travel(db: Database) -> None:
    """Every change of a balance, and every version of a sheet: statements and `--at`."""
    db["balance_changes"].create({"entry": int, "balance": str, "value": int, "delta": int},
                                 pk=("balance", "entry"))
    db["sheet_versions"].create({"entry": int, "id": str, "sheet": str}, pk=("id", "entry"))


@migrations()
def m003_sessions(db: Database) -> None:
    """Real-world sittings: which entries each session of play holds."""
    db["sessions"].create({"number": int, "title": str, "first_entry": int, "last_entry": int,
                           "started": str, "ended": str}, pk="number")


@migrations()
def m004_history_rounds(db: Database) -> None:
    """Which round each history line belongs to (and what it is about), for logs read round by round."""
    db["history"].add_column("round", str)
    db["history"].add_column("about", str)


@migrations()
def m005_trait_limits(db: Database) -> None:
    """Traits say how often they may be used, for which Challenge types, how long they last."""
    for column in ("frequency", "types", "duration", "source"):
        db["traits"].add_column(column, str)


@migrations()
def m006_history_reversed(db: Database) -> None:
    """The entry that undid each history line's unit, so logs keep an undone round, marked reversed."""
    db["history"].add_column("reversed_at", int)


@migrations()
def m007_chain_checked(db: Database) -> None:
    """How far catching up has verified the hash chain (so it resumes from there), and the last
    audit's or rebuild's verdict on the whole chain (a broken one refuses writes)."""
    db["chain_checked"].create({"name": str, "entry": int, "hash": str, "command_end": int,
                                "broken_entry": int, "reason": str}, pk="name")


@migrations()
def m008_trait_ended(db: Database) -> None:
    """A temporary trait's row stays when it ends (the entry it ended at), so undoing its end
    brings it back in the place the GM first saw it."""
    db["traits"].add_column("ended", int)


@migrations()
def m009_history_units_and_play_state(db: Database) -> None:
    """Each history line's undo unit (named as `undo --list` names it) and, once undone, what
    reversed it; an index finds the lines still to be named. Also the Relics state a GM acts
    on that no table held: trait uses, opportunities, and where the campaign stands."""
    db["history"].add_column("unit", str)
    db["history"].add_column("reversed_by", str)
    db.execute("CREATE INDEX history_unnamed ON history (entry) WHERE unit IS NULL")
    db["trait_uses"].create({"key": str, "trait": str, "scope": str, "entry": int}, pk="key")
    db["opportunities"].create({"key": str, "challenge": str, "round": int, "pc": str, "entry": int}, pk="key")
    db["stage"].create({"id": int, "scenario_number": int, "scene": int, "scenes": int, "encounter": int}, pk="id")
    rederive(db)


@migrations()
def m010_read_notes(db: Database) -> None:
    """Entries the read tables applied only by working around them (a second trait of one name,
    from ledgers written before validation), each with what was done, for rebuild and audit to say."""
    db["read_notes"].create({"entry": int, "note": str}, pk="entry")


@migrations()
def m011_notes_and_search(db: Database) -> None:
    """The GM's notes (what each is about, its tags, GM-only or not) and a full-text index over
    the history lines, notes included: FTS5 through sqlite-utils, kept current by triggers on
    every insert, update and delete the projections make (so rebuild gives the same index),
    and found by Datasette's search box on the history table."""
    db["notes"].create({"entry": int, "time": str, "text": str, "tags": str, "about": str, "round": str,
                        "target_entry": int, "gm_only": int, "reversed_at": int}, pk="entry")
    db["history"].enable_fts(["line"], create_triggers=True)


@migrations()
def m012_corrections(db: Database) -> None:
    """Issue 13's corrections and rosters: a PC the GM retired (the reason, or null); every name a
    renamed PC has had (lower case) with its id, so reads find a PC by a former name too; and the
    bestiary, Challenges defined by a roster and not yet opened. Older files hold none of them, so
    nothing needs rebuilding."""
    db["sheets"].add_column("retired", str)
    db["pc_names"].create({"name": str, "id": str}, pk="name")
    db["bestiary"].create({"key": str, "owner_id": str, "name": str, "threat": str, "type": str, "rating": int,
                           "traits": str, "entry": int}, pk="key")


@migrations()
def m013_flat_replay(db: Database) -> None:
    """`--at` and replay at the same cost however long the campaign (issue 15). Every version of the
    rows the other rulesets' sheets and pools show (projections/row_versions.py), so `--at` reads
    them instead of rebuilding the tables up to the entry. Replay finds a round by its rows of the
    command log, not by reading the whole log:
    an index on the log's unit names, and one holding only the commands that reverse units (the
    terms of its WHERE are ledger/unit_log.py's REVERSING, which the planner matches word for word).
    On the ledger's own table when it lives in this file (a ledger elsewhere is read without them)."""
    db["row_versions"].create({"tbl": str, "key": str, "entry": int, "row": str}, pk=("tbl", "key", "entry"))
    db["row_versions_dirty"].create({"tbl": str, "key": str}, pk=("tbl", "key"))
    # (a ruleset that keeps versions there makes its triggers: see migrations/rulesets/)
    if "ledger_commands" in db.table_names():
        db.execute("CREATE INDEX IF NOT EXISTS ledger_commands_unit ON ledger_commands (unit COLLATE NOCASE)")
        db.execute("CREATE INDEX IF NOT EXISTS ledger_commands_reversing ON ledger_commands (first_entry) "
                   "WHERE (command IN ('undo', 'replay') OR detail LIKE '%\"reverses\"%')")


def rederive(db: Database) -> None:
    """The new tables hold what older files never recorded: the read model is derived again from
    the ledger on the next catch-up (the runner rebuilds read tables whose position was cleared)."""
    db.execute("DELETE FROM position WHERE name = 'read-model'")


@migrations()
def m014_unit_namer(db: Database) -> None:
    """What naming history rows by undo unit needs of every command before (projections/units.py):
    the open units, the names given, each command's count, and where the namer stopped. Kept with
    the rows it named, in their transaction, so catching up after a turn reads only the new
    commands, not the whole command log from its start (a turn at a million entries took 15 s)."""
    db["unit_open"].create({"name": str, "stored": str, "first": int}, pk="name")
    db.execute("CREATE INDEX unit_open_stored ON unit_open (stored)")
    db["unit_taken"].create({"name": str}, pk="name")
    db["unit_seen"].create({"stored": str, "times": int}, pk="stored")
    db["unit_namer"].create({"name": str, "at": int, "covered": int, "spans": str, "reversers": str}, pk="name")


@migrations()
def m015_corrections_undone(db: Database) -> None:
    """An undone committed correction restores the round it corrected (ledger/units.py REOPENS): the
    namer keeps which units each correction reversed (`unit_closed`, by the correction's first
    entry), and the history finds the rows a reversal marked by an index over the marked rows. A
    file whose ledger holds a committed correction that reversed something (or whose ledger lives
    elsewhere, unseen) has its read model derived again, since its rows were marked the old way."""
    db["unit_closed"].create({"closer": int, "name": str, "stored": str, "first": int})
    db.execute("CREATE INDEX unit_closed_closer ON unit_closed (closer)")
    db.execute("CREATE INDEX history_reversed_at ON history (reversed_at) WHERE reversed_at IS NOT NULL")
    if "ledger_commands" not in db.table_names() or db.execute(
            "SELECT 1 FROM ledger_commands WHERE command = 'replay' AND detail LIKE '%\"reverses\": [\"%' "
            "LIMIT 1").fetchone():
        rederive(db)


@migrations()
def m016_undo_as_never_played(db: Database) -> None:
    """Undo follows the state in every read table now (issue 33: a Disaster trait an undone round
    ended, an undone session, the Cohort's traits), and the logs of balances and sheet versions
    mark the rows an undo reversed (`reversed_at`, the undo's entry, as the history does). A file
    with an undo in its history derives its read model again, so rows an earlier undo left as the
    undone play had made them follow the state, and its logs' undone rows are marked."""
    db["balance_changes"].add_column("reversed_at", int)
    db["sheet_versions"].add_column("reversed_at", int)
    if db.execute("SELECT 1 FROM history WHERE type LIKE '%Reversed' LIMIT 1").fetchone():
        rederive(db)


@migrations()
def m017_lines_in_words(db: Database) -> None:
    """History lines write recorded values in words now (issue 35: dice `6, 5, 3`, not `[6, 5, 3]`;
    an undo's `Stressed Out -> yes`, not `True`). A file whose history holds a line written the old
    way derives its read model again, so its history, exports and live page read the new way."""
    if db.execute("SELECT 1 FROM history WHERE line LIKE '%[%' OR (type LIKE '%Reversed' AND (line LIKE "
                  "'%-> None%' OR line LIKE '%-> True%' OR line LIKE '%-> False%')) LIMIT 1").fetchone():
        rederive(db)


@migrations()
def m018_motto_words(db: Database) -> None:
    """A Motto's words, kept with its trait (`campaign motto Kira "Nobody gets left behind"`): a
    Motto set before had its words checked and not recorded, so no row has any to fill. Lines
    that wrote a name ending in s as `Guards's` write `Guards'` now: a file holding one derives
    its read model again, so a rebuild (and `audit`'s) matches it."""
    db["traits"].add_column("words", str)
    if db.execute("SELECT 1 FROM history WHERE line LIKE '%s''s temporary trait %' OR line LIKE '%s''s Growth Test%' "
                  "OR line LIKE '%becomes %s''s trait %' LIMIT 1").fetchone():
        rederive(db)


@migrations()
def m019_seats(db: Database) -> None:
    """The players' seats (issue 38): who plays each seated character, whether the seat is open, and
    the sha256 of its current token (`seed` and `generation`: what the token is derived from)."""
    db["seats"].create({"id": str, "seat": str, "pc": str, "player": str, "seed": str, "token_hash": str,
                        "generation": int, "state": str, "entry": int}, pk="id")


@migrations()
def m020_who_wrote(db: Database) -> None:
    """Who wrote each entry (issue 38): its actor ("gm" or "seat:<name>"), channel and, for a player's
    action the GM accepted, who confirmed it, from its command's row in the command log (kept
    with the namer's state, `whos`, as units are). Rows of files written before hold none and
    read as the GM's, by an unrecorded channel (projections/actors.py): nothing to derive again."""
    for column in ("actor", "channel", "confirmed_by"):
        db["history"].add_column(column, str)
    db["unit_namer"].add_column("whos", str)
