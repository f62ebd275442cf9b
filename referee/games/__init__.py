"""The registry: every game the referee serves, by its id. A new game is one subpackage that
exposes `ENGINE` and one line here."""

from __future__ import annotations

from referee.core.engine import Engine

from .empereur import ENGINE as EMPEREUR
from .generala_cards import ENGINE as GENERALA_CARDS
from .generala_dice import ENGINE as GENERALA_DICE
from .huit_americain import ENGINE as HUIT_AMERICAIN
from .yacht import ENGINE as YACHT
from .yams import ENGINE as YAMS

REGISTRY: dict[str, Engine] = {
    engine.id: engine
    for engine in (
        GENERALA_DICE,
        GENERALA_CARDS,
        HUIT_AMERICAIN,
        EMPEREUR,
        YACHT,
        YAMS,
    )
}
