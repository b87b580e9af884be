"""Tests of ai.cardplay on hand-made positions: the card chosen, whatever the layout.

Endings are built by :func:`ending`: the hands of the last tricks are written out, and the
earlier tricks are made of the other cards, four of one suit per trick (everyone follows),
so that the view shows exactly the ending and the cards played.  Every claim a test makes
about "every layout" is checked by enumerating the layouts with the solver.
"""

from __future__ import annotations

import itertools
import random

import pytest

import ai.cardplay as cardplay
from ai.cardplay import CardPlayer, PlaySettings
from ai.game import view_of
from ai.players import InvalidViewError
from ai.sampling import SamplingError, sample_deals
from ddsolver.cards import FULL_DECK_MASK, Card, Suit, cards_of_mask
from ddsolver.deal import Deal, Hand
from ddsolver.play import Position, trick_winner
from ddsolver.solver import Solver
from ddsolver.table import Seat

SEATS = "NESW"


def _cards(text: str):
    return [Card.from_str(c) for c in text.split()]


def ending(hands: dict, auction: str, dealer: str, final_leader: str, extra=()):
    """A deal and its play up to the ending.

    :param hands: seat letter -> the cards (space separated) it holds in the ending.
    :param auction: the auction (its declarer's LHO leads trick 1).
    :param final_leader: the seat that wins the last trick before the ending.
    :param extra: hand-written tricks played after the automatic ones: each a dict seat
        letter -> card, played from that trick's leader on.
    :returns: (deal, played, trump).
    """
    from ddsolver.auction import Auction
    auc = Auction.from_str(Seat.coerce(dealer), auction)
    trump = auc.contract.strain
    held = {s: set(_cards(hands[s])) for s in SEATS}
    used = set().union(*held.values())
    for t in extra:
        used |= {Card.from_str(c) for c in t.values()}
    rest = [c for c in cards_of_mask(FULL_DECK_MASK) if c not in used]
    by_suit = {}
    for c in rest:
        by_suit.setdefault(c.suit, []).append(c)
    tricks = []
    others = [s for s in SEATS if s != final_leader]
    for suit in sorted(by_suit, reverse=True):
        cards = sorted(by_suit[suit], key=lambda c: -c.rank)
        assert len(cards) % 4 == 0, f"{suit}: {len(cards)} cards left for the early tricks"
        for i in range(0, len(cards), 4):
            group = cards[i:i + 4]
            t = {final_leader: group[0]}
            for s, c in zip(others, group[1:]):
                t[s] = c
            tricks.append(t)
    for t in extra:
        tricks.append({s: Card.from_str(c) for s, c in t.items()})
    for t in tricks:
        for s, c in t.items():
            held[s].add(c)
    deal = Deal([Hand(list(held[s])) for s in SEATS])
    pos = Position(deal, trump=trump, leader=auc.declarer.lho)
    played = []
    for t in tricks:
        for _ in range(4):
            seat = pos.to_move
            card = t[seat.letter]
            pos.play(card)
            played.append((seat, card))
    return deal, auc, played


def _view(deal, auc, played, seat):
    return view_of(deal, Seat.coerce(seat), dealer=auc.dealer, vulnerability="None",
                   calls=tuple(auc.calls), played=played)


def every_layout(view):
    """Every deal consistent with ``view`` (the two hidden hands' remaining cards split in
    every way that respects the voids shown)."""
    hidden = view.hidden_seats
    assert len(hidden) == 2
    a, b = hidden
    unseen = list(view.unseen_cards)
    need_a = view.cards_held(a)
    out = []
    for pick in itertools.combinations(unseen, need_a):
        ha = set(pick)
        hb = set(unseen) - ha
        if any(c.suit in view.voids[a] for c in ha) or any(c.suit in view.voids[b] for c in hb):
            continue
        hands = {s: set(view.known_cards(s)) for s in Seat}
        hands[a] |= ha
        hands[b] |= hb
        out.append(Deal([Hand(list(hands[s])) for s in Seat]))
    return out


def _tricks_by_card(view, deal, solver):
    values = solver.solve(cardplay.position_in(view, deal))
    return values


