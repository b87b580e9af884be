"""Tests of ai.robot (ComputerPlayer) and ai.cardplay: the computer's choices."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ai.cardplay import CardPlayer, PlaySettings
from ai.game import play_board, view_of
from ai.players import InvalidViewError, Player, SeatView, seat_view
from ai.robot import LEVELS, ComputerPlayer
from ddsolver.cards import Card
from ddsolver.deal import Deal, Hand
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
    for level in ("expert", "HARD", None, 2, ["hard"], {"hard": 1}):
        with pytest.raises(ValueError, match="unknown level"):
            ComputerPlayer(level)
    with pytest.raises(ValueError):
        ComputerPlayer("easy", samples=-1)
    with pytest.raises(ValueError, match="setting"):
        ComputerPlayer("easy", sample=3)
    with pytest.raises(TypeError):
        ComputerPlayer("easy", seed=1.5)
    with pytest.raises(TypeError):
        ComputerPlayer("easy").card(DEAL)
    # the sampler's settings are merged into the level's own sampling options
    q = ComputerPlayer("hard", lowest_equals_weight=0.1, play_checks=6)
    assert dict(q.settings.sampling) == dict(LEVELS["hard"].sampling, play_checks=6,
                                             lowest_equals_weight=0.1)
    for bad in (dict(lowest_equals_weight=7), dict(play_checks=-1),
                dict(sampling={"bogus": 1}), dict(sampling={"misbid_weight": "x"})):
        with pytest.raises(ValueError, match="sampling"):
            ComputerPlayer("hard", **bad)
    with pytest.raises(ValueError, match="auction"):      # easy deals uniformly
        ComputerPlayer("easy", play_checks=3)
    # more layouts than the sampler deals: refused here, not at every decision
    from ai.sampling import MAX_SAMPLES
    for name in ("samples", "lead_samples"):
        with pytest.raises(ValueError, match=f"{name} must be at most 1,000,000"):
            ComputerPlayer("medium", **{name: MAX_SAMPLES + 1})
    assert ComputerPlayer("easy", samples=MAX_SAMPLES).settings.samples == MAX_SAMPLES


def test_numpy_integers_are_integers():
    """NumPy integers (from an array of settings or seeds) were refused as "must be an
    integer"; they now count as the ints they equal, and give the same decisions."""
    import numpy as np
    view = _view(DEAL, Seat.EAST, [])
    p = ComputerPlayer("medium", seed=np.int64(3), samples=np.int64(8),
                       lead_samples=np.int32(8), threads=np.int64(1),
                       memory_mb=np.uint16(16), time_budget=None)
    q = ComputerPlayer("medium", seed=3, samples=8, lead_samples=8, threads=1, memory_mb=16,
                       time_budget=None)
    assert p.settings == q.settings and type(p.settings.samples) is int
    assert p.seed == 3 and type(p.seed) is int
    assert p.card(view) == q.card(view)
    assert p.last_choice.tricks == q.last_choice.tricks
    p.close()
    q.close()

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


def _swapped(deal, hidden, played, rng, n=6):
    """``deal`` with ``n`` random swaps of unplayed cards of one suit between two of the
    ``hidden`` seats (every void shown stays a void, so the play stays legal)."""
    gone = {c for _, c in played}
    hands = {s: set(deal[s]) for s in Seat}
    for _ in range(n):
        a, b = rng.sample(list(hidden), 2)
        pairs = [(x, y) for x in hands[a] - gone for y in hands[b] - gone if x.suit == y.suit]
        if not pairs:
            continue
        x, y = rng.choice(pairs)
        hands[a] = hands[a] - {x} | {y}
        hands[b] = hands[b] - {y} | {x}
    return Deal([Hand(list(hands[s])) for s in Seat])


