"""The Generala sheet (docs/rules/generala-dice.md): six number boxes, then Escalera 20, Full
30, Póker 40, Generala 50 and Doble Generala 100; no upper bonus, no Chance. A hand filled after
the first roll (servida) adds 5 to Escalera, Full and Póker; the Doble scores only while the
Generala box holds its 50.
"""

from __future__ import annotations

from .declaration import Box, Servida, Sheet, Unlock
from .scorers import Face, OfAKind, Straight, five_of_a_kind, full_house

# Only these three runs are an Escalera; 4-5-6-1-2 is not (clause 14).
ESCALERAS = (frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}), frozenset({3, 4, 5, 6, 1}))

GENERALA = Sheet(
    name="generala",
    boxes=(
        Box("ones", dice=Face(1)),
        Box("twos", dice=Face(2)),
        Box("threes", dice=Face(3)),
        Box("fours", dice=Face(4)),
        Box("fives", dice=Face(5)),
        Box("sixes", dice=Face(6)),
        Box("escalera", Straight(ESCALERAS), value=20),
        Box("full", full_house, value=30),  # five of a kind is no Full (clause 13)
        Box("poker", OfAKind(4), value=40),  # five of a kind counts as a Póker (clause 12)
        Box("generala", five_of_a_kind, value=50),
        Box("doble_generala", five_of_a_kind, value=100),
    ),
    servida=Servida(frozenset({"escalera", "full", "poker"}), bonus=5),
    unlock=Unlock("doble_generala", by="generala"),
)
