"""One game's paths in the contract, one per declared operation (referee.http.operations):
its operation id, words, request and answer schemas, the problems it may answer and its
example, a real request and the service's real answer to it (referee.http.examples)."""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine
from referee.http.checks import RequestChecks
from referee.http.examples import (EXAMPLE_CLOCK, EXAMPLE_PLAYERS, EXAMPLE_SEED, Example,
                                   ExampleMatch, example_match)
from referee.http.operations import JSON, SVG, Operation, offered
from referee.pictures.sheet import MAX_COLUMNS as SHEET_COLUMNS
from referee.service.codec import StateCodec
from referee.service.errors import Refused
from referee.service.referee import Referee

from .base import Builder, GameNames, camel, problem_responses, ref
from .games import STATE_OR_SEAT

EXAMPLE_SUMMARY = (f"A real request: players {', '.join(EXAMPLE_PLAYERS[:2])}..., seed "
                   f"{EXAMPLE_SEED!r}, default options, the clock at {EXAMPLE_CLOCK:.0f}")
SEALED_SUMMARY = EXAMPLE_SUMMARY + ", the state sealed with this server's key"


def game_paths(b: Builder, engine: Engine, names: GameNames, codec: StateCodec) -> None:
    """Every operation offered for `engine`, in the declarations' order, its examples'
    states written by `codec` (open, or sealed with the serving referee's keys)."""
    match = example_match(engine, codec)
    checks = RequestChecks({engine.id: engine}, b.max_id, b.max_items, b.max_moves)
    service = Referee({engine.id: engine}, codec, lambda: EXAMPLE_CLOCK, checks.move)
    for op in offered(engine):
        request = op.request_schema.format(game=names.prefix)
        if op.media == JSON:
            _json_path(b, engine, names, op, request, example(service, checks, engine, op, match),
                       EXAMPLE_SUMMARY if codec.sealer is None else SEALED_SUMMARY)
            continue
        if request not in b.spec.components.schemas:  # one for each format of a picture
            b.shaped(request, _picture_request(b, op, names), op.request,
                     SHEET if op.request == "sheet" else STATE_OR_SEAT)
        _picture_path(b, engine, op, request, match)


def example(service: Referee, checks: RequestChecks, engine: Engine, op: Operation,
            match: ExampleMatch) -> Example:
    """The operation's example request, and the answer the service (open mode, at the
    examples' clock) gives it once checked as the routes check it; None when refused."""
    assert op.example is not None
    sent = op.example(match)
    if op.example_answer is not None:
        return sent, op.example_answer(match)
    try:
        body = checks.envelope(op.request, sent)
        return sent, op.run(service, engine, body)
    except Refused:
        return sent, None


# A player every request of an operation answered by an outcome names: the first seated at
# creation (`players` is required there), the mover after a move (`move.player` is required).
NAMED_PLAYER = {"matches": "$request.body#/players/0", "moves": "$request.body#/move/player"}


def _links(game_id: str, segment: str) -> dict[str, Any]:
    """What may follow an outcome, with values every outcome of that operation has: its
    state (an outcome always carries one) and a player its request named. No link points
    into `legal_moves` or `to_act`: a finished match has neither, and an answer filtered for
    a `viewer` lists only his moves, so such a link would go out half filled. A link to post
    or dry-run a move gives the state; the move is the client's choice (from `legal_moves`
    or ListLegalMoves)."""
    op = camel(game_id)
    state = {"body.state": "$response.body#/state"}
    follow = {
        "ListLegalMoves": (f"{op}ListLegalMoves", state,
                           "its state: every player's legal moves"),
        "ShowView": (f"{op}PlayerView", {**state, "body.player": NAMED_PLAYER[segment]},
                     "its state and the player the request named (the first seated at "
                     "creation, the mover after a move): his view"),
        "PostMoveInThisState": (f"{op}PostMove", state,
                                "its state: post a move in it (the client fills `move`)"),
        "ValidateMoveInThisState": (f"{op}ValidateMove", state,
                                    "its state: dry-run a move in it (the client fills "
                                    "`move`)"),
    }
    return {name: {"operationId": target, "parameters": params,
                   "description": f"Follows the answer with {what} (a parameter named "
                                  "body.<field> fills that field of the request body)."}
            for name, (target, params, what) in follow.items()}


def _json_path(b: Builder, engine: Engine, names: GameNames, op: Operation, request: str,
               examples: Example, summary: str) -> None:
    sent, answered = examples
    answer = op.answer_schema.format(game=names.prefix)
    example_name = f"{engine.id}-{op.segment}"
    answer_content: dict[str, Any] = {"schema": ref(answer)}
    if answered is not None:  # none when the example request is refused
        said = ("The answer to the example request" if op.example_answer is None else
                f"An answer of this form: {op.example_answer_differs}")
        answer_content["examples"] = {example_name: {"summary": said, "value": answered}}
    success = {"description": op.summary.format(name=engine.name),
               "content": {"application/json": answer_content}}
    if answer == names("Outcome"):
        success["links"] = _links(engine.id, op.segment)
    _post(b, engine, op, {"schema": ref(request), "examples": {
        example_name: {"summary": summary, "value": sent}}}, success)


