"""Helpers for the solver tests: a memoised exact minimax, endings from text, symmetries.

The memoised minimax is the same plain game-tree walk as :mod:`oracle` (every legal card
tried, no pruning, no heuristics) with one addition: values of exact states (remaining hands,
leader, cards of the current trick) are cached in a dict.  Caching exact states cannot change
a minimax value, and it makes 5- and 6-card endings affordable.  The tests cross-check it
against :func:`oracle.card_values` on small endings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ddsolver.cards import Card, Strain
from ddsolver.deal import Hand
from ddsolver.play import Position
from ddsolver.table import Seat, Side

_SUIT = 0xFFFF

# ---------------------------------------------------------------------------------------
# memoised minimax on masks
# ---------------------------------------------------------------------------------------


def _cards(mask: int) -> list[tuple[int, int]]:
    out = []
    while mask:
        low = mask & -mask
        b = low.bit_length() - 1
        out.append((b >> 4, b & 15))
        mask ^= low
    return out


def _winner(trick: Sequence[tuple[int, int]], leader: int, trump: int) -> int:
    best = 0
    for i in range(1, 4):
        s, r = trick[i]
        bs, br = trick[best]
        if (s == bs and r > br) or (s != bs and s == trump):
            best = i
    return (leader + best) % 4


def _ns(hands: tuple[int, int, int, int], trump: int, leader: int,
        trick: tuple[tuple[int, int], ...], memo: dict) -> int:
    """N-S tricks among the tricks not completed (current one included), exact minimax."""
    if len(trick) == 4:
        w = _winner(trick, leader, trump)
        return (1 if w % 2 == 0 else 0) + _ns(hands, trump, w, (), memo)
    if not trick and hands[leader] == 0:
        return 0
    key = (hands, leader, trick)
    got = memo.get(key)
    if got is not None:
        return got
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    legal = hand
    if trick:
        follow = hand & (_SUIT << (16 * trick[0][0]))
        if follow:
            legal = follow
    values = []
    for s, r in _cards(legal):
        new = list(hands)
        new[seat] = hand & ~(1 << (16 * s + r))
        values.append(_ns(tuple(new), trump, leader, trick + ((s, r),), memo))
    value = max(values) if seat % 2 == 0 else min(values)
    memo[key] = value
    return value


def _state(pos: Position):
    trick = tuple((int(c.suit), int(c.rank)) for c in pos.trick_cards)
    return tuple(pos.masks()), int(pos.trump), int(pos.leader), trick


def memo_ns_tricks(pos: Position) -> int:
    """N-S tricks among the tricks left of ``pos`` (current trick included), best play."""
    if pos.is_finished:
        return 0
    hands, trump, leader, trick = _state(pos)
    return _ns(hands, trump, leader, trick, {})


def memo_card_values(pos: Position) -> dict[Card, int]:
    """``{card: tricks for the side to move among the tricks left}`` in ``pos.legal_cards``
    order, like :func:`ddsolver.solver.solve`, by exact memoised minimax."""
    hands, trump, leader, trick = _state(pos)
    seat = (leader + len(trick)) % 4
    tl = pos.tricks_left
    memo: dict = {}
    out = {}
    for card in pos.legal_cards:
        new = list(hands)
        new[seat] &= ~card.bit
        ns = _ns(tuple(new), trump, leader, trick + ((int(card.suit), int(card.rank)),), memo)
        out[card] = ns if seat % 2 == 0 else tl - ns
    return out


# ---------------------------------------------------------------------------------------
# building positions
# ---------------------------------------------------------------------------------------


def ending(pbn: str, trump: str, leader: str, trick: Sequence[str] = ()) -> Position:
    """A position from PBN remaining hands (``"N:AK.2.. ..."``, sizes may differ while a trick
    is under way), a strain letter, the leader of the current trick and its cards."""
    return Position.from_remaining(pbn, Strain.from_str(trump), Seat.from_str(leader),
                                   [Card.from_str(c) for c in trick])


def random_ending(rng: random.Random, cards_each: int, trick_cards: int = 0,
                  trump: Strain = None) -> Position:
    """A random legal position: ``cards_each`` cards per hand at the start of the current
    trick, then ``trick_cards`` (0..3) random legal cards played to it; random trump (unless
    given) and leader.  The result is rebuilt with ``from_remaining`` (no play history)."""
    deck = [Card(s, r) for s in range(4) for r in range(2, 15)]
    rng.shuffle(deck)
    hands = [Hand(deck[i * cards_each:(i + 1) * cards_each]) for i in range(4)]
    if trump is None:
        trump = Strain(rng.randrange(5))
    leader = Seat(rng.randrange(4))
    pos = Position.from_remaining(hands, trump, leader)
    for _ in range(trick_cards):
        pos.play(rng.choice(pos.legal_cards))
    return Position.from_remaining(pos.masks(), trump, pos.leader, pos.trick_cards)


def random_suit_ending(rng: random.Random, cards_each: int, trick_cards: int,
                       suits: Sequence[int], trump: Strain) -> Position:
    """Like :func:`random_ending` but dealt only from ``suits`` (denser endings: more
    following, ruffing and squeezes per card than a deal from the whole pack)."""
    deck = [Card(s, r) for s in suits for r in range(2, 15)]
    rng.shuffle(deck)
    hands = [Hand(deck[i * cards_each:(i + 1) * cards_each]) for i in range(4)]
    leader = Seat(rng.randrange(4))
    pos = Position.from_remaining(hands, trump, leader)
    for _ in range(trick_cards):
        pos.play(rng.choice(pos.legal_cards))
    return Position.from_remaining(pos.masks(), trump, pos.leader, pos.trick_cards)


# ---------------------------------------------------------------------------------------
# symmetries
# ---------------------------------------------------------------------------------------


def _map_mask(mask: int, perm: Sequence[int]) -> int:
    """Move each suit ``s`` of a card mask to suit ``perm[s]``."""
    out = 0
    for s in range(4):
        out |= ((mask >> (16 * s)) & _SUIT) << (16 * perm[s])
    return out


def map_card(card: Card, perm: Sequence[int]) -> Card:
    return Card(perm[int(card.suit)], card.rank)


def permute_suits(pos: Position, perm: Sequence[int]) -> Position:
    """The same position with suit ``s`` renamed ``perm[s]`` (trump renamed too)."""
    trump = pos.trump if pos.trump == Strain.NOTRUMP else Strain(perm[int(pos.trump)])
    masks = [_map_mask(m, perm) for m in pos.masks()]
    return Position.from_remaining(masks, trump, pos.leader,
                                   [map_card(c, perm) for c in pos.trick_cards])


def rotate_seats(pos: Position, k: int = 1) -> Position:
    """The same position with every hand moved ``k`` seats clockwise (N's cards to E for
    k = 1), the leader too.  The side to move changes when k is odd; its values do not."""
    masks = pos.masks()
    new = [0, 0, 0, 0]
    for s in range(4):
        new[(s + k) % 4] = masks[s]
    return Position.from_remaining(new, pos.trump, Seat(pos.leader).next(k), pos.trick_cards)


def side_of(seat: Seat) -> Side:
    return Seat(seat).side
