"""One conversion shared by the small integer enums (Seat, Strain): a member, its text, or a
plain integer in range."""

from __future__ import annotations

import operator
from enum import Enum

from .errors import InvalidNotationError, brief_repr


def enum_member(cls, value, what: str):
    """``value`` as a member of ``cls`` (an IntEnum numbered 0..n-1 with ``from_str``).

    :raises TypeError: for a bool, a float, None, a member of another enum, or any other
        type that is neither a string nor an integer.
    :raises InvalidNotationError: for a string ``from_str`` cannot read or an integer out of
        range.
    """
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        return cls.from_str(value)
    top = len(cls) - 1
    if isinstance(value, (bool, Enum)) or not hasattr(value, "__index__"):
        raise TypeError(f"expected a {cls.__name__}, its letter or an integer 0..{top}, "
                        f"got {brief_repr(value)}")
    index = operator.index(value)
    if not 0 <= index <= top:
        raise InvalidNotationError(f"invalid {what} {brief_repr(value)}: need 0..{top}")
    return cls(index)
