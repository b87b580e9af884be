"""Tests of ai.players: what a seat may see (SeatView) and the Player protocol."""

from __future__ import annotations

import random

import pytest

from ai.players import InvalidViewError, Player, SeatView, seat_view
from ddsolver.auction import Call
from ddsolver.cards import Card, Suit
from ddsolver.deal import Deal, Hand
from ddsolver.errors import IllegalCallError, InvalidNotationError
from ddsolver.play import Position
from ddsolver.table import Seat, Vulnerability

DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
AUCTION = "1NT Pass 3NT Pass Pass Pass"


def _play_out(deal, k, rng=None):
    """The first ``k`` cards of a legal play of DEAL in 3NT by North (East leads)."""
    rng = rng or random.Random(1)
    pos = Position(deal, trump="N", leader=Seat.EAST)
    out = []
    for _ in range(k):
        seat = pos.to_move
        card = rng.choice(pos.legal_cards)
        pos.play(card)
        out.append((seat, card))
    return out


def test_view_during_the_auction():
    v = seat_view("S", DEAL.south, dealer="N", vulnerability="None", auction="1NT Pass")
    assert v.seat == Seat.SOUTH and v.hand == DEAL.south
    assert v.to_call == Seat.SOUTH and v.to_play is None and v.contract is None
    assert v.legal_cards == () and v.dummy_hand is None
    assert [str(c) for c in v.calls] == ["1NT", "Pass"]
    assert v.auction is not v.auction           # a fresh Auction each time
    v.auction.add("2C")                          # changing it does not change the view
    assert len(v.calls) == 2


def test_view_of_the_opening_leader_and_declarer():
    east = seat_view("E", DEAL.east, dealer="N", vulnerability="All", auction=AUCTION)
    assert east.contract.level == 3 and east.declarer == Seat.NORTH
    assert east.to_play == Seat.EAST and len(east.legal_cards) == 13
    assert east.hidden_seats == (Seat.NORTH, Seat.SOUTH, Seat.WEST)
    assert east.vulnerability is Vulnerability.BOTH
    played = [(Seat.EAST, Card.from_str("H2"))]
    north = seat_view("N", DEAL.north, dealer="N", vulnerability="All", auction=AUCTION,
                      played=played, dummy_hand=DEAL.south)
    # South is dummy: North is asked for dummy's card, from dummy's hand, following suit
    assert north.to_play == Seat.SOUTH and north.dummy == Seat.SOUTH
    assert set(north.legal_cards) == {Card.from_str(c) for c in ("HA", "H8", "H6")}
    assert north.controls == (Seat.NORTH, Seat.SOUTH)
    assert north.hidden_seats == (Seat.EAST, Seat.WEST)
    assert len(north.unseen_cards) == 26 - 1
    assert not set(north.unseen_cards) & (set(DEAL.north) | set(DEAL.south))


def test_views_are_equal_whatever_the_hidden_hands():
    """The view of a seat depends on its own cards, dummy and the play only."""
    rng = random.Random(7)
    for _ in range(30):
        play = _play_out(DEAL, rng.randrange(1, 40), rng)
        base = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                         played=play, dummy_hand=DEAL.south)
        # swap two unseen cards between East and West that keeps the play legal
        east = set(DEAL.east) - {c for s, c in play}
        west = set(DEAL.west) - {c for s, c in play}
        voids = base.voids
        swaps = [(a, b) for a in east for b in west if a.suit == b.suit]
        if not swaps:
            continue
        a, b = rng.choice(swaps)
        hands = list(DEAL.hands)
        hands[Seat.EAST] = DEAL.east.remove(a).add(b)
        hands[Seat.WEST] = DEAL.west.remove(b).add(a)
        other = Deal(hands)
        view2 = seat_view("N", other.north, dealer="N", vulnerability="None",
                          auction=AUCTION, played=play, dummy_hand=other.south)
        assert view2 == base and view2.fingerprint() == base.fingerprint()
        assert voids == view2.voids


