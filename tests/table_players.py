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
    """A scripted human: calls from ``calls`` while it lasts (then by the system), or from
    ``calls[hand]`` when ``calls`` is a dict keyed by the player's hand in PBN; before each
    card, a claim from ``claims`` when its key (number of cards played) is reached."""

    def __init__(self, name, log=None, *, calls=(), claims=None, seed=0, lowest=False):
        super().__init__(name, log, seed, lowest)
        self.script = {k: list(v) for k, v in calls.items()} if isinstance(calls, dict) \
            else list(calls)
        self.claims = dict(claims or {})

    def call(self, view):
        script = self.script.get(view.original_hand.to_pbn(), []) \
            if isinstance(self.script, dict) else self.script
        if script:
            self.views.append(view)
            call = script.pop(0)
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


class Watch:
    """Wraps any player (a ComputerPlayer) and logs what it is asked, like SystemPlayer."""

    def __init__(self, name, inner, log):
        self.name, self.inner, self.log = name, inner, log

    def call(self, view):
        call = self.inner.call(view)
        self.log.append((self.name, "call", view, call))
        return call

    def card(self, view):
        card = self.inner.card(view)
        self.log.append((self.name, "card", view, card))
        return card


def check_card_by_card(result, log, human=None):
    """Every call and card of ``result`` was chosen by the right player from the right view:
    each seat calls for itself; declarer plays dummy's cards from its own view, except that
    ``human`` plays both hands of its side when that side declares (from declarer's view);
    every card is legal in that view; no view shows a hand its seat may not see.  ``log``
    holds this board's asks only."""
    from ddsolver.play import Position
    from ddsolver.table import Seat

    calls = [(n, v, a) for n, k, v, a in log if k == "call"]
    assert len(calls) <= len(result.calls)
    made = result.calls[len(result.calls) - len(calls):]
    for (name, view, answer), call in zip(calls, made):
        assert str(answer) == str(call) and name == view.seat.letter
        assert view.to_call == view.seat and view.original_hand == result.deal[view.seat]
    asks = [(n, v, a) for n, k, v, a in log if k == "card"]
    assert len(asks) == len(result.play)
    if not result.play:
        return
    declarer = result.declarer
    pos = Position(result.deal, trump=result.contract.strain, leader=declarer.lho)
    for (seat, card), (name, view, answer) in zip(result.play, asks):
        assert answer == card and pos.to_move == seat
        assert sorted(view.legal_cards) == sorted(pos.legal_cards)
        pos.play(card, seat=seat)
        controller = declarer if seat in (declarer, declarer.partner) else seat
        assert view.seat == controller and view.to_play == seat
        if human is not None and declarer.side == human.side and controller == declarer:
            assert name == human.letter
        else:
            assert name == controller.letter
        assert view.original_hand == result.deal[view.seat]
        if view.original_dummy is not None:
            assert view.original_dummy == result.deal[declarer.partner]
        shown = {view.seat, declarer.partner} if view.played else {view.seat}
        assert set(view.hidden_seats) == set(Seat) - shown
    assert not result.claim or pos.tricks_left == 13 - len(result.play) // 4
