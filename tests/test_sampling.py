"""Tests of ai.sampling: layouts consistent with a seat's view."""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.bidding import StandardAmerican, bid_deal
from ai.constraints import HandConstraints
from ai.inference import infer
from ai.players import seat_view
from ai.sampling import (
    MAX_SAMPLES,
    METHODS,
    NoLayoutError,
    SamplingError,
    _Dealer,
    _mask_ok,
    _PairDP,
    _Spec,
    sample_deals,
)
from ddsolver.cards import FULL_DECK_MASK, Card, Suit, cards_of_mask
from ddsolver.deal import Deal, Hand
from ddsolver.errors import InvalidDealError
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat

DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
AUCTION = "1NT Pass 3NT Pass Pass Pass"
SA = StandardAmerican()


def _check(view, deal):
    assert deal.is_complete()
    for s in Seat:
        known = view.known_cards(s)
        assert known.mask & deal[s].mask == known.mask
    for s, suits in view.voids.items():
        held = deal[s].mask & ~sum(c.bit for c in view.played_by(s))
        for suit in suits:
            assert not (held >> (16 * int(suit))) & 0xFFFF


def _play(deal, declarer, strain, k, rng):
    """The first ``k`` cards of a random legal play."""
    pos = Position(deal, strain, declarer.lho)
    out = []
    for _ in range(k):
        seat = pos.to_move
        card = rng.choice(pos.legal_cards)
        pos.play(card)
        out.append((seat, card))
    return out


# -- the baselines (kept as they were) ------------------------------------------------------
def test_uniform_keeps_known_cards_and_voids():
    played = [(Seat.EAST, "H2"), (Seat.SOUTH, "HA"), (Seat.WEST, "S2"), (Seat.NORTH, "H5")]
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    s = sample_deals(view, 200, random.Random(3))
    assert len(s) == 200 and len(s.weights) == 200
    for deal in s:
        _check(view, deal)
    # after West shows out of hearts, no sample gives West a heart
    assert all(deal.west.length(Suit.HEARTS) == 0 for deal in s)
    again = sample_deals(view, 200, 3)
    assert [d.to_pbn() for d in again] == [d.to_pbn() for d in s]


def test_uniform_split_frequencies():
    """Five missing hearts between two hidden hands split 3-2 / 4-1 / 5-0 in 68 / 28 / 4 %."""
    north = "AKQ2.AKQJ2.A2.A2"      # 5 hearts in N, 3 in S: 5 missing
    south = "543.876.KQJ43.KQ"
    rng = random.Random(0)
    free = sorted(cards_of_mask(FULL_DECK_MASK & ~Hand.from_pbn(north).mask
                                & ~Hand.from_pbn(south).mask))
    rng.shuffle(free)
    deal = Deal([Hand.from_pbn(north), Hand(free[:13]), Hand.from_pbn(south), Hand(free[13:])])
    view = seat_view("N", deal.north, dealer="N", vulnerability="None",
                     auction="1S Pass 2S Pass Pass Pass", played=[(Seat.EAST, free[0])],
                     dummy_hand=deal.south)
    s = sample_deals(view, 4000, 11)
    splits = Counter(max(d.east.length(Suit.HEARTS), d.west.length(Suit.HEARTS))
                     for d in s)
    n = len(s)
    # exact frequencies given the lead: close to the textbook ones; 4,000 samples -> SE ~0.7 %
    for longer, p in ((3, 0.68), (4, 0.28), (5, 0.04)):
        assert abs(splits[longer] / n - p) < 0.05


def test_rejection_uses_the_auction():
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    s = sample_deals(view, 30, 5, method="rejection", system=SA)
    opener = infer(view.auction, SA)[Seat.NORTH].constraints
    assert len(s) == 30
    for deal in s:
        _check(view, deal)
        assert opener.satisfied_by(deal.north)
        assert 15 <= deal.north.hcp <= 17 and deal.north.is_balanced()


# -- the exact dealer against brute force ---------------------------------------------------
def _random_constraints(rng):
    lo = rng.randint(0, 20)
    lens = []
    for _ in range(4):
        a = rng.randint(0, 4)
        lens.append((a, a + rng.randint(0, 6)))
    return HandConstraints((lo, lo + rng.randint(0, 12)), tuple(lens),
                           rng.choice([None, True, False]),
                           frozenset(Suit(s) for s in range(4) if rng.random() < 0.2),
                           rng.choice([None, frozenset({0, 1}), frozenset({1, 2}),
                                       frozenset({2, 3, 4})]))


def _constraints_around(hand, rng):
    """Random constraints that ``hand`` (13 cards) mostly meets: ranges around its HCP and
    lengths, its balance, some of its stoppers, a set of ace counts."""
    from ai.constraints import ace_count, has_stopper
    h = hand.hcp
    lens = tuple((max(0, hand.length(s) - rng.randint(0, 2)),
                  min(13, hand.length(s) + rng.randint(0, 2))) for s in Suit)
    aces = ace_count(hand)
    return HandConstraints(
        (max(0, h - rng.randint(0, 3)), h + rng.randint(0, 3)), lens,
        rng.choice([None, hand.is_balanced(), not hand.is_balanced()]),
        frozenset(s for s in Suit if rng.random() < 0.3 and (has_stopper(hand, s)
                                                             or rng.random() < 0.3)),
        rng.choice([None, frozenset({aces}), frozenset({aces, aces + 1}),
                    frozenset({(aces + 1) % 5})]))


def _brute_pairs(unseen, a, b):
    """Every split of ``unseen`` between specs a and b meeting their voids and constraints."""
    out = []
    for comb in itertools.combinations(list(cards_of_mask(unseen)), a.need):
        m = sum(c.bit for c in comb)
        rest = unseen & ~m
        if any((m >> (16 * t)) & 0xFFFF for t in range(4) if a.voids >> t & 1):
            continue
        if any((rest >> (16 * t)) & 0xFFFF for t in range(4) if b.voids >> t & 1):
            continue
        if a.alts and not a.alts[0].satisfied_by(Hand(a.known | m)):
            continue
        if b.alts and not b.alts[0].satisfied_by(Hand(b.known | rest)):
            continue
        out.append(m)
    return out


def test_pair_dealer_counts_and_enumerates_exactly():
    """Random hands with 6-14 unseen cards, random HCP/length/balanced/stopper/ace
    constraints and voids: the exact count and the enumeration equal brute force."""
    rng = random.Random(5)
    nonzero = cases = 0
    while cases < 150:
        cards = list(cards_of_mask(FULL_DECK_MASK))
        rng.shuffle(cards)
        ka, kb = rng.randint(6, 13), rng.randint(6, 13)
        if 26 - ka - kb > 14:
            continue
        cases += 1
        ha, hb = cards[:13], cards[13:26]
        ca = _constraints_around(Hand(ha), rng) if rng.random() < 0.8 else None
        cb = _constraints_around(Hand(hb), rng) if rng.random() < 0.6 else None
        # voids in suits of which the hand's unseen part has no card (sometimes)
        va = sum(1 << t for t in range(4) if rng.random() < 0.5
                 and not any(c.suit == t for c in ha[ka:]))
        vb = sum(1 << t for t in range(4) if rng.random() < 0.5
                 and not any(c.suit == t for c in hb[kb:]))
        a = _Spec(Seat.EAST, sum(c.bit for c in ha[:ka]), 13 - ka, va, (ca,) if ca else ())
        b = _Spec(Seat.WEST, sum(c.bit for c in hb[:kb]), 13 - kb, vb, (cb,) if cb else ())
        unseen = sum(c.bit for c in ha[ka:] + hb[kb:])
        dp = _PairDP(unseen, a, b, ca, cb)
        brute = _brute_pairs(unseen, a, b)
        assert dp.total == len(brute)
        assert sorted(dp.layouts()) == sorted(brute)
        nonzero += bool(brute)
    assert 30 <= nonzero <= 140   # the cases are neither all impossible nor all possible


