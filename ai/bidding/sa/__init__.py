"""The rule tables of :class:`ai.bidding.StandardAmerican`, one module per part of the
system (``docs/game.md``, "The bidding system").

* :mod:`.openings` -- 1NT 15-17, 2NT 20-21, strong 2♣ (22+), five-card majors, the longer
  minor, weak twos (six cards, 5-10), three-level preempts (seven cards), Pass (0-11).
* :mod:`.notrump` -- the structure over 1NT, 2NT, 2♣-2♦-2NT and our 1NT overcall: Stayman,
  Jacoby transfers, invitations, quantitative 4NT, and every continuation.
* :mod:`.responses` -- responses to one of a suit (raises 6-10 / 10-12 / 13+, new suits at
  the one level 6+ and two level 11+, 1NT 6-10, 2NT 11-12, 3NT 13-15), opener's rebids,
  responder's rebids after 1NT, answers to weak twos, preempts and 2♣.
* :mod:`.competition` -- overcalls (8-16 at the one level, 11-16 at the two level), the 1NT
  overcall (15-18 with a stopper), takeout doubles and their answers, the doubler's rebids
  (also when opener's side bids again), balancing, penalty doubles, responder over
  interference (new suits at the two and three level).
* :mod:`.slam` -- Blackwood 4NT (answers 5♣ 0/4, 5♦ 1, 5♥ 2, 5♠ 3) and the placement after it.
* :mod:`.generic` -- where no specific table applies: game and slam from partner's shown
  values (25 / 33 combined, an eight-card major fit preferred), invitations and their
  acceptance, quantitative 4NT opposite a narrow notrump bid, preference, competing on a fit
  (law of total tricks, up to four of a major), sacrifices over their suit game and doubles
  of sacrifices over ours, reopening (takeout) and penalty doubles, forced bids.

Judgement constants (points for game and slam, invitation band, slam estimates) were set by
bidding seeded random deals with double-dummy tables and scoring them against par; see
``benchmarks/quality/bidding_quality.py``.
"""

from .competition import COMPETITION
from .generic import GENERIC
from .notrump import NOTRUMP
from .openings import OPENINGS
from .responses import RESPONSES
from .slam import SLAM

ALL_RULES = tuple(OPENINGS + NOTRUMP + RESPONSES + COMPETITION + SLAM + GENERIC)

__all__ = ["ALL_RULES", "COMPETITION", "GENERIC", "NOTRUMP", "OPENINGS", "RESPONSES", "SLAM"]
