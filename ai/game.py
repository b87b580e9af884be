"""One board: deal -> auction -> play -> result.

:func:`play_board` is the only code of :mod:`ai` that holds a :class:`~ddsolver.deal.Deal`
while players decide.  It asks each :class:`~ai.players.Player` for its calls and cards,
giving it a :class:`~ai.players.SeatView` built from that seat's own cards and what the
table has shown (WBF Laws 2017: dummy is faced after the opening lead, Law 41; declarer
plays dummy's cards, Law 45), checks every call and card against the rules, and scores the
result (duplicate scoring, the spec's table; :func:`ddsolver.scoring.ns_score`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

from ai.players import SCORINGS, Player, SeatView, seat_view
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError, IllegalCallError, IllegalCardError, InvalidDealError
from ddsolver.play import trick_winner
from ddsolver.scoring import Contract, ns_score
from ddsolver.table import Seat, Vulnerability

__all__ = ["BoardResult", "play_board", "view_of"]


@dataclass(frozen=True)
class BoardResult:
    """A finished board.

    :ivar deal: the deal (four 13-card hands).
    :ivar dealer: the dealer.
    :ivar vulnerability: the vulnerability.
    :ivar scoring: ``"IMP"`` or ``"MP"``.
    :ivar calls: the auction's calls, the dealer's first.
    :ivar explanations: one explanation per call (the bidding system's), or ``None``.
    :ivar contract: the final contract with its declarer, ``None`` when passed out.
    :ivar declarer: declarer's seat, or ``None``.
    :ivar play: every card played, ``(seat, card)`` in order (dummy's cards under dummy's
        seat).
    :ivar tricks: tricks won by declarer's side (0 when passed out).
    :ivar score: the duplicate score from North-South's point of view.
    """

    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability
    scoring: str
    calls: Tuple[Call, ...]
    explanations: Optional[Tuple[object, ...]]
    contract: Optional[Contract]
    declarer: Optional[Seat]
    play: Tuple[Tuple[Seat, Card], ...]
    tricks: int
    score: int

    @property
    def auction(self) -> Auction:
        """The auction, as a new :class:`~ddsolver.auction.Auction`."""
        return Auction(self.dealer, self.calls)

    @property
    def passed_out(self) -> bool:
        """Whether all four players passed."""
        return self.contract is None


def view_of(deal: Deal, seat: Seat, *, dealer: Seat, vulnerability: Vulnerability,
            calls=(), explanations=None, played=(), scoring: str = "IMP") -> SeatView:
    """The view of ``seat`` at this point of the board, built from ``seat``'s own hand and
    (once the opening lead is faced) dummy's, nothing else of ``deal``.

    :raises InvalidViewError: as :func:`ai.players.seat_view`.
    """
    auction = Auction(dealer, calls)
    dummy_hand = None
    if played and auction.declarer is not None:
        dummy_hand = deal[auction.declarer.partner]
    return seat_view(seat, deal[seat], dealer=dealer, vulnerability=vulnerability,
                     auction=auction, explanations=explanations, played=played,
                     dummy_hand=dummy_hand, scoring=scoring)


def _check_players(players: Mapping) -> dict:
    try:
        table = {Seat.coerce(s): p for s, p in players.items()}
    except AttributeError:
        raise TypeError("players must map each seat to a Player") from None
    missing = [s.name for s in Seat if s not in table]
    if missing:
        raise ValueError(f"no player for {', '.join(missing)}")
    for s, p in table.items():
        if not isinstance(p, Player):
            raise TypeError(f"the player for {s.name} has no call(view) and card(view): "
                            f"{type(p).__name__}")
    return table


def play_board(deal: Deal, players: Mapping, dealer, vulnerability, auction=None,
               scoring: str = "IMP", system=None) -> BoardResult:
    """Play one board: the auction (unless given), then the play, then the score.

    :param deal: a complete :class:`~ddsolver.deal.Deal`.
    :param players: ``{seat: Player}`` for the four seats (seats as :class:`Seat`, letters
        or 0..3).  Dummy's player is never asked; declarer's is asked for dummy's cards.
    :param dealer: the dealer; :param vulnerability: the vulnerability (any form
        :meth:`Vulnerability.coerce` reads).
    :param auction: a finished auction to use instead of bidding (an
        :class:`~ddsolver.auction.Auction`, text or list of calls), or ``None``.
    :param scoring: ``"IMP"`` or ``"MP"`` (what the players aim for).
    :param system: the bidding system whose explanations the players see (default
        :class:`ai.bidding.StandardAmerican`).
    :returns: a :class:`BoardResult`.
    :raises InvalidDealError: if ``deal`` is not a complete deal.
    :raises IllegalCallError: if a player makes an illegal call or a given auction is not
        finished (the message names the seat).
    :raises IllegalCardError: if a player plays a card that is not legal (names the seat).
    :raises TypeError, ValueError: bad ``players``; :raises InvalidViewError: bad scoring.
    """
    if not isinstance(deal, Deal) or not deal.is_complete():
        raise InvalidDealError(f"play_board needs a complete Deal, got {deal!r}")
    table = _check_players(players)
    dealer = Seat.coerce(dealer)
    vulnerability = Vulnerability.coerce(vulnerability)
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}")
    if system is None:
        from ai.bidding import StandardAmerican
        system = StandardAmerican()

    if auction is not None:
        given = auction if isinstance(auction, Auction) else (
            Auction.from_str(dealer, auction) if isinstance(auction, str)
            else Auction(dealer, auction))
        if given.dealer != dealer:
            raise IllegalCallError(f"the auction's dealer {given.dealer.name} is not "
                                   f"{dealer.name}")
        if not given.is_finished:
            raise IllegalCallError(f"the given auction {given} is not finished")
        calls = tuple(given.calls)
        explanations = tuple(system.explain_all(given))
    else:
        current = Auction(dealer)
        exps = []
        while not current.is_finished:
            seat = current.to_act
            view = view_of(deal, seat, dealer=dealer, vulnerability=vulnerability,
                           calls=current.calls, explanations=exps, scoring=scoring)
            call = table[seat].call(view)
            if isinstance(call, str):
                call = Call.from_str(call)
            if not isinstance(call, Call) or not current.is_legal(call):
                raise IllegalCallError(f"{seat.name} made an illegal call {call!r} after "
                                       f"{' '.join(map(str, current.calls)) or 'nothing'}")
            exps.append(system.explain(current, call))
            current.add(call)
        calls = tuple(current.calls)
        explanations = tuple(exps)

    final = Auction(dealer, calls)
    contract = final.contract
    if contract is None:
        return BoardResult(deal, dealer, vulnerability, scoring, calls, explanations,
                           None, None, (), 0, 0)
    declarer = final.declarer
    dummy = declarer.partner
    played: list = []
    leader = declarer.lho
    trick: list = []
    won = 0
    for _ in range(52):
        to_play = leader.next(len(trick))
        controller = declarer if to_play == dummy else to_play
        view = view_of(deal, controller, dealer=dealer, vulnerability=vulnerability,
                       calls=calls, explanations=explanations, played=played,
                       scoring=scoring)
        card = table[controller].card(view)
        if isinstance(card, str):
            try:
                card = Card.from_str(card)
            except BridgeError:
                pass
        if card not in view.legal_cards:
            whose = f"{controller.name} (for dummy)" if to_play == dummy else controller.name
            raise IllegalCardError(f"{whose} played {card!r}, not one of the legal cards "
                                   f"{' '.join(map(str, view.legal_cards))}")
        played.append((to_play, card))
        trick.append((to_play, card))
        if len(trick) == 4:
            leader = trick_winner([c for _, c in trick], trick[0][0], contract.strain)
            if leader.side == declarer.side:
                won += 1
            trick = []
    return BoardResult(deal, dealer, vulnerability, scoring, calls, explanations, contract,
                       declarer, tuple(played), won, ns_score(contract, won, vulnerability))