def test_mask_check_is_satisfied_by():
    rng = random.Random(2)
    for _ in range(3000):
        cards = list(cards_of_mask(FULL_DECK_MASK))
        rng.shuffle(cards)
        hand = Hand(cards[:13])
        cons = _random_constraints(rng)
        assert _mask_ok(hand.mask, cons) == cons.satisfied_by(hand)


def _chi2_uniform(counts, cells, n):
    e = n / cells
    return sum((counts[i] - e) ** 2 / e for i in range(cells))


def _chi2_limit(df):
    """About the 0.1 % upper point of chi-square with ``df`` degrees of freedom
    (Wilson-Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_pair_sampler_is_uniform_over_the_layouts():
    rng = random.Random(7)
    done = 0
    while done < 3:
        cards = list(cards_of_mask(FULL_DECK_MASK))
        rng.shuffle(cards)
        ha, hb = cards[:13], cards[13:26]
        ca = HandConstraints((rng.randint(5, 12), 37), balanced=rng.choice([None, True]))
        a = _Spec(Seat.EAST, sum(c.bit for c in ha[:7]), 6, 0, (ca,))
        b = _Spec(Seat.WEST, sum(c.bit for c in hb[:7]), 6, 0, ())
        unseen = sum(c.bit for c in ha[7:] + hb[7:])
        dp = _PairDP(unseen, a, b, ca, None)
        if not 20 < dp.total < 300:
            continue
        done += 1
        index = {m: i for i, m in enumerate(dp.layouts())}
        n = 40 * len(index)
        counts = Counter(index[dp.sample(rng)] for _ in range(n))
        assert _chi2_uniform(counts, len(index), n) < _chi2_limit(len(index) - 1)


def test_three_seat_dealer_is_uniform_over_the_layouts():
    """Three hidden seats (the opening lead's case), each with 3 unseen cards and an HCP
    range and sometimes a void: the draws are uniform over the brute-force layouts."""
    rng = random.Random(11)
    done = 0
    while done < 3:
        cards = list(cards_of_mask(FULL_DECK_MASK))
        rng.shuffle(cards)
        specs, unseen = [], 0
        for i, seat in enumerate((Seat.EAST, Seat.SOUTH, Seat.WEST)):
            h = cards[13 * i + 13:13 * i + 26]
            hcp = sum(c.hcp for c in h)
            cons = HandConstraints((max(0, hcp - rng.randint(0, 2)), hcp + rng.randint(0, 2)))
            unseen |= sum(c.bit for c in h[10:])
            specs.append(_Spec(seat, sum(c.bit for c in h[:10]), 3, rng.choice([0, 0, 1, 2]),
                               (cons,) if rng.random() < 0.8 else ()))
        brute = []
        ul = list(cards_of_mask(unseen))
        for x in itertools.combinations(ul, 3):
            mx = sum(c.bit for c in x)
            for y in itertools.combinations([c for c in ul if not mx & c.bit], 3):
                my = sum(c.bit for c in y)
                ms = (mx, my, unseen & ~mx & ~my)
                if all(not any((m >> (16 * t)) & 0xFFFF for t in range(4) if sp.voids >> t & 1)
                       and (not sp.alts or sp.alts[0].satisfied_by(Hand(sp.known | m)))
                       for sp, m in zip(specs, ms)):
                    brute.append(tuple(sp.known | m for sp, m in zip(specs, ms)))
        if not 5 <= len(brute) <= 40:
            continue
        done += 1
        dealer = _Dealer(unseen, specs)
        index = {b: i for i, b in enumerate(brute)}
        n = 150 * len(brute)
        counts = Counter()
        while sum(counts.values()) < n:
            h = dealer.draw(rng)
            if h is not None:
                counts[index[tuple(h[sp.seat] for sp in specs)]] += 1
        assert _chi2_uniform(counts, len(brute), n) < _chi2_limit(len(brute) - 1)


# -- the auction method on views ------------------------------------------------------------
@st.composite
def _boards(draw):
    seed = draw(st.integers(0, 10 ** 6))
    rng = random.Random(seed)
    deal = Deal.random(rng)
    dealer = Seat(draw(st.integers(0, 3)))
    auction = bid_deal(deal, dealer, None, SA)
    return deal, dealer, auction, rng


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_boards(), st.integers(0, 48), st.integers(0, 3), st.booleans())
def test_every_sample_meets_every_constraint_of_the_view(board, k, who, bid):
    """Robot-bid random deals, a random play prefix, any seat's view: every sample keeps the
    known cards and shown voids and meets every hidden seat's constraints from the auction
    (nothing is relaxed: the true deal meets them all)."""
    deal, dealer, auction, rng = board
    if auction.is_passed_out:
        k = 0
    contract, declarer = auction.contract, auction.declarer
    played = [] if contract is None else _play(deal, declarer, contract.strain, k, rng)
    seat = Seat(who)                         # dummy's view too (three hidden hands)
    dummy = None if not played else deal[declarer.partner]
    view = seat_view(seat, deal[seat], dealer=dealer, vulnerability="None", auction=auction,
                     played=played, dummy_hand=dummy)
    samples = sample_deals(view, 12, rng, method="auction", system=SA, bid_weights=bid,
                           exact_max_layouts=50)
    assert samples.relaxed == ()
    assert len(samples) == 12 or samples.exact
    assert len(samples.weights) == len(samples)
    inferred = infer(view.auction, SA)
    for d in samples:
        _check(view, d)
        for s in view.hidden_seats:
            assert inferred[s].constraints.satisfied_by(d[s]), (s, d)
    if samples.exact:
        assert len(set(samples.deals)) == len(samples) == samples.stats["layouts"]
        assert deal in samples.deals                # the true layout is one of them
    assert all(w in (1.0, 0.05) for w in samples.weights) if bid else \
        all(w == 1.0 for w in samples.weights)


def _late_view(tricks=5):
    """North declares 4S; after ``tricks`` tricks without a spade (East shows out of
    diamonds in the fifth), from North's view: 5 trumps missing, 16 unseen cards."""
    deal = Deal.from_pbn("N:AKQ2.A2.AKQ2.A32 J76.KQJ3.J7.T954 543.876.543.KQJ8 T98.T954.T986.76")
    pos = Position(deal, "S", Seat.EAST)
    plays = []
    order = [["HK", "H6", "HT", "HA"], ["DA", "DJ", "D3", "D6"], ["DK", "D7", "D4", "D8"],
             ["CA", "C4", "C8", "C6"], ["DQ", "C5", "D5", "D9"]]
    for trick in order[:tricks]:
        for c in trick:
            plays.append((pos.to_move, Card.from_str(c)))
            pos.play(Card.from_str(c))
    view = seat_view("N", deal.north, dealer="N", vulnerability="None",
                     auction="1S Pass 2S Pass 4S Pass Pass Pass", played=plays,
                     dummy_hand=deal.south)
    return deal, view


def _brute_view(view):
    """Every layout of the view's unseen cards meeting its voids and the auction's
    constraints, by brute force: {east hand mask, ...} as complete deals' East hands."""
    inferred = infer(view.auction, SA)
    e, w = view.hidden_seats
    ke, kw = view.known_cards(e).mask, view.known_cards(w).mask
    unseen = view.unseen_cards.mask
    out = []
    for comb in itertools.combinations(sorted(view.unseen_cards), 13 - _popcount(ke)):
        m = sum(c.bit for c in comb)
        he, hw = Hand(ke | m), Hand(kw | (unseen & ~m))
        if any(he.length(x) > len([c for c in view.played_by(e) if c.suit == x])
               for x in view.voids[e]):
            continue
        if any(hw.length(x) > len([c for c in view.played_by(w) if c.suit == x])
               for x in view.voids[w]):
            continue
        if inferred[e].constraints.satisfied_by(he) and inferred[w].constraints.satisfied_by(hw):
            out.append(he)
    return out


def _popcount(m):
    return bin(m).count("1")


def test_five_missing_trumps_split_like_exact_enumeration():
    """The trump split frequencies of sampled layouts match exact enumeration of every
    layout (within 4 standard errors), and the enumeration is brute force's."""
    deal, view = _late_view()
    assert len(view.unseen_cards) == 16 and view.voids[Seat.EAST] == {Suit.DIAMONDS}
    exact = sample_deals(view, 1, 1, method="auction", system=SA, bid_weights=False,
                         exact_max_layouts=10 ** 6)
    assert exact.exact and deal in exact.deals
    brute = _brute_view(view)
    assert sorted(h.mask for h in brute) == sorted(d.east.mask for d in exact)
    split_exact = Counter(max(d.east.length(Suit.SPADES), d.west.length(Suit.SPADES))
                          for d in exact)
    total = len(exact)
    n = 6000
    sampled = sample_deals(view, n, 3, method="auction", system=SA, bid_weights=False,
                           exact_max_layouts=0)
    assert not sampled.exact and len(sampled) == n
    split = Counter(max(d.east.length(Suit.SPADES), d.west.length(Suit.SPADES))
                    for d in sampled)
    for longer in (3, 4, 5):
        p = split_exact[longer] / total
        se = math.sqrt(p * (1 - p) / n)
        assert abs(split[longer] / n - p) < 4 * se, (longer, p, split[longer] / n)
    # East cannot hold the missing diamonds, so it has fewer places for spades than West:
    # the split is far from the textbook 68 % 3-2 (vacant places)
    assert split_exact[3] / total < 0.45


def test_exact_enumeration_late_in_the_play():
    """After nine tricks (eight unseen cards) every layout is returned once, the true one
    among them, and their number is brute force's."""
    rng = random.Random(4)
    played = _play(DEAL, Seat.NORTH, "NT", 36, rng)
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    s = sample_deals(view, 5, 1, method="auction", system=SA)
    brute = _brute_view(view)
    assert s.exact and s.tries == len(s) == len(brute) == s.stats["layouts"] > 5
    assert len(set(s.deals)) == len(s) and DEAL in s.deals
    assert sorted(d.north.mask for d in s) == sorted(h.mask for h in brute)
    for d in s:
        _check(view, d)
    # a threshold below the count: sampled, not enumerated
    t = sample_deals(view, 5, 1, method="auction", system=SA, exact_max_layouts=len(s) - 1)
    assert not t.exact and len(t) == 5


def test_auction_sampler_respects_shown_voids():
    """After West shows out of hearts (and a 1NT opener's constraints), no sample gives
    West a heart."""
    played = [(Seat.EAST, "H2"), (Seat.SOUTH, "HA"), (Seat.WEST, "S2"), (Seat.NORTH, "H5")]
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    s = sample_deals(view, 300, 2, method="auction", system=SA, bid_weights=False)
    assert len(s) == 300 and s.relaxed == ()
    for d in s:
        _check(view, d)
        assert d.west.length(Suit.HEARTS) == 0 and d.east.length(Suit.HEARTS) == 7


MISBID = Deal.from_pbn("N:AK2.AK2.AK32.432 QJT9.QJT.QJT.T98 876.987.987.AKQJ 543.6543.654.765")
MISBID_PLAY = [("E", "SQ"), ("S", "S6"), ("W", "S3"), ("N", "SA"),
               ("N", "SK"), ("E", "S9"), ("S", "S7"), ("W", "S4"),
               ("N", "HA"), ("E", "HT"), ("S", "H7"), ("W", "H3"),
               ("N", "HK"), ("E", "HJ"), ("S", "H8"), ("W", "H4"),
               ("N", "DA"), ("E", "DT"), ("S", "D7"), ("W", "D4"),
               ("N", "DK"), ("E", "DJ"), ("S", "D8"), ("W", "D5")]


def test_relaxation_is_reported():
    """North opened 1NT (15-17) and has shown 21 HCP in the play: North's HCP range is
    widened by 2, then by 4 (the first width that fits), and the samples say so."""
    view = seat_view("E", MISBID.east, dealer="N", vulnerability="None", auction=AUCTION,
                     played=MISBID_PLAY, dummy_hand=MISBID.south)
    s = sample_deals(view, 50, 1, method="auction", system=SA)
    assert s.relaxed == ("N: hcp+-2", "N: hcp+-4")
    assert len(s) == 50
    for d in s:
        _check(view, d)
        assert d.north.hcp == 21 and d.north.is_balanced()
    # the system opens 2NT with 21 HCP: no layout explains the 1NT opening, and a strict
    # filter (or zero weights) gives way too, saying so
    for opts in ({"misbid_weight": 0.0}, {"misbid_weight": 0.0, "bid_filter": True}):
        z = sample_deals(view, 10, 1, method="auction", system=SA, **opts)
        assert z.relaxed == ("N: hcp+-2", "N: hcp+-4", "bidding weights")
        assert len(z) == 10 and all(w == 1.0 for w in z.weights)
    # the same view before the play gave anything away: nothing relaxed
    early = seat_view("E", MISBID.east, dealer="N", vulnerability="None", auction=AUCTION,
                      played=MISBID_PLAY[:1], dummy_hand=MISBID.south)
    assert sample_deals(early, 20, 1, method="auction", system=SA).relaxed == ()


def test_dealer_proves_impossibility():
    """Voids that leave the unseen cards nowhere to go (a view the table cannot produce):
    the dealer counts zero layouts at once instead of searching."""
    a = _Spec(Seat.EAST, 0, 1, 0b1111, ())
    b = _Spec(Seat.WEST, 0, 1, 0b1111, ())
    dealer = _Dealer(Card.from_str("S2").bit | Card.from_str("S3").bit, [a, b])
    assert not dealer.feasible and dealer.count == 0


def _digest(samples):
    text = "|".join(d.to_pbn() for d in samples) + "|" + ",".join(
        f"{w:.6f}" for w in samples.weights)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_seeded_and_the_same_everywhere():
    lead = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    played = [(Seat.EAST, "H2"), (Seat.SOUTH, "HA"), (Seat.WEST, "H3"), (Seat.NORTH, "H5")]
    decl = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    for view in (lead, decl):
        a = sample_deals(view, 30, 99, method="auction", system=SA)
        b = sample_deals(view, 30, random.Random(99), method="auction", system=SA)
        c = sample_deals(view, 30, 100, method="auction", system=SA)
        assert a.deals == b.deals and a.weights == b.weights
        assert a.deals != c.deals
    # pinned: the sampler only uses random.random(), whose sequence Python guarantees on
    # every platform; a change here means the layouts of every seeded game change
    assert _digest(sample_deals(lead, 20, 12345, method="auction", system=SA)) == "5ef75dd7b24a159b"
    assert _digest(sample_deals(decl, 20, 12345, method="auction", system=SA)) == "fc8bacd654e19e2f"


def test_bad_arguments():
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    for n in (-1, 1.5, True, "3"):
        with pytest.raises(SamplingError):
            sample_deals(view, n, 1)
        with pytest.raises(SamplingError):
            sample_deals(view, n, 1, method="auction", system=SA)
    with pytest.raises(SamplingError, match="method"):
        sample_deals(view, 3, 1, method="magic")
    for method in ("rejection", "auction"):
        with pytest.raises(SamplingError, match="system"):
            sample_deals(view, 3, 1, method=method)
        with pytest.raises(SamplingError, match="system"):
            sample_deals(view, 3, 1, method=method, system=object())
    with pytest.raises(TypeError):
        sample_deals(DEAL, 3, 1)
    with pytest.raises(SamplingError, match="rng"):
        sample_deals(view, 3, "seed")
    with pytest.raises(SamplingError, match="unknown sampling option"):
        sample_deals(view, 3, 1, method="auction", system=SA, samples=3)
    with pytest.raises(SamplingError, match="no settings"):
        sample_deals(view, 3, 1, play_weights=True)
    with pytest.raises(SamplingError, match="settings must be"):
        sample_deals(view, 3, 1, method="auction", system=SA, settings={"threads": 2})
    for bad in ({"misbid_weight": 1.5}, {"misbid_weight": -0.1}, {"threads": 0},
                {"play_checks": -1}, {"play_seconds": -1.0}, {"max_tries": 0},
                {"bid_weights": 1}, {"exact_max_layouts": 2.5}, {"bid_cache": []},
                {"max_seconds": "1"}, {"lowest_equals_weight": 1.5}):
        with pytest.raises(SamplingError):
            sample_deals(view, 3, 1, method="auction", system=SA, **bad)
    assert len(sample_deals(view, 0, 1)) == 0
    assert len(sample_deals(view, 0, 1, method="auction", system=SA)) == 0


def test_numpy_integers_are_integers():
    """A NumPy count, seed or max_tries was refused as "must be an integer"."""
    import numpy as np
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    for method in ("uniform", "auction"):
        a = sample_deals(view, np.int64(5), np.int64(1), method=method, system=SA,
                         max_tries=np.int32(100_000))
        b = sample_deals(view, 5, 1, method=method, system=SA, max_tries=100_000)
        assert a.deals == b.deals
    assert sample_deals(view, 5, 1, method="auction", system=SA,
                        play_checks=np.int64(2)).deals == b.deals
    sim = simulate_contract("3NT", "N", deals=[DEAL], threads=np.int64(1))
    assert sim.mean == 10
    assert deal_constrained({}, n=2, rng=np.int64(4)).deals == deal_constrained(
        {}, n=2, rng=4).deals

def test_an_inconsistent_view_is_refused_by_name():
    """A view not built by seat_view (dataclasses.replace) that gives one card to two
    seats: the uniform sampler failed deep inside with "a hand of 14 cards", the auction
    sampler with "the hands to deal do not add up"; now InvalidViewError, as the computer
    players say."""
    import dataclasses

    from ai.players import InvalidViewError
    played = [("E", "H2"), ("S", "H6"), ("W", "H3"), ("N", "HK")]
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    west_has_norths_ace = dataclasses.replace(view, played=view.played[:2] + (
        (Seat.WEST, Card.from_str("SA")), view.played[3]))
    dummy_has_norths_ace = dataclasses.replace(
        view, original_dummy=Hand.from_pbn("AT97.A86.A87.T96"))
    for bad in (west_has_norths_ace, dummy_has_norths_ace):
        for method in ("uniform", "rejection", "auction"):
            with pytest.raises(InvalidViewError, match="inconsistent SeatView"):
                sample_deals(bad, 5, 1, method=method, system=SA)
    assert len(sample_deals(view, 5, 1, method="auction", system=SA)) == 5


def test_sample_counts_bounded_and_max_tries_checked_for_every_method():
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    for method in METHODS:
        for n in (MAX_SAMPLES + 1, 10 ** 12):     # refused at once, nothing drawn
            with pytest.raises(SamplingError, match=r"at most 1,000,000 \(MAX_SAMPLES\)"):
                sample_deals(view, n, 1, method=method, system=SA, max_tries=1000)
        for bad in (-1, 0, 1.5, True, "3"):
            with pytest.raises(SamplingError, match="max_tries must be an integer >= 1"):
                sample_deals(view, 3, 1, method=method, system=SA, max_tries=bad)
    with pytest.raises(SamplingError, match="exact_max_layouts must be at most"):
        sample_deals(view, 3, 1, method="auction", system=SA,
                     exact_max_layouts=MAX_SAMPLES + 1)
    # max_tries caps the draws of every method, "uniform" too (fewer than n come back)
    for method in METHODS:
        s = sample_deals(view, 50, 1, method=method, system=SA, max_tries=7,
                         exact_max_layouts=0, bid_weights=False) if method == "auction" \
            else sample_deals(view, 50, 1, method=method, system=SA, max_tries=7)
        assert s.tries == 7 and len(s) <= 7, method
    # the defaults are unchanged: None is max(50 n, 1000) draws, 20,000 for "rejection"
    assert sample_deals(view, 30, 4).deals == sample_deals(view, 30, 4, max_tries=1500).deals
    assert sample_deals(view, 30, 4, method="rejection", system=SA).deals == \
        sample_deals(view, 30, 4, method="rejection", system=SA, max_tries=20_000).deals


def _replays(view, deal):
    """Whether the system would have made every in-system call of the hidden seats."""
    auction = view.auction
    exps = SA.explain_all(auction)
    for i, call in enumerate(view.calls):
        seat = auction.seat_of(i)
        if seat in view.hidden_seats and exps[i].in_system:
            from ddsolver.auction import Auction
            if SA.choose(deal[seat], Auction(view.dealer, view.calls[:i]),
                         view.vulnerability) != call:
                return False
    return True


def test_bidding_weights_replay_the_calls():
    """A layout weighs 1 when the system would have made every hidden seat's calls with its
    hands, ``misbid_weight`` otherwise; the filter keeps only such layouts when the weight
    is 0.  (Opening lead after 1S-2S-4S: the envelope of the calls' constraints lets
    through many hands the system would have bid otherwise.)"""
    deal = Deal.from_pbn("N:AKJ62.K32.A4.Q75 Q98.AQ4.KJ32.J42 T74.J976.Q65.K83 53.T85.T987.AT96")
    auction = bid_deal(deal, "N", None, SA)
    view = seat_view(auction.declarer.lho, deal[auction.declarer.lho], dealer="N",
                     vulnerability="None", auction=auction)
    s = sample_deals(view, 40, 8, method="auction", system=SA, misbid_weight=0.1)
    assert {w for w in s.weights} == {1.0, 0.1}           # both kinds occur
    for d, w in zip(s, s.weights):
        assert (w == 1.0) == _replays(view, d)
    cache = {}
    f = sample_deals(view, 15, 9, method="auction", system=SA, misbid_weight=0.0,
                     bid_filter=True, bid_draws=100, bid_cache=cache)
    assert len(f) == 15 and f.tries > 15 and all(w == 1.0 for w in f.weights)
    assert all(_replays(view, d) for d in f)
    assert len(cache) >= f.tries                           # one entry per seat and hand


def test_bidding_weights_within_a_time_budget():
    """With no time for the calls' weights, 8 layouts are weighed and the rest dropped:
    drawn layouts keep their order, enumerated ones stop being exact."""
    rng = random.Random(4)
    played = _play(DEAL, Seat.NORTH, "NT", 28, rng)
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    full = sample_deals(view, 30, 6, method="auction", system=SA, exact_max_layouts=0)
    cut = sample_deals(view, 30, 6, method="auction", system=SA, exact_max_layouts=0,
                       bid_seconds=0.0)
    assert len(full) == 30 and len(cut) == 8 and cut.stats["bid_dropped"] == 22
    assert cut.deals == full.deals[:8] and cut.weights == full.weights[:8]
    every = sample_deals(view, 30, 6, method="auction", system=SA)
    assert every.exact and len(every) > 8
    part = sample_deals(view, 30, 6, method="auction", system=SA, bid_seconds=0.0)
    assert not part.exact and len(part) == 8
    assert part.deals == every.deals[:8] and part.weights == every.weights[:8]


def test_play_weights_match_the_solver():
    """Each layout's weight is ``play_mistake_weight ** tricks lost`` by the hidden players'
    checked cards, recomputed here position by position with a fresh solver."""
    rng = random.Random(21)
    played = _play(DEAL, Seat.NORTH, "NT", 14, rng)
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    settings_ = dict(bid_weights=False, play_weights=True, play_checks=3,
                     play_mistake_weight=0.5, exact_max_layouts=0)
    s = sample_deals(view, 16, 3, method="auction", system=SA, **settings_)
    two = sample_deals(view, 16, 3, method="auction", system=SA, threads=2, **settings_)
    assert s.deals == two.deals and s.weights == two.weights
    checked = [i for i in range(len(played) - 1, 0, -1)
               if played[i][0] in (Seat.EAST, Seat.WEST)][:3]
    assert s.stats["play_cards"] == 3
    solver = Solver(32)
    lost_any = 0
    for d, w in zip(s, s.weights):
        expect = 1.0
        for i in checked:
            start = i - i % 4
            gone = sum(c.bit for _, c in played[:i])
            hands = [Hand(d[x].mask & ~gone) for x in Seat]
            pos = Position.from_remaining(hands, "NT", played[start][0],
                                          [c for _, c in played[start:i]])
            values = solver.solve(pos)
            lost = max(values.values()) - values[played[i][1]]
            expect *= 0.5 ** lost
            lost_any += lost > 0
        assert w == expect
    assert lost_any > 0                                    # some card was a mistake somewhere


def _touching_lower(deal, played, i):
    """Whether the player of ``played[i]`` held, in ``deal``, a lower card of the same suit
    with every rank between the two played before that trick (a touching card)."""
    seat, card = played[i]
    start = i - i % 4
    gone = {c for _, c in played[:start]}
    held = {c for c in cards_of_mask(deal[seat].mask)} - {c for _, c in played[:i]}
    for x in held:
        if x.suit == card.suit and x.rank < card.rank and all(
                Card(card.suit, r) in gone for r in range(int(x.rank) + 1, int(card.rank))):
            return True
    return False


def test_lowest_equals_weights_follow_the_carding():
    """With ``lowest_equals_weight`` w, a layout's weight is proportional to w ** (hidden
    players' cards that followed suit while the player held a touching lower card),
    recounted here card by card over random plays; leads and discards do not count."""
    varied = 0
    for seed in range(8):
        rng = random.Random(seed)
        played = _play(DEAL, Seat.NORTH, "NT", 26, rng)
        view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                         played=played, dummy_hand=DEAL.south)
        s = sample_deals(view, 100, 5, method="auction", system=SA, bid_weights=False,
                         lowest_equals_weight=0.25, exact_max_layouts=0)
        plain = sample_deals(view, 100, 5, method="auction", system=SA, bid_weights=False,
                             exact_max_layouts=0)
        assert s.deals == plain.deals and set(plain.weights) == {1.0}
        ratios = set()
        counts = Counter()
        for d, w in zip(s, s.weights):
            n = sum(_touching_lower(d, played, i) for i in range(len(played))
                    if i % 4 and played[i][0] in (Seat.EAST, Seat.WEST)
                    and played[i][1].suit == played[i - i % 4][1].suit)
            counts[n] += 1
            ratios.add(round(w / 0.25 ** n, 12))
        assert len(ratios) == 1, seed            # the same factor for cards known anyway
        varied += len(counts) >= 2
    assert varied >= 3                           # the weights differ between layouts


