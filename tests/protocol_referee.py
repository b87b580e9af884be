"""A referee for the protocol tests: plays one board by asking computer players through a
protocol, holding the deal itself (as a frontend would) and giving each seat only its own
view.

- :func:`play_stateful`: four stateful JSON engines (one per seat) are told the board, the
  other seats' calls and cards, dummy after the opening lead, and asked for their decisions.
- :func:`play_stateless`: each decision is asked from the seat's whole view
  (``SeatView.to_dict()``), through any function (the JSON engine's stateless requests, the
  HTTP API).

Both return ``(calls, play)``: the calls as text, the cards as ``(seat letter, card)``.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Tuple

from ai.game import view_of
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.play import trick_winner
from ddsolver.table import Seat, Vulnerability

#: the deal of the spec (game.md)
DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
#: fast, fully repeatable computer settings (every layout solved whatever the time)
PLAYER = {"level": "easy", "seed": 5, "threads": 1, "samples": 6, "lead_samples": 4,
          "min_samples": 6}
#: the same as keyword settings of ComputerPlayer
PLAYER_SETTINGS = {"threads": 1, "samples": 6, "lead_samples": 4, "min_samples": 6}


def _next_to_play(dealer, calls, played):
    auction = Auction(dealer, calls)
    leader = auction.declarer.lho
    trick = []
    for seat, card in played:
        trick.append(card)
        if len(trick) == 4:
            leader = trick_winner(trick, leader, auction.contract.strain)
            trick = []
    return leader.next(len(trick))


def play_stateless(deal: Deal, dealer: Seat, vulnerability: Vulnerability,
                   ask_call: Callable[[dict], str],
                   ask_card: Callable[[dict], Tuple[str, str]]):
    """Ask ``ask_call(view_dict)`` / ``ask_card(view_dict)`` for every decision."""
    calls: List[Call] = []
    auction = Auction(dealer)
    while not auction.is_finished:
        seat = auction.to_act
        view = view_of(deal, seat, dealer=dealer, vulnerability=vulnerability, calls=calls)
        call = Call.from_str(ask_call(view.to_dict()))
        auction.add(call)
        calls.append(call)
    played: List[Tuple[Seat, Card]] = []
    if auction.contract is not None:
        dummy = auction.declarer.partner
        for _ in range(52):
            to_play = _next_to_play(dealer, calls, played)
            controller = auction.declarer if to_play == dummy else to_play
            view = view_of(deal, controller, dealer=dealer, vulnerability=vulnerability,
                           calls=calls, played=played)
            seat, card = ask_card(view.to_dict())
            assert seat == to_play.letter
            played.append((to_play, Card.from_str(card)))
    return [str(c) for c in calls], [(s.letter, str(c)) for s, c in played]


def play_stateful(deal: Deal, dealer: Seat, vulnerability: Vulnerability,
                  send: Dict[Seat, Callable[[dict], dict]], player: dict = PLAYER,
                  scoring: str = "IMP"):
    """Drive four stateful engines (``send[seat](message) -> answer``) through the board.

    :returns: ``(calls, play, last_states)``: the final ``state`` answer of each engine.
    """
    states = {}
    for seat in Seat:
        answer = send[seat]({"type": "new_board", "seat": seat.letter,
                             "hand": deal[seat].to_pbn(), "dealer": dealer.letter,
                             "vulnerability": vulnerability.pbn, "scoring": scoring,
                             "player": player, "board": 1})
        assert answer["type"] == "state", answer
    auction = Auction(dealer)
    calls: List[str] = []
    while not auction.is_finished:
        seat = auction.to_act
        answer = send[seat]({"type": "get_call"})
        assert answer["type"] == "call" and answer["seat"] == seat.letter, answer
        call = answer["call"]
        auction.add(Call.from_str(call))
        calls.append(call)
        for other in Seat:
            if other != seat:
                states[other] = send[other]({"type": "call", "seat": seat.letter,
                                             "call": call})
                assert states[other]["type"] == "state", states[other]
        states[seat] = answer["state"]
    played: List[Tuple[str, str]] = []
    if auction.contract is not None:
        declarer = auction.declarer
        dummy = declarer.partner
        seated = [s for s in Seat if s != dummy]
        for i in range(52):
            to_play = _next_to_play(dealer, [Call.from_str(c) for c in calls],
                                    [(Seat.from_str(s), Card.from_str(c)) for s, c in played])
            controller = declarer if to_play == dummy else to_play
            answer = send[controller]({"type": "get_card"})
            assert answer["type"] == "card" and answer["seat"] == to_play.letter, answer
            card = answer["card"]
            played.append((to_play.letter, card))
            states[controller] = answer["state"]
            for other in Seat:
                if other != controller:
                    states[other] = send[other]({"type": "card", "seat": to_play.letter,
                                                 "card": card})
                    assert states[other]["type"] == "state", states[other]
            if i == 0:
                for other in seated:
                    assert states[other]["needs_dummy"] is True
                    states[other] = send[other]({"type": "dummy",
                                                 "hand": deal[dummy].to_pbn()})
                    assert states[other]["type"] == "state" and \
                        not states[other]["needs_dummy"], states[other]
    return calls, played, states
