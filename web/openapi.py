"""The HTTP API's contract, read from the Campaign handle itself: one route per public method, its
arguments' JSON Schema from the type hints, its words from the docstring, as an OpenAPI 3.1 document.

Nothing here names a call: a method added to a ruleset's mixin (campaign_ledger/relics.py, ...) is a
route the next time the server starts. The rules that sort the methods are stated here, once
(with NOT_CALLS, the handle's housekeeping, and GM_ONLY, a read that needs the GM token):

- a method is a **write** when it takes `key` (every write takes an idempotency key; no read does):
  `POST /api/calls/<method>` with the GM token; every other method is a **read**:
  `GET /api/calls/<method>?arg=value` or `POST` with a JSON body, with the read token;
- a method with a required argument that names a file on the server (typed `os.PathLike`, or named
  one of FILE_ARGUMENTS), or that takes a callback, is **not served**: the GM token plays the
  campaign, it does not write the server's disk; an optional one is left at its default.

The same schemas check a request's arguments before the call (`check`), so a value of the wrong
type is refused as malformed (400, code 2) in one line, never half-run.
"""
from __future__ import annotations

import collections.abc as abc
import functools
import inspect
import os
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Callable, Literal, Union

WRITE_ARGUMENT = "key"  # a method that takes it is a write
FILE_ARGUMENTS = frozenset({"path", "output", "source", "file", "folder"})
NOT_CALLS = frozenset({"close", "demo", "acting"})  # the handle's own housekeeping; a demo makes a campaign
# file; `acting` gives another handle (the API's writes are the GM's, by the channel "api")
GM_ONLY = frozenset({"rebuild", "seat_links", "seat_by_token"})  # append nothing, but rebuild rewrites every read
# table and the seats' two tell a seat's token (or test one): the GM's token, as a write
PREFIX = "/api/calls/"
REFUSALS = {"400": "Malformed: a value that does not parse (code 2, rule null).",
            "401": "No token, or not one this server made.",
            "403": "A token that may not do this (the read token, for a write).",
            "404": "No such call.",
            "409": "Refused by a rule of the game or of the ledger (code 1, with its rule).",
            "500": "The file or its server failed (a full disk, a damaged file; code 1, with its rule)."}


class NotServed(Exception):
    """An argument no JSON value can stand for (a file on the server, a callback)."""


@dataclass(frozen=True)
class Call:
    """One method of the handle as an HTTP call."""

    name: str
    write: bool
    arguments: dict[str, dict[str, Any]]  # name -> JSON Schema, in the signature's order
    required: tuple[str, ...]
    returns: dict[str, Any]
    doc: str


def served(cls: type) -> tuple[dict[str, Call], dict[str, dict[str, Any]]]:
    """Every call of `cls` the API serves, by name, and the named schemas they refer to."""
    return _served(cls)


@functools.cache
def _served(cls: type) -> tuple[dict[str, Call], dict[str, dict[str, Any]]]:
    found: dict[str, Call] = {}
    named: dict[str, dict[str, Any]] = {}
    for name, method in sorted(inspect.getmembers(cls, inspect.isfunction)):
        if name.startswith("_") or name in NOT_CALLS:
            continue
        try:
            found[name] = _call(name, method, named)
        except NotServed:
            continue
    return found, named


def _call(name: str, method: Callable[..., Any], named: dict[str, dict[str, Any]]) -> Call:
    signature = inspect.signature(method)
    hints = _hints(method)
    arguments, required = {}, []
    for p in list(signature.parameters.values())[1:]:  # after self
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise NotServed(p.name)
        try:
            if p.name in FILE_ARGUMENTS:
                raise NotServed(p.name)
            arguments[p.name] = schema_of(hints.get(p.name, Any), named)
        except NotServed:
            if p.default is p.empty:
                raise  # the call needs a file on the server, or a callback: not served
            continue  # an optional file or callback (undo's confirm, export's output): left at its default
        if p.default is p.empty:
            required.append(p.name)
    returns = schema_of(hints.get("return", Any), named)
    write = WRITE_ARGUMENT in arguments or name in GM_ONLY
    return Call(name, write, arguments, tuple(required), returns, inspect.getdoc(method) or name)