def test_lowest_equals_weight_places_the_touching_honour():
    """North declares 3NT; at trick 2 it leads a low heart and East follows with the queen
    while the jack is unseen: with the weight at 0, no layout with weight gives East the
    jack too (East would have played it, the lower of touching cards).  (West follows with
    the seven, whose touching six is dummy's: no weight.)"""
    deal = Deal.from_pbn("N:AK4.K52.Q963.KJ2 653.QJ3.T42.A873 JT97.A86.A87.T96 Q82.T974.KJ5.Q54")
    pos = Position(deal, "NT", Seat.EAST)
    played = []
    for c in ["S6", "S7", "SQ", "SK", "H2", "HQ", "HA", "H7"]:
        played.append((pos.to_move, Card.from_str(c)))
        pos.play(Card.from_str(c))
    assert played[5] == (Seat.EAST, Card.from_str("HQ"))
    view = seat_view("N", deal.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=deal.south)
    jack = Card.from_str("HJ")
    s = sample_deals(view, 300, 2, method="auction", system=SA, bid_weights=False,
                     exact_max_layouts=0, lowest_equals_weight=0.0)
    with_jack = [jack in cards_of_mask(d.east.mask) for d in s]
    assert 0 < sum(with_jack) < len(s)
    assert s.weights == tuple(0.0 if j else 1.0 for j in with_jack)


