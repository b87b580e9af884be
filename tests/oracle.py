"""A plain-Python minimax over small endings: the test oracle for the compiled search.

No pruning beyond alpha-beta, no table: slow but obviously right.  Only for endings of a few
cards per hand.
"""

from __future__ import annotations

import random

from ddsolver.cards import Card, Strain
from ddsolver.deal import Hand
from ddsolver.play import Position
from ddsolver.table import Seat, Side


def ns_tricks(pos: Position) -> int:
    """N-S tricks among the tricks left (current one included), best play by all."""
    if pos.is_finished:
        return 0
    maximise = pos.to_move.side == Side.NS
    best = -1 if maximise else 99
    for card in pos.legal_cards:
        winner = pos.play(card)
        gained = 1 if winner is not None and winner.side == Side.NS else 0
        value = gained + ns_tricks(pos)
        pos.pop()
        best = max(best, value) if maximise else min(best, value)
    return best


def card_values(pos: Position) -> dict:
    """``{card: tricks for the side to move among the tricks left}``, like ``solve``."""
    tl = pos.tricks_left
    mover_ns = pos.to_move.side == Side.NS
    out = {}
    for card in pos.legal_cards:
        winner = pos.play(card)
        gained = 1 if winner is not None and winner.side == Side.NS else 0
        ns = gained + ns_tricks(pos)
        pos.pop()
        out[card] = ns if mover_ns else tl - ns
    return out


def random_ending(rng: random.Random, cards_each: int, trick_cards: int = 0):
    """A random legal position with ``cards_each`` tricks left, ``trick_cards`` (0..3) cards
    already played to the current trick, random trump and leader."""
    deck = [Card(s, r) for s in range(4) for r in range(2, 15)]
    rng.shuffle(deck)
    hands = [deck[i * cards_each:(i + 1) * cards_each] for i in range(4)]
    trump = Strain(rng.randrange(5))
    leader = Seat(rng.randrange(4))
    pos = Position.from_remaining([Hand(h) for h in hands], trump, leader)
    for _ in range(trick_cards):
        pos.play(rng.choice(pos.legal_cards))
    # rebuild as a from_remaining position so that it does not depend on history
    return Position.from_remaining(pos.masks(), trump, pos.leader, pos.trick_cards)
