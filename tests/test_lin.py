"""Tests for ddsolver.lin: BBO hand records and vugraph files.

tests/data/bbo_robot_session_8.lin is a real BBO hand record (one human with robots, the
human's name replaced): 8 boards with alerts, explanations, full play and two claims.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddsolver.auction import Auction
from ddsolver.cards import Strain
from ddsolver.deal import Deal, random_deal
from ddsolver.errors import BridgeError, LINError
from ddsolver.lin import parse_lin, read_lin
from ddsolver.pbn import dumps_pbn, parse_pbn
from ddsolver.play import Position
from ddsolver.table import Seat, Vulnerability

DATA = Path(__file__).parent / "data"
SESSION = DATA / "bbo_robot_session_8.lin"
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
LIN_DIGIT = {S: "1", W: "2", N: "3", E: "4"}


@pytest.fixture(scope="module")
def session():
    return read_lin(SESSION)


def winner(trick, leader, trump):
    """Trick winner, written out here independently of ddsolver.play."""
    best = 0
    for i in range(1, 4):
        c, b = trick[i], trick[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif trump != Strain.NOTRUMP and c.suit == int(trump):
            best = i
    return leader.next(best)


def declarer_tricks(game):
    cards = [pc.card for pc in game.play_sequence]
    contract = game.contract
    leader = contract.declarer.lho
    won = 0
    for k in range(0, len(cards) - len(cards) % 4, 4):
        leader = winner(cards[k:k + 4], leader, contract.strain)
        won += leader.side == contract.declarer.side
    return won


# --------------------------------------------------------------------------------------
# The real hand record
# --------------------------------------------------------------------------------------

def test_session_has_8_boards_with_header_values(session):
    assert len(session) == 8
    assert [g.board for g in session] == list(range(1, 9))
    # md dealer digits 3,4,1,2,3,4,1,2 (1 = South, 2 = West, 3 = North, 4 = East)
    assert [g.dealer for g in session] == [N, E, S, W, N, E, S, W]
    # sv o, n, e, b, n, e, b, o
    assert [g.vulnerability for g in session] == [
        Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH,
        Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE]
    for g in session:
        assert (g.get("South"), g.get("West"), g.get("North"), g.get("East")) == (
            "player1", "~~M25054gn", "~~M2509087", "~~M25116nn")
        assert g.deal.is_complete()  # the omitted East hand is filled in
        assert g.warnings == []
        assert g.line == g.board  # one board per line
    assert [line for g in session for line in [g.line]] == list(range(1, 9))


def test_session_board_1_deal_auction_alerts(session):
    g = session[0]
    assert str(g.deal) == ("N:74.T8.K842.AQ743 JT832.J62.73.JT2 K.AKQ9754.96.K85 "
                           "AQ965.3.AQJT5.96")
    parsed = g.auction
    assert [(e.seat, str(e)) for e in parsed] == [
        (N, "Pass"), (E, "Pass"), (S, "1H"), (W, "2H"), (N, "Pass"), (E, "4S"), (S, "5H"),
        (W, "Pass"), (N, "Pass"), (E, "Pass")]
    assert [e.alert for e in parsed] == [False, False, False, True] + [False] * 6
    assert parsed[3].explanation == "Michaels -- 5+ !S; 9+ total points; forcing"
    assert parsed[5].explanation == "4+ !S; 11- HCP; 7-12 total points"
    assert sum(e.explanation is not None for e in parsed) == 4
    assert parsed.auction.is_finished
    assert str(g.contract) == "5HS" and g.declarer == S
    # explanations become numbered Note tags of the auction section
    assert g.notes[1] == (2, "Michaels -- 5+ !S; 9+ total points; forcing")
    assert g.tag("Auction").section[0] == "Pass Pass 1H =1= 2H =2="


def test_session_contracts_alerts_and_claims(session):
    assert [str(g.contract) for g in session] == [
        "5HS", "2SW", "2HS", "4HS", "3NTS", "3HS", "4SS", "3NTS"]
    alerted = {g.board: [str(e) for e in g.auction if e.alert] for g in session}
    assert alerted == {1: ["2H"], 2: [], 3: ["2D"], 4: [], 5: [], 6: [], 7: [], 8: ["3C"]}
    explained = [sum(e.explanation is not None for e in g.auction) for g in session]
    assert explained == [4, 4, 3, 3, 2, 4, 4, 6]
    assert session[2].auction[2].explanation == "Jacoby transfer -- 5+ !H"
    assert [g.claim for g in session] == [None, None, 9, None, None, None, 11, None]
    assert [len(g.play) for g in session] == [52, 52, 44, 52, 52, 52, 44, 52]


def test_session_play_is_legal_and_results_follow(session):
    for g in session:
        pos = g.check_play()  # every card held, in turn, following suit
        assert len(pos.played) == len(g.play)
        won = declarer_tricks(g)
        if g.claim is None:
            assert len(g.play) == 52 and g.result == won
        else:
            # the claim counts declarer's tricks so far plus some of the last two
            assert g.result == g.claim and won <= g.claim <= won + 2
    assert [g.result for g in session] == [12, 10, 9, 10, 10, 9, 11, 8]
    first = session[0].play_sequence
    assert [str(pc.card) for pc in first[:8]] == ["C9", "C3", "C2", "CK",
                                                  "HA", "H3", "H8", "H2"]
    assert [pc.seat for pc in first[:8]] == [W, N, E, S, S, W, N, E]
    assert session[0].play.first == W
    assert session[2].play.terminator == "*"


def test_session_round_trips_through_pbn(session):
    text = dumps_pbn(session)
    again = parse_pbn(text)
    assert again == session
    for a, b in zip(session, again):
        assert (a.deal, a.dealer, a.vulnerability, a.board) == (b.deal, b.dealer,
                                                                b.vulnerability, b.board)
        assert a.calls == b.calls
        assert [e.explanation for e in a.auction] == [e.explanation for e in b.auction]
        assert [pc.card for pc in a.play_sequence] == [pc.card for pc in b.play_sequence]
        assert (a.contract, a.result) == (b.contract, b.result)


def test_read_lin_accepts_text_bytes_and_files(session):
    text = SESSION.read_text()
    assert parse_lin(text) == session
    assert read_lin(text) == session
    assert read_lin(SESSION.read_bytes()) == session
    assert parse_lin(text.replace("\n", "\r\n")) == session
    with open(SESSION, "rb") as fh:
        assert read_lin(fh) == session
    # all boards on one line parse the same
    assert parse_lin(text.replace("\n", "")) == session
    assert parse_lin("") == [] and parse_lin("\n  \n") == []


# --------------------------------------------------------------------------------------
# Building LIN text
# --------------------------------------------------------------------------------------

def lin_hand(hand) -> str:
    out = []
    for suit in "SHDC":
        out.append(suit + "".join(str(c.rank) for c in sorted(
            (c for c in hand if c.suit.letter == suit), key=lambda c: c.rank)))
    return "".join(out)


def lin_md(deal: Deal, dealer: Seat, omit_east: bool = True) -> str:
    hands = [lin_hand(deal[s]) for s in (S, W, N, E)]
    if omit_east:
        hands[3] = ""
    return LIN_DIGIT[dealer] + ",".join(hands)


EXAMPLE = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 "
                        "K82.Q93.KJ5.Q854")


def test_md_with_four_hands_and_ten_written_as_10():
    md = lin_md(EXAMPLE, N, omit_east=False).replace("T", "10")
    g = parse_lin(f"md|{md}|sv|b|ah|Board 9|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|")[0]
    assert g.deal == EXAMPLE and g.board == 9 and g.vulnerability == Vulnerability.BOTH
    assert str(g.contract) == "3NTN" and g.play is None and g.result is None


def test_board_without_sv_uses_the_board_cycle():
    g = parse_lin(f"md|{lin_md(EXAMPLE, E)}|ah|Board 2|")[0]
    assert g.dealer == E and g.vulnerability == Vulnerability.NS


def test_the_board_number_of_the_header_is_the_one_after_board():
    """The header's first digits anywhere were the board number: 'Round 2 Board 17' was
    board 2, 'Board -3' board 3 (each with that board's dealer and vulnerability)."""
    md = lin_md(EXAMPLE, E)
    for header, number in [("Board 17", 17), ("Round 2 Board 17", 17), ("board  4", 4),
                           ("Bd 5", 5), ("12", 12), ("Board -3", None), ("Board 0", None)]:
        g = parse_lin(f"md|{md}|ah|{header}|")[0]
        assert g.board == number, header


def test_vugraph_file_rooms_names_results():
    md1 = lin_md(EXAMPLE, N)
    other = random_deal(7)
    md2 = lin_md(other, E)
    text = (
        "vg|Final,Segment 1,I,1,2,Lions,0,Tigers,0|\n"
        "rs|3NN=,3NN+1,4SE-2,PASS|\n"
        "pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||\n"
        f"qx|o1|st||md|{md1}|sv|o|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|"
        "pc|H2|pc|H6|pc|H9|pc|HJ|mc|10|pg||\n"
        f"qx|c1|st||md|{md1}|sv|o|mb|1N|mb|p|mb|3N!|an|to play|mb|p|mb|p|mb|p|pg||\n"
        f"qx|o2|md|{md2}|sv|n|pg||\n"
        f"qx|c2|md|{md2}|sv|n|mb|p|mb|p|mb|p|mb|p|pg||\n"
    )
    games = parse_lin(text)
    assert [(g.board, g.get("Room")) for g in games] == [
        (1, "Open"), (1, "Closed"), (2, "Open"), (2, "Closed")]
    assert games[0].get("South") == "s1" and games[1].get("South") == "s2"
    assert games[1].get("East") == "e2"
    for g in games:
        assert g.get("Event") == "Final" and g.get("Stage") == "Segment 1"
        assert g.get("Scoring") == "IMP"
        assert (g.get("HomeTeam"), g.get("VisitTeam")) == ("Lions", "Tigers")
    open1, closed1, open2, closed2 = games
    assert open1.claim == 10 and open1.result == 10 and len(open1.play) == 4
    assert open1.lin["rs"] == "3NN="
    assert closed1.auction[2].alert and closed1.auction[2].explanation == "to play"
    # no play in the record: contract and result come from the rs item
    assert closed1.lin["rs"] == "3NN+1" and closed1.result == 10
    assert str(open2.contract) == "4SE" and open2.result == 8 and open2.auction is None
    assert closed2.passed_out and closed2.contract is None
    assert open2.dealer == E and open2.deal == other
    assert parse_pbn(dumps_pbn(games)) == games


# --------------------------------------------------------------------------------------
# Malformed LIN
# --------------------------------------------------------------------------------------

GOOD_MD = lin_md(EXAMPLE, N)
BAD_LIN = {
    "not lin at all": ("this is not a LIN file", 1, 1, "not LIN"),
    "bad key": ("pn|a,b,c,d|xyz|1|", 1, 2, "not a LIN key"),
    "unclosed value": (f"md|{GOOD_MD}|mb|1N", 1, 2, "not closed"),
    "bad dealer digit": ("md|5SAK,,,|", 1, 1, "bad dealer digit"),
    "bad hand": ("md|3SZ,,,|", 1, 1, "bad hand"),
    "hand of 14 cards": (f"md|{GOOD_MD.replace('S', 'SA', 1)}|", 1, 1, "14 cards"),
    "card in two hands": (f"md|{GOOD_MD.replace('S79', 'S9A', 1)}|", 1, 1,
                          "card SA is dealt to two hands"),
    "card twice in a hand": ("md|3SAA,,,|", 1, 1, "card SA twice"),
    "bad call": (f"md|{GOOD_MD}|mb|8N|", 1, 2, "bad call"),
    "illegal call": (f"md|{GOOD_MD}|mb|1N|mb|1C|", 1, 3, "illegal call"),
    "call before deal": ("mb|p|", 1, 1, "before any deal"),
    "explanation before call": (f"md|{GOOD_MD}|an|what|", 1, 2, "before any call"),
    "bad vulnerability": (f"md|{GOOD_MD}|sv|q|", 1, 2, "bad vulnerability"),
    "bad card": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|pc|Z9|", 1, 6, "bad card"),
    "card not held": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|pc|SA|", 1, 6, "does not hold SA"),
    "revoke": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|pc|H2|pc|S7|", 1, 7, "revoke"),
    "card before the auction ends": (f"md|{GOOD_MD}|mb|1N|mb|p|pc|H2|", 1, 4,
                                     "no contract"),
    "bad claim": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|mc|14|", 1, 6, "bad claim"),
    # a second board without its deal: its calls followed the first board's cards
    "board without its deal": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|pc|H2|ah|Board 2|mb|p|",
                               1, 8, "a new board starts with its deal, 'md'"),
    # a digit to str.isdigit, not to int (it was a raw ValueError)
    "superscript claim": (f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|mc|²|", 1, 6, "bad claim"),
    "impossible claim": ((f"md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|pc|H2|pc|H6|pc|H9|pc|HJ|"
                         f"mc|0|"), 2, 10, "impossible"),
}


@pytest.mark.parametrize("case", sorted(BAD_LIN))
def test_malformed_lin_names_line_and_item(case):
    text, line, item, fragment = BAD_LIN[case]
    if case == "impossible claim":
        text = text.replace("pc|HJ|", "pc|HJ|\n")  # the claim on line 2
    with pytest.raises(LINError) as info:
        parse_lin(text)
    message = str(info.value)
    assert f"line {line}," in message, message
    assert f"item {item} " in message, message
    assert fragment in message, message
    assert isinstance(info.value, BridgeError)


def test_error_in_the_real_file_names_its_line(tmp_path):
    lines = SESSION.read_text().splitlines()
    lines[4] = lines[4].replace("pc|DJ|", "pc|DX|", 1)  # board 5
    path = tmp_path / "bad.lin"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LINError, match=r"bad\.lin, line 5, item \d+ \('pc' 'DX'\): bad card"):
        read_lin(path)


