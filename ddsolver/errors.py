"""Exception types of ddsolver.

Every error is a narrow :class:`ValueError` subclass so that callers may catch either the
precise problem or ``ValueError`` as a whole.  Each message names the offending input,
quoted by :func:`brief_repr`: in full when it is short, its start and length otherwise.
"""

from __future__ import annotations

from typing import Any

#: The most characters of an input an error message quotes (:func:`brief_repr`).
QUOTE_LIMIT = 80


def brief_repr(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, bounded: a string (or bytes) of more than
    ``limit`` characters is quoted by its first ``limit`` and its length,
    ``'xxx...x'... (10,000,000 characters)``; another value whose ``repr`` is longer than
    ``limit`` by the start of that ``repr`` and its length.  Short values are quoted in
    full, exactly as ``repr`` quotes them; a long string is cut before ``repr`` sees it,
    so quoting it costs ``limit`` characters, not its length."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, (bytes, bytearray)):
        if len(value) <= limit:
            return repr(value)
        return f"{bytes(value[:limit])!r}... ({len(value):,} bytes)"
    try:
        text = repr(value)
    except Exception:       # an int of more digits than str() writes (sys.int_info)
        return f"<an integer of about {value.bit_length() * 0.30103:,.0f} digits>" \
            if isinstance(value, int) else f"<a {type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


class BridgeError(ValueError):
    """Base class of every error raised by ddsolver for bad input."""


class InvalidNotationError(BridgeError):
    """A string could not be parsed as a card, rank, suit, seat, call or contract."""


class InvalidDealError(BridgeError):
    """A deal or hand is inconsistent: duplicate or missing cards, wrong hand sizes."""


class IllegalCallError(BridgeError):
    """A call is not legal at this point of the auction (WBF Laws 18-19, 39)."""


class AuctionFinishedError(IllegalCallError):
    """A call was made after the auction had ended (WBF Law 39)."""


class IllegalCardError(BridgeError):
    """A card cannot be played here: not held, revoke, or out of turn."""


class CardNotHeldError(IllegalCardError):
    """The player to move does not hold the card."""


class RevokeError(IllegalCardError):
    """The card fails to follow suit although the player holds the suit led (WBF Law 61)."""


class OutOfTurnError(IllegalCardError):
    """A card was attributed to a seat that is not the one to play (WBF Law 53-57)."""


class InvalidPositionError(BridgeError):
    """A play position is impossible (inconsistent hand sizes, trick cards, leader)."""


class PBNError(BridgeError):
    """A PBN file is malformed.  The message names the line and, where known, the board."""


class LINError(BridgeError):
    """A LIN file is malformed.  The message names the line or board."""


class InputTooLargeError(BridgeError):
    """An input (a file, standard input, bytes) is larger than the most a reader takes in
    (``max_bytes``; by default :data:`ddsolver.analysis.MAX_INPUT_BYTES`, 256 MiB).  The
    message names the input and the cap."""


class ScoringError(BridgeError):
    """A result cannot be scored: tricks out of 0..13, bad honours, no declarer where one is
    needed, or a result added to a finished rubber or Chicago match."""


class InvalidTableError(BridgeError):
    """A double-dummy table has the wrong shape or holds trick counts outside 0..13."""


class SchedulerError(BridgeError):
    """A Dask scheduler cannot be used (``--scheduler ADDRESS``).  The message names the
    address."""


class SchedulerAddressError(SchedulerError):
    """A Dask scheduler address is malformed (no port, a port that is not a number, an
    unknown protocol), or its protocol cannot be used here (``tls://`` without TLS settings
    in the Dask configuration)."""


class SchedulerUnreachableError(SchedulerError, ConnectionError):
    """Nothing answered at a well-formed Dask scheduler address within the connect timeout,
    or the connection failed.  Also a :class:`ConnectionError`."""