def _decision_points():
    """(seat, played) of a few decisions of DEAL in 3NT by North: the opening lead, dummy's
    card at trick 1, a defender's card in the middle, declarer's own card later."""
    pos = Position(DEAL, trump="N", leader=Seat.EAST)
    rng = random.Random(5)
    played = []
    points = [(Seat.EAST, [])]
    while len(played) < 30:
        seat = pos.to_move
        card = rng.choice(pos.legal_cards)
        pos.play(card)
        played.append((seat, card))
        nxt = pos.to_move
        controller = Seat.NORTH if nxt == Seat.SOUTH else nxt
        if len(pos.legal_cards) > 1 and len(played) in (1, 13, 26, 29):
            points.append((controller, list(played)))
    return points


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_same_view_same_seed_same_choice_whatever_the_hidden_cards(level):
    """Hidden cards swapped between the seats a view does not show (same suit, so the play
    stays legal) change neither the view nor a seeded computer's choice: the same layouts
    are solved (the same tricks table) and the same card is played.  A generous time budget
    keeps the clock out of the decision."""
    rng = random.Random(11)
    for seat, played in _decision_points():
        a = _view(DEAL, seat, played)
        for _ in range(2):
            other = _swapped(DEAL, a.hidden_seats, played, rng)
            assert other != DEAL
            b = _view(other, seat, played)
            assert a == b and a.fingerprint() == b.fingerprint()
            p1 = ComputerPlayer(level, seed=42, threads=1, samples=12, lead_samples=4,
                                min_samples=8, time_budget=60.0, lead_time_budget=60.0)
            p2 = ComputerPlayer(level, seed=42, threads=2, samples=12, lead_samples=4,
                                min_samples=8, time_budget=60.0, lead_time_budget=60.0)
            c1 = p1.hint(a)
            c2 = p2.hint(b)
            assert c1.card == c2.card and c1.tricks == c2.tricks and c1.utility == c2.utility
            assert p1.card(b) == c1.card
            p1.close()
            p2.close()


def test_the_seed_matters_and_none_is_fresh():
    view = _view(DEAL, Seat.EAST, [])
    choices = {ComputerPlayer("easy", seed=k, threads=1).hint(view).tricks for k in range(4)}
    assert len(choices) > 1            # different seeds, different layouts


def test_four_computers_play_a_board():
    players = {s: ComputerPlayer("easy", seed=int(s)) for s in Seat}
    r = play_board(DEAL, players, "N", "None")
    assert r.contract is not None and len(r.play) == 52
    pos = Position(DEAL, trump=r.contract.strain, leader=r.declarer.lho)
    for seat, card in r.play:
        assert pos.to_move == seat
        pos.play(card)


def test_a_computer_answers_only_for_the_seat_to_act():
    # North deals: East's view is valid, but East is not to call.
    east = seat_view("E", "653.T742.T42.A73", dealer="N", vulnerability="None")
    player = ComputerPlayer("easy", seed=1)
    with pytest.raises(InvalidViewError, match="NORTH is to call, not EAST"):
        player.call(east)
    over = seat_view("W", "K82.Q93.KJ5.Q854", dealer="N", vulnerability="None",
                     auction=AUCTION)
    with pytest.raises(InvalidViewError, match="auction is over"):
        player.call(over)
    # East is on lead against North's 3NT: West has no card to play yet.
    with pytest.raises(InvalidViewError, match="EAST is to play"):
        player.card(over)
    north = seat_view("N", "AQ4.KJ5.Q963.KJ2", dealer="N", vulnerability="None")
    assert str(player.call(north)) == "1NT"
    # a hint too: East's hand was hinted a call as if it were North's turn
    with pytest.raises(InvalidViewError, match="NORTH is to call, not EAST"):
        player.hint(east)
    assert str(player.hint(north).call) == "1NT"


def test_a_view_not_built_by_seat_view_is_checked_before_any_choice():
    player = ComputerPlayer("easy", seed=1)
    with pytest.raises(InvalidViewError, match="inconsistent SeatView"):
        player.card(SeatView(*[None] * 15))
    with pytest.raises(InvalidViewError, match="inconsistent SeatView"):
        player.call(SeatView(*[None] * 15))
    lead = _view(DEAL, Seat.EAST, [])
    assert Card.from_str("SA") not in lead.hand
    forged = dataclasses.replace(lead, legal_cards=(Card.from_str("SA"),))
    with pytest.raises(InvalidViewError, match="legal_cards disagree"):
        player.card(forged)
    shrunk = dataclasses.replace(lead, hand=Hand.from_pbn("653.T742.T42.A7"))
    with pytest.raises(InvalidViewError, match="hand disagree"):
        player.card(shrunk)
    assert lead.check() is lead
    assert player.card(lead) in lead.legal_cards


def test_a_computer_needs_a_bidding_system():
    with pytest.raises(TypeError, match="bidding system"):
        ComputerPlayer("easy", system="x")
