"""The SVG writer: whatever a title, a text or a group's data holds (a player id may hold any
character), the document parses back to the same texts and values; and it is laid out one
element a line, as the committed pictures and the cached answers were written."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from referee.pictures import canvas

from .support import SVG_NS, parse

MARKUP = '&<>"\' and &amp; ]]>'


def written(title: str, text: str, data: str) -> ET.Element:
    picture = canvas.Picture(100, 50, (
        canvas.Group((canvas.Text(5, 20, text),), (("player", data),)),), title)
    return parse(canvas.svg(picture))


@pytest.mark.parametrize("value", [MARKUP, "two\nlines", "a\ttab", "\U0001F600 \u00e9"])
def test_a_title_a_text_and_a_data_value_parse_back_to_what_was_written(value):
    root = written(value, value, value)
    assert root.find(f"{SVG_NS}title").text == value
    group = root.find(f"{SVG_NS}g")
    assert group.get("data-player") == value
    assert group.find(f"{SVG_NS}text").text == value


def test_line_breaks_in_an_attribute_value_are_kept_not_read_as_spaces():
    # A parser turns a raw tab or line break in an attribute value into a space: the writer
    # has to write them as character references.
    root = written("t", "t", "a\r\nb\tc\rd")
    assert root.find(f"{SVG_NS}g").get("data-player") == "a\r\nb\tc\rd"


def test_what_xml_cannot_carry_is_replaced_and_the_rest_kept():
    root = written("a\x00b\ufffe", "c\x1fd\ud800", "<e\x01>")
    assert root.find(f"{SVG_NS}title").text == "a\ufffdb\ufffd"
    assert root.find(f"{SVG_NS}g/{SVG_NS}text").text == "c\ufffdd\ufffd"
    assert root.find(f"{SVG_NS}g").get("data-player") == "<e\ufffd>"


def test_every_shape_is_written_one_element_a_line():
    picture = canvas.Picture(200.5, 100, (
        canvas.Rect(1, 2, 30.25, 40, fill="#fff", radius=3),
        canvas.Line(0, 0.004, 10, 10, stroke="#999", line=0.5),
        canvas.Circle(5, 5, 2),
        canvas.Polygon((0, 0, 4, 0, 2, 3.5), stroke="#111"),
        canvas.Group((), (("box", "full"),)),
        canvas.Group((canvas.Text(3, 9, "A&B", 12, bold=True, anchor="middle"),
                      canvas.Text(3, 20, "")), (("card", "AS"), ("seat", "1")))), "T<1>")
    assert canvas.svg(picture) == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="200.5" height="100" '
        'viewBox="0 0 200.5 100" font-family="Helvetica, Arial, \'Liberation Sans\', '
        'sans-serif">\n'
        '<title>T&lt;1&gt;</title>\n'
        '<rect x="1" y="2" width="30.25" height="40" fill="#fff" stroke="#000" '
        'stroke-width="0.8" rx="3" />\n'
        '<line x1="0" y1="0" x2="10" y2="10" stroke="#999" stroke-width="0.5" />\n'
        '<circle cx="5" cy="5" r="2" fill="#000" />\n'
        '<polygon points="0 0 4 0 2 3.5" fill="#000" stroke="#111" stroke-width="0.8" />\n'
        '<g data-box="full" />\n'
        '<g data-card="AS" data-seat="1">\n'
        '<text x="3" y="9" font-size="12" text-anchor="middle" fill="#000" '
        'font-weight="bold">A&amp;B</text>\n'
        '<text x="3" y="20" font-size="10" text-anchor="start" fill="#000" />\n'
        '</g>\n'
        '</svg>\n')


def test_a_picture_for_paper_gives_its_printed_size():
    root = parse(canvas.svg(canvas.Picture(595.28, 841.89, (), "Sheet", paper=("210mm", "297mm"))))
    assert (root.get("width"), root.get("height")) == ("210mm", "297mm")
    assert root.get("viewBox") == "0 0 595.28 841.89"
