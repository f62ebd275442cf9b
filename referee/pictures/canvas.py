"""A picture as a plain list of shapes, and the two writers that turn it into a file.

Shapes are placed in points (1/72 inch) from the top-left corner. A picture is laid out once
and written as SVG (element by element, escaped as the standard library escapes XML) or as a
one-page PDF (through reportlab), so a printed sheet and its SVG are the same drawing. Text is
measured with the metrics of Helvetica, one of PDF's standard fonts, which every PDF reader
has; the SVG asks for Helvetica or a look-alike.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
from typing import Union
from xml.sax.saxutils import escape

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

FONT, BOLD = "Helvetica", "Helvetica-Bold"
SVG_FONTS = "Helvetica, Arial, 'Liberation Sans', sans-serif"
ELLIPSIS = "\u2026"
# What XML 1.0 cannot carry (control characters, lone surrogates, U+FFFE/U+FFFF): a player id
# may hold any character, and the SVG must still parse.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclasses.dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = "#000"
    line: float = 0.8
    radius: float = 0


@dataclasses.dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000"
    line: float = 0.8


@dataclasses.dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None = "#000"
    stroke: str | None = None
    line: float = 0.8


@dataclasses.dataclass(frozen=True)
class Polygon:
    points: tuple[float, ...]  # x0, y0, x1, y1, ...
    fill: str | None = "#000"
    stroke: str | None = None


@dataclasses.dataclass(frozen=True)
class Text:
    """A line of text; `y` is its baseline, `anchor` is start, middle or end."""

    x: float
    y: float
    text: str
    size: float = 10
    bold: bool = False
    anchor: str = "start"
    fill: str = "#000"


@dataclasses.dataclass(frozen=True)
class Group:
    """Shapes that belong together, with `data-*` attributes saying what they show (a card, a
    box of the sheet): SVG keeps them for scripts, styles and tests; PDF has no use for them."""

    items: tuple[Shape, ...]
    data: tuple[tuple[str, str], ...] = ()


Shape = Union[Rect, Line, Circle, Polygon, Text, Group]


@dataclasses.dataclass(frozen=True)
class Picture:
    width: float
    height: float
    items: tuple[Shape, ...]
    title: str
    # The printed size as CSS lengths ("210mm"), for a picture meant for paper.
    paper: tuple[str, str] | None = None


def text_width(text: str, size: float, bold: bool = False) -> float:
    return stringWidth(text, BOLD if bold else FONT, size)


def fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """`text`, cut and ended with an ellipsis if it is wider than `width`.

    A line's width is the sum of its characters' widths (the standard fonts have no kerning),
    so the longest prefix that leaves room for the ellipsis is found in one pass: the cost
    grows with the text, not with its square, whatever a caller puts in a name or an event."""
    if text_width(text, size, bold) <= width:
        return text
    room = width - text_width(ELLIPSIS, size, bold)
    prefixes = itertools.accumulate(text_width(character, size, bold) for character in text)
    kept = sum(1 for _ in itertools.takewhile(lambda used: used <= room, prefixes))
    return text[:kept] + ELLIPSIS


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


# -- SVG ---------------------------------------------------------------------------------------
# Written out directly, element by element: a picture is a flat list of a few hundred plain
# elements of six kinds, and building an ElementTree of them only to indent and walk it again
# took most of an image's time. The document is laid out as ElementTree's `indent(space="")`
# and `tostring` laid it out before, byte for byte: each element on a line of its own, no
# indentation, an empty element closed by " />". Text and attribute values are escaped as the
# standard library escapes them (`xml.sax.saxutils.escape`; in an attribute value also the
# quote, and the tab and line breaks, which a parser would otherwise read as spaces), so a
# player id may hold any character; the lengths are numbers, which need no escaping.
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
# What an attribute value escapes besides &, < and >, written as ElementTree writes it.
ATTRIBUTE_ENTITIES = {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}
# Most attribute values (colors, anchors) hold none of what is escaped: one search spares them.
_ESCAPED_IN_ATTRIBUTES = re.compile('[&<>"\r\n\t]')


def svg(picture: Picture) -> str:
    width, height = picture.paper or (_number(picture.width), _number(picture.height))
    start = (f'<svg xmlns="{SVG_NAMESPACE}" width="{_attribute(width)}" '
             f'height="{_attribute(height)}" '
             f'viewBox="0 0 {_number(picture.width)} {_number(picture.height)}" '
             f'font-family="{_attribute(SVG_FONTS)}">')
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', start,
             _with_text("<title", picture.title, "title"), *map(_element, picture.items),
             "</svg>\n"]
    return "\n".join(lines)


def _number(value: float) -> str:
    """A length in points to the hundredth, which is finer than any screen or printer."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attribute(value: str) -> str:
    return escape(value, ATTRIBUTE_ENTITIES) if _ESCAPED_IN_ATTRIBUTES.search(value) else value


def _with_text(start: str, text: str, tag: str) -> str:
    """An element from its start tag without its ">", holding `text` (none: an empty element)."""
    return f"{start}>{escape(xml_safe(text))}</{tag}>" if text else f"{start} />"