# -- the analyst's tools ----------------------------------------------------------------------
from click.testing import CliRunner  # noqa: E402

from ai.cli import main as cli_main  # noqa: E402
from ai.sampling import deal_constrained, simulate_contract  # noqa: E402
from ddsolver.solver import dd_table, solve_best  # noqa: E402


def test_deal_constrained_split_of_five_missing_trumps():
    """North-South known with five trumps missing, East-West free: every layout counted
    (C(26,13)) and the splits drawn as exact combinatorics says (68 / 28 / 4 %)."""
    north, south = "AKQ2.AKQJ2.A2.A2", "543.876.KQJ43.KQ"
    n = 4000
    s = deal_constrained(None, {"N": north, "S": south}, n, 11)
    assert len(s) == n and s.stats["layouts"] == math.comb(26, 13)
    counts = Counter(max(d.east.length(Suit.HEARTS), d.west.length(Suit.HEARTS)) for d in s)
    for longer in (3, 4, 5):
        p = 2 * math.comb(5, longer) * math.comb(21, 13 - longer) / math.comb(26, 13)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(counts[longer] / n - p) < 4 * se, (longer, p, counts[longer] / n)
    assert abs(2 * math.comb(5, 3) * math.comb(21, 10) / math.comb(26, 13) - 0.678) < 0.001


