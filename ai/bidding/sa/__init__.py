"""The rule tables of :class:`ai.bidding.StandardAmerican`, one module per part of the
system."""

from .competition import COMPETITION
from .generic import GENERIC
from .notrump import NOTRUMP
from .openings import OPENINGS
from .responses import RESPONSES
from .slam import SLAM

ALL_RULES = tuple(OPENINGS + NOTRUMP + RESPONSES + COMPETITION + SLAM + GENERIC)

__all__ = ["ALL_RULES", "OPENINGS", "NOTRUMP", "RESPONSES", "COMPETITION", "SLAM", "GENERIC"]