def _paint(fill: str | None, stroke: str | None, line: float) -> str:
    out = f' fill="{_attribute(fill or "none")}"'
    if stroke:
        out += f' stroke="{_attribute(stroke)}" stroke-width="{_number(line)}"'
    return out


def _rect(shape: Rect) -> str:
    corner = f' rx="{_number(shape.radius)}"' if shape.radius else ""
    return (f'<rect x="{_number(shape.x)}" y="{_number(shape.y)}" width="{_number(shape.w)}" '
            f'height="{_number(shape.h)}"{_paint(shape.fill, shape.stroke, shape.line)}{corner} />')


def _line(shape: Line) -> str:
    return (f'<line x1="{_number(shape.x1)}" y1="{_number(shape.y1)}" x2="{_number(shape.x2)}" '
            f'y2="{_number(shape.y2)}" stroke="{_attribute(shape.stroke)}" '
            f'stroke-width="{_number(shape.line)}" />')


def _circle(shape: Circle) -> str:
    return (f'<circle cx="{_number(shape.cx)}" cy="{_number(shape.cy)}" r="{_number(shape.r)}"'
            f'{_paint(shape.fill, shape.stroke, shape.line)} />')


def _polygon(shape: Polygon) -> str:
    return (f'<polygon points="{" ".join(map(_number, shape.points))}"'
            f'{_paint(shape.fill, shape.stroke, 0.8)} />')


def _text(shape: Text) -> str:
    weight = ' font-weight="bold"' if shape.bold else ""
    return _with_text(f'<text x="{_number(shape.x)}" y="{_number(shape.y)}" '
                      f'font-size="{_number(shape.size)}" '
                      f'text-anchor="{_attribute(shape.anchor)}" '
                      f'fill="{_attribute(shape.fill)}"{weight}', shape.text, "text")


def _group(shape: Group) -> str:
    # Read as a dict, as attributes are: a key given twice keeps its first place, its last value.
    data = "".join(f' data-{key}="{_attribute(xml_safe(value))}"'
                   for key, value in dict(shape.data).items())
    if not shape.items:
        return f"<g{data} />"
    return "\n".join([f"<g{data}>", *map(_element, shape.items), "</g>"])


SVG_WRITERS = {Rect: _rect, Line: _line, Circle: _circle, Polygon: _polygon, Text: _text,
               Group: _group}


def _element(shape: Shape) -> str:
    return SVG_WRITERS[type(shape)](shape)


# -- PDF ---------------------------------------------------------------------------------------
def pdf(picture: Picture) -> bytes:
    """A one-page PDF of the picture's size. `invariant` makes the same picture give the same
    bytes (no creation date, no random document id)."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(picture.width, picture.height), invariant=1)
    canvas.setTitle(picture.title)
    canvas.setCreator("referee")
    for item in picture.items:
        _pdf_shape(canvas, item, picture.height)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _pdf_paint(canvas: Canvas, fill: str | None, stroke: str | None, line: float) -> dict:
    if fill:
        canvas.setFillColor(fill)
    if stroke:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(line)
    return {"fill": 1 if fill else 0, "stroke": 1 if stroke else 0}


def _pdf_shape(canvas: Canvas, shape: Shape, height: float) -> None:
    # PDF puts the origin at the bottom-left corner: every y is turned over.
    if isinstance(shape, Rect):
        paint = _pdf_paint(canvas, shape.fill, shape.stroke, shape.line)
        y = height - shape.y - shape.h
        if shape.radius:
            canvas.roundRect(shape.x, y, shape.w, shape.h, shape.radius, **paint)
        else:
            canvas.rect(shape.x, y, shape.w, shape.h, **paint)
    elif isinstance(shape, Line):
        _pdf_paint(canvas, None, shape.stroke, shape.line)
        canvas.line(shape.x1, height - shape.y1, shape.x2, height - shape.y2)
    elif isinstance(shape, Circle):
        paint = _pdf_paint(canvas, shape.fill, shape.stroke, shape.line)
        canvas.circle(shape.cx, height - shape.cy, shape.r, **paint)
    elif isinstance(shape, Polygon):
        paint = _pdf_paint(canvas, shape.fill, shape.stroke, 0.8)
        path = canvas.beginPath()
        xs, ys = shape.points[0::2], shape.points[1::2]
        path.moveTo(xs[0], height - ys[0])
        for x, y in zip(xs[1:], ys[1:]):
            path.lineTo(x, height - y)
        path.close()
        canvas.drawPath(path, **paint)
    elif isinstance(shape, Text):
        canvas.setFillColor(shape.fill)
        canvas.setFont(BOLD if shape.bold else FONT, shape.size)
        draw = {"start": canvas.drawString, "middle": canvas.drawCentredString,
                "end": canvas.drawRightString}[shape.anchor]
        draw(shape.x, height - shape.y, shape.text)
    else:
        for item in shape.items:
            _pdf_shape(canvas, item, height)
