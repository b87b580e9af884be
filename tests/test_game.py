"""Tests of ai.game: the board loop (play_board) and BoardResult."""

from __future__ import annotations

import random

import pytest
from table_players import Log, ScriptedPlayer, table
from table_players import check_card_by_card as _check_card_by_card

from ai.bidding import StandardAmerican
from ai.game import BoardResult, InvalidRecordError, Progress, pbn_note_text, play_board
from ai.players import Claim, SeatView
from ddsolver import read_pbn
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal, random_deals
from ddsolver.errors import IllegalCallError, IllegalCardError, InvalidDealError
from ddsolver.play import Position
from ddsolver.scoring import ns_score
from ddsolver.solver import solve_best
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


# ---------------------------------------------------------------------------------------
# The human's rules, claims, progress, saving, PBN
# ---------------------------------------------------------------------------------------

GRAND = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
                      "...AKQJT98765432")


@pytest.mark.parametrize("dealer,declarer", [("N", Seat.NORTH), ("S", Seat.SOUTH)])
def test_a_human_south_plays_both_hands_whoever_declares(dealer, declarer):
    # North declares (South is dummy) or South declares (North is dummy): either way the
    # human at South plays every North-South card, from declarer's view.
    players, log = table()
    r = play_board(DEAL, players, dealer, "None", human="S",
                   auction="1NT Pass 3NT Pass Pass Pass")
    assert r.declarer == declarer and len(r.play) == 52
    _check_card_by_card(r, log, human=Seat.SOUTH)
    ns_cards = [s for s, _ in r.play if s in (Seat.NORTH, Seat.SOUTH)]
    assert len(ns_cards) == 26
    assert not any(kind == "card" for name, kind, _, _ in log if name == "N")
    south_views = [v for name, kind, v, _ in log if name == "S" and kind == "card"]
    assert len(south_views) == 26 and {v.seat for v in south_views} == {declarer}
    # without the rule, North plays its own cards and South's as declarer
    players, log = table()
    r2 = play_board(DEAL, players, dealer, "None", auction="1NT Pass 3NT Pass Pass Pass")
    _check_card_by_card(r2, log)
    assert {name for name, kind, _, _ in log if kind == "card"} == {"N", "E", "S", "W"} - \
        {declarer.partner.letter}


def test_a_human_defender_plays_only_its_own_cards():
    players, log = table()
    r = play_board(DEAL, players, "E", "None", human="S",
                   auction="1NT Pass 3NT Pass Pass Pass")       # East declares
    assert r.declarer == Seat.EAST
    _check_card_by_card(r, log, human=Seat.SOUTH)
    assert [v.seat for name, kind, v, _ in log if name == "S" and kind == "card"] == \
        [Seat.SOUTH] * 13


def test_four_passes_pass_the_board_out():
    players, _ = table()
    events = []
    r = play_board(DEAL, players, "E", "All", human="S", auction=None,
                   progress=Progress(tuple(Call.from_str("Pass") for _ in range(3))),
                   observer=events.append)
    # North (the only seat left to call) opens 1NT: not passed out ...
    assert str(r.calls[3]) == "1NT"
    p = play_board(DEAL, players, "N", "All", auction="Pass Pass Pass Pass")
    assert p.passed_out and p.score == 0 and p.tricks == 0 and p.play == ()
    assert p.result_text == "Pass"


def test_claims_are_checked_double_dummy_on_the_real_deal():
    # The spec's deal: 3NT by North, East leads; double dummy N-S take 10 tricks.
    pos = Position(DEAL, trump=Auction.from_str("N", "1NT Pass 3NT Pass Pass Pass")
                   .contract.strain, leader=Seat.EAST)
    assert solve_best(pos) == 3                    # East-West's tricks on lead
    log = Log()
    east = ScriptedPlayer("E", log, claims={0: 4})  # 4 tricks for E-W: does not hold
    players, _ = table(log, E=east)
    events = []

    class Twice(ScriptedPlayer):
        def card(self, view):
            return Claim(4)

    with pytest.raises(IllegalCardError, match="claimed again"):
        play_board(DEAL, {**players, "E": Twice("E", log)}, "N", "None",
                   auction="1NT Pass 3NT Pass Pass Pass", observer=events.append)
    assert [e.kind for e in events] == ["claim_refused"]
    events.clear()
    log = Log()
    east = ScriptedPlayer("E", log, claims={0: 4})
    players, _ = table(log, E=east)
    r = play_board(DEAL, players, "N", "None", auction="1NT Pass 3NT Pass Pass Pass",
                   observer=events.append)
    assert events[0].kind == "claim_refused" and events[0].tricks == 4
    assert events[0].seat == Seat.EAST and r.claim is None and len(r.play) == 52
    # a claim of 3 holds: the board ends at once, 3NT made exactly
    log = Log()
    players, _ = table(log, E=ScriptedPlayer("E", log, claims={0: 3}))
    events.clear()
    r = play_board(DEAL, players, "N", "None", auction="1NT Pass 3NT Pass Pass Pass",
                   observer=events.append)
    assert [e.kind for e in events] == ["claim"]
    assert r.claim == (Seat.EAST, 3) and r.play == () and r.tricks == 10
    assert r.score == 430 and r.result_text == "3NTN+1"


