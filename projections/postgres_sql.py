"""SQLite's SQL, as the projections write it, said in PostgreSQL's dialect (CAMPAIGN_READ=postgres).

The projections and reads stay written once, for SQLite; this module turns each statement into
PostgreSQL's form the first time it is seen (and remembers it): `?` and `?N` parameters, [bracket]
names, LIKE (case-insensitive for ASCII in SQLite: ILIKE), INSERT OR REPLACE/IGNORE (ON CONFLICT on
the table's key), json_each over a JSON array, and FTS5's `history_fts MATCH` (PostgreSQL's own
full-text search over the history line, through `fts_query` in the read schema). What needs no
words changed is made to exist in the read schema instead: the `nocase` collation, a `sqlite_master`
view of its tables. Values go to the server as untyped text (None stays NULL), so the server reads
them by their column, as SQLite's type affinity does; results come back as SQLite gives them
(integers, not Decimal or bool).
"""
from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any, Callable, Sequence

_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|\[([^\]]*)\]|\?(\d*)|%""")
_OR_CONFLICT = re.compile(r"""INSERT\s+OR\s+(REPLACE|IGNORE)\s+INTO\s+[\["]?(\w+)[\]"]?\s*\(([^)]*)\)""", re.IGNORECASE)
_FTS = re.compile(r"SELECT\s+rowid\s+FROM\s+history_fts\s+WHERE\s+history_fts\s+MATCH\s+\?", re.IGNORECASE)
_REWRITES: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\bNOT\s+LIKE\b", re.IGNORECASE), "NOT ILIKE"),
    (re.compile(r"(?<!NOT )\bLIKE\b", re.IGNORECASE), "ILIKE"),
    (re.compile(r"SELECT\s+value\s+FROM\s+json_each\(", re.IGNORECASE), "SELECT value::bigint FROM sqlite_json_each("),
    (re.compile(r"\bjson_each\(", re.IGNORECASE), "sqlite_json_each("),
    # `1` standing as a condition (a filter that filters nothing): PostgreSQL wants a boolean.
    (re.compile(r"\b(WHERE|AND|OR)\s+(\(?)1(\)?)(?=\s*(?:$|\)|ORDER\b|AND\b|OR\b|GROUP\b|LIMIT\b))", re.IGNORECASE),
     r"\1 \2true\3"),
    (re.compile(r"\bgroup_concat\(", re.IGNORECASE), "string_agg("),
)

# What the read schema holds beside the tables, so the statements above run unchanged.
HELPERS = (
    "CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
    "CREATE OR REPLACE FUNCTION sqlite_json_each(j text) RETURNS TABLE(value text) LANGUAGE sql IMMUTABLE "
    "AS $$ SELECT json_array_elements_text(j::json) $$",
    # FTS5's query as the history search writes it (fts_query.py: quoted phrases, a `*` after one for a
    # prefix, AND, OR, binary NOT and parentheses, every operator spelled out), token by token a tsquery.
    "CREATE OR REPLACE FUNCTION fts_query(q text) RETURNS tsquery LANGUAGE sql IMMUTABLE AS $$ "
    "SELECT coalesce(string_agg(CASE WHEN m[3] IS NULL THEN '(' || phraseto_tsquery('simple', "
    "replace(m[1], '\"\"', '\"'))::text || CASE m[2] WHEN '*' THEN ':*' ELSE '' END || ')' "
    "WHEN m[3] = 'AND' THEN ' & ' WHEN m[3] = 'OR' THEN ' | ' WHEN m[3] = 'NOT' THEN ' & !' ELSE m[3] END, "
    "'' ORDER BY n), '')::tsquery "
    "FROM regexp_matches(q, '\"((?:[^\"]|\"\")*)\"(\\*?)|(AND|OR|NOT|[()])', 'g') WITH ORDINALITY AS t(m, n) $$",
    "CREATE OR REPLACE VIEW sqlite_master AS SELECT CASE table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END "
    "AS type, table_name::text AS name, table_name::text AS tbl_name, NULL::text AS sql "
    "FROM information_schema.tables WHERE table_schema = current_schema()",
)
FTS_MATCH = "SELECT entry FROM history WHERE to_tsvector('simple'::regconfig, line) @@ fts_query(?)"


class Statement:
    """One SQLite statement in PostgreSQL's words, and where each parameter goes."""

    def __init__(self, sql: str, order: list[int] | None, mentions_rowid: bool) -> None:
        self.order, self.mentions_rowid = order, mentions_rowid
        self.sql = sql if order is not None else sql.replace("%%", "%")  # % is doubled only for parameters

    def params(self, given: Sequence[Any] | dict | None) -> list[Any] | None:
        if self.order is None:
            return None
        given = list(given or ())
        return [value(given[i]) for i in self.order]


_SEEN: dict[str, Statement] = {}


def translate(sql: str, keys: Callable[[str], tuple[str, ...]]) -> Statement:
    """`keys(table)` names a table's primary key (ON CONFLICT needs it: the migrations give every
    schema the same keys, so a statement is translated once per process, whichever schema asks)."""
    statement = _SEEN.get(sql)
    if statement is None:
        if len(_SEEN) > 4096:  # statements built with values inside them: do not keep them all
            _SEEN.clear()
        statement = _SEEN[sql] = _translated(sql, keys)
    return statement


