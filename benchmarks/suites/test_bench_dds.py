"""DDS 2.9.0 (endplay's wheel, via ctypes) as a baseline: answers checked, then timed.

    python -m pytest benchmarks/suites/test_bench_dds.py --benchmark-enable -q
    python -m pytest benchmarks/suites/test_bench_dds.py -m slow -q      # the full cross-checks

Skipped when endplay is not installed (``pip install endplay==0.5.12``).  Each timed call is
preceded by an untimed solve of another deal, so DDS starts every timed call with a fresh
transposition table, as it would for a new deal.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

pytest.importorskip("endplay")

from benchmarks.bench_sets import TRICK1_JOBS, build_jobs, load_deals, load_positions, position_item
from benchmarks.dds_ctypes import DDS, FutureTricks, TableResults
from ddsolver.cards import Card, Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.table import Seat


@pytest.fixture(scope="module")
def dds() -> DDS:
    d = DDS(threads=1)
    assert d.threads() == 1
    return d


@pytest.fixture(scope="module")
def list100():
    from benchmarks.bench_sets import DATA

    return read_dds_file(DATA / "list100.txt")


def _reset(dds: DDS) -> None:
    """Solve an unrelated deal so that the next call starts from an empty table."""
    _, deal, _ = load_deals("random", 1)[0]
    dds.solve_board(dds.board(deal, Strain.HEARTS, Seat.SOUTH), -1, 1, 1)


# --------------------------------------------------------------------------------------
# DDS agrees with its own test file (ties ddsolver.ddsfiles' reading to DDS's answers)


def _check_tables(dds, records):
    for r in records:
        assert np.array_equal(dds.calc_dd_table(r.deal), r.table), r


def _check_fut(dds, records):
    for r in records:
        fut = dds.solve_board(dds.board(r.deal, r.trump, r.leader), -1, 3, 1)
        assert dds.card_scores(fut) == r.lead_scores(), r


def _check_par(dds, records):
    for r in records:
        score, contracts = dds.dealer_par(r.table, r.dealer, r.vulnerability)
        assert (score, tuple(contracts)) == (r.par.score, r.par.contracts), r


def test_dds_tables_match_list100_first_deals(dds, list100):
    _check_tables(dds, list100[:4])


def test_dds_fut_and_par_match_list100(dds, list100):
    _check_fut(dds, list100[:30])
    _check_par(dds, list100)


@pytest.mark.slow
def test_dds_matches_all_of_list100(dds, list100):
    _check_tables(dds, list100)
    _check_fut(dds, list100)


def test_dds_matches_every_reference_position(dds):
    for row in load_positions():
        item = position_item(row)
        fut = dds.solve_board(dds.board(item.masks, item.trump, item.leader, item.trick),
                              -1, 3, 1)
        got = {str(c): s for c, s in dds.card_scores(fut).items()}
        assert got == row["results"], row["id"]


def test_dds_card_scores_expand_equals(dds, list100):
    r = list100[0]
    fut = dds.solve_board(dds.board(r.deal, r.trump, r.leader), -1, 3, 1)
    scores = dds.card_scores(fut)
    assert len(scores) == 13 and fut.cards == 9
    assert scores[Card.from_str("C8")] == scores[Card.from_str("CT")] == 5


# --------------------------------------------------------------------------------------
# timings


@pytest.mark.parametrize("index", [0, 1, 2])
def test_bench_dds_calc_dd_table(benchmark, dds, list100, index):
    r = list100[index]
    td = dds.table_deal(r.deal)
    res = TableResults()
    ref = ctypes.byref(res)
    rc = benchmark.pedantic(dds.CalcDDtable, args=(td, ref), setup=lambda: _reset(dds),
                            rounds=3, iterations=1)
    assert rc == 1
    assert np.array_equal(dds.table_array(res), r.table)


@pytest.mark.parametrize("job", [j[0] for j in TRICK1_JOBS])
@pytest.mark.parametrize("solutions", [1, 3])
def test_bench_dds_solve_trick1(benchmark, dds, job, solutions):
    """SolveBoard at trick 1 on the first 10 random deals (seed 2026), one call per round."""
    workload = "solve" if solutions == 1 else "allcards"
    (jb,) = [j for j in build_jobs("random", workload, 10) if j.name == job]
    structs = [dds.board(it.masks, it.trump, it.leader) for it in jb.items]
    fut = FutureTricks()
    ref = ctypes.byref(fut)

    def run_all():
        for dl in structs:  # consecutive deals differ: no table reuse
            rc = dds.SolveBoard(dl, -1, solutions, 1, ref, 0)
            assert rc == 1

    benchmark.pedantic(run_all, setup=lambda: _reset(dds), rounds=2, iterations=1)
    benchmark.extra_info["items_per_round"] = len(structs)


def test_bench_dds_positions_allcards(benchmark, dds):
    """SolveBoard(-1, 3) on all 300 reference positions, one round = 300 calls."""
    items = [position_item(row) for row in load_positions()]
    structs = [dds.board(it.masks, it.trump, it.leader, it.trick) for it in items]
    fut = FutureTricks()
    ref = ctypes.byref(fut)

    def run_all():
        for dl in structs:
            assert dds.SolveBoard(dl, -1, 3, 1, ref, 0) == 1

    benchmark.pedantic(run_all, setup=lambda: _reset(dds), rounds=3, iterations=1)
    benchmark.extra_info["items_per_round"] = len(structs)