def test_claims_by_declarer_for_dummy_and_by_the_human():
    # Every suit in one hand: 7S by North; North (for dummy) claims all 13 after the lead;
    # East's claim of one trick on lead is refused.
    log = Log()
    east = ScriptedPlayer("E", log, claims={0: 1})
    south = ScriptedPlayer("S", log, claims={1: 13})   # the human, for dummy South
    players, _ = table(log, E=east, S=south)
    r = play_board(GRAND, players, "N", "None", human="S",
                   auction="7S Pass Pass Pass")
    assert r.claim == (Seat.NORTH, 13) and len(r.play) == 1 and r.tricks == 13
    assert r.score == 1510
    claims = [(n, v.seat, v.to_play, a) for n, k, v, a in log if k == "claim"]
    assert claims == [("E", Seat.EAST, Seat.EAST, Claim(1)),
                      ("S", Seat.NORTH, Seat.SOUTH, Claim(13))]
    with pytest.raises(ValueError):
        Claim(14)
    with pytest.raises(ValueError):
        Claim(-1)
    log = Log()
    players, _ = table(log, E=ScriptedPlayer("E", log, claims={5: 13}))
    with pytest.raises(ValueError, match="12 left"):
        play_board(GRAND, players, "N", "None", auction="7S Pass Pass Pass")


def test_progress_resumes_a_board_and_events_carry_it():
    players, _ = table(seed=3)
    events = []
    full = play_board(DEAL, players, "N", "None", observer=events.append)
    assert [e.kind for e in events] == ["call"] * len(full.calls) + ["card"] * 52
    assert events[-1].progress == Progress(full.calls, full.play)
    winners = [e.trick_winner for e in events if e.trick_winner is not None]
    assert len(winners) == 13
    assert sum(w.side == full.declarer.side for w in winners) == full.tricks
    # stop after the 3rd call or the 20th card and go on: the same board
    for cut in (2, len(full.calls) + 20):
        players, _ = table(seed=3)
        resumed = play_board(DEAL, players, "N", "None", progress=events[cut].progress)
        assert resumed.calls == full.calls and resumed.play == full.play
        assert [e.text for e in resumed.explanations] == [e.text for e in full.explanations]
    bad = Progress(full.calls, ((Seat.NORTH, Card.from_str("S2")),))
    with pytest.raises(IllegalCardError):
        play_board(DEAL, players, "N", "None", progress=bad)
    with pytest.raises(ValueError, match="either"):
        play_board(DEAL, players, "N", "None", auction=full.auction, progress=bad)
    assert Progress.from_dict(events[30].progress.to_dict()) == events[30].progress
    with pytest.raises(InvalidRecordError):
        Progress.from_dict({"calls": ["1NT", "9Q"], "play": []})
    with pytest.raises(InvalidRecordError):
        Progress.from_dict({"calls": []})


