"""JSON has one kind of number: 3.0 is the integer 3, as JSON Schema reads it. Wherever an
integer is expected (a request's field, an option, a state's counter, a contribution's step,
an event's value), a number with no fraction is taken as that integer; one with a fraction
is not an integer."""

from __future__ import annotations

from typing import Any

import msgspec


def integral(value: Any) -> Any:
    """`value`, an integer when it is a number with no fraction."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def integral_everywhere(value: Any) -> Any:
    """`value` with every number in it that has no fraction an integer, in every list and
    object however deep."""
    if type(value) is dict:
        return {key: integral_everywhere(item) for key, item in value.items()}
    if type(value) is list:
        return [integral_everywhere(item) for item in value]
    return integral(value)


def convert(data: Any, kind: Any) -> Any:
    """`data` converted to `kind` strictly (no string is a number, no number a boolean), a
    number with no fraction being an integer. What the strict conversion takes as it is is
    not walked: only data it refuses is read again with its whole numbers made integers."""
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError:
        return msgspec.convert(integral_everywhere(data), kind, strict=True)
