"""Fast, deterministic players for the game tests (no Monte Carlo search).

Every player records what it was asked, in one shared log per table, so that a test can
check card by card who played which card from which view.
"""

from __future__ import annotations

import random

from ai.bidding import StandardAmerican
from ai.players import Claim, SeatView

_SA = StandardAmerican()


class Log(list):
    """The shared record of one table: ``(player name, kind, view, answer)`` in order."""


class SystemPlayer:
    """Bids with Standard American from its own hand; plays a legal card chosen by a seeded
    random generator (or the lowest legal card).  Records every view it gets."""

    def __init__(self, name: str, log: Log | None = None, seed: int | None = 0,
                 lowest: bool = False):
        self.name = name
        self.log = log if log is not None else Log()
        self.seed = seed
        self.lowest = lowest
        self.views: list[SeatView] = []

    def call(self, view: SeatView):
        self.views.append(view)
        call = _SA.choose(view.original_hand, view.auction, view.vulnerability)
        self.log.append((self.name, "call", view, call))
        return call

    def card(self, view: SeatView):
        self.views.append(view)
        legal = view.legal_cards
        # a pure function of the view and the seed: a resumed board goes on the same way
        rng = random.Random(f"{self.seed}:{view.fingerprint()}")
        card = legal[-1] if self.lowest else rng.choice(legal)
        self.log.append((self.name, "card", view, card))
        return card


class ScriptedPlayer(SystemPlayer):
    """A scripted human: calls from ``calls`` while it lasts (then by the system); before
    each card, a claim from ``claims`` when its key (number of cards played) is reached."""

    def __init__(self, name, log=None, *, calls=(), claims=None, seed=0, lowest=False):
        super().__init__(name, log, seed, lowest)
        self.script = list(calls)
        self.claims = dict(claims or {})

    def call(self, view):
        if self.script:
            self.views.append(view)
            call = self.script.pop(0)
            self.log.append((self.name, "call", view, call))
            return call
        return super().call(view)

    def card(self, view):
        n = len(view.played)
        if n in self.claims:
            self.views.append(view)
            claim = Claim(self.claims.pop(n))
            self.log.append((self.name, "claim", view, claim))
            return claim
        return super().card(view)


def table(log=None, seed=0, **kinds):
    """Four :class:`SystemPlayer` by seat letter, sharing one log; ``kinds`` replaces some
    (``S=ScriptedPlayer(...)``)."""
    log = log if log is not None else Log()
    out = {}
    for i, s in enumerate("NESW"):
        out[s] = kinds.get(s) or SystemPlayer(s, log, seed=seed * 10 + i)
    return out, log