def _player(**kw):
    base = dict(samples=12, lead_samples=6, min_samples=12, threads=1, time_budget=60.0,
                memory_mb=16)
    base.update(kw)
    return CardPlayer(PlaySettings(**base))


# -- a card that loses in every layout; cashing the obvious tricks ---------------------------
CASH = {"S": "SA SK SQ H2", "N": "S3 S2 D3 D2", "W": "HA HK DA C2", "E": "HQ HJ DK DQ"}


def test_never_a_card_that_loses_in_every_layout_and_the_winners_are_cashed():
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    assert view.to_play == Seat.SOUTH and len(view.played) == 36
    layouts = every_layout(view)
    assert len(layouts) == 70        # 8 unseen cards, 4 each, no void shown
    solver = Solver(memory_mb=16)
    h2 = Card.from_str("H2")
    for d in layouts:
        v = _tricks_by_card(view, d, solver)
        assert v[h2] == 0 and all(v[c] == 3 for c in view.legal_cards if c != h2)
    for seed in range(5):
        choice = _player().choose(view, random.Random(seed))
        assert choice.card != h2 and choice.card.suit == Suit.SPADES
        assert choice.card == Card.from_str("SQ")          # the lowest of equal winners
    # played out by the computer (declarer and dummy) against double-dummy defenders,
    # declarer takes its three spades
    pos = Position(deal, trump=auc.contract.strain, leader=auc.declarer.lho)
    for _, card in played:
        pos.play(card)
    player = _player()
    cards = list(played)
    won = 0
    for _ in range(16):
        seat = pos.to_move
        if seat.side == Seat.SOUTH.side:
            card = player.choose(_view(deal, auc, cards, "S"), random.Random(len(cards))).card
        else:
            values = solver.solve(pos)
            card = max(values, key=lambda c: values[c])
        pos.play(card)
        cards.append((seat, card))
        if len(cards) % 4 == 0:
            won += trick_winner([c for _, c in cards[-4:]], cards[-4][0],
                                auc.contract.strain).side == Seat.SOUTH.side
    assert won == 3


# -- no ruffing partner's sure winner ----------------------------------------------------------
RUFF = {"S": "H9 D5 D4 D3", "N": "HT H8 H7 C2", "W": "HA CA CK D9", "E": "S2 C4 C3 D2"}


def test_no_ruff_of_partners_sure_winner():
    # South declares 4S; the ending: South leads H9, West wins with HA, dummy follows;
    # East (void in hearts) must not ruff partner's ace with its last trump
    deal, auc, played = ending(RUFF, "1S Pass 4S Pass Pass Pass", "S", "S")
    trick = [(Seat.SOUTH, Card.from_str("H9")), (Seat.WEST, Card.from_str("HA")),
             (Seat.NORTH, Card.from_str("H7"))]
    view = _view(deal, auc, played + trick, "E")
    assert view.to_play == Seat.EAST
    assert Card.from_str("S2") in view.legal_cards
    for seed in range(4):
        choice = _player().choose(view, random.Random(seed))
        assert choice.card != Card.from_str("S2"), choice
    # the ruff never gains, and costs a trick in some layouts
    solver = Solver(memory_mb=16)
    costs = 0
    for d in every_layout(view):
        v = _tricks_by_card(view, d, solver)
        assert v[Card.from_str("S2")] <= max(v.values())
        costs += v[Card.from_str("S2")] < max(v.values())
    assert costs > 0
    # where every card does equally well in every layout, the tie-break still does not
    # ruff partner's winner (S2 would otherwise win the tie as a lowest card)
    legal = view.legal_cards
    assert Card.from_str("S2") in legal
    equal = [tuple(9 for _ in legal)] * 3
    pick = _player()._pick(view, legal, equal, [1.0] * 3, 0.0, False, "searched")
    assert pick.card != Card.from_str("S2") and pick.card.rank == 2


