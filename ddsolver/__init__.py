"""ddsolver: contract bridge rules, files, and an exact double-dummy solver.

See README.md for a tour.  Public names are re-exported here.
"""

from .auction import DOUBLE, PASS, REDOUBLE, Auction, Call
from .cards import Card, CardSet, Rank, Strain, Suit
from .contract import Contract, game_level
from .deal import Deal, Hand, random_deal, random_deals
from .errors import (
    AuctionFinishedError,
    BridgeError,
    CardNotHeldError,
    IllegalCallError,
    IllegalCardError,
    InputTooLargeError,
    InvalidDealError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidTableError,
    LINError,
    OutOfTurnError,
    PBNError,
    RevokeError,
    SchedulerAddressError,
    SchedulerError,
    SchedulerUnreachableError,
    ScoringError,
)
from .lin import read_lin
from .par import ParContract, ParResult, par
from .pbn import PBNGame, dumps_pbn, read_pbn, write_pbn
from .play import Position, trick_winner
from .scoring import (
    ChicagoScore,
    RubberScore,
    imps,
    matchpoint_percentages,
    matchpoints,
    ns_score,
    score,
)
from .solver import DDTable, Solver, dd_table, dd_tables, last_stats, solve, solve_best
from .table import Seat, Side, Vulnerability, board_dealer, board_vulnerability

__all__ = [
    "Auction",
    "AuctionFinishedError",
    "BridgeError",
    "Call",
    "Card",
    "CardNotHeldError",
    "CardSet",
    "ChicagoScore",
    "Contract",
    "DDTable",
    "DOUBLE",
    "Deal",
    "Hand",
    "IllegalCallError",
    "IllegalCardError",
    "InputTooLargeError",
    "InvalidDealError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidTableError",
    "LINError",
    "OutOfTurnError",
    "PASS",
    "PBNError",
    "PBNGame",
    "ParContract",
    "ParResult",
    "Position",
    "REDOUBLE",
    "Rank",
    "RevokeError",
    "RubberScore",
    "SchedulerAddressError",
    "SchedulerError",
    "SchedulerUnreachableError",
    "ScoringError",
    "Seat",
    "Side",
    "Solver",
    "Strain",
    "Suit",
    "Vulnerability",
    "board_dealer",
    "board_vulnerability",
    "dd_table",
    "dd_tables",
    "dumps_pbn",
    "game_level",
    "imps",
    "last_stats",
    "matchpoint_percentages",
    "matchpoints",
    "ns_score",
    "par",
    "random_deal",
    "random_deals",
    "read_lin",
    "read_pbn",
    "score",
    "solve",
    "solve_best",
    "trick_winner",
    "write_pbn",
]

__version__ = "0.1.0"