def test_every_seats_view_is_the_same_whatever_the_cards_it_cannot_see():
    """For every viewer (declarer, dummy, each defender, the opening leader before the
    lead, any seat during the auction) and random moments of the play: reshuffling the
    unplayed cards among the seats the view does not show (same suit, so every shown void
    stays one and the play stays legal; any card during the auction) leaves the view and
    its fingerprint unchanged."""
    rng = random.Random(23)
    for trial in range(40):
        k = rng.choice([0, 0, 1, 4, 13, 27, 40, 51])
        play = _play_out(DEAL, k, rng) if k else []
        for seat in Seat:
            kwargs = dict(dealer="N", vulnerability="None", auction=AUCTION, played=play)
            if play:
                kwargs["dummy_hand"] = DEAL.south if seat != Seat.SOUTH else None
            base = seat_view(seat, DEAL[seat], **kwargs)
            hidden = list(base.hidden_seats)
            gone = {c for _, c in play}
            hands = {s: set(DEAL[s]) for s in Seat}
            for _ in range(8):
                a, b = rng.sample(hidden, 2)
                pairs = [(x, y) for x in hands[a] - gone for y in hands[b] - gone
                         if x.suit == y.suit]
                if pairs:
                    x, y = rng.choice(pairs)
                    hands[a] = hands[a] - {x} | {y}
                    hands[b] = hands[b] - {y} | {x}
            other = Deal([Hand(list(hands[s])) for s in Seat])
            if play:
                kwargs["dummy_hand"] = other.south if seat != Seat.SOUTH else None
            view = seat_view(seat, other[seat], **kwargs)
            assert view == base and view.fingerprint() == base.fingerprint()
    # during the auction a seat sees its own hand only: any redeal of the other three
    for seat in Seat:
        base = seat_view(seat, DEAL[seat], dealer="N", vulnerability="None", auction="1NT")
        rest = [c for s in Seat if s != seat for c in DEAL[s]]
        rng.shuffle(rest)
        hands = {seat: list(DEAL[seat])}
        for i, s in enumerate(x for x in Seat if x != seat):
            hands[s] = rest[13 * i:13 * i + 13]
        other = Deal([Hand(hands[s]) for s in Seat])
        assert other != DEAL
        assert seat_view(seat, other[seat], dealer="N", vulnerability="None",
                         auction="1NT") == base


def test_remaining_or_original_hand():
    play = _play_out(DEAL, 9)
    a = seat_view("W", DEAL.west, dealer="N", vulnerability="None", auction=AUCTION,
                  played=play, dummy_hand=DEAL.south)
    held = DEAL.west.mask & ~sum(c.bit for s, c in play if s == Seat.WEST)
    b = seat_view("W", Hand(held), dealer="N", vulnerability="None", auction=AUCTION,
                  played=play, dummy_hand=DEAL.south)
    assert a == b and a.hand == Hand(held) and a.original_hand == DEAL.west
    assert a.cards_held(Seat.WEST) == 13 - len(a.played_by(Seat.WEST))
    d = seat_view("W", DEAL.west, dealer="N", vulnerability="None", auction=AUCTION,
                  played=play, dummy_hand=DEAL.south)
    assert d.to_dict()["played"][0][0] == "E"
    assert seat_view(**d.to_dict()).played == d.played


def test_tricks_and_winners():
    play = _play_out(DEAL, 13)
    v = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                  played=play, dummy_hand=DEAL.south)
    pos = Position(DEAL, trump="N", leader=Seat.EAST)
    for _, c in play:
        pos.play(c)
    ns, ew = pos.tricks_won
    assert (v.declarer_tricks, v.defender_tricks) == (ns, ew)
    assert len(v.current_trick) == 1 and len(v.tricks) == 4
    assert v.to_play == pos.to_move


