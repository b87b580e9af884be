"""Tests of the batch solves (Solver.solve_layouts, Solver.card_losses): the answers of DDS
2.9.0 on the reference positions, the same answers as Solver.solve layout by layout on
Monte Carlo style batches (two hands redealt), threads, and bad input."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from ddsolver.cards import Card, Strain
from ddsolver.deal import Hand, random_deal
from ddsolver.errors import InvalidNotationError
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat

DATA = Path(__file__).parent / "data"
POSITIONS = [json.loads(line) for line in (DATA / "solve_positions.jsonl").open()]


def _reference_position(p) -> Position:
    return Position.from_remaining(p["remaining_pbn"], Strain.from_str(p["trump"]),
                                   Seat.from_str(p["leader"]), p["current_trick"])


def _expected_row(values) -> np.ndarray:
    row = np.full(52, -1, dtype=np.int8)
    for card, v in values.items():
        row[card.index] = v
    return row


def _batch(rng: random.Random, pos: Position, n: int):
    """``n`` layouts of ``pos`` with the cards of two random seats redealt between them
    (only layouts where the trick in progress stays legal)."""
    masks = list(pos.masks())
    out = []
    while len(out) < n:
        a, b = rng.sample(range(4), 2)
        pool = [x for x in range(64) if (masks[a] | masks[b]) >> x & 1]
        rng.shuffle(pool)
        k = bin(masks[a]).count("1")
        m = list(masks)
        m[a] = sum(1 << x for x in pool[:k])
        m[b] = sum(1 << x for x in pool[k:])
        try:
            Position.from_remaining(m, pos.trump, pos.leader, pos.trick_cards)
        except Exception:
            continue
        out.append(m)
    return out


def _random_position(rng: random.Random) -> Position:
    pos = Position(random_deal(rng), rng.randrange(5), Seat(rng.randrange(4)))
    for _ in range(rng.randrange(0, 44)):
        pos.play(rng.choice(pos.legal_cards))
    return pos


def test_solve_layouts_matches_dds_reference_positions():
    solver = Solver()
    for p in POSITIONS:
        pos = _reference_position(p)
        out = solver.solve_layouts([pos.masks()], pos.trump, pos.leader, pos.trick_cards)
        expected = {Card.from_str(c): v for c, v in p["results"].items()}
        assert out.shape == (1, 52) and out.dtype == np.int8
        assert (out[0] == _expected_row(expected)).all(), p["id"]


def _cases(seed: int, count: int = 40):
    """``count`` random positions, each with 6 layouts and their values by Solver.solve."""
    rng = random.Random(seed)
    single = Solver()
    for _ in range(count):
        pos = _random_position(rng)
        layouts = _batch(rng, pos, 6)
        values = [single.solve(Position.from_remaining(m, pos.trump, pos.leader,
                                                       pos.trick_cards)) for m in layouts]
        yield pos, layouts, values


def test_solve_layouts_equals_solve_layout_by_layout():
    batch_solver = Solver()
    checked = 0
    for pos, layouts, values in _cases(20261202):
        out = batch_solver.solve_layouts(layouts, pos.trump, pos.leader, pos.trick_cards)
        for row, v in zip(out, values):
            assert (row == _expected_row(v)).all()
            checked += 1
    assert checked == 240


def test_card_losses_equal_best_minus_card():
    batch_solver = Solver()
    nonzero = 0
    for pos, layouts, sols in _cases(7):
        common = set(sols[0]).intersection(*sols[1:])
        for card in sorted(common):
            lost = batch_solver.card_losses(layouts, pos.trump, pos.leader, pos.trick_cards,
                                            card)
            expected = [max(v.values()) - v[card] for v in sols]
            assert lost.tolist() == expected
            nonzero += sum(1 for x in expected if x)
    assert nonzero > 20          # the cases where a card loses tricks were exercised


def test_batches_in_two_threads_give_the_same_answers():
    rng = random.Random(11)
    jobs = []
    for _ in range(8):
        pos = _random_position(rng)
        jobs.append((pos, _batch(rng, pos, 5)))
    reference = [Solver().solve_layouts(m, p.trump, p.leader, p.trick_cards) for p, m in jobs]
    solvers = [Solver(), Solver()]

    def run(j):
        pos, layouts = jobs[j]
        return solvers[j % 2].solve_layouts(layouts, pos.trump, pos.leader, pos.trick_cards)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, range(len(jobs))))
    for got, want in zip(results, reference):
        assert (got == want).all()


def test_empty_batch():
    deal = random_deal(random.Random(1))
    out = Solver().solve_layouts(np.zeros((0, 4), dtype=np.uint64), "S", "W")
    assert out.shape == (0, 52)
    lost = Solver().card_losses(np.zeros((0, 4), dtype=np.uint64), "S", "W", (),
                                sorted(deal[Seat.WEST].cards)[0])
    assert lost.shape == (0,)


def _masks():
    return list(random_deal(random.Random(3)).masks())


@pytest.mark.parametrize("layouts, error, words", [
    ([[1.0, 2.0, 3.0, 4.0]], TypeError, "integer"),
    ([["a", "b", "c", "d"]], TypeError, "integer"),
    ([[1, 2, 3]], ValueError, "shape"),
    ([1, 2, 3, 4], ValueError, "shape"),
    ([[-1, 0, 0, 0]], ValueError, "64-bit"),
    (np.array([[-1, 0, 0, 0]]), ValueError, "negative"),
])
def test_bad_layout_arrays(layouts, error, words):
    with pytest.raises(error, match=words):
        Solver().solve_layouts(layouts, "NT", "N")


def test_bad_layouts_name_the_row():
    m = _masks()
    good = list(m)
    shared = list(m)
    shared[1] |= m[0] & -m[0]                   # East also holds North's lowest card
    low = min(Hand(m[0]).cards, key=lambda c: c.bit)    # North's lowest card
    with pytest.raises(ValueError, match=f"^layout 1: North and East both hold {low}$"):
        Solver().solve_layouts([good, shared], "NT", "W")
    outside = list(m)
    outside[2] |= 1                              # bit 0 is no card
    with pytest.raises(ValueError, match="^layout 0: South's mask has bits outside the card "
                                         "ranks \\(bit 0;"):
        Solver().solve_layouts([outside], "NT", "W")
    short = list(m)
    short[3] &= short[3] - 1                     # West one card short
    with pytest.raises(ValueError, match="hand sizes .* cards held: North 13, East 13, South "
                                         "13, West 12$"):
        Solver().solve_layouts([short], "NT", "W")


def test_bad_trick_and_strain():
    m = _masks()
    lead = sorted(random_deal(random.Random(3))[Seat.WEST].cards)[0]
    with pytest.raises(ValueError, match=f"^layout 0: West still holds {lead}, played to the "
                                         f"trick in progress by West$"):
        Solver().solve_layouts([m], "NT", "W", [lead])          # West still holds it
    with pytest.raises(TypeError, match="Card"):
        Solver().solve_layouts([m], "NT", "W", ["SA"])
    with pytest.raises(InvalidNotationError):
        Solver().solve_layouts([m], "X", "W")
    with pytest.raises(InvalidNotationError):
        Solver().solve_layouts([m], "NT", "Q")


def test_card_losses_refuses_a_card_not_held_or_not_playable():
    deal = random_deal(random.Random(3))
    m = list(deal.masks())
    north_card = sorted(deal[Seat.NORTH].cards)[0]
    with pytest.raises(ValueError, match=f"^layout 0: West does not hold {north_card}$"):
        Solver().card_losses([m], "NT", "W", (), north_card)     # West is on lead
    with pytest.raises(TypeError, match="Card"):
        Solver().card_losses([m], "NT", "W", (), "SA")
    # West leads a suit; North (next) plays a card of another suit while holding the suit
    lead = sorted(deal[Seat.WEST].cards)[0]
    m[3] &= ~lead.bit
    other = next(c for c in deal[Seat.NORTH].cards if c.suit != lead.suit)
    assert any(c.suit == lead.suit for c in deal[Seat.NORTH].cards)
    suit = ("clubs", "diamonds", "hearts", "spades")[lead.suit]
    with pytest.raises(ValueError, match=f"^layout 0: North must follow suit \\({suit} led\\) "
                                         f"and may not play {other}$"):
        Solver().card_losses([m], "NT", "W", [lead], other)
    # a layout where North already followed with another suit: it revokes
    revoke = list(m)
    revoke[0] &= ~other.bit
    held = min((c for c in deal[Seat.NORTH].cards if c.suit == lead.suit),
               key=lambda c: c.bit)
    with pytest.raises(ValueError, match=f"^layout 0: North played {other} to the trick in "
                                         f"progress but still holds {held} of the suit led "
                                         f"\\({suit}\\)$"):
        Solver().solve_layouts([revoke], "NT", "W", [lead, other])


def test_engine_batch_refuses_bad_buffers():
    from ddsolver._search import Engine
    engine = Engine()
    hands = np.array([_masks()], dtype=np.uint64)
    with pytest.raises(ValueError, match="shape"):
        engine.values_batch(hands, np.empty((1, 51), dtype=np.int8), 4, 3)
    with pytest.raises(ValueError, match="shape"):
        engine.values_batch(hands, np.empty((2, 52), dtype=np.int8), 4, 3)
    with pytest.raises((TypeError, ValueError)):
        engine.values_batch(hands.astype(np.int64), np.empty((1, 52), dtype=np.int8), 4, 3)
    with pytest.raises((TypeError, ValueError)):
        engine.values_batch(hands, np.empty((1, 52), dtype=np.int16), 4, 3)
    with pytest.raises((TypeError, ValueError)):
        engine.values_batch(np.asfortranarray(np.repeat(hands, 2, axis=0)),
                            np.empty((2, 52), np.int8), 4, 3)
    with pytest.raises(TypeError):
        engine.values_batch(None, np.empty((1, 52), dtype=np.int8), 4, 3)
    with pytest.raises(ValueError, match="trump"):
        engine.values_batch(hands, np.empty((1, 52), dtype=np.int8), 5, 3)
    with pytest.raises(ValueError, match="out must"):
        engine.losses_batch(hands, np.empty(2, dtype=np.int8), 4, 3, (), 0, 2)
    engine.cancel()
    with pytest.raises(KeyboardInterrupt):
        engine.values_batch(hands, np.empty((1, 52), dtype=np.int8), 4, 3)
    engine.clear_cancel()
    out = np.empty((1, 52), dtype=np.int8)
    assert engine.values_batch(hands, out, 4, 3) >= 1
    assert (out >= -1).all() and (out <= 13).all() and (out >= 0).sum() == 13


def test_read_only_layouts_are_accepted():
    hands = np.array([_masks()], dtype=np.uint64)
    hands.setflags(write=False)
    out = Solver().solve_layouts(hands, "NT", "W")
    assert (out >= 0).sum() == 13


RACE_SCRIPT = r"""
import random, sys, threading, time
import numpy as np
from ddsolver.deal import random_deal
from ddsolver._search import Engine

