"""A line too wide for its place is cut and ended with an ellipsis, at a cost that grows with
the line, not with its square (a seat-token holder controls event strings and, in open mode,
player ids)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from referee.pictures import canvas


def cut_one_at_a_time(text: str, size: float, width: float, bold: bool = False) -> str:
    """The reading of "cut to fit" the one-pass cut must agree with."""
    if canvas.text_width(text, size, bold) <= width:
        return text
    while text and canvas.text_width(text + canvas.ELLIPSIS, size, bold) > width:
        text = text[:-1]
    return text + canvas.ELLIPSIS


@given(text=st.text(alphabet=st.characters(codec="latin-1"), max_size=60),
       width=st.integers(0, 300), bold=st.booleans())
def test_the_cut_is_the_longest_prefix_that_fits_with_its_ellipsis(text, width, bold):
    assert canvas.fit(text, 11, width, bold) == cut_one_at_a_time(text, 11, width, bold)


@pytest.mark.parametrize("length", [1_000, 40_000])
def test_a_long_line_is_measured_once_a_character(monkeypatch, length):
    measured: list[int] = []
    real = canvas.text_width

    def counting(text, size, bold=False):
        measured.append(len(text))
        return real(text, size, bold)

    monkeypatch.setattr(canvas, "text_width", counting)
    cut = canvas.fit("x" * length, 10, 200)
    assert cut.endswith(canvas.ELLIPSIS) and len(cut) < 100
    # the whole line once, the ellipsis once, then one character at a time up to the cut
    assert sum(measured) <= length + len(cut) + 2
