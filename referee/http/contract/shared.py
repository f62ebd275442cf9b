"""The contract's parts shared by every game: the problem, the ids, tokens and seeds, the
catalogue's schemas, the verdict, the problem responses; the catalogue's paths and the
service's own (health, readiness, metrics, the contract, the explorer, the /verify page)."""

from __future__ import annotations

from referee.core.contributions import MAX_SEED_CHARS
from referee.core.wire import FIRST_VERSION, VERSION_PATTERN
from referee.http.explorer import SERVED_ASSETS
from referee.http.operations import CONTRACT_VERSION
from referee.http.problems import CATALOGUE
from referee.http.schemas import FIELD_KINDS
from referee.http.sealing import TOKEN_PATTERN
from referee.version import __version__

from .base import Builder, answered, fixed_answer, problem_responses, ref

# Refusals a dry run answers with `legal: false` instead of a problem response.
VERDICT_CODES = ("illegal_move", "not_your_turn", "game_over")


def components(b: Builder, game_ids: list[str]) -> None:
    codes = list(CATALOGUE)
    b.schema("Problem", {
        "type": "object",
        "description": "An RFC 9457 problem with the referee's stable `code`.",
        "required": ["type", "title", "status", "detail", "code"],
        "properties": {
            "type": {"type": "string", "description": "urn:referee:problem:<code>"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "code": {"type": "string", "x-extensible-enum": codes,
                     "description": "What went wrong, for a program to branch on. Known "
                     "codes: " + ", ".join(codes) + "; more may come."},
            "errors": {"type": "object", "additionalProperties": True,
                       "description": "With validation_error: each bad field and what is "
                       "wrong with it (nested like the request)."},
            "rule": {"type": "string",
                     "description": "With illegal_move: the id of the rule the move breaks."},
            "problems": {"type": "array", "items": {"type": "string"},
                         "description": "With invalid_state or invalid_options: every "
                         "problem found."},
            "checks": ref("ReadinessChecks"),
            "retry_after": {"type": "integer", "description": "With not_prepared: the "
                            "seconds to wait before asking again (also the Retry-After "
                            "header)."},
            "move_index": {"type": "integer", "minimum": 0, "description": (
                "From a replay: the index (from 0) of the first move refused; the rest of "
                "the problem is what posting that move would have got.")},
            "reached": {"type": "object", "additionalProperties": True, "description": (
                "From a replay: the outcome as far as the match got, before the refused "
                "move (the game's outcome, with `moves_applied`).")},
        },
    })
    b.schema("SignedResult", {
        "type": "object", "required": ["statement"],
        "description": "The referee's signed statement of a finished match's result "
                       "(docs/RESULTS.md): given when a match finishes in sealed mode or in a "
                       "replay, never for an open-mode state the caller could have written.",
        "properties": {
            "statement": {"type": ["string", "null"], "description": (
                "A compact JWS (RFC 7515) signed with EdDSA (Ed25519, RFC 8037), whose "
                "payload is a `ResultStatement`; verify it with the keys of "
                "/.well-known/jwks.json. Null when this referee has no signing key.")},
            "key_id": {"type": "string", "description": "The `kid` of the key that signed."},
            "payload": {**ref("ResultStatement"), "description": (
                "The statement's payload as signed, for this answer's receiver to read "
                "without decoding the JWS; a third party trusts the verified statement "
                "alone.")},
            "unsigned": {"type": "string", "description": (
                "Why there is no statement: no signing key is configured.")},
        }})
    b.schema("ResultStatement", {
        "type": "object", "additionalProperties": False,
        "required": ["game", "options", "players", "scores", "seed_commitment", "seed",
                     "state_digest", "played", "iat"],
        "description": "The payload of a `SignedResult`'s statement (read from the JWS once "
                       "it verifies; the answer carrying the statement has it as `payload`): "
                       "what the referee states of a finished match (docs/RESULTS.md, "
                       "\"Signed results\").",
        "properties": {
            "game": ref("GameId"),
            "options": {"type": "object", "description": "Every option of the match, "
                        "defaults included."},
            "players": {"type": "array", "items": ref("PlayerId"), "minItems": 1,
                        "description": "The player ids in seating order."},
            "scores": {"type": "object", "required": ["winners"], "description": (
                "The final scores as the outcome gives them: the `Scores` of the game "
                "`game` names, with `winners`.")},
            "seed_commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                "description": "The commitment every outcome showed."},
            "seed": {"type": "string", "minLength": 1,
                     "description": "The server's seed it commits to."},
            "contributions": {"type": "array", "items": ref("Contribution"), "minItems": 1,
                              "description": "The seeds contributed, when there were any."},
            "moves": {"type": "integer", "minimum": 0, "description": (
                "How many moves were applied since creation (absent for a sealed token made "
                "before the referee counted them).")},
            "state_digest": {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$",
                             "description": (
                                 "SHA-256 of the final open-mode state's compact JSON less "
                                 "`seating` and `fairness` (docs/RESULTS.md).")},
            "played": {"type": "string", "enum": ["replay", "sealed"], "description": (
                "How the referee came to know every state: it played them (a replay) or "
                "sealed them (sealed mode).")},
            "iat": {"type": "integer", "minimum": 0,
                    "description": "When it was signed, seconds since the epoch."},
        }})
    b.schema("ReadinessChecks", {
        "type": "object", "description": "Each readiness check and whether it passes.",
        "required": ["engines", "contract", "sealing"],
        "properties": {
            "engines": {"type": "boolean", "description": "At least one game is "
                        "registered."},
            "contract": {"type": "boolean", "description": "This contract is generated."},
            "sealing": {"type": "boolean", "description": "In sealed mode, every "
                        "configured key seals and opens a probe (always true in open "
                        "mode)."},
        },
    })
    b.schema("GameId", {
        "type": "string", "x-extensible-enum": game_ids,
        "description": "A game's id. Known today: " + ", ".join(game_ids) + "; more may "
        "come."})
    b.schema("PlayerId", {"type": "string", "minLength": 1, "maxLength": b.max_id,
                             "description": "A player's id, unique in a match."})
    b.schema("SealedState", {
        "type": "string", "pattern": TOKEN_PATTERN,
        "description": "Sealed mode: the opaque token the referee issued, posted back as it "
                       "is."})
    b.schema("SeatToken", {
        "type": "string", "pattern": TOKEN_PATTERN,
        "description": "Sealed mode: one seat's rights over a match at one step (a "
                       "player's, or a spectator's), for the back end to hand to that "
                       "player's device. Sent instead of the state to the legal moves, "
                       "validations, views and hints of its game; never a state."})
    b.schema("Seating", {
        "type": "object", "required": ["bots", "hints_allowed"],
        "additionalProperties": False,
        "properties": {
            "bots": {"type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                     "description": "The players who are bots."},
            "hints_allowed": {"type": "boolean", "description": (
                "Whether humans may ask for hints even when two or more humans play.")},
        },
        "description": "Who sits at the table, kept beside the game's state: which "
                       "players are bots, and whether the humans may ask for hints."})
    b.schema("SeedToken", {
        "type": "string", "minLength": 1,
        "description": "A server seed drawn before its match exists, for creating the "
                       "match with contributed seeds. Sealed mode: an opaque token "
                       f"(pattern {TOKEN_PATTERN}) for its game only; open mode: the seed "
                       "itself, as nothing is secret there."})
    b.schema("NewSeed", {
        "type": "object", "required": ["seed_commitment", "seed_token"],
        "additionalProperties": False,
        "properties": {"seed_commitment": ref("SeedCommitment"),
                       "seed_token": ref("SeedToken")},
        "description": "A server seed committed before anyone contributes: show the "
                       "commitment to the players, then create the match with the token "
                       "and their seeds; the match bears this commitment."})
    b.schema("NewSeedRequest", {
        "type": "object", "additionalProperties": False, "properties": {},
        "description": "Nothing to send: an empty object."})
    b.schema("ContributedSeed", {
        "type": "string", "minLength": 1, "maxLength": MAX_SEED_CHARS,
        "description": "A seed of the contributor's own choosing (best drawn at random on "
                       "his own device)."})
    b.schema("Contribution", {
        "type": "object", "required": ["player", "seed", "step"],
        "additionalProperties": False,
        "properties": {
            "player": {"oneOf": [ref("PlayerId"), {"type": "null"}],
                       "description": "The player who contributed it; null: the game's "
                                      "back end."},
            "seed": ref("ContributedSeed"),
            "step": {"type": "integer", "minimum": 0, "description": (
                "The first step whose stream it keys (0: at creation).")}},
        "description": "A seed mixed into the match's key from step `step` on "
                       "(docs/FAIRNESS.md, \"Contributions\")."})
    b.schema("Fairness", {
        "type": "object", "required": ["seed", "contributions"],
        "additionalProperties": False,
        "properties": {"seed": {"type": "string", "minLength": 1,
                                "description": "The server's seed."},
                       "contributions": {"type": "array", "items": ref("Contribution"),
                                         "minItems": 1}},
        "description": "Open mode, when seeds were contributed (null otherwise): the "
                       "server's seed and the contributions in the order they were made, "
                       "kept beside the game's state (whose `seed` is then their key)."})
    b.schema("Status", {"type": "string", "enum": ["in_progress", "finished"]})
    b.schema("SeedCommitment", {
        "type": "string", "pattern": "^[0-9a-f]{64}$",
        "description": "SHA-256 (hex) of the match seed's UTF-8 bytes, published from "
                       "creation on."})
    b.schema("Seed", {
        "type": "string",
        "description": "The match seed, revealed once the match has finished."})
    b.schema("OptionValue", {"type": ["string", "integer", "boolean"]})
    # The bounds an option or a move's field declares (referee.core.engine.described).
    bounds = {"choices": {"type": "array", "items": ref("OptionValue")},
              "minimum": {"type": "integer"}, "maximum": {"type": "integer"}}
    b.schema("OptionDescription", {
        "type": "object", "required": ["name", "type", "default", "description"],
        "properties": {
            "name": {"type": "string"},
            "type": {"type": "string", "enum": ["integer", "boolean", "string"]},
            "default": ref("OptionValue"),
            "description": {"type": "string"},
            **bounds,
        }})
    # A game's detail is its catalogue entry and more.
    summary_properties = {
        "id": ref("GameId"),
        "name": {"type": "string"},
        "summary": {"type": "string"},
        "min_players": {"type": "integer"},
        "max_players": {"type": "integer"},
        "options": {"type": "array", "items": ref("OptionDescription")},
    }
    b.schema("GameSummary", {
        "type": "object", "required": list(summary_properties),
        "properties": summary_properties})
    b.schema("MoveFieldDescription", {
        "type": "object", "required": ["name", "type", "required", "description"],
        "properties": {
            "name": {"type": "string"},
            "type": {"type": "string", "enum": list(FIELD_KINDS)},
            "required": {"type": "boolean"},
            "description": {"type": "string"},
            **bounds,
            "max_items": {"type": "integer"},
        }})
    b.schema("MoveTypeDescription", {
        "type": "object", "required": ["type", "description", "fields"],
        "properties": {
            "type": {"type": "string"},
            "description": {"type": "string"},
            "fields": {"type": "array", "items": ref("MoveFieldDescription")},
        }})
    b.schema("GameDetail", {
        "type": "object",
        "required": [*summary_properties, "move_types", "state_schema"],
        "properties": {
            **summary_properties,
            "move_types": {"type": "array", "items": ref("MoveTypeDescription")},
            "state_schema": {
                "type": "object", "additionalProperties": True,
                "description": "JSON Schema of the game's open-mode state (also in this "
                "contract as the game's State schema)."},
        }})
    b.schema("Verdict", {
        "type": "object", "required": ["legal"],
        "properties": {
            "legal": {"type": "boolean"},
            "code": {"type": "string", "x-extensible-enum": list(VERDICT_CODES),
                     "description": "Why the move would be refused: the code posting it "
                     "would answer."},
            "detail": {"type": "string"},
            "rule": {"type": "string"},
            "penalty": {"type": "boolean", "description": "Posting this move would be "
                        "accepted and punished (house rule)."},
        }})
    by_status: dict[int, list[str]] = {}
    for code, (status, _) in CATALOGUE.items():
        by_status.setdefault(status, []).append(code)
    for status, codes_here in by_status.items():
        b.spec.components.response(f"Problem{status}", {
            "description": ", ".join(f"`{c}`" for c in codes_here),
            "content": {"application/problem+json": {"schema": ref("Problem")}}})
    b.spec.components.parameter("ContractVersion", "header", {
        "name": CONTRACT_VERSION, "required": False,
        "schema": {"type": "string", "pattern": VERSION_PATTERN},
        "example": __version__,
        "description": "The version of this contract (`info.version`) the client was "
                       "generated from: the answer's events are of the types that version "
                       "declares, and one of a type declared later comes as the generic "
                       "`other` event. Absent: " + FIRST_VERSION + ", the first version "
                       "with the generic event, so a client that never sends it never meets "
                       "an event type it does not know."})
    b.spec.components.parameter("GameId", "path", {
        "name": "game_id", "required": True, "schema": ref("GameId"),
        "example": game_ids[0], "description": "A game id from the catalogue."})
    _catalogue(b)


def _catalogue(b: Builder) -> None:
    b.spec.path("/v1/games", operations={"get": fixed_answer({
        "operationId": "listGames", "tags": ["catalogue"],
        "summary": "The catalogue of games",
        "description": "Each game's id, name, player counts, and options with types, "
                       "defaults and a one-line description.",
        "responses": {"200": answered("The catalogue.", "application/json", {
            "type": "object", "required": ["games"],
            "properties": {"games": {"type": "array", "items": ref("GameSummary")}}})},
    })})
    b.spec.path("/v1/games/{game_id}", parameters=["GameId"], operations={"get": fixed_answer({
        "operationId": "showGame", "tags": ["catalogue"],
        "summary": "One game, with its move types",
        "responses": {"200": answered("The game's catalogue entry and its move types.",
                                      "application/json", ref("GameDetail")),
                      **problem_responses(("404",))},
    })})


def service_paths(b: Builder) -> None:
    text = {"type": "string"}
    b.spec.path("/healthz", operations={"get": {
        "operationId": "health", "tags": ["service"], "summary": "Liveness",
        "responses": {"200": answered("The process answers.", "application/json", {
            "type": "object", "required": ["status", "games"],
            "properties": {"status": {"type": "string", "enum": ["ok"]},
                           "games": {"type": "array", "items": ref("GameId")}}})},
    }})
    b.spec.path("/readyz", operations={"get": {
        "operationId": "readiness", "tags": ["service"], "summary": "Readiness",
        "description": "Whether this process can serve matches: the engines are "
                       "registered, the contract is generated and, in sealed mode, every "
                       "sealing key works. A load balancer sends traffic only to a ready "
                       "process; `/healthz` only says the process answers.",
        "responses": {
            "200": answered("Ready.", "application/json", {
                "type": "object", "required": ["status", "mode", "checks"],
                "properties": {"status": {"type": "string", "enum": ["ready"]},
                               "mode": {"type": "string", "enum": ["open", "sealed"],
                                        "description": "Sealed: states and seat tokens are "
                                        "sealed with REFEREE_STATE_KEYS. Open: states are "
                                        "plain JSON and no seat token is issued."},
                               "checks": ref("ReadinessChecks")}}),
            **problem_responses(("503",))},
    }})
    b.spec.path("/metrics", operations={"get": {
        "operationId": "metrics", "tags": ["service"], "summary": "Prometheus metrics",
        "description": "The Prometheus text exposition format (version 0.0.4), summed over "
                       "every worker process: requests by route, game and status, "
                       "problems by code, moves applied by game, latency histograms by "
                       "route, sealed tokens sealed, opened and refused.",
        "responses": {"200": answered("The metrics.",
                                      "text/plain; version=0.0.4; charset=utf-8", text)},
    }})
    b.spec.path("/.well-known/jwks.json", operations={"get": fixed_answer({
        "operationId": "resultKeys", "tags": ["service"],
        "summary": "The public keys of the referee's signed results",
        "description": "A JWK Set (RFC 7517) of Ed25519 keys (`kty` OKP, `alg` EdDSA): a "
                       "`result.statement` verifies with the key of its `kid`. Every key of "
                       "REFEREE_RESULT_KEYS is listed, the one signing now first; none when "
                       "results are not signed.",
        "responses": {"200": answered("The keys.", "application/jwk-set+json", {
            "type": "object", "required": ["keys"],
            "properties": {"keys": {"type": "array", "items": {
                "type": "object", "required": ["kty", "crv", "alg", "use", "kid", "x"],
                "properties": {
                    "kty": {"type": "string", "enum": ["OKP"]},
                    "crv": {"type": "string", "enum": ["Ed25519"]},
                    "alg": {"type": "string", "enum": ["EdDSA"]},
                    "use": {"type": "string", "enum": ["sig"]},
                    "kid": {"type": "string"},
                    "x": {"type": "string", "description": "The public key, base64url."}}}}}})},
    })})
    b.spec.path("/openapi.yaml", operations={"get": fixed_answer({
        "operationId": "openapiDocument", "tags": ["service"], "summary": "This contract",
        "responses": {"200": answered("The OpenAPI document.", "application/yaml",
                                      {"type": "object", "additionalProperties": True})},
    })})
    b.spec.path("/docs", operations={"get": fixed_answer({
        "operationId": "apiExplorer", "tags": ["service"],
        "summary": "This contract in an API explorer (Swagger UI, served offline)",
        "responses": {"200": answered("An HTML page.", "text/html", text)},
    })})
    b.spec.path("/docs/static/{asset}", operations={"get": fixed_answer({
        "operationId": "apiExplorerAsset", "tags": ["service"],
        "summary": "A file of the API explorer (Swagger UI's script, style and icons)",
        "parameters": [{"name": "asset", "in": "path", "required": True,
                        "schema": {"type": "string", "enum": list(SERVED_ASSETS)},
                        "example": SERVED_ASSETS[0]}],
        "responses": {
            "200": {"description": "The file.", "content": {
                "text/css": {"schema": text},
                "text/javascript": {"schema": text},
                "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
            }},
            **problem_responses(("404",))},
    })})
    b.spec.path("/verify", operations={"get": {
        "operationId": "fairnessCheck", "tags": ["service"],
        "summary": "A page that checks a finished match's dice and cards in the player's "
                   "own browser (docs/FAIRNESS.md); static, offline",
        "responses": {"200": answered("An HTML page.", "text/html", text)},
    }})
    b.spec.path("/verify/{script}", operations={"get": {
        "operationId": "fairnessCheckScript", "tags": ["service"],
        "summary": "A script of the /verify page: fairness.js (the random source and the "
                   "check of a record) or verify.js (the page)",
        "parameters": [{"name": "script", "in": "path", "required": True,
                        "schema": {"type": "string", "enum": ["fairness.js", "verify.js"]},
                        "example": "fairness.js"}],
        "responses": {"200": answered("The script.", "text/javascript", text),
                      **problem_responses(("404",))},
    }})