def test_a_board_saves_and_loads_checked():
    players, _ = table(seed=5)
    r = play_board(DEAL, players, "N", "NS")
    d = r.to_dict()
    back = BoardResult.from_dict(d)
    assert back.to_dict() == d and back.calls == r.calls and back.play == r.play
    assert [e.text for e in back.explanations] == [e.text for e in r.explanations]
    import copy
    for breakage, match in [
            (lambda x: x.update(score=x["score"] + 10), "score"),
            (lambda x: x.update(tricks=x["tricks"] - 1), "tricks"),
            (lambda x: x["play"].pop(), "52"),
            (lambda x: x["play"].__setitem__(5, x["play"][6]), "illegal"),
            (lambda x: x["calls"].pop(), "finished"),
            (lambda x: x.pop("deal"), "deal"),
            (lambda x: x.update(deal="N:AKQ"), "unreadable|complete"),
            (lambda x: x.update(claim=["N", 14]), "claim")]:
        bad = copy.deepcopy(d)
        breakage(bad)
        with pytest.raises(InvalidRecordError, match=match):
            BoardResult.from_dict(bad)
    with pytest.raises(InvalidRecordError):
        BoardResult.from_dict([1, 2])


def _assert_round_trip(r: BoardResult, text: str):
    (g,) = read_pbn(text.encode("latin-1"))
    assert g.warnings == []
    assert g.deal == r.deal and g.dealer == r.dealer and g.vulnerability == r.vulnerability
    entries = list(g.auction)
    assert [e.call for e in entries] == list(r.calls)
    assert [e.note_text for e in entries] == [pbn_note_text(x.text) for x in r.explanations]
    assert [(p.seat, p.card) for p in g.play_sequence] == list(r.play)
    assert g.contract == r.contract and g.declarer == r.declarer
    assert g.result == (None if r.passed_out else r.tricks)
    assert g["Score"] == f"NS {r.score}"
    if r.contract is not None:
        assert ns_score(g.contract, g.result, g.vulnerability) == r.score
        g.check_play()


def test_pbn_round_trip_and_export_format():
    players, _ = table(seed=7)
    r = play_board(DEAL, players, "N", "None")
    text = r.to_pbn(board=1, event="Chicago", date="2024.03.01",
                    players={"S": "Ann", "N": "Computer"})
    _assert_round_trip(r, text)
    lines = text.split("\r\n")
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"] and text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    text.encode("latin-1")                                  # PBN's character set
    names = [ln[1:ln.index(" ")] for ln in lines if ln.startswith("[")]
    mts = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
           "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    assert names[:15] == mts
    assert lines[lines.index('[Auction "N"]') + 1].startswith("1NT =1= Pass =2= 2C =3=")
    assert '[Note "1:1NT opening; 15-17 HCP, balanced; non-forcing"]' in lines
    assert '[Deal "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 ' \
           'K82.Q93.KJ5.Q854"]' in lines
    play = lines[lines.index('[Play "E"]') + 1:]
    assert all(len(ln.split()) == 4 for ln in play[:13])     # one trick a line
    assert max(len(ln) for ln in lines) <= 255
    # a suit symbol in an explanation becomes its letter
    assert pbn_note_text("5+ ♠, 3+ ♥ – ok") == "5+ S, 3+ H - ok"


def test_pbn_round_trip_of_passed_out_and_claimed_boards():
    players, _ = table()
    p = play_board(DEAL, players, "N", "All", auction="Pass Pass Pass Pass")
    text = p.to_pbn(board=3)
    _assert_round_trip(p, text)
    assert '[Contract "Pass"]' in text and '[Score "NS 0"]' in text
    log = Log()
    players, _ = table(log, E=ScriptedPlayer("E", log, claims={8: 2}))
    r = play_board(DEAL, players, "N", "None", auction="1NT Pass 3NT Pass Pass Pass")
    assert r.claim is not None or len(r.play) == 52
    text = r.to_pbn()
    _assert_round_trip(r, text)
    if r.claim is not None:
        assert text.rstrip().endswith("*")
    # a Chicago board: its own scoring tag and points
    assert '[Score "NS 420"]' in r.to_pbn(scoring="Chicago", score=420)


def test_other_programs_read_the_pbn():
    endplay_pbn = pytest.importorskip(
        "endplay.parsers.pbn", reason="endplay is not installed (pip install -e '.[bench]')")
    players, _ = table(seed=11)
    r = play_board(DEAL, players, "N", "None")
    (board,) = endplay_pbn.loads(r.to_pbn(board=1))
    assert [str(c) for c in board.play] and len(board.play) == 52
    assert str(board.deal.to_pbn()) == r.deal.to_pbn()
    assert len(board.auction) == len(r.calls)
    assert board.contract.level == r.contract.level
    assert board.contract.result == r.tricks - r.contract.tricks_needed