def _hints(method: Callable[..., Any]) -> dict[str, Any]:
    """The method's type hints, the returned shapes (campaign_ledger/shapes.py, which the calls' modules
    import for a type checker only) among them; where one names what only a type checker imports, the
    others (that argument then takes any value)."""
    from campaign_ledger import shapes

    names = vars(shapes)
    try:
        return typing.get_type_hints(method, localns=names)
    except Exception:
        pass
    hints = {}
    for name, hint in getattr(method, "__annotations__", {}).items():
        try:  # as get_type_hints reads them
            hints[name] = eval(hint, method.__globals__, names) if isinstance(hint, str) else hint  # noqa: S307
        except Exception:
            continue
    return hints


def schema_of(hint: Any, named: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The JSON Schema (2020-12, as OpenAPI 3.1 has it) of the values a type hint admits from JSON.
    A TypedDict is named once in `named` and referred to; a hint it cannot read admits any value."""
    simple = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}
    if hint in simple:
        return {"type": simple[hint]}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return {"anyOf": [schema_of(a, named) for a in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin is tuple and args and args[-1] is not Ellipsis:
        return {"type": "array", "prefixItems": [schema_of(a, named) for a in args],
                "minItems": len(args), "maxItems": len(args)}
    if origin in (list, tuple, set, frozenset, abc.Sequence, abc.Iterable, abc.Collection, abc.Set) or \
            hint in (list, tuple, set, frozenset):
        return {"type": "array", **({"items": schema_of(args[0], named)} if args else {})}
    if origin in (dict, abc.Mapping, abc.MutableMapping) or hint is dict:
        return {"type": "object", **({"additionalProperties": schema_of(args[1], named)} if args else {})}
    if typing.is_typeddict(hint):
        if hint.__name__ not in named:
            named[hint.__name__] = {}  # refers to itself, if it does, while it is being read
            fields = typing.get_type_hints(hint)
            named[hint.__name__] = {
                "type": "object", "description": inspect.getdoc(hint) or hint.__name__,
                "properties": {k: schema_of(v, named) for k, v in fields.items()},
                **({"required": sorted(hint.__required_keys__)} if hint.__required_keys__ else {})}
        return {"$ref": f"#/components/schemas/{hint.__name__}"}
    if origin in (abc.Callable,) or hint is os.PathLike or origin is os.PathLike:
        raise NotServed(str(hint))
    return {}


def document(cls: type, version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every call `cls` serves."""
    from campaign_ledger.errors import ErrorBody

    calls, named = served(cls)
    named = dict(named)
    error = schema_of(ErrorBody, named)
    paths = {f"{PREFIX}{c.name}": _path_item(c, error, named) for c in calls.values()}
    paths["/api/openapi.json"] = {"get": {
        "operationId": "openapi", "summary": "This document.", "security": READ_SECURITY,
        "responses": {"200": {"description": "The OpenAPI document.",
                              "content": {"application/json": {"schema": {"type": "object"}}}}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Campaign Ledger", "version": version,
                 "description": "The calls of a campaign handle (campaign_ledger.Campaign) over HTTP, served by "
                                "`campaign serve`. A call returns what the CLI's --json prints; a refusal is "
                                "{error, code, rule}. Writes need the GM token `serve` prints, in an "
                                "`Authorization: Bearer` header; reads need the read token when the server is "
                                "shared beyond loopback."},
        "paths": paths,
        "components": {"schemas": named, "securitySchemes": {
            "gmToken": {"type": "http", "scheme": "bearer", "description": "The GM token `campaign serve` prints."},
            "readToken": {"type": "apiKey", "in": "query", "name": "token",
                          "description": "The read token in the page's URL (beyond loopback only)."}}},
    }


READ_SECURITY: list[dict[str, list[str]]] = [{}, {"readToken": []}, {"gmToken": []}]


def _path_item(call: Call, error: dict[str, Any], named: dict[str, dict[str, Any]]) -> dict[str, Any]:
    summary = " ".join(call.doc.split("\n\n")[0].split())
    body = {"type": "object", "properties": call.arguments, "additionalProperties": False,
            **({"required": list(call.required)} if call.required else {})}
    operation = {
        "summary": summary, "description": call.doc,
        "tags": ["writes" if call.write else "reads"],
        "responses": {"200": {"description": "What the CLI's --json prints.",
                              "content": {"application/json": {"schema": call.returns}}},
                      **{status: {"description": words, "content": {"application/json": {"schema": error}}}
                         for status, words in REFUSALS.items()}},
    }
    posted = {**operation, "operationId": call.name, "requestBody": {
        "required": bool(call.required), "content": {"application/json": {"schema": body}}}}
    if call.write:
        return {"post": {**posted, "security": [{"gmToken": []}]}}
    asked = [{"name": name, "in": "query", "required": name in call.required, "schema": schema,
              **({"explode": True} if "array" in kinds(schema, named) else {})}
             for name, schema in call.arguments.items()]
    return {"get": {**operation, "operationId": f"{call.name}_get", "parameters": asked, "security": READ_SECURITY},
            "post": {**posted, "security": READ_SECURITY}}


# --- checking a request's arguments against the same schemas -------------------------------------

class Malformed(ValueError):
    """An argument the call's schema does not admit; its words say which and why."""


def kinds(schema: dict[str, Any], named: dict[str, dict[str, Any]]) -> set[str]:
    """The JSON types a schema admits ("any" for every one)."""
    schema = _resolved(schema, named)
    if "anyOf" in schema:
        return set().union(*(kinds(s, named) for s in schema["anyOf"]))
    if "enum" in schema:
        return {_kind(v) for v in schema["enum"]}
    return {schema["type"]} if "type" in schema else {"any"}


def check(value: Any, schema: dict[str, Any], named: dict[str, dict[str, Any]], where: str) -> Any:
    """`value` as the call takes it (a fixed-length array as a tuple), or Malformed."""
    schema = _resolved(schema, named)
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            try:
                return check(value, option, named, where)
            except Malformed:
                continue
        raise Malformed(f"{where} cannot be {_shown(value)}.")
    if "enum" in schema:
        if value not in schema["enum"]:
            raise Malformed(f"{where} must be one of {', '.join(map(str, schema['enum']))}, not {_shown(value)}.")
        return value
    kind = schema.get("type")
    if kind is None:
        return value
    if _kind(value) != kind and not (kind == "number" and _kind(value) == "integer"):
        raise Malformed(f"{where} must be {_WORDS[kind]}, not {_shown(value)}.")
    if kind == "array":
        if "prefixItems" in schema:
            items = schema["prefixItems"]
            if len(value) != len(items):
                raise Malformed(f"{where} must hold {len(items)} values, not {len(value)}.")
            return tuple(check(v, s, named, f"{where}[{i}]") for i, (v, s) in enumerate(zip(value, items)))
        return [check(v, schema.get("items", {}), named, f"{where}[{i}]") for i, v in enumerate(value)]
    if kind == "object":
        inner = schema.get("additionalProperties", {})
        fields = schema.get("properties", {})
        return {k: check(v, fields.get(k, inner if isinstance(inner, dict) else {}), named, f"{where}.{k}")
                for k, v in value.items()}
    return value


def from_query(text: str, schema: dict[str, Any], named: dict[str, dict[str, Any]]) -> Any:
    """One query-string value as the JSON value the schema most likely means: an integer where one is
    admitted and the text is one, true/false where a boolean is, else the text itself."""
    admits = kinds(schema, named)
    if admits & {"integer", "number"} and re.fullmatch(r"-?\d+", text):
        return int(text)
    if "number" in admits and re.fullmatch(r"-?\d+(\.\d+)?", text):
        return float(text)
    if "boolean" in admits and text in ("true", "false"):
        return text == "true"
    if "null" in admits and text == "null":
        return None
    return text


_WORDS = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
          "null": "null", "array": "a list", "object": "an object"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, (list, tuple)) else "object" if isinstance(value, dict) else "any"


def _resolved(schema: dict[str, Any], named: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return named[ref.rsplit("/", 1)[1]] if ref else schema


def _shown(value: Any) -> str:
    import json

    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
