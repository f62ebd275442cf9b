"""The use cases, one method each: what a request asks of a match, from its checked values
(the request envelopes, whose shapes the caller has checked) to its answer.

The rules of the service itself live here: a creation names between the fewest and the most
players its options allow, its bots among them; seeds contributed at creation need a server
seed committed before them; an answer carries no more seat tokens than the game has seats; a
seat token acts for its own seat and no other; a move's shape is checked (by the caller's
`check_move`) before the rules judge it.
"""

from __future__ import annotations

from typing import Any, Callable

from referee import pictures
from referee.core import contributions, preparation, rng
from referee.core.contributions import Contribution, Fairness
from referee.core.engine import Engine, Event
from referee.core.hints import Seating
from referee.core.outcome import progress
from referee.pictures import sheet

from .answers import applied, contributed, hint, outcome, player_view, verdict
from .codec import Match, StateCodec
from .errors import Refused, bad_request, not_your_seat
from .replays import MOVES_CHECKED, ReplayRefused, instants, played
from .results import REPLAYED, SEALED, Signer, signed_result

# A move as posted, checked against its type's declared fields: the checked move, or
# Refused("validation_error") naming every bad field. Given by the caller (the HTTP layer
# checks shapes with its request schemas).
MoveCheck = Callable[[str, dict[str, Any]], dict[str, Any]]
# A replay's moves checked alike in one pass: the checked moves, or None when one of them
# does not fit its type (each is then checked by the MoveCheck as it is played).
MovesCheck = Callable[[str, list[dict[str, Any]]], list[dict[str, Any]] | None]
Body = dict[str, Any]


def _nobody_told(game_id: str, moves: int = 1) -> None:
    return None


def _each_on_its_own(game_id: str, moves: list[dict[str, Any]]) -> None:
    return None


def warm_up(games: dict[str, Engine]) -> None:
    """One hint of every level and one view image at a new two-player match of every game,
    with the default options: what a level builds once per option set (Generala's exact
    tables, about 1.3 s of CPU) and what the pictures load on first use (their libraries, the
    fonts' metrics) are ready before a worker serves, not paid for in a caller's request.
    gunicorn runs it in its master before forking: every worker, a recycled one too, starts
    with them, and keeps them however many other option sets callers ask for (pinned)."""
    with preparation.pinning():
        for engine in games.values():
            state, player = advised_at_every_level(engine, {})
            pictures.view_svg(engine, player_view(engine, state, player, now=0))


def advised_at_every_level(engine: Engine, options: dict[str, Any]) -> tuple[Any, str]:
    """A new two-player match with these options, and one hint of every level asked for its
    first player to act (what a level makes once per option set is made); the match and
    that player."""
    players = tuple(f"p{n}" for n in range(max(2, engine.min_players)))
    state = engine.new_match(players, engine.resolve_options(options), "warm-up", now=0)
    moves = engine.legal_moves(state, now=0)
    player = moves[0]["player"]
    mine = [m for m in moves if m["player"] == player]
    for level in engine.hint_levels:
        engine.advise(engine.view(state, player), mine, level)
    return state, player


def seats_asked(engine: Engine, body: Body) -> list[str] | None:
    """The players whose seat tokens a creation or a move asks for (`seat_tokens_for`): no
    more than the game seats at its largest table, so that one request seals at most that
    many tokens. A name not seated gets a spectator's token, as a `viewer` does."""
    seats = body.get("seat_tokens_for")
    if seats is not None and len(seats) > engine.max_players:
        raise bad_request(f"{engine.name} seats at most {engine.max_players} players: no more "
                          "seat tokens than that in one answer", seat_tokens_for=[
                              f"At most {engine.max_players} players."])
    return seats


