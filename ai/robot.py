"""The computer player: the bidding system for calls (the hard one judges the rules' candidates
by double-dummy simulation, :mod:`ai.bidding.simulation`), Monte Carlo card play for cards.

>>> from ai.robot import ComputerPlayer, LEVELS
>>> sorted(LEVELS)
['easy', 'hard', 'medium']
>>> ComputerPlayer("hard").settings.samples >= ComputerPlayer("easy").settings.samples
True

Decisions are pure functions of the view and the seed: each decision draws its random
numbers from ``random.Random(f"{seed}:{view.fingerprint()}")`` (Python's string seeding
hashes with SHA-512, the same on every platform), so a seeded computer makes the same call
or card whenever it sees the same things, whatever the hidden cards are.
"""

from __future__ import annotations

import numbers
import random
from dataclasses import fields, replace
from typing import Optional, Union

from ai.cardplay import CardChoice, CardPlayer, PlaySettings
from ai.players import InvalidViewError, SeatView
from ai.sampling import SamplingSettings
from ddsolver.auction import Call
from ddsolver.cards import Card

__all__ = ["LEVELS", "ComputerPlayer"]

#: The settings of each strength; any of them can be overridden per player
#: (``ComputerPlayer("hard", samples=200, time_budget=2.0, threads=1)``).  What each does,
#: and what it was measured to reach: ``docs/computer-players.md``.
#:
#: - ``easy``: a handful of layouts dealt uniformly (only the known cards and shown voids
#:   are used), a short time budget: legal and sensible, often careless.
#: - ``medium``: more layouts, dealt exactly within what the auction showed (HCP, suit
#:   lengths, balanced, stoppers, aces: the sampler's ``"auction"`` method), chosen for the
#:   contract and the scoring, with an early stop when one card is clearly best.
#: - ``hard``: the most layouts, dealt within the auction and weighed by the cards the
#:   hidden players chose (a card that would have been a double-dummy mistake in a layout
#:   makes it less likely), every layout (up to 1,000) when few are possible late in the
#:   play, the longest budget.  (Weights by the calls are off: they cost about 0.4 s per
#:   decision, and on opening leads they were measured to hurt, since few of the
#:   sampler's layouts reproduce every call and those few then decide: ``benchmarks/
#:   NOTES.md``, "Opening leads and the calls' weights".)
LEVELS = {
    "easy": PlaySettings(samples=6, lead_samples=4, min_samples=6, method="uniform",
                         time_budget=0.25),
    "medium": PlaySettings(samples=24, lead_samples=12, min_samples=8, method="auction",
                           sampling=(("bid_weights", False),), early_stop=3.0,
                           equal_stop=16, time_budget=0.5),
    "hard": PlaySettings(samples=120, lead_samples=48, min_samples=16, exact_samples=1000,
                         method="auction",
                         sampling=(("bid_weights", False), ("play_weights", True)),
                         early_stop=3.0, equal_stop=24, time_budget=1.0,
                         lead_time_budget=2.0),
}


#: The sampler's settings that are not also card-play settings (``threads`` is both: the
#: card player's).
_SAMPLER_ONLY = frozenset(f.name for f in fields(SamplingSettings)) - frozenset(
    f.name for f in fields(PlaySettings))