def test_deal_constrained_meets_every_constraint():
    cons = {"N": HandConstraints((15, 17), balanced=True),
            "S": HandConstraints((9, 10), balanced=True),
            "E": [HandConstraints(lengths=((1, 1), (3, 3), (4, 4), (5, 5))),
                  HandConstraints(lengths=((5, 5), (4, 4), (3, 3), (1, 1)))],
            "W": HandConstraints(aces=frozenset({0}))}
    s = deal_constrained(cons, {"E": [Card.from_str("SA")]}, 15, 3)
    assert len(s) == 15 and s.tries >= 15 and s.stats["layouts"] is None
    for d in s:
        assert 15 <= d.north.hcp <= 17 and d.north.is_balanced()
        assert 9 <= d.south.hcp <= 10 and d.south.is_balanced()
        assert d.east.lengths in ((1, 3, 4, 5), (5, 4, 3, 1))   # spades first
        assert Card.from_str("SA") in d.east
        assert not any(c.rank == 14 for c in d.west)
    assert {d.east.lengths for d in s} == {(1, 3, 4, 5), (5, 4, 3, 1)}
    again = deal_constrained(cons, {"E": [Card.from_str("SA")]}, 15, 3)
    assert again.deals == s.deals


def test_deal_constrained_bad_input():
    with pytest.raises(NoLayoutError, match="North's own"):  # nothing meets North's alone
        deal_constrained({"N": HandConstraints((30, 37), lengths=((7, 13),) * 4)}, n=1, rng=1)
    with pytest.raises(NoLayoutError):                      # each possible, not together
        deal_constrained({"E": HandConstraints((21, 37)), "W": HandConstraints((21, 37))},
                         {"N": "AKQJ.AKQ.AK.5432", "S": "T98.JT9.QJT.JT98"}, n=1, rng=1)
    with pytest.raises(NoLayoutError, match="together"):    # three seats: the HCP sum
        deal_constrained({"E": HandConstraints((14, 37)), "S": HandConstraints((14, 37)),
                          "W": HandConstraints((14, 37))}, {"N": "5432.5432.432.32"},
                         n=1, rng=1)
    with pytest.raises(NoLayoutError, match="tries"):       # three seats: bounded, no hang
        # (East holds all nine missing spades, South promises a spade stopper)
        deal_constrained({"E": HandConstraints(lengths=((0, 13), (0, 13), (0, 13), (9, 9))),
                          "S": HandConstraints(stoppers=frozenset({Suit.SPADES}))},
                         {"N": "5432.5432.432.32"}, n=1, rng=1, max_tries=3000)
    with pytest.raises(NoLayoutError, match="does not meet"):
        deal_constrained({"N": HandConstraints((0, 5))}, {"N": "AKQJ.AKQ.AK.5432"}, n=1)
    with pytest.raises(SamplingError):
        deal_constrained(None, None, -1)
    with pytest.raises(SamplingError, match="seat"):
        deal_constrained({"X": HandConstraints()}, n=1)
    with pytest.raises(SamplingError, match="SA is given to North and to South"):
        deal_constrained(None, {"N": "A...", "S": "A..."}, n=1)
    with pytest.raises(TypeError):
        deal_constrained({"N": (15, 17)}, n=1)
    with pytest.raises(SamplingError):
        deal_constrained(None, None, 1, rng="x")
    with pytest.raises(SamplingError):
        deal_constrained(None, None, 1, max_tries=0)
    assert len(deal_constrained(None, None, 0, 1)) == 0