def _post(b: Builder, engine: Engine, op: Operation, request: dict[str, Any],
          success: dict[str, Any]) -> None:
    """The operation's POST on the game's own path: its JSON request's schema and examples,
    its success's answer, and its problems."""
    game_id = engine.id
    operation = {
        "operationId": f"{camel(game_id)}{op.operation_id}", "tags": [game_id],
        "summary": op.summary.format(name=engine.name), "description": op.text,
        "requestBody": {"required": True, "content": {"application/json": request}},
        "responses": {str(op.status): success, **problem_responses(op.problems)},
        "x-referee-rules": [{"code": rule.code, "says": rule.says} for rule in op.request_rules],
    }
    if op.answers_events:
        operation["parameters"] = ["ContractVersion"]
    b.spec.path(f"/v1/games/{game_id}/{op.segment}", operations={"post": operation})


# -- pictures ----------------------------------------------------------------------------------
def _picture_request(b: Builder, op: Operation, names: GameNames) -> dict[str, Any]:
    body = b.converter.schema2jsonschema(b.envelopes[op.request])
    body["additionalProperties"] = False
    props = body["properties"]
    props["state"] = {**names.posted_state(),
                      "description": "Open mode: the state object; sealed mode: the token."}
    if "seat_token" in props:
        props["seat_token"] = {**ref("SeatToken"), "description": (
            "Instead of `state`, from a player's device: the picture is of the token's "
            "seat and no other.")}
    if op.request == "view_image":
        props["player"] = {**ref("PlayerId"), "description": (
            "Whose view: a player sees his own; anyone not seated is a spectator and sees "
            "public information only.")}
        props["events"] = {
            "type": "array", "items": ref(names("Event")), "maxItems": b.max_items,
            "description": "Events to list under the table (the last ten are shown), as an "
                           "answer gave them. Each must fit its declared type; a detail that "
                           "is private to other players is left out of the picture, and the "
                           "generic `other` event shows the type it names only."}
    else:  # the Generala sheet
        props["state"]["description"] = (
            "A match to fill the sheet from (its players, box values, scores, whose turn "
            "or who won). Without it the sheet is blank.")
        props["players"].update(description=(
            "Blank sheet: how many player columns (default: as many as `names`, or "
            f"{SHEET_COLUMNS})."))
        props["names"] = {"type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                          "maxItems": SHEET_COLUMNS,
                          "description": "Blank sheet: names to head the first columns with "
                                         "(no more than `players`)."}
        props["options"] = {**ref(names("Options")), "description": (
            "Blank sheet: the match options whose box values it shows (default: the rule "
            "text's).")}
        props["page"].update(description="The paper: A4 (210 x 297 mm) or US Letter "
                                         "(8.5 x 11 in), portrait.")
    return body


# The sheet request's two shapes: a blank sheet has no more names than `players`, when given.
SHEET = {
    "OfAMatch": {"description": "The sheet of a match: its players, options and boxes come "
                                "from `state`."},
    "Blank": {"description": "A blank sheet: `players` columns, the first headed by `names`, "
                             "the box values of `options`.",
              "allOf": [{"if": {"required": ["players"],
                                "properties": {"players": {"const": count}}},
                         "then": {"properties": {"names": {"maxItems": count}}}}
                        for count in range(1, SHEET_COLUMNS)]},
    "": {"description": "A sheet of a match (`state`) or a blank one (`players`, `names`, "
                        "`options`); `state` goes with none of the three."},
}


def _picture_examples(game_id: str, op: Operation, match: ExampleMatch) -> dict[str, Any]:
    if op.example is not None:
        return {f"{game_id}-view-image": {
            "summary": "The example match's view, with its creation events",
            "value": op.example(match)}}
    return {  # the sheet: a blank one, and the example match's
        f"{game_id}-blank-sheet": {"summary": "A blank sheet for four, two of them named",
                                   "value": {"players": 4, "names": ["ann", "bob"],
                                             "page": "a4"}},
        f"{game_id}-match-sheet": {"summary": "The sheet of the example match, on Letter",
                                   "value": {"state": match.wire, "page": "letter"}},
    }


def _picture_path(b: Builder, engine: Engine, op: Operation, request: str,
                  match: ExampleMatch) -> None:
    """A POST answered by a file of the operation's media type."""
    content = {op.media: {"schema": {"type": "string", "format": "binary",
                                     "contentMediaType": op.media,
                                     "description": op.file_text}}}
    headers = {"Content-Disposition": {
        "description": "`inline`, with a file name for saving it.",
        "schema": {"type": "string"}}}
    if op.media == SVG:
        headers["Content-Security-Policy"] = {
            "description": "The SVG may run nothing and load nothing when opened on its own.",
            "schema": {"type": "string"}}
    _post(b, engine, op, {"schema": ref(request),
                          "examples": _picture_examples(engine.id, op, match)},
          {"description": op.summary.format(name=engine.name), "headers": headers,
           "content": content})
