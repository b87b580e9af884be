"""pytest-benchmark suites for ddsolver's solver, every answer checked against DDS's.

    python -m pytest benchmarks/suites/test_bench_solver.py --benchmark-enable -q
    python -m pytest benchmarks/ --benchmark-enable --benchmark-json out.json   # with DDS

Skipped as a whole when ``ddsolver.solver`` cannot be imported (not yet built).  The
reference answers come from DDS 2.9.0 (``tests/data/list100.txt`` and
``tests/data/solve_positions.jsonl``).  Every timed round uses a fresh :class:`Solver`, so
no round profits from the transposition table of the one before.  Node counts go to
``extra_info["nodes"]`` of the benchmark JSON.  For DDS's own timings on the same items see
``benchmarks/suites/test_bench_dds.py``; for per-item statistics and memory ``compare_dds.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ddsolver.solver")

from benchmarks.bench_sets import DATA, load_positions, position_item
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import Hand
from ddsolver.play import Position
from ddsolver.solver import Solver


@pytest.fixture(scope="module")
def list100():
    return read_dds_file(DATA / "list100.txt")


def _fresh_solver():
    return Solver()


def _position(item) -> Position:
    return Position.from_remaining([Hand(m) for m in item.masks], item.trump, item.leader,
                                   list(item.trick))


@pytest.mark.parametrize("index", [0, 1])
def test_bench_dd_table(benchmark, list100, index):
    """Full DD table of list100 deals 0 and 1 (DDS: ~0.3-0.6 s each on this machine)."""
    r = list100[index]
    holder = {}

    def setup():
        holder["s"] = _fresh_solver()
        return (holder["s"], r.deal), {}

    table = benchmark.pedantic(lambda s, d: s.dd_table(d), setup=setup, rounds=1,
                               iterations=1)
    benchmark.extra_info["nodes"] = holder["s"].nodes
    assert np.array_equal(table.to_array(), r.table)


@pytest.mark.parametrize("solutions", ["best", "allcards"])
def test_bench_trick1_file_strain(benchmark, list100, solutions):
    """Trick 1 of list100 deals 0..4 with the file's strain and leader; checked vs FUT."""
    records = list100[:5]
    positions = [Position(r.deal, trump=r.trump, leader=r.leader) for r in records]
    holder = {}

    def setup():
        holder["s"] = _fresh_solver()
        return (holder["s"],), {}

    def run_all(s):
        if solutions == "best":
            return [s.solve_best(p) for p in positions]
        return [s.solve(p) for p in positions]

    out = benchmark.pedantic(run_all, setup=setup, rounds=1, iterations=1)
    benchmark.extra_info["nodes"] = holder["s"].nodes
    benchmark.extra_info["items_per_round"] = len(positions)
    for r, got in zip(records, out):
        if solutions == "best":
            assert got == max(g.score for g in r.future_tricks), r
        else:
            assert got == r.lead_scores(), r


def test_bench_positions_allcards(benchmark):
    """Every legal card of the first 30 reference positions (mid-play, many mid-trick)."""
    rows = load_positions(30)
    positions = [_position(position_item(row)) for row in rows]
    holder = {}

    def setup():
        holder["s"] = _fresh_solver()
        return (holder["s"],), {}

    out = benchmark.pedantic(lambda s: [s.solve(p) for p in positions], setup=setup,
                             rounds=1, iterations=1)
    benchmark.extra_info["nodes"] = holder["s"].nodes
    benchmark.extra_info["items_per_round"] = len(positions)
    for row, got in zip(rows, out):
        assert {str(c): v for c, v in got.items()} == row["results"], row["id"]