def test_inconsistent_views_are_refused():
    kw = dict(dealer="N", vulnerability="None", auction=AUCTION)
    with pytest.raises(InvalidViewError, match="14 cards"):
        seat_view("E", list(DEAL.east) + [Card.from_str("SA")], **kw)
    with pytest.raises(InvalidViewError, match="both held"):
        # East still holds the H2 it is said to have played
        seat_view("E", Hand(DEAL.east.mask & ~Card.from_str("C3").bit),
                  played=[(Seat.EAST, Card.from_str("H2"))], dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match="held by"):
        # West is said to have played a card in North's hand (North's view)
        seat_view("N", DEAL.north, played=[(Seat.EAST, "H2"), (Seat.SOUTH, "HA"),
                                           (Seat.WEST, "SA")], dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match="revoke"):
        # West shows out of hearts, then plays a heart
        bad = [(Seat.EAST, "H2"), (Seat.SOUTH, "H6"), (Seat.WEST, "S2"), (Seat.NORTH, "HK"),
               (Seat.NORTH, "H5"), (Seat.EAST, "H4"), (Seat.SOUTH, "H8"), (Seat.WEST, "H3")]
        seat_view("E", DEAL.east, played=bad, dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match="revoke"):
        # dummy (known to North) fails to follow while holding the suit
        seat_view("N", DEAL.north, played=[(Seat.EAST, "H2"), (Seat.SOUTH, "S7")],
                  dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match="was to play"):
        seat_view("N", DEAL.north, played=[(Seat.WEST, "H3")], dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match=r"card 1 \(H3\) is attributed to West, but "
                                               r"East was to play"):
        # a lead out of turn is named as such, before dummy's missing hand is asked for
        seat_view("N", DEAL.north, played=[(Seat.WEST, "H3")], **kw)
    with pytest.raises(InvalidViewError, match="twice"):
        seat_view("S", DEAL.south, played=[(Seat.EAST, "H2"), (Seat.SOUTH, "HA"),
                                           (Seat.WEST, "H2")], **kw)
    with pytest.raises(InvalidViewError, match="dummy_hand"):
        seat_view("E", DEAL.east, played=[(Seat.EAST, "H2")], **kw)
    with pytest.raises(InvalidViewError, match="not faced"):
        seat_view("E", DEAL.east, dummy_hand=DEAL.south, **kw)
    with pytest.raises(InvalidViewError, match="auction is not over"):
        seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction="1NT",
                  played=[(Seat.EAST, "H2")])
    with pytest.raises(InvalidViewError, match="passed-out"):
        seat_view("E", DEAL.east, dealer="N", vulnerability="None",
                  auction="Pass Pass Pass Pass", played=[(Seat.EAST, "H2")])
    with pytest.raises(InvalidViewError, match="explanations"):
        seat_view("E", DEAL.east, explanations=["x"], **kw)
    # cards alone, not (seat, card) pairs: "SA" and "C3" were read as seat S / card "A",
    # and seat "C"
    for played, i, item in ((["SA"], 0, "'SA'"), ([(Seat.EAST, "H2"), "C3"], 1, "'C3'"),
                            ([Card.from_str("H2")], 0, r"Card\.from_str"),
                            ([(Seat.EAST,)], 0, r"\(")):
        with pytest.raises(InvalidViewError,
                           match=rf"played\[{i}\] must be a \(seat, card\) pair, got {item}"):
            seat_view("S", DEAL.south, played=played, **kw)
    with pytest.raises(InvalidViewError, match="scoring"):
        seat_view("E", DEAL.east, scoring="rubber", **kw)
    with pytest.raises(IllegalCallError):
        seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction="1NT 1S")
    with pytest.raises(InvalidNotationError):
        seat_view("Q", DEAL.east, **kw)
    with pytest.raises(TypeError):
        seat_view("E", None, **kw)
    with pytest.raises(TypeError):
        seat_view("E", DEAL.east, dealer="N", vulnerability=None, auction=AUCTION)


def test_arguments_of_the_wrong_kind_are_named():
    """explanations=5 and played=5 were bare TypeErrors ("'int' object is not iterable");
    a list of numbers as the hand said "got list"; a NumPy card mask was refused."""
    import numpy as np
    kw = dict(dealer="N", vulnerability="None", auction=AUCTION)
    with pytest.raises(TypeError, match="explanations must be a sequence"):
        seat_view("E", DEAL.east, explanations=5, **kw)
    with pytest.raises(TypeError, match="explanations must be a sequence"):
        seat_view("E", DEAL.east, explanations="x" * 6, **kw)
    with pytest.raises(TypeError, match=r"played must be a list of \(seat, card\) pairs, got "
                                        r"int"):
        seat_view("E", DEAL.east, played=5, **kw)
    with pytest.raises(TypeError, match="East's hand .* it lists int 1"):
        seat_view("E", [1, 2, 3], **kw)
    with pytest.raises(TypeError, match="East's hand .* got bytes"):
        seat_view("E", b"653.T742.T42.A73", **kw)
    with pytest.raises(InvalidViewError, match="East's hand: invalid card 'ZZ'"):
        seat_view("E", ["ZZ"], **kw)
    view = seat_view("E", DEAL.east, **kw)
    assert seat_view("E", np.uint64(DEAL.east.mask), **kw) == view
    assert seat_view("E", [str(c) for c in DEAL.east], **kw) == view
    assert seat_view("E", DEAL.east, played=iter(()), explanations=iter([None] * 6),
                     **kw).explanations == (None,) * 6

def test_views_are_immutable():
    v = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    with pytest.raises(AttributeError):
        v.hand = DEAL.west
    assert isinstance(v, SeatView) and hash(v) == hash(
        seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION))


def test_player_protocol():
    class P:
        def call(self, view):
            return Call.from_str("Pass")

        def card(self, view):
            return view.legal_cards[0]

    assert isinstance(P(), Player)
    assert not isinstance(object(), Player)
    assert Suit.HEARTS in seat_view(
        "N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
        played=[(Seat.EAST, "H2"), (Seat.SOUTH, "HA"), (Seat.WEST, "S2")],
        dummy_hand=DEAL.south).voids[Seat.WEST]


def test_a_short_hand_before_any_card_is_named_plainly():
    with pytest.raises(InvalidViewError, match=r"North's hand has 12 cards; expected 13$"):
        seat_view("N", "AQ4.KJ5.Q963.KJ", dealer="N", vulnerability="None")
    with pytest.raises(InvalidViewError, match=r"has 1 card; expected 13$"):
        seat_view("N", ["SA"], dealer="N", vulnerability="None")