# -- a forced card; equivalent cards --------------------------------------------------------
def test_forced_and_equivalent_cards_are_played_without_search():
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    trick = [(Seat.SOUTH, Card.from_str("SA")), (Seat.WEST, Card.from_str("C2"))]
    view = _view(deal, auc, played + trick, "S")         # dummy to play: S3 or S2
    assert view.to_play == Seat.NORTH and set(view.legal_cards) == set(_cards("S3 S2"))
    choice = _player().choose(view, random.Random(1))
    assert choice.reason == "equivalent" and choice.samples == 0
    assert choice.card == Card.from_str("S2")
    # nothing to play in West's view when South is to lead
    trick = [(Seat.SOUTH, Card.from_str("SA")), (Seat.WEST, Card.from_str("C2")),
             (Seat.NORTH, Card.from_str("S2")), (Seat.EAST, Card.from_str("HJ"))]
    view = _view(deal, auc, played + trick, "W")
    assert view.to_play is Seat.SOUTH and view.legal_cards == ()
    with pytest.raises(InvalidViewError):
        _player().choose(view, random.Random(1))
    # a single legal card: North with S3 left on a spade lead
    t2 = trick + [(Seat.SOUTH, Card.from_str("SK")), (Seat.WEST, Card.from_str("DA"))]
    view = _view(deal, auc, played + t2, "S")
    assert view.to_play == Seat.NORTH and view.legal_cards == (Card.from_str("S3"),)
    choice = _player().choose(view, random.Random(1))
    assert choice.reason == "forced" and choice.card == Card.from_str("S3")


# -- an overtake that unblocks is not "equivalent cards" -------------------------------------
UNBLOCK = {"S": "DQ H4 H3 H2", "N": "DA D6 SA SK", "W": "D4 SQ HA C2", "E": "D5 SJ ST HK"}