def test_deal_constrained_and_simulate_bound_the_number_of_deals():
    with pytest.raises(SamplingError, match=r"at most 1,000,000 \(MAX_SAMPLES\)"):
        deal_constrained(None, {"N": "AQ4.KJ5.Q963.KJ2"}, MAX_SAMPLES + 1, 1)
    with pytest.raises(SamplingError, match=r"at most 1,000,000 \(MAX_SAMPLES\)"):
        simulate_contract("3NT", "N", None, {"N": "AQ4.KJ5.Q963.KJ2"}, n=10 ** 9, rng=1,
                          threads=1)
    r = CliRunner().invoke(cli_main, ["simulate", "-c", "3NT", "-d", "N", "--north",
                                      "AQ4.KJ5.Q963.KJ2", "-n", "1000000000", "--seed", "1",
                                      "--threads", "1"])
    assert r.exit_code == 2, r.output
    assert "1000000000 is not in the range 1<=x<=1000000" in r.output


def test_simulate_declarer_must_agree_with_the_contract():
    known = {"N": "AQ4.KJ5.Q963.KJ2"}
    with pytest.raises(SamplingError, match=r"declarer 'S' contradicts the declarer of "
                                            r"contract 3NTN \(North\)"):
        simulate_contract("3NTN", "S", None, known, n=1, rng=1, threads=1)
    sim = simulate_contract("3NTN", "N", None, known, n=1, rng=1, threads=1)
    assert sim.contract.declarer == Seat.NORTH
    runner = CliRunner()
    args = ["simulate", "-c", "3NTN", "--north", "AQ4.KJ5.Q963.KJ2", "-n", "1", "--seed", "1",
            "--threads", "1"]
    r = runner.invoke(cli_main, [*args, "-d", "S"])
    assert r.exit_code == 2, r.output
    assert "Error: --declarer S contradicts the declarer of contract 3NTN (North)" in r.output
    r = runner.invoke(cli_main, [*args, "-d", "n"])          # agreeing is fine
    assert r.exit_code == 0, r.output
    assert r.output.startswith("3NT by North: 1 deals")


def test_simulate_3nt_worked_case_matches_deals_solved_one_by_one():
    """3NT by North after 1NT-3NT: North AQ4.KJ5.Q963.KJ2 (16 HCP) opposite 9-10 HCP
    balanced.  Every figure is recomputed from the same deals solved one by one."""
    cons = {"S": HandConstraints((9, 10), balanced=True)}
    known = {"N": "AQ4.KJ5.Q963.KJ2"}
    sim = simulate_contract("3NT", "N", cons, known, n=16, rng=5, threads=2)
    one = simulate_contract("3NT", "N", cons, known, n=16, rng=5, threads=1)
    assert sim.deals == one.deals and sim.tricks == one.tricks
    assert sim.deals == deal_constrained(cons, known, 16, 5).deals
    # one by one, through the solver's module-level entry point: East leads, N-S's tricks
    tricks = [13 - solve_best(Position(d, "NT", Seat.EAST)) for d in sim.deals]
    assert tricks[:3] == [dd_table(d)["NT", "N"] for d in sim.deals[:3]]
    assert list(sim.tricks) == tricks
    n = len(tricks)
    mean = sum(tricks) / n
    sd = math.sqrt(sum((t - mean) ** 2 for t in tricks) / (n - 1))
    made = sum(t >= 9 for t in tricks) / n
    assert sim.mean == pytest.approx(mean) and sim.se == pytest.approx(sd / math.sqrt(n))
    assert sim.make == made and sim.make_se == pytest.approx(math.sqrt(made * (1 - made) / n))
    assert list(sim.distribution) == [tricks.count(k) for k in range(14)]
    scores = [(400 + 30 * (t - 9)) if t >= 9 else -50 * (9 - t) for t in tricks]
    assert sim.mean_score == pytest.approx(sum(scores) / n)
    for d in sim.deals:
        assert 9 <= d.south.hcp <= 10 and d.south.is_balanced()
        assert d.north == Hand.from_pbn("AQ4.KJ5.Q963.KJ2")


