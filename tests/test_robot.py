"""Tests of ai.robot (ComputerPlayer) and ai.cardplay: the computer's choices."""

from __future__ import annotations

import random

import pytest

from ai.cardplay import CardPlayer, PlaySettings
from ai.game import play_board, view_of
from ai.players import Player
from ai.robot import LEVELS, ComputerPlayer
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.play import Position
from ddsolver.table import Seat

DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
AUCTION = ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]


def _view(deal, seat, played):
    return view_of(deal, seat, dealer=Seat.NORTH, vulnerability="None", calls=AUCTION,
                   played=played)


def test_levels_and_settings():
    assert set(LEVELS) == {"easy", "medium", "hard"}
    p = ComputerPlayer("hard", seed=3, samples=10, threads=1)
    assert isinstance(p, Player)
    assert p.settings.samples == 10 and p.settings.threads == 1
    with pytest.raises(ValueError, match="level"):
        ComputerPlayer("expert")
    with pytest.raises(ValueError):
        ComputerPlayer("easy", samples=-1)
    with pytest.raises(ValueError, match="setting"):
        ComputerPlayer("easy", sample=3)
    with pytest.raises(TypeError):
        ComputerPlayer("easy", seed=1.5)
    with pytest.raises(TypeError):
        ComputerPlayer("easy").card(DEAL)


def test_a_forced_card_is_played_at_once():
    # North leads the heart king... East has a single heart left?  Build: after East's H2
    # lead and the rest, find a view where the mover has one legal card.
    pos = Position(DEAL, trump="N", leader=Seat.EAST)
    rng = random.Random(2)
    played = []
    while True:
        seat = pos.to_move
        if len(pos.legal_cards) == 1 and played:
            break
        card = rng.choice(pos.legal_cards)
        pos.play(card)
        played.append((seat, card))
    controller = Seat.NORTH if seat == Seat.SOUTH else seat
    view = _view(DEAL, controller, played)
    choice = CardPlayer(PlaySettings(samples=5)).choose(view, random.Random(1))
    assert choice.card == view.legal_cards[0] and choice.samples == 0


def test_same_view_same_seed_same_card_whatever_the_hidden_cards():
    """Swapping two cards between the hidden hands (East and West, unplayed, same suit so
    the play stays legal) does not change a seeded declarer's card."""
    played = [(Seat.EAST, Card.from_str("H2")), (Seat.SOUTH, Card.from_str("H6")),
              (Seat.WEST, Card.from_str("HQ"))]
    a = _view(DEAL, Seat.NORTH, played)
    hands = list(DEAL.hands)
    e, w = Card.from_str("C7"), Card.from_str("C8")
    hands[Seat.EAST] = DEAL.east.remove(Card.from_str("C7")).add(w)
    hands[Seat.WEST] = DEAL.west.remove(w).add(e)
    other = Deal(hands)
    b = _view(other, Seat.NORTH, played)
    assert a == b
    p1 = ComputerPlayer("medium", seed=42, threads=1)
    p2 = ComputerPlayer("medium", seed=42, threads=2)
    assert p1.card(a) == p2.card(b) == p1.card(b)


def test_four_computers_play_a_board():
    players = {s: ComputerPlayer("easy", seed=int(s)) for s in Seat}
    r = play_board(DEAL, players, "N", "None")
    assert r.contract is not None and len(r.play) == 52
    pos = Position(DEAL, trump=r.contract.strain, leader=r.declarer.lho)
    for seat, card in r.play:
        assert pos.to_move == seat
        pos.play(card)
