"""Reading what a picture shows: its texts, and the cards it shows face up."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from referee.pictures.pieces import SYMBOLS

SVG_NS = "{http://www.w3.org/2000/svg}"
_LABEL = re.compile("(10|[2-9JQKA])([" + "".join(SYMBOLS.values()) + "])")
_SUIT_OF = {symbol: suit for suit, symbol in SYMBOLS.items()}


def parse(svg: str | bytes) -> ET.Element:
    """The SVG's root element; fails unless it is well-formed XML and an SVG document."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg", root.tag
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(node.itertext()) for node in root.iter(f"{SVG_NS}text")]


def cards_shown(root: ET.Element) -> set[str]:
    """Every card the picture shows face up: the cards drawn (`data-card`), the cards an
    event line names (`data-cards`), and any card written out in a text (10♥ -> TH)."""
    shown = set()
    for node in root.iter():
        card = node.get("data-card")
        if card and card != "face-down":
            shown.add(card)
        shown.update((node.get("data-cards") or "").split())
    for text in texts(root):
        for rank, symbol in _LABEL.findall(text):
            shown.add(("T" if rank == "10" else rank) + _SUIT_OF[symbol])
    return shown


def groups(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [node for node in root.iter(f"{SVG_NS}g") if node.get(attribute) is not None]