def test_an_unblocking_overtake_is_not_taken_for_equivalent_cards():
    # South leads DQ, West follows low; dummy must overtake with the ace to cash its
    # spades (and the D6 then wins too): the low diamond loses in every layout
    deal, auc, played = ending(UNBLOCK, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    trick = [(Seat.SOUTH, Card.from_str("DQ")), (Seat.WEST, Card.from_str("D4"))]
    view = _view(deal, auc, played + trick, "S")
    assert view.to_play == Seat.NORTH and set(view.legal_cards) == set(_cards("DA D6"))
    solver = Solver(memory_mb=16)
    for d in every_layout(view):
        v = _tricks_by_card(view, d, solver)
        assert v[Card.from_str("DA")] == 4 and v[Card.from_str("D6")] < 4
    assert not cardplay._equivalent_cards(view)
    choice = _player().choose(view, random.Random(2))
    assert choice.card == Card.from_str("DA") and choice.reason != "equivalent"


# -- after an opponent shows out, no layout gives them that suit; the finesse is taken -------
# West showed out of clubs twice (it discarded H6 and H5); East holds every club left, so on
# North's C2 and East's C4 South must finesse the queen
FINESSE = {"S": "CA CQ S2", "N": "C3 C2 D2", "E": "CK C5 C4", "W": "H4 H3 H2"}
SHOW_OUT = [{"N": "C9", "E": "C7", "S": "C8", "W": "H6"},
            {"N": "CJ", "E": "C6", "S": "CT", "W": "H5"}]


def test_after_a_show_out_the_finesse_is_taken_in_every_layout_used(monkeypatch):
    deal, auc, played = ending(FINESSE, "1NT Pass 3NT Pass Pass Pass", "S", "N", SHOW_OUT)
    assert trick_winner([c for _, c in played[-4:]], played[-4][0],
                        auc.contract.strain) == Seat.NORTH
    trick = [(Seat.NORTH, Card.from_str("C2")), (Seat.EAST, Card.from_str("C4"))]
    view = _view(deal, auc, played + trick, "S")
    assert view.to_play == Seat.SOUTH and Suit.CLUBS in view.voids[Seat.WEST]
    solver = Solver(memory_mb=16)
    for d in every_layout(view):
        v = _tricks_by_card(view, d, solver)
        assert v[Card.from_str("CQ")] > v[Card.from_str("CA")]
    seen = []
    real = cardplay.sample_deals

    def spy(*args, **kw):
        s = real(*args, **kw)
        seen.extend(s.deals)
        return s

    monkeypatch.setattr(cardplay, "sample_deals", spy)
    for seed in range(3):
        choice = _player().choose(view, random.Random(seed))
        assert choice.card == Card.from_str("CQ"), choice
    assert seen
    for d in seen:
        left = d.west.mask & ~sum(c.bit for s, c in view.played if s == Seat.WEST)
        assert not (left >> (16 * int(Suit.CLUBS))) & 0xFFFF
        assert Card.from_str("CK") in d.east


# -- the utility: the contract first at IMPs, every trick at matchpoints ----------------------
def test_the_utility_weighs_the_contract_at_imps():
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    legal = view.legal_cards[:2]
    # card 0 makes 3NT exactly in every layout; card 1 makes an overtrick three times in
    # four and goes one down once: more tricks on average, a worse IMP expectation
    tricks = [(9, 10), (9, 10), (9, 10), (9, 8)]
    weights = [1.0] * 4
    imp = CardPlayer(PlaySettings(threads=1))
    trk = CardPlayer(PlaySettings(threads=1, utility="tricks"))
    a = imp._pick(view, legal, tricks, weights, 0.0, False, "searched")
    b = trk._pick(view, legal, tricks, weights, 0.0, False, "searched")
    assert a.card == legal[0] and b.card == legal[1]
    # 3NT: 400 against 430 costs 1 IMP in three layouts; -50 against 400 costs 10 in one
    assert a.utility == pytest.approx((-0.75, -2.5))
    mp = view_of(deal, Seat.SOUTH, dealer=auc.dealer, vulnerability="None",
                 calls=tuple(auc.calls), played=played, scoring="MP")
    c = imp._pick(mp, legal, tricks, weights, 0.0, False, "searched")
    assert c.card == legal[1] and c.utility == pytest.approx((9.0, 9.5))


def test_declarer_risk_adds_the_tail_loss():
    """With ``declarer_risk`` r, a declarer's card's utility is its mean IMPs plus r times
    the mean tricks it loses (against the layout's best card) over the worst
    ``risk_share`` of the layouts; a defender's utilities are unchanged."""
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    legal = view.legal_cards[:2]
    # 3NT: card 0 takes 10 tricks where card 1 takes 11 (three layouts), and 11 where
    # card 1 takes 9 (one layout): card 1 has the better mean, and the bigger tail loss
    tricks = [(10, 11), (10, 11), (10, 11), (11, 9)]
    weights = [1.0] * 4

    def pick(v, cards, **kw):
        return CardPlayer(PlaySettings(threads=1, **kw))._pick(v, cards, tricks, weights,
                                                               0.0, False, "searched")

    plain = pick(view, legal)
    # IMPs: 430 against 460 (-1) in three layouts; 400 against 460 (-2) in one
    assert plain.utility == pytest.approx((-0.75, -0.5)) and plain.card == legal[1]
    # the worst quarter of the layouts: card 0 loses 1 trick there, card 1 loses 2
    risky = pick(view, legal, declarer_risk=0.5)
    assert risky.utility == pytest.approx((-0.75 - 0.5, -0.5 - 1.0))
    assert risky.card == legal[0]
    # the worst half: card 0 loses 1 and 1, card 1 loses 2 and 0
    half = pick(view, legal, declarer_risk=0.5, risk_share=0.5)
    assert half.utility == pytest.approx((-0.75 - 0.5, -0.5 - 0.5))
    # West (a defender) to lead: the same tricks are declarer's; no tail term
    wdeal, wauc, wplayed = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "W")
    west = _view(wdeal, wauc, wplayed, "W")
    assert west.to_play == Seat.WEST
    wlegal = west.legal_cards[:2]
    assert pick(west, wlegal, declarer_risk=0.5).utility == pick(west, wlegal).utility
    for bad in ({"declarer_risk": -0.1}, {"risk_share": 0.0}, {"risk_share": 1.5},
                {"declarer_risk": float("inf")}, {"risk_share": True}):
        with pytest.raises(ValueError):
            PlaySettings(**bad)