# --------------------------------------------------------------------------------------
# Property test: random boards written as LIN and read back
# --------------------------------------------------------------------------------------

@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), board=st.integers(1, 99), n_cards=st.integers(0, 52),
       claim=st.booleans())
def test_random_lin_boards(seed, board, n_cards, claim):
    rng = random.Random(seed)
    deal = random_deal(rng)
    dealer = Seat(rng.randrange(4))
    vul = Vulnerability(rng.randrange(4))
    auction = Auction(dealer)
    items = [f"pn|a,b,c,d|md|{lin_md(deal, dealer, omit_east=rng.random() < 0.5)}|",
             f"sv|{'onEb'[vul].lower()}|ah|Board {board}|"]
    explained = []
    while not auction.is_finished:
        legal = auction.legal_calls()
        call = legal[0] if rng.random() < 0.6 else rng.choice(legal)
        auction.add(call)
        alert = rng.random() < 0.2
        text = "p" if call.is_pass else "d" if call.is_double else "r" if call.is_redouble \
            else f"{call.level}{'N' if call.strain == Strain.NOTRUMP else call.strain.letter}"
        items.append(f"mb|{text}{'!' if alert else ''}|")
        if alert:
            items.append(f"an|meaning {len(explained)}|")
            explained.append(f"meaning {len(explained)}")
    cards = []
    if not auction.is_passed_out:
        contract = auction.contract
        pos = Position(deal, contract.strain, contract.declarer.lho)
        while len(cards) < n_cards:
            card = rng.choice(pos.legal_cards)
            pos.play(card)
            cards.append(card)
            items.append(f"pc|{card}|")
            if len(cards) % 4 == 0:
                items.append("pg||")
        won = pos.tricks_won[contract.declarer.side]
        if claim and len(cards) < 52:
            total = won + rng.randrange(0, 13 - len(cards) // 4 + 1)
            items.append(f"mc|{total}|")
    games = parse_lin("".join(items))
    assert len(games) == 1
    g = games[0]
    assert g.deal == deal and g.dealer == dealer and g.vulnerability == vul
    assert g.board == board and g.get("North") == "c"
    assert g.auction.auction == auction
    assert [e.explanation for e in g.auction if e.explanation] == explained
    assert [e.alert for e in g.auction].count(True) == len(explained)
    if cards:
        assert [pc.card for pc in g.play_sequence] == cards
        assert g.check_play().played == cards
    if claim and cards and len(cards) < 52:
        assert g.result == g.claim == total
    elif len(cards) == 52:
        assert g.result == won
    again = parse_pbn(dumps_pbn(g))[0]
    assert again == g and again.calls == list(auction.calls)
    assert [pc.card for pc in again.play_sequence] == [pc.card for pc in g.play_sequence]


def test_bad_deal_names_the_file_and_board_once():
    with pytest.raises(LINError) as info:
        parse_lin("pn|a,b,c,d|md|3SAKQ,HAK,|rh||ah|Board 1|sv|o|", source="broken.lin")
    msg = str(info.value)
    assert msg.count("broken.lin") == 1 and msg.count("board 1") == 1, msg
    assert "different numbers of cards" in msg


_LONG_LIN = ("qx|o{qx}|md|3SAKQJHT98D765C432,ST987H654D432CAKQ,S654H32DAKQJCJT98,|"
             "ah|Board {ah}|sv|0|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|mc|{mc}|")


@pytest.mark.parametrize("digits", ["9" * 5000, "0" * 4999 + "9"], ids=["nines", "zeros"])
@pytest.mark.parametrize("field", ["qx", "ah", "mc"])
def test_a_number_of_thousands_of_digits_is_a_lin_error_or_read(field, digits):
    # int() refuses strings of more than 4,300 digits with a plain ValueError.
    values = dict({"qx": "1", "ah": "1", "mc": "9"}, **{field: digits})
    text = _LONG_LIN.format(**values)
    if digits[0] == "9" and field != "ah":
        with pytest.raises(LINError, match=rf"item \d+ \('{field}'.*bad"):
            parse_lin(text)
        return
    game = parse_lin(text)[0]
    assert game.board == (9 if field == "qx" else 1)
    assert game.result == 9


def test_a_vugraph_first_board_that_is_no_number_is_ignored():
    # vg's first board number '²' (a digit to str.isdigit, not to int) was a raw ValueError;
    # like any other board number that cannot be read, it gives no result string
    text = (f"vg|t,s,I,²,2,A,,B,|rs|1NN=,1NN=,|qx|o1|md|{GOOD_MD}|mb|1N|mb|p|mb|p|mb|p|")
    games = parse_lin(text)
    assert len(games) == 1 and games[0].get("Result") in (None, "")


def test_a_long_bad_hand_is_quoted_by_its_start_and_length():
    """A bad LIN hand of 10 MB was put whole into the LINError."""
    with pytest.raises(LINError) as info:
        parse_lin("md|1" + "x" * 1_000_000 + ",,,|")
    message = str(info.value)
    assert "bad hand 'xxx" in message and "'... (1,000,000 characters)" in message
    assert len(message) < 400


def test_a_long_run_of_spaces_in_the_board_header_is_read_in_linear_time():
    """An 'ah' item 'bd' followed by 20,000 spaces took seconds (quadratic: the engine tried
    every split of the run between the two \\s* of the board-number pattern)."""
    import time

    start = time.perf_counter()
    games = parse_lin("ah|bd" + " " * 20_000 + "x 12|md|3SAKQJT98765432,,,|")
    assert games[0].board == 12
    assert time.perf_counter() - start < 1.0
