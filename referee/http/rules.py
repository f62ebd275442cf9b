"""The rules a request must keep that JSON Schema cannot state, per operation: a state the
referee wrote or sealed, a legal move in that state, bots who are players, a contributor who
is a player... Each is the problem `code` that refuses a request breaking it and what it says.

Everything JSON Schema can say is in the request's schema (referee.http.schemas and the
contract built from it): a request the schema refuses is refused for its shape. A request the
schema accepts may still be refused, but only by one of its operation's rules here. The
contract lists them on each operation (`x-referee-rules`), and the schemathesis configuration
shipped with the repository (`schemathesis.toml`, written from them) lets a fuzzer expect
their statuses, and no other, for a request that fits the schema."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Rule:
    code: str
    says: str


# -- the state and the seat token ----------------------------------------------------------------
STATE_WRITTEN = Rule("invalid_state", "Open mode: `state` is a state this referee wrote, "
                     "exactly as it wrote it, and keeps the game's rules (a made-up state, even "
                     "one that fits its schema, is refused); a token is no open-mode state.")
STATE_SEALED = Rule("tampered_state", "Sealed mode: `state` is a token this referee sealed "
                    "for this game, unaltered; an object is no sealed-mode state.")
STATE_NOT_A_SEAT = Rule("seat_token_not_allowed", "Sealed mode: `state` is the state token, "
                        "never a seat token.")
SEAT_SEALED = Rule("tampered_seat_token", "`seat_token` is a token this referee sealed for "
                   "this game (in sealed mode: an open-mode referee issues none), unaltered.")
SEAT_ALIVE = Rule("seat_token_expired", "`seat_token` is sent within the life its back end "
                  "gave it (`seat_token_ttl`).")
OWN_SEAT = Rule("not_your_seat", "With `seat_token`: `player`, when given, is the token's "
                "seat.")
OWN_MOVE = Rule("not_your_seat", "With `seat_token`: the move is the token's seat's.")

A_STATE = (STATE_WRITTEN, STATE_SEALED, STATE_NOT_A_SEAT)
A_SEAT = (SEAT_SEALED, SEAT_ALIVE)

# -- the match -----------------------------------------------------------------------------------
LEGAL = Rule("illegal_move", "`move` is legal in this state (the answer's `rule` names the "
             "rule it breaks).")
ITS_TURN = Rule("not_your_turn", "`move`'s player may act now.")
NOT_OVER = Rule("game_over", "The match has not finished.")

# -- creation ------------------------------------------------------------------------------------
BOTS_ARE_PLAYERS = Rule("validation_error", "Each of `bots` is one of `players`.")
CONTRIBUTORS_ARE_PLAYERS = Rule("validation_error", "Each contribution's `player`, when given, "
                                "is one of `players`, and names one contributor once (the back "
                                "end, with no `player`, once too).")
OPTIONS_AGREE = Rule("invalid_options", "The options keep the rules between them (the game's "
                     "`x-option-rules`).")
SEED_TOKEN_SEALED = Rule("tampered_seed_token", "Sealed mode: `seed_token` is a token this "
                         "referee's `/seeds` sealed for this game, unaltered.")
COUNT_FITS_OPTIONS = Rule("validation_error", "The options seat as many players as "
                          "`players` has (some options narrow the game's range).")
SEED_WRITTEN_WHOLE = Rule("validation_error", "An integer `seed` of 2^53 or more is written "
                          "without a fraction or exponent: a number with one is read as a "
                          "double, which holds no integer that large exactly.")

# -- replays ------------------------------------------------------------------------------------
INSTANTS_IN_ORDER = Rule("validation_error", "`created_at` and each move's `at` never go back "
                         "and never pass the referee's clock.")

# -- contributions -------------------------------------------------------------------------------
CONTRIBUTOR_PLAYS = Rule("validation_error", "`player` is one of the match's players.")
IN_TIME = Rule("contribution_too_late", "No chance event concerning `player` has been drawn "
               "yet.")
ONCE = Rule("contribution_already_made", "`player` has not contributed a seed to this match "
            "yet.")

# -- hints ---------------------------------------------------------------------------------------
HINTS_ALLOWED = Rule("hint_not_allowed", "The table gives `player` hints: a bot, a human "
                     "playing bots alone, or anyone at a table created with `hints_allowed`.")
HAS_A_MOVE = Rule("not_your_turn", "`player` has a move to make now (a spectator never has).")
PREPARED = Rule("not_prepared", "The tables the hints need for the match's options are built "
                "on this worker (while they are built, off the request's path: `503`, ask "
                "again after `Retry-After` seconds).")

# -- pictures ------------------------------------------------------------------------------------
EVENTS_FIT = Rule("validation_error", "Each of `events` fits its type as the game declares it "
                  "(a `match_created` event's options are options of the game), and its "
                  "strings are short enough to draw.")

CREATION = (BOTS_ARE_PLAYERS, CONTRIBUTORS_ARE_PLAYERS, COUNT_FITS_OPTIONS, SEED_WRITTEN_WHOLE,
            OPTIONS_AGREE, SEED_TOKEN_SEALED)
POSTING = (*A_STATE, LEGAL, ITS_TURN, NOT_OVER)
ASKING = (*A_STATE, *A_SEAT, OWN_SEAT)
DRY_RUN = (*A_STATE, *A_SEAT, OWN_MOVE)
CONTRIBUTING = (*A_STATE, CONTRIBUTOR_PLAYS, IN_TIME, ONCE)
HINTING = (*ASKING, HINTS_ALLOWED, HAS_A_MOVE, PREPARED)
PICTURING = (*ASKING, EVENTS_FIT)
SHEETING = A_STATE
# A replay keeps a creation's rules, then each move a posted move's (its state is the
# referee's own, made move after move).
REPLAYING = (*CREATION, INSTANTS_IN_ORDER, LEGAL, ITS_TURN, NOT_OVER)