class Referee:
    """The games served, the state codec, the clock and the move check, shared by every
    request; `applied` is told the game and number of moves applied (the HTTP layer counts
    them); `check_moves` checks a replay's moves in one pass (by default each is checked on
    its own); `signer` signs the results of finished matches (None: they are not signed)."""

    def __init__(self, games: dict[str, Engine], codec: StateCodec,
                 clock: Callable[[], float], check_move: MoveCheck,
                 applied: Callable[[str, int], None] = _nobody_told, *,
                 signer: Signer | None = None, check_moves: MovesCheck = _each_on_its_own):
        self.games = games
        self.signer = signer
        self.codec = codec
        self.clock = clock
        self.check_move = check_move
        self.check_moves = check_moves
        self.applied = applied

    def game(self, game_id: str) -> Engine:
        engine = self.games.get(game_id)
        if engine is None:
            raise Refused("unknown_game", f"no game {game_id!r}; see /v1/games")
        return engine

    # -- a match begins ------------------------------------------------------------------------
    def create(self, engine: Engine, body: Body) -> dict[str, Any]:
        now = self.clock()
        seats = seats_asked(engine, body)
        match, created = self.new_match(engine, body, now=now)
        events = [created, *engine.opening_events(match.state)]
        return outcome(self.codec, engine, match, events, now=now,
                       viewer=body.get("viewer"), seat_ttl=body.get("seat_token_ttl"),
                       seats=seats)

    def new_match(self, engine: Engine, body: Body, *, now: float) -> tuple[Match, Event]:
        """The match a creation's checked body starts, and its `match_created` event. What
        its setup did besides is `engine.opening_events`' to tell (some engines deal again
        from the seed for it), asked only by an answer that tells it."""
        players = tuple(body["players"])
        options = engine.resolve_options(body["options"])
        fewest, most = engine.player_range(options)
        if not fewest <= len(players) <= most:
            raise bad_request(f"{engine.name} takes {fewest} to {most} players with these "
                              f"options, not {len(players)}",
                              players=[f"Between {fewest} and {most} players."])
        seating = Seating(bots=tuple(body["bots"]), hints_allowed=body["hints_allowed"])
        strangers = [bot for bot in seating.bots if bot not in players]
        if strangers:
            raise bad_request(f"{strangers[0]!r} is named a bot but is not a player of this "
                              "match", bots=["Bots must be players."])
        seed, fairness = self._creation_seed(engine, body, players)
        created = {"type": "match_created", "players": list(players), "options": options}
        return Match(engine.new_match(players, options, seed, now=now), seating, fairness,
                     moves=0), created

    def _creation_seed(self, engine: Engine, body: Body,
                       players: tuple[str, ...]) -> tuple[str, Fairness | None]:
        """The key the new match draws under, and what it was made of when seeds were
        contributed. Contributions need a server seed fixed before them (a seed token, or the
        caller's own seed): a seed drawn after seeing them could be drawn again and again
        until the deal suited the server."""
        if "seed_token" in body:
            seed = self.codec.open_seed_token(engine, body["seed_token"])
        elif body["seed"] is None and body["contributions"]:
            raise Refused("seed_token_required", "seeds contributed at creation are mixed into "
                          f"a server seed committed before them: ask /v1/games/{engine.id}/"
                          "seeds for a seed token first and send it with them")
        else:  # an integer seed is its decimal string; none, a secret one drawn now
            seed = rng.new_seed() if body["seed"] is None else str(body["seed"])
        given = body["contributions"]
        if not given:
            return seed, None
        strangers = [c["player"] for c in given if c.get("player", players[0]) not in players]
        if strangers:
            raise bad_request(f"{strangers[0]!r} contributes a seed but is not a player of "
                              "this match", contributions=[
                                  "A contribution names one of the players, or none (the "
                                  "back end)."])
        fairness = Fairness(seed=seed, contributions=[
            Contribution(player=c.get("player"), seed=c["seed"], step=0) for c in given])
        return contributions.current_key(fairness), fairness

    def new_seed(self, engine: Engine, body: Body) -> dict[str, Any]:
        """A server seed drawn now and committed, for a match to be created later with seeds
        contributed by its players or its back end (the request is an empty object)."""
        seed = rng.new_seed()
        return {"seed_commitment": rng.commitment(seed),
                "seed_token": self.codec.seed_token(engine, seed)}

    def contribute(self, engine: Engine, body: Body) -> dict[str, Any]:
        """A player adds his own seed before the first chance event that concerns him: every
        later step's stream is keyed on it too."""
        match = self.codec.load_match(engine, body["state"])
        player = body["player"]
        new_match = contributed(engine, match, player, body["seed"])
        added = new_match.fairness.contributions[-1]
        return {"state": self.codec.dump(engine, new_match),
                "seed_commitment": rng.commitment(match.server_seed),
                "contribution": {"player": player, "step": added.step}}

    # -- moves ---------------------------------------------------------------------------------
    def move(self, engine: Engine, body: Body) -> dict[str, Any]:
        """The outcome of posting `body["move"]` on `body["state"]` (never a seat token)."""
        match = self.codec.load_match(engine, body["state"])
        move = self.check_move(engine.id, body["move"])
        seats = seats_asked(engine, body)
        now = self.clock()
        new_state, events = applied(engine, match.state, move, now=now,
                                    trusted=self.codec.sealer is not None)
        self.applied(engine.id, 1)
        after = match.after(new_state)
        answer = outcome(self.codec, engine, after, events, now=now, viewer=body.get("viewer"),
                         seat_ttl=body.get("seat_token_ttl"), seats=seats)
        if self.codec.sealer is not None and answer["status"] == "finished":
            # Sealed, every state on the way was the referee's own: the result is signed.
            answer["result"] = signed_result(self.signer, engine, after, played=SEALED,
                                             now=now)
        return answer

    def replay(self, engine: Engine, body: Body) -> dict[str, Any]:
        """A whole match from its creation (`body["creation"]`, a creation's body) and its
        moves in order (`body["moves"]`, each `{"move", "at"?}`; with `body[MOVES_CHECKED]`,
        each move held to its type already): the final outcome with `moves_applied`, or
        ReplayRefused at the first move refused, with the outcome the match had reached
        before it."""
        now = self.clock()
        created_at = body.get("created_at", now)
        made_at = instants(body["moves"], created_at, now)
        try:
            start, created = self.new_match(engine, body["creation"], now=created_at)
        except Refused as refused:  # its fields are the creation's, within the replay
            if "errors" in refused.extra:
                refused.extra["errors"] = {"creation": refused.extra["errors"]}
            raise
        posted = [entry["move"] for entry in body["moves"]]
        checked = posted if body.get(MOVES_CHECKED) else self.check_moves(engine.id, posted)
        if checked is None:  # one does not fit its type: each is checked as it is played
            got = played(engine, start, created_at, posted, made_at, self.check_move)
        else:
            got = played(engine, start, created_at, checked, made_at, None)
        moves_applied = got.refused[0] if got.refused else len(body["moves"])
        self.applied(engine.id, moves_applied)
        # The answer tells the last move's events; the creation's only when none was applied.
        events = (got.events if moves_applied
                  else [created, *engine.opening_events(start.state)])
        # Where the match stands now, by the referee's clock, as any request about its state
        # would say (who acts and may move once a turn's clock ran out since the last move,
        # the seat tokens' life), whatever instant the last move was made at.
        answer = outcome(self.codec, engine, got.match, events, now=now,
                         viewer=body.get("viewer"), seat_ttl=body.get("seat_token_ttl"))
        if got.refused is not None:
            index, error = got.refused
            raise ReplayRefused(index, error, {**answer, "moves_applied": index})
        answer["moves_applied"] = len(body["moves"])
        if answer["status"] == "finished":
            answer["result"] = signed_result(self.signer, engine, got.match, played=REPLAYED,
                                             now=now)
        return answer

    def seated(self, engine: Engine, body: Body, *,
               named: bool = False) -> tuple[Match, str | None]:
        """The match a request is about and the player (or spectator) the answer is for, the
        body's `player` when it names one. Anyone not seated is a spectator: he sees public
        information only and has no legal moves, so naming him can only ever reveal less.

        With a seat token instead of the state, the match is the one sealed in the token and
        the player is the token's seat, whoever the body names: naming another is
        `not_your_seat`. With the state (from a back end) and `named`, the body must say whom
        the answer is for."""
        if "seat_token" in body:
            seat = self.codec.load_seat(engine, body["seat_token"], now=self.clock())
            other = body.get("player")
            if other is not None and other != seat.player:
                raise not_your_seat(seat.player, f"player {other!r}")
            return seat.match, seat.player
        if named and "player" not in body:
            raise bad_request("the request does not have the expected shape",
                              player=["Missing data for required field."])
        return self.codec.load_match(engine, body["state"]), body.get("player")

    def legal_moves(self, engine: Engine, body: Body) -> dict[str, Any]:
        match, player = self.seated(engine, body)
        return progress(engine, match.state, now=self.clock(), player=player)

    def validate(self, engine: Engine, body: Body) -> dict[str, Any]:
        """The dry run of `body["move"]`; with a seat token, of its own seat's moves only. A
        move that does not fit its type is refused as posting it would be."""
        match, seat = self.seated(engine, body)
        if seat is not None:
            mover = body["move"].get("player")
            if mover != seat:
                raise not_your_seat(seat, f"a move of {mover!r}")
        move = self.check_move(engine.id, body["move"])
        return verdict(engine, match.state, move, now=self.clock(),
                       trusted=self.codec.sealer is not None)

    def view(self, engine: Engine, body: Body) -> dict[str, Any]:
        """A player's view; asked with the state (sealed), it carries his seat token."""
        match, player = self.seated(engine, body, named=True)
        now = self.clock()
        answer = player_view(engine, match.state, player, now=now)
        if "state" in body:
            token = self.codec.seat_token(engine, match, player, now=now,
                                          ttl=body.get("seat_token_ttl"))
            if token is not None:
                answer["seat_token"] = token
        return answer

    def hint(self, engine: Engine, body: Body) -> dict[str, Any]:
        match, player = self.seated(engine, body, named=True)
        if not engine.hint_levels:
            raise Refused("not_found", f"{engine.name} gives no hints")
        return hint(engine, match, player, body["level"], now=self.clock())

    # -- pictures ------------------------------------------------------------------------------
    def view_picture(self, engine: Engine, body: Body) -> str:
        """The SVG of a player's view, with the events passed (each held to its declared
        type)."""
        match, player = self.seated(engine, body, named=True)
        answer = player_view(engine, match.state, player, now=self.clock())
        try:
            return pictures.view_svg(engine, answer, body["events"])
        except pictures.BadEvents as exc:
            raise bad_request("an event does not fit the game's declared events",
                              events=exc.errors) from None

    def sheet(self, engine: Engine, body: Body, page_format: str) -> str | bytes:
        """The printable sheet of a dice-sheet game (`engine`, one of `pictures.SHEET_GAMES`)
        of a match, or a blank one, as an SVG text or PDF bytes."""
        if "state" in body:
            state = self.codec.load(engine, body["state"])
            # What everyone sees of the match: the view of someone not seated.
            spectator = "spectator"
            while spectator in state.players:
                spectator += "_"
            data = sheet.from_view(engine.view(state, spectator), engine.scores(state),
                                   pictures.SHEET_FORMS[engine.id],
                                   finished=engine.is_finished(state))
        else:
            options = engine.resolve_options(body.get("options", {}))
            names = body.get("names", [])
            data = sheet.blank(body.get("players", len(names) or sheet.MAX_COLUMNS), names,
                               options, pictures.SHEET_FORMS[engine.id])
        drawing = sheet.picture(data, body["page"])
        if page_format == "pdf":
            return pictures.canvas.pdf(drawing)
        return pictures.canvas.svg(drawing)
