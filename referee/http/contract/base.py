"""What every part of the contract's builder shares: the document being built (`Builder`),
component names and references, and the forms every fixed answer and problem list take."""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec

from referee.http.schemas import MAX_REPLAY_MOVES, envelope_schemas

REF = "#/components/schemas/{name}"


def pascal(game_id: str) -> str:
    """`generala-dice` -> `GeneralaDice`: the prefix of a game's schema names."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", game_id))


def camel(game_id: str) -> str:
    name = pascal(game_id)
    return name[0].lower() + name[1:]


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


class Builder:
    """The document being built, with apispec's marshmallow converter and the limits the
    request schemas are made with."""

    def __init__(self, spec: APISpec, converter: Any, max_id: int, max_items: int,
                 max_moves: int = MAX_REPLAY_MOVES):
        self.spec = spec
        self.converter = converter
        self.max_id = max_id
        self.max_items = max_items
        self.max_moves = max_moves
        self.envelopes = envelope_schemas(max_id, max_items, max_moves)

    def schema(self, name: str, body: dict[str, Any]) -> None:
        self.spec.components.schema(name, body)

    def shaped(self, name: str, body: dict[str, Any], kind: str,
               words: dict[str, dict[str, Any]]) -> None:
        """The envelope `name`, whose every field is in `body`, as `oneOf` its shapes (the
        marshmallow envelope's `shapes`, referee.http.schemas.Shape): each a schema of its
        own, `name` then the shape's name, without the fields it goes without, requiring
        what it requires, with what `words` gives it by its name (its description, and any
        rule of its own); `words[""]` describes the whole. Without shapes, the envelope is
        `body` as it is."""
        shapes = getattr(self.envelopes[kind], "shapes", ())
        if not shapes:
            self.schema(name, body)
            return
        given = body.get("required", [])
        for shape in shapes:
            one = {"type": "object",
                   "properties": {field: schema for field, schema in body["properties"].items()
                                  if field not in shape.without},
                   "required": [*given, *(f for f in shape.requires if f not in given)],
                   "additionalProperties": False, **words[shape.name]}
            if not one["required"]:
                del one["required"]
            self.schema(name + shape.name, one)
        self.schema(name, {"oneOf": [ref(name + shape.name) for shape in shapes], **words[""]})


class GameNames:
    """The component names of one game's schemas: `names("Outcome")` is `GeneralaDiceOutcome`."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def __call__(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def move(self, move_type: str) -> str:
        return f"{self.prefix}{pascal(move_type)}Move"

    def posted_state(self) -> dict[str, Any]:
        """A state as requests carry it and answers give it: the object, or its token (one
        component, `<Game>PostedState`)."""
        return ref(self("PostedState"))

    def declared(self, name: str) -> str:
        if name in ("View", "Scores"):
            return f"{self.prefix}{name}"
        return name if name.startswith(self.prefix) else f"{self.prefix}{name}"


def fixed_answer(operation: dict[str, Any]) -> dict[str, Any]:
    """An answer that changes only with a release: it carries an ETag and a Cache-Control,
    and is answered 304, without a body, to a client that holds the current copy."""
    validator = {"description": "The answer's version: send it back in `If-None-Match`.",
                 "schema": {"type": "string"}}
    lifetime = {"description": "How long a copy may be reused without asking "
                               "(`public, max-age=...`).", "schema": {"type": "string"}}
    headers = {"ETag": validator, "Cache-Control": lifetime}
    responses = dict(operation["responses"])
    responses["200"] = {**responses["200"], "headers": headers}
    responses["304"] = {"description": "The copy named in `If-None-Match` is current.",
                        "headers": headers}
    held = {"name": "If-None-Match", "in": "header", "required": False,
            "schema": {"type": "string"},
            "description": "The ETag of a copy the client holds."}
    return {**operation, "parameters": [*operation.get("parameters", []), held],
            "responses": responses}


def problem_responses(statuses_here: tuple[str, ...]) -> dict[str, Any]:
    """The shared problem responses of these statuses, by status."""
    return {status: {"$ref": f"#/components/responses/Problem{status}"} for status in statuses_here}


def answered(description: str, media: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A success's response: its description and its one media type's schema."""
    return {"description": description, "content": {media: {"schema": schema}}}
