"""`history --grep TEXT` as a full-text query: FTS5's operators obeyed, every other word searched as a word.

The GM's text is read with FTS5's own grammar (its operators in capitals, as FTS5 spells them):
`OR`, `AND` (also implied between words), `NOT` (binary: `scar NOT captain`), a trailing `*` (a
prefix: `capt*`), `"a quoted phrase"` and parentheses. Every other word is quoted before FTS5 sees
it, so a GM's punctuation (`Bo's`, `d6+1`, `x-y`) is a word to find, never FTS5 syntax. What the
grammar cannot read (a quote or parenthesis left open, an operator with nothing on one side) is
refused in one line, before any SQL runs.

The query is written back fully parenthesised, every operator spelled out, so precedence never
depends on the reader: FTS5 reads it as written, and PostgreSQL's `fts_query` (postgres_sql.py)
maps it token by token onto a tsquery.
"""
from __future__ import annotations

import re
from typing import Union

from campaign_ledger.ledger.errors import BadInput

OPERATORS = ("OR", "AND", "NOT")  # loosest first, as FTS5 binds them; words side by side bind tightest
_TOKEN = re.compile(r'"((?:[^"]|"")*)("?)(\*?)|([()])|([^\s()"]+)')
Node = Union[str, tuple]  # a phrase in FTS5's quoted form, or (operator, left, right)


def match_query(text: str) -> str:
    """The GM's `--grep` text as the FTS5 query it means (BadInput when malformed or wordless)."""
    tokens = _tokens(text)
    if not any(t not in (*OPERATORS, "(", ")") for t in tokens):
        raise BadInput("--grep needs a word to search for.")
    parser = _Parser(tokens, text)
    tree = parser.expression(0)
    if parser.at < len(tokens):
        raise parser.refused("')' closes nothing" if tokens[parser.at] == ")" else
                             f"{tokens[parser.at]} needs a word on each side")
    return _written(tree)


def words_query(text: str) -> str:
    """Every word of `text` required, each taken literally (a name: `--pc`, `--challenge`)."""
    words = [_phrase(w) for w in text.split() if any(ch.isalnum() for ch in w)]
    if not words:
        raise BadInput("--grep needs a word to search for.")
    return " AND ".join(words)


def _phrase(words: str, prefix: bool = False) -> str:
    return '"' + words.replace('"', '""') + '"' + ("*" if prefix else "")


def _tokens(text: str) -> list[str]:
    """Operators and parentheses as themselves; every phrase in FTS5's quoted form. A word with no
    letter or digit (`-`, `?!`, a lone `*`) is no word to search for and is left out."""
    tokens = []
    for quoted, closed, star, paren, word in (m.groups() for m in _TOKEN.finditer(text)):
        if paren or word in OPERATORS:
            tokens.append(paren or word)
        elif word is not None:
            stem = word.rstrip("*")
            if any(ch.isalnum() for ch in stem):
                tokens.append(_phrase(stem, stem != word))
        elif not closed:
            raise BadInput(f"--grep '{text}': a quote (\") is not closed.")
        elif any(ch.isalnum() for ch in quoted):
            tokens.append(_phrase(quoted.replace('""', '"'), bool(star)))
    return tokens


class _Parser:
    """Precedence climbing over the tokens: OR, then AND, then NOT, then words side by side."""

    def __init__(self, tokens: list[str], text: str) -> None:
        self.tokens, self.text, self.at = tokens, text, 0

    def refused(self, why: str) -> BadInput:
        return BadInput(f"--grep '{self.text}': {why} (search words, \"a phrase\", capt*, "
                        "OR, AND, NOT between words, and parentheses).")

    def expression(self, level: int) -> Node:
        if level == len(OPERATORS):
            return self.side_by_side()
        left = self.expression(level + 1)
        while self.peek() == OPERATORS[level]:
            self.at += 1
            if self.peek() in (None, ")", *OPERATORS):
                raise self.refused(f"{OPERATORS[level]} needs a word on each side")
            left = (OPERATORS[level], left, self.expression(level + 1))
        return left

    def side_by_side(self) -> Node:
        left = self.primary()
        while self.peek() not in (None, ")", *OPERATORS):
            left = ("AND", left, self.primary())
        return left

    def primary(self) -> Node:
        token = self.peek()
        if token is None:  # only after a '(': the text ended inside it
            raise self.refused("a '(' is not closed")
        if token in OPERATORS:
            raise self.refused(f"{token} needs a word on each side")
        if token == ")":
            raise self.refused("() holds no word" if self.tokens[self.at - 1:self.at] == ["("] else
                               "')' closes nothing")
        self.at += 1
        if token != "(":
            return token
        inside = self.expression(0)
        if self.peek() != ")":
            raise self.refused("a '(' is not closed")
        self.at += 1
        return inside

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None


def _written(node: Node) -> str:
    if isinstance(node, str):
        return node
    operator, left, right = node
    return f"({_written(left)} {operator} {_written(right)})"