class Slow:
    # an argument whose conversion runs Python code (and lets other threads run)
    def __index__(self):
        time.sleep(0.3)
        return 4

hands = np.array([random_deal(random.Random(5)).masks()] * 30, dtype=np.uint64)
reference = np.empty((30, 52), np.int8)
Engine().values_batch(hands, reference, 4, 0)
engine = Engine()
outcomes = []

def batch():
    out = np.empty((30, 52), np.int8)
    try:
        engine.values_batch(hands, out, Slow(), 0)
        outcomes.append("ok" if (out == reference).all() else "WRONG")
    except RuntimeError:
        outcomes.append("busy")

def load():
    time.sleep(0.35)
    try:
        engine.set_position(list(map(int, hands[0])), Slow(), 1)
        outcomes.append("loaded")
    except RuntimeError:
        outcomes.append("busy")

threads = [threading.Thread(target=f) for f in (batch, batch, load)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(outcomes))
"""


def test_engine_refuses_a_second_search_started_during_argument_conversion():
    """A trump whose __index__ sleeps lets another thread in between the engine's checks
    and its search: the engine must refuse the second search (RuntimeError), not run two
    searches on one context (this crashed the interpreter before the idle check moved
    after the conversions)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", RACE_SCRIPT], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcomes = eval(done.stdout.strip().splitlines()[-1])
    assert "WRONG" not in outcomes and len(outcomes) == 3
    assert outcomes.count("ok") >= 1


def test_layouts_as_python_lists_get_clear_errors():
    with pytest.raises(ValueError, match="shape"):
        Solver().solve_layouts([], "NT", "N")
    with pytest.raises(ValueError, match="64-bit"):
        Solver().solve_layouts([[1 << 15, 1 << 31, 1 << 47, 1 << 64]], "NT", "N")
    with pytest.raises(ValueError, match="rows of 4|shape"):
        Solver().solve_layouts([[1, 2, 3, 4], [1, 2]], "NT", "N")
    with pytest.raises(TypeError, match="integer"):
        Solver().solve_layouts([[1, 2, 3, True]], "NT", "N")
    with pytest.raises(TypeError, match="sequence of Cards"):
        Solver().solve_layouts([_masks()], "NT", "W", None)
