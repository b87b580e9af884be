"""ddsolver: contract bridge rules, files, and an exact double-dummy solver.

See README.md for a tour.  Public names are re-exported here.
"""

from .cards import Card, CardSet, Rank, Strain, Suit
from .deal import Deal, Hand, random_deal, random_deals
from .errors import (
    AuctionFinishedError,
    BridgeError,
    CardNotHeldError,
    IllegalCallError,
    IllegalCardError,
    InvalidDealError,
    InvalidNotationError,
    InvalidPositionError,
    LINError,
    OutOfTurnError,
    PBNError,
    RevokeError,
)
from .table import Seat, Side, Vulnerability, board_dealer, board_vulnerability

__version__ = "0.1.0"
