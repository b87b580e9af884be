"""Tests of ai.game: the board loop (play_board) and BoardResult."""

from __future__ import annotations

import random

import pytest

from ai.bidding import StandardAmerican
from ai.game import BoardResult, play_board
from ai.players import SeatView
from ddsolver.auction import Auction
from ddsolver.cards import Card
from ddsolver.deal import Deal, random_deals
from ddsolver.errors import IllegalCallError, IllegalCardError, InvalidDealError
from ddsolver.play import Position
from ddsolver.scoring import ns_score
from ddsolver.table import Seat

DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")


class Recorder:
    """Bids with the system, plays a random legal card; remembers every view it got."""

    def __init__(self, seed=0):
        self.sa = StandardAmerican()
        self.rng = random.Random(seed)
        self.views = []

    def call(self, view: SeatView):
        self.views.append(view)
        return self.sa.choose(view.hand, view.auction, view.vulnerability)

    def card(self, view: SeatView):
        self.views.append(view)
        return self.rng.choice(view.legal_cards)


def test_a_whole_board_by_the_rules():
    players = {s: Recorder(int(s)) for s in Seat}
    r = play_board(DEAL, players, dealer="N", vulnerability="None")
    assert isinstance(r, BoardResult)
    assert [str(c) for c in r.calls][:3] == ["1NT", "Pass", "2C"]      # Stayman
    assert r.declarer == Seat.NORTH
    assert len(r.explanations) == len(r.calls)
    assert r.explanations[0].text.startswith("1NT")
    assert len(r.play) == 52
    # replay the play with ddsolver's rules: legal, in turn, same tricks
    pos = Position(DEAL, trump=r.contract.strain, leader=Seat.EAST)
    for seat, card in r.play:
        assert pos.to_move == seat
        pos.play(card)
    ns, _ = pos.tricks_won
    assert r.tricks == ns
    assert r.score == ns_score(r.contract, r.tricks, r.vulnerability)
    # dummy (South) was never asked; North was asked for South's cards
    assert not any(v.seat == Seat.SOUTH for v in players[Seat.SOUTH].views
                   if v.to_play is not None)
    dummy_views = [v for v in players[Seat.NORTH].views if v.to_play == Seat.SOUTH]
    assert len(dummy_views) == 13
    # nobody but declarer's side saw South's hand before the opening lead
    east_views = [v for v in players[Seat.EAST].views if v.to_play == Seat.EAST]
    assert east_views[0].dummy_hand is None and east_views[1].dummy_hand is not None


def test_a_given_auction_skips_the_bidding_and_passed_out_boards():
    players = {s: Recorder() for s in Seat}
    r = play_board(DEAL, players, "N", "All", auction="1NT Pass 3NT Pass Pass Pass")
    assert str(r.contract) == "3NTN" and all(
        v.to_play is not None for p in players.values() for v in p.views)
    p = play_board(DEAL, players, "N", "All", auction=Auction("N", ["Pass"] * 4))
    assert p.passed_out and p.score == 0 and p.play == () and p.tricks == 0


def test_bad_players_and_inputs():
    good = {s: Recorder() for s in Seat}

    class Cheat(Recorder):
        def card(self, view):
            return Card.from_str("SA") if Card.from_str("SA") not in view.legal_cards \
                else view.legal_cards[-1]

    class Crazy(Recorder):
        def call(self, view):
            return "7NT" if view.calls else "Pass"

    with pytest.raises(IllegalCardError, match="EAST"):
        play_board(DEAL, {**good, Seat.EAST: Cheat()}, "N", "None",
                   auction="1NT Pass 3NT Pass Pass Pass")
    with pytest.raises(IllegalCallError):
        play_board(DEAL, {**good, Seat.EAST: Crazy(), Seat.SOUTH: Crazy()}, "N", "None")
    with pytest.raises(IllegalCallError, match="not finished"):
        play_board(DEAL, good, "N", "None", auction="1NT Pass")
    with pytest.raises(InvalidDealError):
        play_board("N:AQ4", good, "N", "None")
    with pytest.raises(ValueError, match="no player"):
        play_board(DEAL, {Seat.NORTH: Recorder()}, "N", "None")
    with pytest.raises(TypeError):
        play_board(DEAL, {s: object() for s in Seat}, "N", "None")
    with pytest.raises(ValueError, match="scoring"):
        play_board(DEAL, good, "N", "None", scoring="rubber")


def test_random_boards_are_legal():
    for i, deal in enumerate(random_deals(5, 6)):
        r = play_board(deal, {s: Recorder(i) for s in Seat}, Seat(i % 4), "NS")
        if r.contract is not None:
            assert len(r.play) == 52 and 0 <= r.tricks <= 13