def test_declarer_trick_weight_counts_every_trick_more():
    """With ``declarer_trick_weight`` w, a declarer's result in a layout at IMPs is its IMPs
    plus w times the tricks it loses against the layout's best card; defenders unchanged."""
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    legal = view.legal_cards[:2]
    # 3NT: card 0 makes exactly 9 everywhere; card 1 makes 10 in three layouts, 8 in one
    tricks = [(9, 10), (9, 10), (9, 10), (9, 8)]
    weights = [1.0] * 4

    def pick(v, cards, **kw):
        return CardPlayer(PlaySettings(threads=1, **kw))._pick(v, cards, tricks, weights,
                                                               0.0, False, "searched")

    plain = pick(view, legal)
    assert plain.utility == pytest.approx((-0.75, -2.5)) and plain.card == legal[0]
    # w = 2: card 0 also loses a trick in three layouts (-0.75 - 1.5); card 1 loses one
    # trick (and 10 IMPs) in one layout (-2.5 - 0.5)
    two = pick(view, legal, declarer_trick_weight=2.0)
    assert two.utility == pytest.approx((-2.25, -3.0)) and two.card == legal[0]
    four = pick(view, legal, declarer_trick_weight=4.0)
    assert four.utility == pytest.approx((-3.75, -3.5)) and four.card == legal[1]
    # the early stop judges the same utility
    imp_rows = CardPlayer(PlaySettings(threads=1, declarer_trick_weight=4.0))._utilities(
        view, tricks)
    assert imp_rows[3] == pytest.approx([0.0, -10.0 - 4.0])
    wdeal, wauc, wplayed = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "W")
    west = _view(wdeal, wauc, wplayed, "W")
    wlegal = west.legal_cards[:2]
    assert pick(west, wlegal, declarer_trick_weight=4.0).utility == pick(west, wlegal).utility
    for bad in (-1.0, float("nan"), True, "2"):
        with pytest.raises(ValueError):
            PlaySettings(declarer_trick_weight=bad)


def test_early_stop_when_one_card_is_clearly_best():
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    p = _player(samples=60, min_samples=8, early_stop=3.0, equal_stop=8)
    choice = p.choose(view, random.Random(4))
    assert choice.reason == "early" and choice.samples == 8
    assert choice.card == Card.from_str("SQ")
    full = _player(samples=60, min_samples=8).choose(view, random.Random(4))
    assert full.samples == 60 and full.card == choice.card


# -- bad input -----------------------------------------------------------------------------
def test_bad_input_gets_typed_errors():
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    p = _player()
    with pytest.raises(TypeError):
        p.choose(deal, random.Random(1))                  # a Deal is never accepted
    with pytest.raises(TypeError):
        p.choose(view, 3)
    with pytest.raises(InvalidViewError):                 # East's view: South is to play
        p.choose(_view(deal, auc, played, "E"), random.Random(1))
    with pytest.raises(InvalidViewError):                 # dummy's own view
        p.choose(_view(deal, auc, played, "N"), random.Random(1))
    for bad in ({"samples": -1}, {"samples": 0}, {"min_samples": 1.5}, {"time_budget": 0},
                {"time_budget": float("nan")}, {"threads": 0}, {"utility": "imps"},
                {"method": "magic"}, {"early_stop": -1}, {"equal_stop": -2},
                {"lead_time_budget": -1.0}, {"sampling": 5}, {"time_limit": 0},
                {"time_limit": float("inf")}, {"time_limit": True}):
        with pytest.raises(ValueError):
            PlaySettings(**bad)
    with pytest.raises(TypeError):
        CardPlayer({"samples": 3})
    with pytest.raises(SamplingError):
        sample_deals(view, -1, random.Random(1))


def test_untimed_settings_lift_every_clock():
    s = PlaySettings(method="auction", sampling={"play_seconds": 0.5, "play_weights": True},
                     time_budget=0.3, lead_time_budget=0.6, time_limit=2.0)
    u = s.untimed()
    assert u.time_budget is None and u.lead_time_budget is None and u.time_limit is None
    assert dict(u.sampling) == {"play_seconds": None, "play_weights": True,
                                "max_seconds": None, "bid_seconds": None}
    assert PlaySettings(method="uniform").untimed().sampling == ()


