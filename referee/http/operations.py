"""Every operation on a game, declared once: its path, its operation id, its request envelope
and answer, its use case, who may call it, the problems it may answer, its example and its
words in the contract. The routes (referee.http.routes), the browser (CORS) routes, the
envelopes a seat token may be sent with, and the contract's paths, problem lists and examples
(referee.http.contract) are all read from `OPERATIONS`."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from referee.core.engine import Engine
from referee.pictures import SHEET_FORMS
from referee.pictures.sheet import GENERALA_FORM
from referee.service.referee import Referee

from . import examples, rules
from .rules import Rule
from .examples import ExampleMatch

JSON = "application/json"
SVG = "image/svg+xml"
PDF = "application/pdf"

# Who may call an operation (its `by_seat`): the game's back end, which holds the state
# (token), and for some a player's device with the seat token the back end handed it (a
# spectator's seat too).
BY_BACK_END, BY_SEAT_TOO = False, True

# The request header in which a client names the contract version it was generated from: an
# answer's events of types declared after that version come as the generic `other` event
# (referee.core.wire.known_to). Without it, the first version with that generic event.
CONTRACT_VERSION = "Referee-Contract-Version"

# The problem statuses an operation may answer, beside its own success.
ANY_BODY = ("400", "403", "404", "413", "415", "422", "501")  # every checked JSON body
RULES_TOO = ("400", "403", "404", "409", "413", "415", "422", "501")  # and the match's refusals


@dataclasses.dataclass(frozen=True)
class Operation:
    """One POST on a game: `/v1/games/<game_id>/<segment>`, or only on the `games` named.

    `run` is the use case, given the game and the checked envelope `request`; its answer is
    JSON (`media` application/json), or a file of `media` named `filename`. The contract
    names the operation `<game's camel id><operation_id>`; `request_schema` and
    `answer_schema` are component names, `{game}` standing for the game's prefix; `summary`
    and `text` may name the game (`{name}`)."""

    segment: str
    operation_id: str
    request: str
    run: Callable[[Referee, Engine, dict[str, Any]], Any]
    by_seat: bool
    problems: tuple[str, ...]
    summary: str
    text: str
    example: Callable[[ExampleMatch], dict[str, Any]] | None
    request_schema: str = ""
    answer_schema: str = ""
    status: int = 200
    media: str = JSON
    filename: str = ""
    file_text: str = ""  # what the file answered holds, in the contract
    hints_only: bool = False  # documented only for a game that gives hints
    # Documented only for the games this says yes to (None: every game it is offered for);
    # the route still answers the others, with the refusal the rules give.
    documented_for: Callable[[Engine], bool] | None = None
    games: tuple[str, ...] | None = None  # None: every game, by `<game_id>`
    # The example's answer when it is not the service's answer to the example request, and
    # how the service's answer differs from it (the contract says so beside it).
    example_answer: Callable[[ExampleMatch], dict[str, Any]] | None = None
    example_answer_differs: str = ""
    # What a request must keep beyond its schema, each refused with its code.
    request_rules: tuple[Rule, ...] = ()

    @property
    def answers_events(self) -> bool:
        """Whether the answer lists events (an outcome), which the caller's contract version
        decides the types of."""
        return self.answer_schema == "{game}Outcome"

    @property
    def endpoint(self) -> str:
        return self.segment.replace("/", "_").replace("-", "_")

    def rules(self) -> list[tuple[str, str | None]]:
        """The Flask rules of this operation and the game each serves (None: any)."""
        if self.games is None:
            return [(f"/v1/games/<game_id>/{self.segment}", None)]
        return [(f"/v1/games/{game_id}/{self.segment}", game_id) for game_id in self.games]


def _sheet(page_format: str) -> Callable[[Referee, Engine, dict[str, Any]], Any]:
    def draw(service: Referee, engine: Engine, body: dict[str, Any]) -> str | bytes:
        return service.sheet(engine, body, page_format)
    return draw


def seeds_after_creation(engine: Engine) -> bool:
    """Whether a player may still add his seed once a match of `engine` is created. Not in
    the card games: the deal at creation concerns everyone, so a contribution there is
    always `contribution_too_late`, and the operation is not documented for them."""
    players = examples.EXAMPLE_PLAYERS[:engine.min_players]
    state = engine.new_match(players, engine.resolve_options({}), examples.EXAMPLE_SEED,
                             now=examples.EXAMPLE_CLOCK)
    return not all(engine.chance_began_for(state, player) for player in players)


SHEET_FILES = (("svg", SVG, "An SVG document sized for the page (in mm or inches)."),
               ("pdf", PDF, "A one-page PDF of the page's size."))
# The games printing Generala's own sheet, and the other dice-sheet games (their sheets read
# from the sheets they play).
GENERALA_SHEET_GAMES = tuple(g for g, form in SHEET_FORMS.items() if form is GENERALA_FORM)
OTHER_SHEET_GAMES = tuple(g for g in SHEET_FORMS if g not in GENERALA_SHEET_GAMES)
OTHER_SHEET_TEXT = ("The game's sheet: its boxes (values from the sheet it plays and the "
                    "match's options), a column per player (one to six), blank or filled from "
                    "a match: each box's points, scratched boxes crossed out, the totals, whose "
                    "turn it is or who won.")
SHEET_TEXT = ("The Generala sheet: its 11 boxes (Spanish names, values and servida values from "
              "the match's options), a column per player (one to six), blank or filled from a "
              "match: each box's points, scratched boxes crossed out, the totals, whose turn it "
              "is or who won.")

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "matches", "CreateMatch", "create", Referee.create, BY_BACK_END, ANY_BODY,
        "Start a match of {name}",
        "Players are unique ids in seating order. Options not given take their defaults. With "
        "`seed`, the whole match is reproducible; without it the referee draws a secret one. "
        "Sealed, `seat_tokens_for` asks for the seat tokens of several players at once "
        "(`seat_tokens`), to hand to each player's device.",
        examples.creation, "{game}CreateMatchRequest", "{game}Outcome", status=201,
        request_rules=rules.CREATION),
    Operation(
        "moves", "PostMove", "move", Referee.move, BY_BACK_END, RULES_TOO,
        "Apply a move of {name}",
        "Validates the move against the state and answers the outcome after it. A refused "
        "move changes nothing. With `viewer`, the answer lists only that player's legal moves, "
        "hides what only others may see in the events, and adds his `view` (and, sealed, his "
        "`seat_token`). Sealed, `seat_tokens_for` asks for the seat tokens of several players "
        "at once (`seat_tokens`), so that one request brings every device its token for the "
        "new state. A seat token is refused here (`seat_token_not_allowed`): the back end "
        "posts moves with the state.",
        examples.posting, "{game}MoveRequest", "{game}Outcome", request_rules=rules.POSTING),
    Operation(
        "replays", "ReplayMatch", "replay", Referee.replay, BY_BACK_END, RULES_TOO,
        "Replay a whole match of {name} from its creation",
        "Plays `moves` in order from a match created with `creation` (a creation's body), as "
        "posting them one by one would, each at its instant `at` (default: the one before "
        "it; the first defaults to `created_at`, which defaults to the referee's clock; "
        "instants never go back nor pass the referee's clock). Answers the final outcome "
        "with `moves_applied`. The first move refused answers the very problem posting it "
        "would have got, with `move_index` (from 0) and `reached`: the outcome as far as the "
        "match got, before that move. At most REFEREE_MAX_REPLAY_MOVES moves (2000 by "
        "default) and the body's byte limit. Sealed-mode rules hold: the state is a token, "
        "the seed is revealed only once the match has finished, and with `viewer` the "
        "events show only what he may see. A finished replay carries the referee's signed "
        "`result` (docs/RESULTS.md).",
        examples.replay, "{game}ReplayRequest", "{game}ReplayAnswer",
        request_rules=rules.REPLAYING),
    Operation(
        "legal-moves", "ListLegalMoves", "legal_moves", Referee.legal_moves, BY_SEAT_TOO,
        ANY_BODY, "The legal moves of a {name} state",
        "Every move that may be posted now, for everyone or for one `player`; with a "
        "`seat_token`, its seat's only.",
        examples.asking, "{game}LegalMovesRequest", "{game}LegalMoves", request_rules=rules.ASKING),
    Operation(
        "validations", "ValidateMove", "validation", Referee.validate, BY_SEAT_TOO, ANY_BODY,
        "Would this {name} move be accepted? (dry run)",
        "Whether the move is legal in the state, without applying it: nothing it would roll or "
        "draw is revealed. A move the rules refuse answers `legal: false` with the code and "
        "detail posting it would give; under a house rule that punishes a wrong move instead "
        "of refusing it, `legal: false` with `penalty: true`. A move that does not fit its "
        "schema is a `validation_error` problem, as when posted. With a `seat_token`, only its "
        "seat's moves (`not_your_seat`).",
        examples.dry_run, "{game}ValidationRequest", "Verdict", request_rules=rules.DRY_RUN),
    Operation(
        "seeds", "NewSeed", "seed", Referee.new_seed, BY_BACK_END,
        ("400", "404", "413", "415", "422", "501"),
        "A committed server seed for a {name} match to come",
        "Draws the server's secret seed now and answers its commitment with a seed token. "
        "Show the commitment to the players, collect their seeds, then create the match with "
        "`seed_token` and `contributions`: the server's seed was fixed before it saw theirs, "
        "and theirs are mixed in, so neither alone chose the deal or the rolls "
        "(docs/FAIRNESS.md).",
        examples.nothing, "NewSeedRequest", "NewSeed", status=201,
        example_answer=examples.committed_seed,
        example_answer_differs="the server's seed is drawn at random, so each answer has a "
                               "seed of its own (in open mode the token is the seed, and the "
                               "commitment is its SHA-256)."),
    Operation(
        "contributions", "Contribute", "contribute", Referee.contribute, BY_BACK_END,
        RULES_TOO, "A player adds his own seed to a {name} match",
        "Mixes the player's seed into the key of every later chance event; the answer is the "
        "new state (the back end keeps it). Accepted before the first chance event that "
        "concerns him only (`contribution_too_late`): in the card games the deal at creation "
        "concerns everyone, so there seeds come at creation (and this operation is documented "
        "only for the games that take seeds later). Once per player "
        "(`contribution_already_made`). The finished outcome reveals every contribution and "
        "the chance events name how many keyed them.",
        examples.contribution, "{game}ContributionRequest", "{game}ContributionAnswer",
        documented_for=seeds_after_creation, request_rules=rules.CONTRIBUTING),
    Operation(
        "views", "PlayerView", "view", Referee.view, BY_SEAT_TOO, ANY_BODY,
        "What one player of a {name} match may see",
        "The player's view of the state (own hand, public table, counts), with his legal "
        "moves. Asked with the state, sealed, it carries his `seat_token`; asked with a seat "
        "token, it is that seat's view.",
        examples.asking, "{game}ViewRequest", "{game}PlayerView", request_rules=rules.ASKING),
    Operation(
        "hints", "Hint", "hint", Referee.hint, BY_SEAT_TOO, (*RULES_TOO, "503"),
        "A hint, or a bot's move, for a player of {name}",
        "One of the player's legal moves, chosen at the level asked from what he sees (his "
        "view: never another hand, the stock's order or the seed), with what it is worth in "
        "the game's terms and the best alternatives. The same request always gives the same "
        "hint. A bot is this call. Refused as `hint_not_allowed` for a human playing other "
        "humans unless the match was created with `hints_allowed`; `not_your_turn` when the "
        "player has no move to make (a spectator never has). With a `seat_token`, for its "
        "seat only. Where the hints need tables built once per option set (Generala's, for "
        "box values that no request has used yet on that worker) the answer is `503 "
        "not_prepared` while they are built off the request's path: ask again after its "
        "`Retry-After` seconds.",
        examples.hint_request, "{game}HintRequest", "{game}Hint", hints_only=True,
        request_rules=rules.HINTING),
    Operation(
        "images/view", "ViewImage", "view_image", Referee.view_picture, BY_SEAT_TOO, ANY_BODY,
        "A picture of what one player of a {name} match sees (SVG)",
        "The view of `/views` drawn: the player's hand, the table, every player's card count, "
        "score and titles, whose turn it is, and the `events` passed. It is drawn from the "
        "player's view only, so it never shows more than he may see; a spectator's shows "
        "public information only. With a `seat_token`, the picture of its seat's view.",
        examples.view_image_request, "{game}ViewImageRequest", media=SVG,
        filename="{game_id}-view.svg", file_text="An SVG document, 880 points wide.",
        request_rules=rules.PICTURING),
    # The sheet's examples, a blank sheet and the example match's, are the contract's.
    *(Operation(
        f"sheets/{page_format}", f"Sheet{page_format.capitalize()}", "sheet",
        _sheet(page_format), BY_BACK_END, ANY_BODY,
        f"The printable Generala sheet ({page_format.upper()})", SHEET_TEXT, None,
        "{game}SheetRequest", media=media, filename=f"generala-sheet.{page_format}",
        file_text=what, games=GENERALA_SHEET_GAMES, request_rules=rules.SHEETING)
      for page_format, media, what in SHEET_FILES),
    # Every other dice-sheet game's sheet, read from the sheet it plays (Yacht's).
    *(Operation(
        f"sheets/{page_format}", f"Sheet{page_format.capitalize()}", "sheet",
        _sheet(page_format), BY_BACK_END, ANY_BODY,
        f"The printable {{name}} sheet ({page_format.upper()})", OTHER_SHEET_TEXT, None,
        "{game}SheetRequest", media=media, filename=f"{{game_id}}-sheet.{page_format}",
        file_text=what, games=OTHER_SHEET_GAMES, request_rules=rules.SHEETING)
      for page_format, media, what in SHEET_FILES),
)

# The envelopes a player's device may send with its seat token instead of the state.
SEAT_ENVELOPES = frozenset(op.request for op in OPERATIONS if op.by_seat)


def offered(engine: Engine) -> list[Operation]:
    """The operations documented for `engine`, in the contract's order."""
    return [op for op in OPERATIONS if (engine.hint_levels or not op.hints_only)
            and (op.games is None or engine.id in op.games)
            and (op.documented_for is None or op.documented_for(engine))]
