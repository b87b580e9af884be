"""PBN 2.1 (Portable Bridge Notation) reader and writer.

The reader takes PBN *import format* (PBN 2.1, section 2.1) as real programs write it
(:mod:`~ddsolver.pbn.reader` lists what it accepts), with the auction and play sections,
their notes and annotations, irregularities, end positions (3.5 to 3.10) and supplemental
sections such as ``OptimumResultTable`` or ``ScoreTable`` (chapter 5), which are kept
verbatim.

Each game becomes a :class:`PBNGame`: its tags in file order (:class:`Tag`: name, value,
the section lines after it and the comments after it), plus parsed views
(:attr:`PBNGame.board`, :attr:`~PBNGame.dealer`, :attr:`~PBNGame.deal`,
:attr:`~PBNGame.auction`, :attr:`~PBNGame.play`, :attr:`~PBNGame.contract`, ...).
A malformed file raises :class:`~ddsolver.errors.PBNError` naming the line and the board;
no game is ever dropped silently (``errors="keep"`` keeps a malformed game in its place
with its error and its text, and reads on).

The writer (:func:`dumps_pbn`, :func:`write_pbn`) writes every tag, section and comment
back in its original order, unknown tags included, with resolved (no longer inherited)
tag values, so that each written game stands alone.

Example::

    games = read_pbn("club.pbn")
    g = games[0]
    g.board, g.dealer, g.deal          # 1, Seat.NORTH, Deal.from_pbn(...)
    g.set_tag("ParContract", "EW 3N+1")
    write_pbn(games, "club.pbn")       # atomic replace

The package, by concern:

* :mod:`~ddsolver.pbn.tags`: the :class:`Tag` object, tag names, value escapes;
* :mod:`~ddsolver.pbn.sections`: auction and play sections (:class:`PBNAuction`,
  :class:`AnnotatedCall`, :class:`PBNPlay`, :class:`PlayedCard`), read and written;
* :mod:`~ddsolver.pbn.game`: the game model, :class:`PBNGame`;
* :mod:`~ddsolver.pbn.dd_tags`: the double-dummy and par tags (``DoubleDummyTricks``,
  ``OptimumResultTable``, ``OptimumScore``, ``ParContract``), read and written;
* :mod:`~ddsolver.pbn.reader`: :func:`parse_pbn`, :func:`read_pbn`;
* :mod:`~ddsolver.pbn.writer`: :func:`dumps_pbn`, :func:`write_pbn`.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14).
"""

from .dd_tags import (
    dd_tricks_from_pbn,
    dd_tricks_to_pbn,
    optimum_result_table,
    par_tags,
    parse_optimum_result_table,
)
from .game import PBNGame
from .reader import parse_pbn, read_pbn
from .sections import AnnotatedCall, PBNAuction, PBNPlay, PlayedCard
from .tags import MANDATORY_TAGS, Tag
from .writer import dumps_pbn, write_pbn

__all__ = [
    "MANDATORY_TAGS",
    "AnnotatedCall",
    "PBNAuction",
    "PBNGame",
    "PBNPlay",
    "PlayedCard",
    "Tag",
    "dd_tricks_from_pbn",
    "dd_tricks_to_pbn",
    "dumps_pbn",
    "optimum_result_table",
    "par_tags",
    "parse_optimum_result_table",
    "parse_pbn",
    "read_pbn",
    "write_pbn",
]