def _translated(sql: str, keys: Callable[[str], tuple[str, ...]]) -> Statement:
    suffix = _conflict_suffix(sql, keys)
    sql = _OR_CONFLICT.sub(lambda m: f"INSERT INTO [{m.group(2)}] ({m.group(3)})", _FTS.sub(FTS_MATCH, sql))
    out: list[str] = []
    order: list[int] = []
    at, sequential = 0, 0
    for m in _TOKEN.finditer(sql):
        out.append(_code(sql[at:m.start()]))
        token = m.group(0)
        if token.startswith("["):
            out.append('"' + m.group(1) + '"')
        elif token.startswith("?"):
            if m.group(2):
                order.append(int(m.group(2)) - 1)
            else:
                order.append(sequential)
                sequential += 1
            out.append("%s")
        elif token == "%":
            out.append("%%")
        else:  # a string literal or quoted name: kept, its % doubled as psycopg reads them
            out.append(token.replace("%", "%%"))
        at = m.end()
    out.append(_code(sql[at:]))
    text = _scalar_min_max(_aliased("".join(out)))
    return Statement(text + suffix, order if order else None, "rowid" in sql.lower())


_SUBQUERY = re.compile(r"\bFROM\s*\(\s*SELECT\b", re.IGNORECASE)
_ALIAS_NEEDED = re.compile(r"\s*(?:$|\)|;|,|(?:ORDER|WHERE|GROUP|LIMIT|UNION|JOIN|LEFT|INNER|HAVING)\b)", re.IGNORECASE)


def _aliased(text: str) -> str:
    """A subquery in FROM named (`AS sub1`): PostgreSQL before 16 requires it, SQLite does not."""
    found, at = 0, 0
    while (m := _SUBQUERY.search(text, at)) is not None:
        depth, i = 0, text.index("(", m.start())
        for i in range(i, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
        at = i + 1
        if _ALIAS_NEEDED.match(text, at):
            found += 1
            text = f"{text[:at]} AS sub{found}{text[at:]}"
    return text


_MIN_MAX = re.compile(r"\b(min|max)\(", re.IGNORECASE)


def _scalar_min_max(text: str) -> str:
    """SQLite's min(a, b) and max(a, b) of two or more values: PostgreSQL's least and greatest."""
    for m in reversed(list(_MIN_MAX.finditer(text))):
        depth, commas = 0, 0
        for ch in text[m.end() - 1:]:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            commas += ch == "," and depth == 1
            if depth == 0:
                break
        if commas:
            name = "least" if m.group(1).lower() == "min" else "greatest"
            text = text[:m.start()] + name + text[m.start() + 3:]
    return text


def _code(text: str) -> str:
    """Rewrites outside string literals and quoted names."""
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return text


def _conflict_suffix(sql: str, keys: Callable[[str], tuple[str, ...]]) -> str:
    m = _OR_CONFLICT.search(sql)
    if not m:
        return ""
    if m.group(1).upper() == "IGNORE":
        return " ON CONFLICT DO NOTHING"
    return on_conflict(keys(m.group(2)), [c.strip().strip('[]"') for c in m.group(3).split(",")])


def on_conflict(pks: Sequence[str], columns: Sequence[str]) -> str:
    """Replace the row of the same key (what SQLite's REPLACE leaves, bar the rowid) or keep it."""
    rest = [c for c in columns if c not in pks]
    target = ", ".join(f'"{k}"' for k in pks)
    if not rest:
        return f" ON CONFLICT ({target}) DO NOTHING"
    return f" ON CONFLICT ({target}) DO UPDATE SET " + ", ".join(f'"{c}" = EXCLUDED."{c}"' for c in rest)


_PLAIN_INSERT = re.compile(r'INSERT\s+INTO\s+("\w+"|\w+)\s*\(([^)]*)\)\s*VALUES\s*\((?:\s*%s\s*,)*\s*%s\s*\)',
                           re.IGNORECASE)


def copy_of(sql: str) -> str | None:
    """The COPY that inserts what a translated plain INSERT of one row of parameters inserts (no
    conflict clause, no expression): the same rows, refused by the same keys, without a statement each."""
    m = _PLAIN_INSERT.fullmatch(sql.strip())
    return None if m is None else f"COPY {m.group(1)} ({m.group(2)}) FROM STDIN"


_NOT_WRITING = ("SELECT", "SAVEPO", "RELEAS", "BEGIN", "COMMIT")  # no row changed (a ROLLBACK changes
# rows back, but the runner forgets the whole memo with it)
_WRITES_TO = re.compile(r"\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)"
                        r"\s+(?:main\.)?[\[\"`]?(\w+)", re.IGNORECASE)


def written_table(sql: str) -> str | None:
    """The table a SQLite statement writes to; None when it writes none, "" when it may write but
    the table cannot be told (a statement of another shape)."""
    if sql.lstrip()[:6].upper() in _NOT_WRITING:
        return None
    target = _WRITES_TO.match(sql)
    return "" if target is None else target.group(1)


def value(v: Any) -> Any:
    """A parameter as SQLite would store it, sent untyped so the column decides."""
    if v is None or isinstance(v, (str, bytes)):
        return v
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (dict, list, tuple)):
        return json.dumps(v, default=repr, ensure_ascii=False)  # as sqlite-utils stores them
    return v.isoformat() if hasattr(v, "isoformat") else str(v)


def result(v: Any) -> Any:
    """A value read back as SQLite returns it."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v