def test_simulate_command():
    runner = CliRunner()
    r = runner.invoke(cli_main, ["simulate", "-c", "3NT", "-d", "N", "--north",
                                 "AQ4.KJ5.Q963.KJ2", "--south-hcp", "9-10", "--south-balanced",
                                 "-n", "6", "--seed", "5", "--threads", "1", "--show", "6"])
    assert r.exit_code == 0, r.output
    sim = simulate_contract("3NT", "N", {"S": HandConstraints((9, 10), balanced=True)},
                            {"N": "AQ4.KJ5.Q963.KJ2"}, n=6, rng=5, threads=1)
    assert f"mean tricks   {sim.mean:.2f} +- {sim.se:.2f}" in r.output
    assert f"makes         {100 * sim.make:.1f} %" in r.output
    for d, t in zip(sim.deals, sim.tricks):
        assert f"{d.to_pbn()}  {t}" in r.output
    j = runner.invoke(cli_main, ["simulate", "-c", "4SN", "--south-spades", "3+", "--north-shape",
                                 "any 5332", "--north-hcp", "15-17", "-n", "3", "--seed", "2",
                                 "--json", "--show", "3"])
    assert j.exit_code == 0, j.output
    import json
    out = json.loads(j.output)
    assert out["contract"] == "4SN" and out["n"] == 3 and out["seed"] == 2
    for pbn in out["deals"]:
        d = Deal.from_pbn(pbn)
        assert sorted(d.north.lengths) == [2, 3, 3, 5] and d.south.length(Suit.SPADES) >= 3
    for args, msg in ((["-c", "3NT", "--south-hcp", "9-x"], "declarer"),
                      (["-c", "3NT", "-d", "N", "--south-hcp", "9-x"], "range"),
                      (["-c", "3NT", "-d", "N", "--south-shape", "5333"], "shape"),
                      (["-c", "8NT", "-d", "N"], "contract"),
                      (["-c", "3NT", "-d", "N", "--north", "AKQJT.AKQJT.AKQ.A"], "north"),
                      (["-c", "3NT", "-d", "N", "-n", "-3"], "-3"),
                      (["-c", "3NT", "-d", "N", "--north-hcp", "30-37", "--south-hcp",
                        "30-37"], "no deal")):
        r = runner.invoke(cli_main, ["simulate", *args])
        assert r.exit_code == 2, (args, r.output)
        assert msg.lower() in r.output.lower(), (args, r.output)


@pytest.mark.parametrize("text", ["+5", "5_0", "\u0665", "1_2-15", "-+5", "9-+10",
                                  "1" * 5000])
def test_a_range_is_digits_in_one_of_the_four_forms(text):
    """'+5' was read as exactly 5 (int() takes a sign, '_' and other scripts' digits): a
    user meaning "5 or more" got exactly 5 without a word."""
    from ai.sampling import parse_range

    with pytest.raises(SamplingError, match="is not a range such as"):
        parse_range(text, "--north spades", 13)


def test_the_four_forms_of_a_range():
    from ai.sampling import parse_range

    assert [parse_range(t, "HCP", 37) for t in ("9-10", "12+", "-12", "15", " 9 - 10 ")] == [
        (9, 10), (12, 37), (0, 12), (15, 15), (9, 10)]


def test_simulate_one_deal_has_no_standard_error():
    """One deal gives no standard error: NaN in the Simulation, null in the JSON (NaN is
    not JSON), and a sentence in the text instead of a number."""
    sim = simulate_contract("3NT", "N", None, {"N": "AQ4.KJ5.Q963.KJ2"}, n=1, rng=1,
                            threads=1)
    assert sim.n == 1 and math.isnan(sim.se) and math.isnan(sim.make_se)
    assert math.isnan(sim.score_se)
    d = sim.to_dict()
    assert d["se"] is None and d["make_se"] is None and d["score_se"] is None
    tricks = sim.tricks[0]
    assert d["mean"] == tricks and d["distribution"][tricks] == 1
    args = ["simulate", "-c", "3NT", "-d", "N", "--north", "AQ4.KJ5.Q963.KJ2", "-n", "1",
            "--seed", "1", "--threads", "1"]
    runner = CliRunner()
    j = runner.invoke(cli_main, [*args, "--json"])
    assert j.exit_code == 0, j.output
    import json
    out = json.loads(j.output, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert out["se"] is None and out["make_se"] is None and out["score_se"] is None
    assert out["mean"] == tricks and out["n"] == 1
    r = runner.invoke(cli_main, args)
    assert r.exit_code == 0, r.output
    assert f"mean tricks   {tricks:.2f} (no standard error from one deal)" in r.output
    assert "nan" not in r.output.lower() and "+-" not in r.output
    assert "makes         100.0 %\n" in r.output or "makes         0.0 %\n" in r.output


def test_hand_errors_name_the_seat_spelled_west():
    """A hand of the wrong size, unreadable known cards, a seat given twice, an impossible
    hand: the message names the seat concerned, spelled West (not WEST)."""
    cards = [Card.from_str(c) for c in "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2 HA".split()]
    for known in ({"W": "AKQJT98765432.A.."}, {"W": cards}):
        with pytest.raises(InvalidDealError, match=r"^West holds 14 cards \(at most 13\)$"):
            deal_constrained(None, known, 1, 1)
    with pytest.raises(InvalidDealError, match=r"^West's known cards: SA is given twice$"):
        deal_constrained(None, {"W": ["SA", "SA"]}, 1, 1)
    with pytest.raises(InvalidDealError, match=r"^East's known cards: hand 'AK\.\.' must"):
        deal_constrained(None, {"E": "AK.."}, 1, 1)
    with pytest.raises(SamplingError, match=r"^West's known cards are given twice \(keys 'W' "
                                            r"and 'West'\)$"):
        deal_constrained(None, {"W": "AKQJT98...", "West": ".AKQJT98.."}, 1, 1)
    with pytest.raises(SamplingError, match=r"^West's constraints are given twice"):
        deal_constrained({"W": HandConstraints((0, 3)), 3: HandConstraints((20, 37))}, None,
                         1, 1)
    with pytest.raises(SamplingError, match=r"^SA is given to East and to West$"):
        deal_constrained(None, {"W": "AKQJT98765432...", "E": "A..."}, 1, 1)
    with pytest.raises(NoLayoutError, match=r"^West's hand AKQJT98765432\.\.\. does not"):
        deal_constrained({"W": HandConstraints((0, 3))}, {"W": "AKQJT98765432..."}, 1, 1)
    with pytest.raises(TypeError, match=r"^West's constraints must be"):
        deal_constrained({"W": []}, None, 1, 1)
    # deals to solve: the first hand that is not 13 cards, by seat
    deal = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 "
                         "K82.Q93.KJ5.Q854")
    west12 = Deal([deal[s] if s != Seat.WEST else deal[s].remove(Card.from_str("SK"))
                   for s in Seat], complete=False, equal_lengths=False)
    with pytest.raises(SamplingError, match=r"^deals\[1\]: West holds 12 cards"):
        simulate_contract("3NT", "N", deals=[deal, west12], threads=1)
    no_west = Deal([deal[s] if s != Seat.WEST else None for s in Seat], complete=False)
    with pytest.raises(SamplingError, match=r"^deals\[0\]: West's hand is unknown"):
        simulate_contract("3NT", "N", deals=[no_west], threads=1)
    # the command line names the option and the seat
    r = CliRunner().invoke(cli_main, ["simulate", "-c", "3NT", "-d", "N", "--west",
                                      "AKQJT98765432.A..", "-n", "2"])
    assert r.exit_code == 2
    assert "Error: --west: West holds 14 cards (at most 13)" in r.output