def test_the_weights_by_the_play_get_a_share_of_the_time_budget(monkeypatch):
    """The sampler's play checks are capped at PLAY_CHECK_SHARE of the decision's budget
    (unless ``play_seconds`` is set); untimed settings lift the cap."""
    from ai.bidding import StandardAmerican
    deal, auc, played = ending(CASH, "1NT Pass 3NT Pass Pass Pass", "S", "S")
    view = _view(deal, auc, played, "S")
    asked = []
    real = cardplay.sample_deals

    def spy(*args, **kw):
        asked.append(kw.get("play_seconds", "unset"))
        return real(*args, **kw)

    monkeypatch.setattr(cardplay, "sample_deals", spy)
    base = PlaySettings(method="auction", sampling={"play_weights": True}, samples=4,
                        min_samples=4, threads=1, memory_mb=16, time_budget=2.5)
    for settings in (base, base.with_(sampling={"play_weights": True, "play_seconds": 7.0}),
                     base.untimed(), base.with_(sampling={})):
        CardPlayer(settings, system=StandardAmerican()).choose(view, random.Random(1))
    assert asked == [pytest.approx(cardplay.PLAY_CHECK_SHARE * 2.5), 7.0, None, "unset"]


# -- the hard time limit ------------------------------------------------------------------
#: an opening lead against 3NT (three hidden hands: every layout costs a nearly full solve)
LEAD_DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 "
                          "K82.Q93.KJ5.Q854")


def _lead_view():
    from ddsolver.auction import Auction
    auc = Auction.from_str(Seat.NORTH, "1NT Pass 3NT Pass Pass Pass")
    return _view(LEAD_DEAL, auc, [], "E")


def test_the_time_limit_ends_a_decision_even_before_min_samples():
    """min_samples layouts are solved whatever the time budget, but not past the hard time
    limit: a decision asked for 400 layouts, all of them "always solved", stops soon
    after a 0.2 s limit (400 opening-lead layouts take seconds)."""
    view = _lead_view()
    p = _player(samples=400, lead_samples=400, min_samples=400, time_budget=None,
                time_limit=0.2)
    choice = p.choose(view, random.Random(3))
    assert choice.reason == "budget"
    assert cardplay.CHUNK <= choice.samples < 400
    assert choice.seconds < 5.0
    assert choice.card in view.legal_cards
    # without the limit every one of them is solved (fewer here, to keep the test short)
    full = _player(samples=24, lead_samples=24, min_samples=24, time_budget=0.01)
    assert full.choose(view, random.Random(3)).samples == 24


def test_the_time_limit_is_not_anticipated(monkeypatch):
    """Unlike the budget, the limit ends a decision only once it has passed, so that a
    decision that ends before it has its min_samples layouts: with a clock that moves 1 s
    each time it is read (start 0; 1, 2, 3 after each chunk), a 2.5 s limit lets three
    chunks be solved (a budget would have stopped after two: the third would end at 3 s)."""
    class Clock:
        now = 0.0

        @classmethod
        def perf_counter(cls):
            cls.now += 1.0
            return cls.now

    monkeypatch.setattr(cardplay, "time", Clock)
    view = _lead_view()
    n = 5 * cardplay.CHUNK
    choice = _player(samples=n, lead_samples=n, min_samples=n, time_budget=None,
                     time_limit=2.5).choose(view, random.Random(3))
    assert choice.reason == "budget" and choice.samples == 3 * cardplay.CHUNK


def test_a_time_limit_not_reached_changes_no_decision():
    """Under a time limit the first min_samples layouts are solved chunk by chunk instead
    of in one batch: the same layouts, the same tricks, the same card."""
    view = _lead_view()
    free = _player(samples=20, lead_samples=20, min_samples=20).choose(view, random.Random(9))
    timed = _player(samples=20, lead_samples=20, min_samples=20,
                    time_limit=600.0).choose(view, random.Random(9))
    assert free.samples == timed.samples == 20
    assert (timed.card, timed.tricks, timed.weights) == (free.card, free.tricks, free.weights)


def test_the_time_limit_caps_the_samplers_time(monkeypatch):
    from ai.bidding import StandardAmerican
    view = _lead_view()
    asked = []
    real = cardplay.sample_deals

    def spy(*args, **kw):
        asked.append(kw.get("max_seconds", "unset"))
        return real(*args, **kw)

    monkeypatch.setattr(cardplay, "sample_deals", spy)
    base = PlaySettings(method="auction", samples=4, lead_samples=4, min_samples=4,
                        threads=1, memory_mb=16)
    for settings in (base, base.with_(time_limit=3.0),
                     base.with_(time_limit=3.0, sampling={"max_seconds": 1.0}),
                     base.with_(time_limit=3.0, sampling={"max_seconds": None})):
        CardPlayer(settings, system=StandardAmerican()).choose(view, random.Random(1))
    assert asked == ["unset", 3.0, 1.0, 3.0]