class ComputerPlayer:
    """A computer player at one seat (the :class:`ai.players.Player` protocol).

    :param level: ``"easy"``, ``"medium"`` or ``"hard"`` (see :data:`LEVELS`).
    :param seed: an integer or text for reproducible decisions, or ``None`` (fresh random
        numbers each decision).
    :param system: the bidding system (default :class:`ai.bidding.StandardAmerican`).
    :param settings: a :class:`~ai.cardplay.PlaySettings` replacing the level's.
    :param overrides: single settings to change, e.g. ``samples=100, time_budget=2.0,
        threads=1``: fields of :class:`~ai.cardplay.PlaySettings`, or of
        :class:`ai.sampling.SamplingSettings` (``play_checks=8``), which are merged into
        the level's ``sampling`` options (the ``"auction"`` method's: medium and hard).
    :raises ValueError: for an unknown level (any value but the text of one) or a bad
        setting.
    :raises TypeError: for a seed that is neither an integer, text nor ``None``, or a
        ``system`` without the bidding system's ``choose``, ``hint`` and ``explain``.
    """

    def __init__(self, level: str = "medium", seed: Union[int, str, None] = None, *,
                 system=None, settings: Optional[PlaySettings] = None, **overrides):
        if not isinstance(level, str) or level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            seed = int(seed)        # a NumPy integer too: the same seed text as the int
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise TypeError(f"seed must be an integer, text or None, got {seed!r}")
        if system is None:
            from ai.bidding import StandardAmerican
            system = StandardAmerican()
        missing = [m for m in ("choose", "hint", "explain")
                   if not callable(getattr(system, m, None))]
        if missing:
            raise TypeError(f"system must be a bidding system (with {', '.join(missing)}), "
                            f"got {type(system).__name__}")
        base = settings if settings is not None else LEVELS[level]
        sampler = {k: overrides.pop(k) for k in list(overrides)
                   if k in _SAMPLER_ONLY}
        if sampler:
            overrides["sampling"] = {**dict(overrides.get("sampling", base.sampling)),
                                     **sampler}
        try:
            self.settings = base.with_(**overrides) if overrides else base
        except TypeError as exc:
            raise ValueError(f"unknown setting: {exc}") from None
        self.level = level
        self.seed = seed
        self.system = system
        self._cards = CardPlayer(self.settings, system)
        self._bidder = _bidder(level, system, seed, self.settings)
        #: the last card decision (for diagnostics and benchmarks)
        self.last_choice: Optional[CardChoice] = None

    def _rng(self, view: SeatView, what: str) -> random.Random:
        if self.seed is None:
            return random.Random()
        return random.Random(f"{self.seed}:{what}:{view.fingerprint()}")

    def call(self, view: SeatView) -> Call:
        """The call for ``view.seat``: by the bidding system's rules alone (easy, medium),
        or the rules' candidates judged by simulation (hard; see :func:`_bidder`).

        :raises TypeError: if ``view`` is not a :class:`SeatView`.
        :raises InvalidViewError: if the view is inconsistent (:meth:`SeatView.check`), the
            auction is over, or another seat is to call.
        """
        _check_view(view)
        _check_call_turn(view)
        return self._bidder.choose(view.original_hand, view.auction, view.vulnerability)

    def card(self, view: SeatView) -> Card:
        """The card for ``view.to_play`` (own hand, or dummy's when declarer).

        :raises TypeError: if ``view`` is not a :class:`SeatView`.
        :raises InvalidViewError: if the view is inconsistent (:meth:`SeatView.check`) or
            asks no card of a seat that ``view.seat`` plays for.
        :raises SamplingError: if no layout fits the view (see
            :meth:`ai.cardplay.CardPlayer.choose`).
        """
        _check_view(view)
        choice = self._cards.choose(view, self._rng(view, "card"))
        self.last_choice = choice
        return choice.card

    def hint(self, view: SeatView):
        """A suggestion for the seat: during the auction the system's call with its
        explanation (:class:`ai.bidding.Hint`); during the play the card this player would
        play (a :class:`~ai.cardplay.CardChoice`).

        :raises TypeError: if ``view`` is not a :class:`SeatView`.
        :raises InvalidViewError: if the view is inconsistent (:meth:`SeatView.check`),
            another seat is to call, or the view asks no card of a seat that ``view.seat``
            plays for (also on a passed-out board).
        :raises SamplingError: as :meth:`card`.
        """
        _check_view(view)
        if not view.auction_finished:
            _check_call_turn(view)
            return self.system.hint(view.original_hand, view.auction, view.vulnerability)
        return self._cards.choose(view, self._rng(view, "card"))

    def explain(self, view: SeatView, call) -> object:
        """What ``call`` would mean if made now by the seat to act (the system's
        :class:`ai.bidding.Explanation`)."""
        _check_view(view)
        return self.system.explain(view.auction, call)

    def close(self) -> None:
        """Release the solver threads."""
        self._cards.close()
        if self._bidder is not self.system:
            self._bidder.close()

    def __repr__(self) -> str:
        return f"ComputerPlayer({self.level!r}, seed={self.seed!r})"


# -- bidding: the hard computer thinks with the solver (ai.bidding.simulation) -------------
def _bidder(level: str, system, seed, settings: PlaySettings):
    """What chooses the calls: ``system`` itself (easy, medium, or a system without
    ``candidates``), or for ``hard`` a :class:`ai.bidding.simulation.SimulatingBidder` of
    ``system`` with the player's seed and solver threads (without time limits when the
    card play has none, so that an untimed match stays reproducible; with its time budget
    and its ``max_seconds`` lowered to the card play's hard :attr:`PlaySettings.time_limit`
    when there is one)."""
    if level != "hard" or not callable(getattr(system, "candidates", None)):
        return system
    from ai.bidding.simulation import SimulatingBidder, SimulationSettings
    bidding = SimulationSettings(threads=settings.threads)
    if settings.time_budget is None or settings.time_budget >= 24 * 3600:
        bidding = bidding.untimed()
    limit = settings.time_limit
    if limit is not None:
        budget, most = bidding.time_budget, bidding.max_seconds
        bidding = replace(bidding, time_budget=limit if budget is None else min(budget, limit),
                          max_seconds=limit if most is None else min(most, limit))
    return SimulatingBidder(system, bidding, seed=seed)


def _check_view(view) -> None:
    if not isinstance(view, SeatView):
        raise TypeError(f"a computer player is given a SeatView, got {type(view).__name__}")
    view.check()


def _check_call_turn(view: SeatView) -> None:
    """The view asks a call of its own seat."""
    if view.auction_finished:
        raise InvalidViewError(f"no call is due from {view.seat.name}: the auction is over")
    if view.to_call != view.seat:
        raise InvalidViewError(f"{view.to_call.name} is to call, not {view.seat.name}")
