"""Tests of ddsolver.play: legal cards, make/unmake, trick winners, positions, errors.

The 300 positions of tests/data/solve_positions.jsonl (made by DDS 2.9.0's reference run, see
the data README) give the legal cards of the player to move (the keys of "results", spades
first, high to low) and the seat to move; every position is rebuilt twice, from the remaining
hands and by replaying its "play" from the full deal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsolver.cards import Card, Strain, Suit
from ddsolver.deal import Deal, Hand, random_deal
from ddsolver.errors import (
    BridgeError,
    CardNotHeldError,
    IllegalCardError,
    InvalidDealError,
    InvalidPositionError,
    OutOfTurnError,
    RevokeError,
)
from ddsolver.play import Position, trick_winner
from ddsolver.table import Seat, Side

DATA = Path(__file__).parent / "data"
POSITIONS = [json.loads(line) for line in (DATA / "solve_positions.jsonl").open()]

SPEC = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")


def C(text: str) -> Card:
    return Card.from_str(text)


def cards(text: str) -> list:
    return [C(t) for t in text.split()]


def state(pos: Position):
    return (pos.masks(), pos.leader, pos.trick_cards, pos.tricks_won, pos.to_move,
            pos.tricks_left, pos.played)


# ---------------------------------------------------------------------------------------
# trick winner
# ---------------------------------------------------------------------------------------


class TestTrickWinner:
    def test_highest_of_suit_led_in_notrump(self):
        # N leads H2, E plays HA: East wins; a higher spade (discard) does not count in NT
        assert trick_winner(cards("H2 HA SA H3"), Seat.NORTH, Strain.NOTRUMP) == Seat.EAST

    def test_discard_never_wins(self):
        # W leads D2; the others discard aces of other suits: the lead wins
        assert trick_winner(cards("D2 SA HA CA"), Seat.WEST, Strain.NOTRUMP) == Seat.WEST
        # the same with hearts trump: HA is a ruff and wins
        assert trick_winner(cards("D2 SA HA CA"), Seat.WEST, Strain.HEARTS) == Seat.EAST

    def test_ruff_beats_ace_of_suit_led(self):
        # E leads CA, S ruffs with the S2: South wins
        assert trick_winner(cards("CA S2 C3 C4"), Seat.EAST, Strain.SPADES) == Seat.SOUTH

    def test_overruff(self):
        # N leads H2, E ruffs S3, S overruffs S5, W plays HA
        assert trick_winner(cards("H2 S3 S5 HA"), Seat.NORTH, Strain.SPADES) == Seat.SOUTH
        # trumps led: highest trump wins
        assert trick_winner(cards("S2 S9 S5 SK"), Seat.SOUTH, Strain.SPADES) == Seat.EAST

    def test_trump_led_off_suit_discards(self):
        assert trick_winner(cards("C2 DA HA SA"), Seat.NORTH, Strain.CLUBS) == Seat.NORTH

    def test_leader_rotation(self):
        for leader in Seat:
            # the third card wins
            assert trick_winner(cards("D2 D3 DA D4"), leader, Strain.NOTRUMP) == leader.next(2)

    @pytest.mark.parametrize("n", [0, 1, 3, 5])
    def test_wrong_number_of_cards(self, n):
        deck = cards("S2 S3 S4 S5 S6")[:n]
        with pytest.raises(InvalidPositionError):
            trick_winner(deck, Seat.NORTH, Strain.NOTRUMP)

    def test_every_trump_against_brute_rule(self):
        rng = random.Random(7)
        deck = [Card(s, r) for s in range(4) for r in range(2, 15)]
        for _ in range(400):
            four = rng.sample(deck, 4)
            trump = Strain(rng.randrange(5))
            leader = Seat(rng.randrange(4))
            # rule stated independently: trumps beat everything, else the suit led
            trumps = [c for c in four if trump != Strain.NOTRUMP and int(c.suit) == int(trump)]
            pool = trumps or [c for c in four if c.suit == four[0].suit]
            best = max(pool, key=lambda c: c.rank)
            assert trick_winner(four, leader, trump) == leader.next(four.index(best))


# ---------------------------------------------------------------------------------------
# legal cards
# ---------------------------------------------------------------------------------------


def test_strain_and_leader_spellings_and_bad_types():
    """Strain and leader: enums, letters or integers give the same position; a bool, a
    float or None is a TypeError, an unknown letter or an integer out of range an
    InvalidPositionError (not silently diamonds for ``True`` or notrump for ``4.0``)."""
    ref = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
    for trump, leader in (("NT", "E"), (4, 1), ("n", "east")):
        pos = Position(SPEC, trump, leader)
        assert (pos.trump, pos.leader, pos.legal_cards) == (ref.trump, ref.leader,
                                                           ref.legal_cards)
    for trump, leader in ((True, "E"), (4.0, "E"), (None, "E"), ("NT", 1.0), ("NT", False),
                          ("NT", Side.EW), (Suit.SPADES, "E")):
        with pytest.raises(TypeError):
            Position(SPEC, trump, leader)
    for trump, leader in ((5, "E"), (-1, "E"), ("Z", "E"), ("NT", 4), ("NT", "Q")):
        with pytest.raises(InvalidPositionError):
            Position(SPEC, trump, leader)


class TestLegalCards:
    def test_leader_may_play_anything_in_order(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        # East: 653.T742.T42.A73, spades first, high to low in each suit
        assert [str(c) for c in pos.legal_cards] == [
            "S6", "S5", "S3", "HT", "H7", "H4", "H2", "DT", "D4", "D2", "CA", "C7", "C3"]
        assert pos.to_move == Seat.EAST

    def test_follow_suit(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        pos.play("H2")
        assert pos.to_move == Seat.SOUTH
        assert [str(c) for c in pos.legal_cards] == ["HA", "H8", "H6"]
        pos.play("H6")
        assert [str(c) for c in pos.legal_cards] == ["HQ", "H9", "H3"]   # West
        assert pos.is_legal(C("H9")) and not pos.is_legal(C("SK"))

    def test_void_may_play_anything(self):
        # West led CA; North has no club: any card
        pos = Position.from_remaining("N:A.K.. ..AK. .A.2. K...", Strain.NOTRUMP, Seat.WEST,
                                      ["CA"])
        assert pos.to_move == Seat.NORTH
        assert [str(c) for c in pos.legal_cards] == ["SA", "HK"]
        # with a club North must follow
        pos = Position.from_remaining("N:A...2 ..AK. .A.2. K...", Strain.NOTRUMP, Seat.WEST,
                                      ["CA"])
        assert [str(c) for c in pos.legal_cards] == ["C2"]
        with pytest.raises(RevokeError):
            pos.play("SA")

    def test_legal_cards_after_trick_completes(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        for c in ("H2", "H6", "H9", "HJ"):   # E, S, W, N: North's HJ wins
            pos.play(c)
        assert pos.trick_cards == []
        assert pos.leader == Seat.NORTH and pos.to_move == Seat.NORTH
        assert len(pos.legal_cards) == 12

    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 2**32 - 1))
    def test_legal_cards_rule_along_random_play(self, seed):
        rng = random.Random(seed)
        pos = Position(random_deal(rng), Strain(rng.randrange(5)), Seat(rng.randrange(4)))
        while not pos.is_finished:
            hand = pos.hand(pos.to_move)
            legal = pos.legal_cards
            if pos.trick_cards:
                led = pos.trick_cards[0].suit
                follow = [c for c in hand if c.suit == led]
                expected = set(follow) if follow else set(hand)
            else:
                expected = set(hand)
            assert set(legal) == expected
            assert legal == sorted(legal, key=lambda c: (-c.suit, -c.rank))
            pos.play(rng.choice(legal))


# ---------------------------------------------------------------------------------------
# make / unmake, tricks won
# ---------------------------------------------------------------------------------------


class TestPlayPop:
    def test_play_returns_winner_and_updates_state(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        assert pos.tricks_left == 13 and pos.tricks_won == (0, 0)
        assert pos.play("H2") is None
        assert pos.play("H6") is None
        assert pos.play("HQ") is None
        assert pos.trick_cards == cards("H2 H6 HQ")
        assert pos.tricks_left == 13          # the current trick still counts
        assert pos.play("HK") == Seat.NORTH   # N's HK beats W's HQ
        assert pos.tricks_won == (1, 0)
        assert pos.tricks_left == 12
        assert pos.leader == Seat.NORTH
        assert pos.played == cards("H2 H6 HQ HK")
        assert C("HK") not in pos.hand(Seat.NORTH)

    def test_pop_restores_across_trick_boundary(self):
        pos = Position(SPEC, Strain.SPADES, Seat.EAST)
        before = state(pos)
        snapshots = [before]
        for c in ("CA", "C6", "C4", "C2", "C3", "C9", "C5", "CK"):
            pos.play(c)
            snapshots.append(state(pos))
        assert pos.tricks_won == (1, 1)   # E's CA, then N's CK
        for snap in reversed(snapshots[:-1]):
            pos.pop()
            assert state(pos) == snap

    def test_pop_on_fresh_position(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        with pytest.raises(IndexError):
            pos.pop()

    def test_pop_only_takes_back_own_cards(self):
        pos = Position.from_remaining("N:A... K... .2.. 3...", Strain.NOTRUMP, Seat.SOUTH, [])
        pos.play("H2")
        pos.pop()
        with pytest.raises(IndexError):
            pos.pop()

    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 2**32 - 1))
    def test_full_random_playout_and_back(self, seed):
        rng = random.Random(seed)
        deal = random_deal(rng)
        trump = Strain(rng.randrange(5))
        leader = Seat(rng.randrange(4))
        pos = Position(deal, trump, leader)
        start = state(pos)
        snaps = []
        won = [0, 0]
        trick = []
        trick_leader = leader
        while not pos.is_finished:
            snaps.append(state(pos))
            card = rng.choice(pos.legal_cards)
            mover = pos.to_move
            assert mover == trick_leader.next(len(trick))
            winner = pos.play(card, seat=mover)
            trick.append(card)
            if len(trick) == 4:
                expected = trick_winner(trick, trick_leader, trump)
                assert winner == expected
                won[expected.side] += 1
                trick_leader = expected
                trick = []
            else:
                assert winner is None
            assert pos.tricks_won == tuple(won)
        assert sum(pos.tricks_won) == 13
        assert pos.masks() == (0, 0, 0, 0)
        assert len(pos.played) == 52 and set(pos.played) == {
            c for s in Seat for c in deal[s]}
        for snap in reversed(snaps):
            pos.pop()
            assert state(pos) == snap
        assert state(pos) == start

    def test_copy_is_independent(self):
        pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        pos.play("H2")
        twin = pos.copy()
        twin.play("H6")
        assert pos.trick_cards == cards("H2") and twin.trick_cards == cards("H2 H6")
        assert pos.to_move == Seat.SOUTH
        twin.pop()
        twin.pop()
        assert twin.trick_cards == [] and pos.trick_cards == cards("H2")


# ---------------------------------------------------------------------------------------
# mid-trick positions
# ---------------------------------------------------------------------------------------


class TestFromRemaining:
    def test_mid_trick(self):
        pos = Position.from_remaining("N:AK... Q3.4.. J.65.. 4.7..", "S", "W", ["D3", "H3"])
        # W led D3, N (void in diamonds) discarded H3; East to move, void: anything
        assert pos.trump == Strain.SPADES
        assert pos.leader == Seat.WEST and pos.to_move == Seat.EAST
        assert pos.tricks_left == 3
        assert pos.trick_cards == cards("D3 H3")
        assert pos.legal_cards == cards("SQ S3 H4")
        pos.play("S3")
        # South, void in diamonds too, discards
        assert pos.to_move == Seat.SOUTH
        assert pos.play("H6") == Seat.EAST   # E's ruff S3 wins
        assert pos.tricks_won == (0, 1)
        assert pos.tricks_left == 2

    def test_input_forms_agree(self):
        text = "N:AK... Q3.4.. J.65.. 4.7.."
        forms = [
            text,
            "E:Q3.4.. J.65.. 4.7.. AK...",
            [Hand.from_pbn(h) for h in text[2:].split()],
            text[2:].split(),
            [Hand.from_pbn(h).mask for h in text[2:].split()],
            {Seat(i): h for i, h in enumerate(text[2:].split())},
            {"NESW"[i]: h for i, h in enumerate(text[2:].split())},
        ]
        ref = Position.from_remaining(text, Strain.SPADES, Seat.WEST, cards("D3 H3"))
        for f in forms:
            pos = Position.from_remaining(f, Strain.SPADES, Seat.WEST, ["D3", "H3"])
            assert state(pos) == state(ref)

    def test_trump_and_leader_as_text(self):
        pos = Position.from_remaining("N:A... K... Q... J...", "NT", "E")
        assert pos.trump == Strain.NOTRUMP and pos.leader == Seat.EAST

    def test_finished_position(self):
        pos = Position.from_remaining("N:... ... ... ...", Strain.NOTRUMP, Seat.NORTH)
        assert pos.is_finished and pos.tricks_left == 0 and pos.legal_cards == []


@pytest.mark.parametrize("rec", POSITIONS, ids=[f"pos{p['id']}" for p in POSITIONS])
def test_reference_positions_load_and_replay(rec):
    trump = Strain.from_str(rec["trump"])
    leader = Seat.from_str(rec["leader"])
    trick = [C(c) for c in rec["current_trick"]]
    expected_legal = [C(c) for c in rec["results"]]

    a = Position.from_remaining(rec["remaining_pbn"], trump, leader, rec["current_trick"])
    b = Position.from_remaining(rec["remaining"], trump, leader, trick)
    replay = Position(Deal.from_pbn(rec["deal"]), trump, Seat.from_str(rec["opening_leader"]))
    for c in rec["play"]:
        replay.play(c, seat=replay.to_move)

    for pos in (a, b, replay):
        assert pos.legal_cards == expected_legal
        assert pos.to_move == Seat.from_str(rec["to_move"])
        assert pos.leader == leader
        assert pos.trick_cards == trick
        assert pos.tricks_left == rec["tricks_left"]
        assert pos.masks() == a.masks()
        assert pos.trump == trump
    assert replay.tricks_won == (rec["tricks_won_so_far"]["NS"], rec["tricks_won_so_far"]["EW"])
    assert a.tricks_won == (0, 0)
    assert replay.played == [C(c) for c in rec["play"]]
    for seat in Seat:
        assert str(a.hand(seat)) == rec["remaining"][seat.letter]


# ---------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------


class TestPlayErrors:
    def setup_method(self):
        self.pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
        self.pos.play("H2")      # South must follow hearts (A86)

    def test_revoke(self):
        before = state(self.pos)
        with pytest.raises(RevokeError) as info:
            self.pos.play("S7")
        assert "S7" in str(info.value)
        assert isinstance(info.value, IllegalCardError) and isinstance(info.value, ValueError)
        assert state(self.pos) == before

    def test_card_not_held(self):
        before = state(self.pos)
        with pytest.raises(CardNotHeldError) as info:
            self.pos.play("HK")   # North's card
        assert "HK" in str(info.value)
        with pytest.raises(CardNotHeldError):
            self.pos.play("H2")   # already played
        assert state(self.pos) == before

    def test_out_of_turn(self):
        before = state(self.pos)
        with pytest.raises(OutOfTurnError):
            self.pos.play("H9", seat=Seat.WEST)   # West holds H9 but South is to play
        assert state(self.pos) == before
        self.pos.play("H6", seat=Seat.SOUTH)

    def test_seat_given_as_letter_or_number(self):
        """``seat`` may be a letter or 0..3 like everywhere else; anything else is a typed
        error and nothing is played."""
        before = state(self.pos)
        with pytest.raises(OutOfTurnError):
            self.pos.play("H9", seat="W")
        for bad, err in (("Q", BridgeError), (7, BridgeError), (True, TypeError),
                         (2.0, TypeError)):
            with pytest.raises(err):
                self.pos.play("H6", seat=bad)
        assert state(self.pos) == before
        self.pos.play("H6", seat="S")

    def test_play_after_the_end(self):
        pos = Position.from_remaining("N:A... K... Q... J...", Strain.NOTRUMP, Seat.NORTH)
        for c in ("SA", "SK", "SQ", "SJ"):
            pos.play(c)
        assert pos.is_finished and pos.tricks_won == (1, 0)
        with pytest.raises(OutOfTurnError):
            pos.play("SA")

    def test_bad_card_text(self):
        with pytest.raises(BridgeError):
            self.pos.play("Z9")


class TestPositionErrors:
    def test_wrong_hand_sizes(self):
        with pytest.raises(InvalidPositionError):
            Position.from_remaining("N:AK... Q... J... T...", Strain.NOTRUMP, Seat.NORTH)
        # one card in the trick: the leader and the played seats hold one card fewer
        with pytest.raises(InvalidPositionError):
            Position.from_remaining("N:A.K.. Q.2.. J.3.. T.4..", Strain.NOTRUMP, Seat.NORTH,
                                    ["S2"])
        with pytest.raises(InvalidPositionError):
            Position.from_remaining("N:A... Q... J... T...", Strain.NOTRUMP, Seat.NORTH,
                                    ["S2", "S3"])

    def test_the_hand_of_the_wrong_size_is_the_one_named(self):
        """The message named a seat by the leader's count: with West's lead in the trick
        and West still holding as many cards as the others, North was said to hold one
        card too few.  The seat named is the one that does not fit the other three."""
        cases = [("N:A... K... Q... J...", Seat.WEST, ["S2"], "West holds 1 card; expected 0"),
                 ("N:A2... K... Q... J...", Seat.NORTH, [], "North holds 2 cards; expected 1"),
                 ("N:... K... Q... ...", Seat.NORTH, ["S2"], "West holds 0 cards; expected 1"),
                 ("N:A... K... Q... J...", Seat.NORTH, ["S2"],
                  "North holds 1 card; expected 0")]
        for hands, leader, trick, said in cases:
            with pytest.raises(InvalidPositionError, match=said):
                Position.from_remaining(hands, Strain.SPADES, leader, trick)
        # two against two: no seat can be singled out, every count is given
        with pytest.raises(InvalidPositionError,
                           match="North holds 2, East 2, South 1, West 1"):
            Position.from_remaining("N:A2... K3... Q... J...", Strain.SPADES, Seat.NORTH)

    def test_fourteen_cards(self):
        # a 14-card hand (the other hands cannot match it without duplicates)
        big = sum(1 << (16 * 3 + r) for r in range(2, 15)) | (1 << (16 * 2 + 14))
        with pytest.raises(InvalidPositionError):
            Position.from_remaining([big, 0, 0, 0], Strain.NOTRUMP, Seat.NORTH)

    def test_revoke_inside_current_trick(self):
        # E led SK; South still holds a spade but the trick shows a heart from South
        with pytest.raises(InvalidPositionError) as info:
            Position.from_remaining("N:A.2.. .3.. 2... 3.4..", Strain.NOTRUMP, Seat.EAST,
                                    ["SK", "H9"])
        assert "H9" in str(info.value)

    def test_four_trick_cards(self):
        with pytest.raises(InvalidPositionError):
            Position.from_remaining("N:... ... ... ...", Strain.NOTRUMP, Seat.NORTH,
                                    ["S2", "S3", "S4", "S5"])

    def test_duplicate_card_between_hands(self):
        with pytest.raises(InvalidDealError):
            Position.from_remaining("N:A... A... Q... J...", Strain.NOTRUMP, Seat.NORTH)

    def test_duplicate_card_hand_and_trick(self):
        with pytest.raises(InvalidDealError):
            Position.from_remaining("N:A... K... Q... J...", Strain.NOTRUMP, Seat.WEST,
                                    ["SA"])

    def test_unknown_hand(self):
        with pytest.raises(InvalidPositionError):
            Position(Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 - - -"), Strain.NOTRUMP, Seat.EAST)

    def test_not_a_deal(self):
        with pytest.raises(InvalidPositionError):
            Position("N:AQ4.KJ5.Q963.KJ2", Strain.NOTRUMP, Seat.EAST)

    def test_three_hands(self):
        with pytest.raises(InvalidPositionError):
            Position.from_remaining(["A...", "K...", "Q..."], Strain.NOTRUMP, Seat.NORTH)

    def test_bad_trump_or_leader(self):
        with pytest.raises(InvalidPositionError):
            Position(SPEC, 7, Seat.EAST)
        with pytest.raises(InvalidPositionError):
            Position(SPEC, Strain.NOTRUMP, 9)


def test_play_rejects_a_non_card():
    from ddsolver.errors import InvalidNotationError
    deal = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
    pos = Position(Deal.from_pbn(deal), Strain.NOTRUMP, Seat.EAST)
    for bad in (None, 7, ("S", "A")):
        with pytest.raises(InvalidNotationError):
            pos.play(bad)
    assert len(pos.legal_cards) == 13


@pytest.mark.parametrize("hands, trick", [(None, ()), (42, ()), ([0, 0, 0, 0], None),
                                          ([0, 0, 0, 0], 7)])
def test_from_remaining_wrong_types_are_type_errors(hands, trick):
    with pytest.raises(TypeError, match="hands must be|current_trick must be"):
        Position.from_remaining(hands, Strain.NOTRUMP, Seat.NORTH, trick)


def test_from_remaining_names_the_long_hand_and_reads_a_trick_string():
    with pytest.raises(InvalidPositionError, match="North holds 14 cards"):
        Position.from_remaining(["AKQJT98765432.2..", "...", "...", "..."],
                                Strain.NOTRUMP, Seat.NORTH)
    pos = Position.from_remaining(["A...", "K...", "Q...", "..."], Strain.NOTRUMP,
                                  Seat.WEST, "SJ")
    assert [str(c) for c in pos.trick_cards] == ["SJ"]


def test_from_remaining_reads_numpy_masks():
    import numpy as np

    deal = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
    masks = np.array(deal.masks(), dtype=np.uint64)
    pos = Position.from_remaining(list(masks), Strain.NOTRUMP, Seat.EAST)
    assert pos.hand(Seat.NORTH) == deal.north
    with pytest.raises(InvalidPositionError, match="North holds 14 cards"):
        Position.from_remaining([np.uint64(int(deal.masks()[0]) | (1 << (16 * 3 + 3))),
                                 0, 0, 0], Strain.NOTRUMP, Seat.NORTH)


def test_hand_is_legal_and_trick_winner_read_their_arguments():
    from ddsolver.errors import InvalidNotationError

    deal = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
    pos = Position(deal, Strain.NOTRUMP, Seat.EAST)
    assert pos.hand("N") == pos.hand(0) == deal.north
    with pytest.raises(TypeError):
        pos.hand(True)
    with pytest.raises(InvalidNotationError):
        pos.hand(4)
    with pytest.raises(InvalidNotationError):
        pos.hand(-1)
    assert pos.is_legal("C3") and not pos.is_legal("SA")
    with pytest.raises(InvalidNotationError):
        pos.is_legal(None)
    assert trick_winner(["C2", "C3", "CA", "C5"], "N", "NT") == Seat.SOUTH
    assert trick_winner(["C2", "S3", "CA", "C5"], 0, Strain.SPADES) == Seat.EAST
    with pytest.raises(InvalidPositionError, match="differ"):
        trick_winner(["C2", "C2", "C3", "C4"], 0, 4)
    with pytest.raises(TypeError):
        trick_winner(["C2", "C3", "C4", "C5"], 1.0, 4)
    with pytest.raises(InvalidNotationError):
        trick_winner(["C2", "C3", "C4", "C5"], 0, 9)


def test_long_input_is_quoted_by_its_start_and_length():
    """Position.from_remaining and trick_winner put a 10 MB string whole into their
    messages."""
    long = "x" * 1_000_000
    for make in (lambda: Position.from_remaining("N:" + long, "S", "N"),
                 lambda: Position.from_remaining([long, 0, 0, 0], "S", "N"),
                 lambda: Position.from_remaining([[long], 0, 0, 0], "S", "N"),
                 lambda: trick_winner([long, "SA", "SK", "SQ"], "N", "S"),
                 lambda: trick_winner([[long], "SA", "SK", "SQ"], "N", "S")):
        with pytest.raises(BridgeError) as info:
            make()
        assert "characters)" in str(info.value) and len(str(info.value)) < 250