def test_the_time_limit_also_caps_the_hard_computers_simulated_calls():
    from ai.bidding.simulation import SimulationSettings
    from ai.robot import ComputerPlayer
    default = SimulationSettings()
    for limit, budget, most in ((1.5, 1.5, 1.5), (5.0, default.time_budget, 5.0),
                                (100.0, default.time_budget, default.max_seconds)):
        p = ComputerPlayer("hard", time_limit=limit, threads=1)
        try:
            assert p.settings.time_limit == limit
            assert (p._bidder.settings.time_budget, p._bidder.settings.max_seconds) == (
                budget, most)
        finally:
            p.close()
    p = ComputerPlayer("hard", time_limit=2.0, time_budget=None, threads=1)
    try:
        assert (p._bidder.settings.time_budget, p._bidder.settings.max_seconds) == (2.0, 2.0)
    finally:
        p.close()


def test_close_from_another_thread_does_not_break_a_decision_under_way(monkeypatch):
    """close() called while another thread's decision is between two chunks of layouts:
    the decision goes on (its solves on its own thread) and chooses as if nothing had
    happened.  It failed with RuntimeError: cannot schedule new futures after shutdown."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    view = _lead_view()
    settings = dict(samples=32, lead_samples=32, min_samples=8, threads=2, time_budget=None)
    expected = _player(**settings).choose(view, random.Random(5))
    closing = threading.Event()

    class Pool(ThreadPoolExecutor):
        def shutdown(self, *args, **kw):
            closing.set()
            super().shutdown(*args, **kw)

    first = []

    class Solving(Solver):
        def solve_layouts(self, *args, **kw):
            if not first:       # in the first chunk: another thread closes the player
                first.append(threading.Thread(target=player.close))
                first[0].start()
                assert closing.wait(30)
            return super().solve_layouts(*args, **kw)

    monkeypatch.setattr(cardplay, "ThreadPoolExecutor", Pool)
    monkeypatch.setattr(cardplay, "Solver", Solving)
    player = _player(**settings)
    choice = player.choose(view, random.Random(5))
    first[0].join()
    assert (choice.card, choice.tricks) == (expected.card, expected.tricks)
    assert choice.samples == 32
    # and the player goes on with a new pool
    assert player.choose(view, random.Random(5)).card == expected.card
    player.close()


def test_an_inconsistent_view_is_refused_even_when_one_card_is_legal():
    """CardPlayer.choose played a forged view's only "legal" card (one the seat does not
    hold) without looking further; it now checks the view, as ComputerPlayer does, and a
    view found consistent is not checked again."""
    import dataclasses

    view = _lead_view()
    forged = dataclasses.replace(view, legal_cards=(Card.from_str("SA"),))
    assert Card.from_str("SA") not in view.hand
    with pytest.raises(InvalidViewError, match="legal_cards disagree"):
        _player().choose(forged, random.Random(1))
    rebuilt = dataclasses.replace(view)         # a copy not built by seat_view: checked
    assert rebuilt == view and rebuilt.check() is rebuilt
    assert _player().choose(rebuilt, random.Random(1)).card in view.legal_cards


def test_a_huge_memory_mb_is_refused_when_the_settings_are_made():
    """PlaySettings(memory_mb=10**9) was accepted and failed with MemoryError at the first
    decision (the solvers are made then)."""
    from ddsolver.solver import MAX_MEMORY_MB

    assert PlaySettings(memory_mb=MAX_MEMORY_MB).memory_mb == MAX_MEMORY_MB
    for too_much in (MAX_MEMORY_MB + 1, 10 ** 9, 10 ** 5000):
        with pytest.raises(ValueError, match=r"memory_mb must be at most 262,144 MiB "
                                             r"\(ddsolver.solver.MAX_MEMORY_MB\), got "):
            PlaySettings(memory_mb=too_much)
    with pytest.raises(ValueError, match=r"sampling: solver_memory_mb must be at most 262,144 "
                                         r"MiB"):
        PlaySettings(method="auction", sampling={"solver_memory_mb": 10 ** 9})
