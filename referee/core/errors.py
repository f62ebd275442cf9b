"""The referee's error tree and its catalogue of stable codes.

    RefereeError                 every refusal the rules engines or the service can give
    +-- InvalidOptions           `invalid_options`: an unknown option or a bad value
    +-- InvalidState             `invalid_state`: a state that parses but breaks an invariant
    +-- TamperedState            `tampered_state`: a sealed state that fails authentication
    +-- MoveRefused              a well-formed move the rules refuse
        +-- IllegalMove          `illegal_move`: against a rule (the detail names it)
        +-- NotYourTurn          `not_your_turn`: the player may not act now
        +-- GameOver             `game_over`: the match has finished
    +-- NotPrepared              `not_prepared`: work done once per option set is under way

Codes are part of the public contract: they are never renamed once published. Only the HTTP
layer turns them into status numbers.
"""

from __future__ import annotations

from typing import Callable


class RefereeError(Exception):
    code = "referee_error"

    def __init__(self, detail: str, *, problems: list[str] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.problems = problems or []


class InvalidOptions(RefereeError):
    code = "invalid_options"


class InvalidState(RefereeError):
    code = "invalid_state"


class TamperedState(RefereeError):
    code = "tampered_state"


class MoveRefused(RefereeError):
    code = "illegal_move"


class IllegalMove(MoveRefused):
    def __init__(self, rule: str, detail: str):
        super().__init__(detail)
        self.rule = rule


class NotYourTurn(MoveRefused):
    code = "not_your_turn"


class GameOver(MoveRefused):
    code = "game_over"


class NotPrepared(RefereeError):
    """What the request needs (a solver's tables for its options) is not made yet, and a
    request does not wait for it: `prepare` makes it, `key` names it (see core.preparation)."""

    code = "not_prepared"

    def __init__(self, detail: str, *, key: object, prepare: Callable[[], object]):
        super().__init__(detail)
        self.key = key
        self.prepare = prepare