def test_bad_dealer_arguments_are_typed_sampling_errors():
    """Negative or non-integer counts, impossible constraints and arguments of the wrong
    type are SamplingErrors (wrong types a SamplingTypeError, also a TypeError); a
    progress that cannot be called is a TypeError before anything is solved."""
    import numpy as np

    from ai.sampling import SamplingTypeError
    for n in (-1, -10 ** 9):
        with pytest.raises(SamplingError, match=r"number of deals must be an integer >= 0"):
            deal_constrained(None, None, n, 1)
    for n in (1.5, "3", None, True):
        with pytest.raises(SamplingTypeError, match="number of deals"):
            deal_constrained(None, None, n, 1)
    assert len(deal_constrained(None, None, np.int64(2), 1)) == 2     # a NumPy integer
    with pytest.raises(NoLayoutError):
        deal_constrained({"N": HandConstraints((25, 37)), "S": HandConstraints((25, 37))},
                         None, 1, 1)
    for constraints, words in ((5, "constraints must be a mapping"),
                               ("N", "constraints must be a mapping"),
                               ({"N": (15, 17)}, "North's constraints must be")):
        with pytest.raises(SamplingTypeError, match=words):
            deal_constrained(constraints, None, 1, 1)
    with pytest.raises(SamplingTypeError, match="known cards must be a mapping"):
        deal_constrained(None, [("N", "AK...")], 1, 1)
    with pytest.raises(SamplingTypeError, match="North's known cards must be"):
        deal_constrained(None, {"N": 5}, 1, 1)
    assert issubclass(SamplingTypeError, TypeError)
    with pytest.raises(SamplingTypeError, match="max_tries"):
        deal_constrained(None, None, 1, 1, max_tries=2.5)
    with pytest.raises(SamplingError, match=r"number of deals must be an integer >= 1"):
        simulate_contract("3NT", "N", n=0, rng=1, threads=1)
    calls = []
    with pytest.raises(TypeError, match=r"^progress must be a callable or None, got int 5$"):
        simulate_contract("3NT", "N", n=2, rng=1, threads=1, progress=5)
    sim = simulate_contract("3NT", "N", n=2, rng=1, threads=1, progress=calls.append)
    assert calls == [1, 2] and sim.n == 2


def test_simulate_refuses_empty_option_values_naming_the_option():
    runner = CliRunner()
    base = ["simulate", "-c", "3NT", "-d", "N", "-n", "2", "--seed", "1", "--threads", "1"]
    for option in ("--north-hcp", "--west", "--south-shape", "--east-aces",
                   "--north-stoppers", "--north-spades", "--declarer"):
        for empty in ("", "  "):
            r = runner.invoke(cli_main, [*base, option, empty])
            assert r.exit_code == 2, (option, r.output)
            assert f"Invalid value for '{option}': an empty value" in r.output, r.output
    r = runner.invoke(cli_main, ["simulate", "-c", "", "-d", "N"])
    assert r.exit_code == 2 and "Invalid value for '--contract': an empty value" in r.output


def test_simulate_threads_capped_at_64():
    # as the other subcommands' --threads: 100,000 threads (2 MB each) are refused at once
    r = CliRunner().invoke(cli_main, ["simulate", "-c", "3NT", "-d", "N", "-n", "1",
                                      "--seed", "1", "--threads", "100000"])
    assert r.exit_code == 2
    assert "100000 is not in the range 1<=x<=64" in r.output
    r = CliRunner().invoke(cli_main, ["simulate", "-c", "3NT", "-d", "N", "-n", "1",
                                      "--seed", "1", "--threads", "64"])
    assert r.exit_code == 0, r.output


def test_simulate_says_when_fewer_deals_than_asked_were_found(monkeypatch):
    """When the dealer's limits stop it short (tight constraints), the command says how
    many of the deals asked for it found, on standard error, and the JSON gives both."""
    import json

    import ai.sampling as sampling

    real = sampling.simulate_contract

    def short(contract, deals, constraints, known, n, rng, **kw):
        return real(contract, deals, constraints, known, 3, rng, **kw)   # the limit hit

    monkeypatch.setattr(sampling, "simulate_contract", short)
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:                       # click 8.2 and later keep stderr apart anyway
        runner = CliRunner()
    args = ["simulate", "-c", "3NT", "-d", "N", "-n", "20", "--seed", "1", "--threads", "1"]
    r = runner.invoke(cli_main, args)
    assert r.exit_code == 0, r.output
    assert "Warning: only 3 of the 20 deals asked for were found" in r.stderr
    assert "3NT by North: 3 deals" in r.stdout
    j = runner.invoke(cli_main, [*args, "--json"])
    out = json.loads(j.stdout)
    assert out["n"] == 3 and out["requested"] == 20
    # all found: no warning
    monkeypatch.setattr(sampling, "simulate_contract", real)
    r = runner.invoke(cli_main, [*args[:-4], "-n", "3", "--seed", "1", "--threads", "1"])
    assert r.exit_code == 0 and "Warning" not in r.stderr


def test_a_long_range_or_shape_is_quoted_by_its_start_and_length():
    """parse_range and parse_shapes put a 10 MB option value whole into the message."""
    from ai.sampling import parse_range, parse_shapes

    for parse in (lambda t: parse_range(t, "HCP", 37), lambda t: parse_shapes(t, "shape")):
        with pytest.raises(SamplingError) as info:
            parse("x" * 1_000_000)
        assert "'... (1,000,000 characters)" in str(info.value)
        assert len(str(info.value)) < 250


def test_a_huge_solver_memory_mb_is_refused_when_the_settings_are_checked():
    """SamplingSettings(solver_memory_mb=10**9) passed checked() and failed with
    MemoryError at the first play check (the solvers are made then)."""
    from ai.sampling import SamplingSettings
    from ddsolver.solver import MAX_MEMORY_MB

    SamplingSettings(solver_memory_mb=MAX_MEMORY_MB).checked()
    for too_much in (MAX_MEMORY_MB + 1, 10 ** 9):
        with pytest.raises(SamplingError, match=r"solver_memory_mb must be at most 262,144 "
                                                r"MiB \(ddsolver.solver.MAX_MEMORY_MB\)"):
            SamplingSettings(solver_memory_mb=too_much).checked()


@pytest.mark.parametrize("seconds", [0, 0.0, -1, float("nan"), True, "5"])
def test_max_seconds_is_positive_or_none_as_deal_constrained_takes_it(seconds):
    """SamplingSettings(max_seconds=0) was accepted (one round of 256 draws, then the
    constraints relaxed one by one) while deal_constrained(max_seconds=0) refused it."""
    from ai.sampling import SamplingSettings

    message = r"max_seconds must be a positive number or None, got "
    with pytest.raises(SamplingError, match=message):
        SamplingSettings(max_seconds=seconds).checked()
    with pytest.raises(SamplingError, match=message):
        deal_constrained(None, None, 1, 1, max_seconds=seconds)
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION)
    with pytest.raises(SamplingError, match=message):
        sample_deals(view, 2, 1, method="auction", system=SA, max_seconds=seconds)
    for fine in (None, 1e-9, 5, math.inf):
        SamplingSettings(max_seconds=fine).checked()
    SamplingSettings(bid_seconds=0, play_seconds=0).checked()   # the weights' least work
