"""Tests of the bidding-quality measure (ai/bidding/quality.py; its benchmark is
benchmarks/quality/bidding_quality.py)."""

from __future__ import annotations

import numpy as np
import pytest

from ai.bidding import StandardAmerican
from ai.bidding.quality import format_table, run, score_board, summarise
from ddsolver.auction import Auction
from ddsolver.contract import game_level
from ddsolver.deal import Deal
from ddsolver.par import par
from ddsolver.scoring import Contract, imps, ns_score
from ddsolver.table import Seat, Vulnerability

SPEC_DEAL = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"


def flat_table(ns: int):
    """A table where N-S take ``ns`` tricks in every strain (E-W the rest)."""
    arr = np.zeros((5, 4), dtype=int)
    arr[:, 0] = arr[:, 2] = ns
    arr[:, 1] = arr[:, 3] = 13 - ns
    return arr


def test_score_board_spec_deal():
    deal = Deal.from_pbn(SPEC_DEAL)
    table = flat_table(10)
    vul = Vulnerability.NONE
    p = par(table, vul, Seat.NORTH).score
    r = score_board(1, deal, Seat.NORTH, vul, table, p, StandardAmerican())
    auction = Auction(Seat.NORTH, r.auction.split())
    assert auction.is_finished
    contract = auction.contract
    assert r.contract == str(contract)
    assert r.tricks == 10
    assert r.score == ns_score(contract, 10, vul)
    assert r.imps == abs(imps(r.score - p))
    assert r.game_makeable and not r.slam_makeable and not r.passed_out


def test_missed_game_is_counted():
    # a deal the system bids to a part-score, with a table saying game makes
    deal = Deal.from_pbn(SPEC_DEAL)
    table = flat_table(10)
    r = score_board(1, deal, Seat.EAST, Vulnerability.NONE, table, 0, StandardAmerican())
    c = Contract.from_str(r.contract) if r.contract != "Pass" else None
    is_ns_game = (c is not None and r.contract[-1] in "NS"
                  and c.level >= game_level(c.strain))
    assert r.game_missed == (not is_ns_game)


def test_summarise_and_table():
    deal = Deal.from_pbn(SPEC_DEAL)
    sa = StandardAmerican()
    results = [score_board(i + 1, deal, Seat.NORTH, Vulnerability.NONE, flat_table(t), 0, sa)
               for i, t in enumerate((10, 3, 12))]
    s = summarise(results)
    assert s["boards"] == 3
    assert s["mean_imps_from_par"] == pytest.approx(sum(r.imps for r in results) / 3)
    assert s["boards_with_makeable_slam"] == 1       # only the table with N-S 12 tricks
    assert s["boards_with_makeable_game"] == 3       # N-S 10, E-W 10, N-S 12
    assert s["standard_error"] == pytest.approx(
        np.std([r.imps for r in results], ddof=1) / np.sqrt(3))
    # every board's IMPs are charged to exactly one cause
    assert sum(b["imps"] for b in s["breakdown"].values()) == sum(r.imps for r in results)
    assert sum(b["boards"] for b in s["breakdown"].values()) == sum(1 for r in results if r.imps)
    assert s["calls"] == sum(len(r.auction.split()) for r in results)
    text = format_table(s)
    assert "mean IMPs per board from par" in text and "| slam missed |" in text
    assert text.count("\n") == 10 + 3 + len(s["breakdown"])


def test_causes():
    deal = Deal.from_pbn(SPEC_DEAL)
    sa = StandardAmerican()
    # the system bids 3NT by North on the spec deal
    r = score_board(1, deal, Seat.NORTH, Vulnerability.NONE, flat_table(10), 430, sa)
    assert r.contract == "3NTN"
    # N-S take 10 tricks in every strain: 4S scores 420, 3NT+1 430: right strain
    assert not r.wrong_strain and r.cause == "other" and r.imps == 0
    # notrump takes 8 tricks, spades 10: 3NT fails where 4S makes -> wrong strain
    t = flat_table(10)
    t[4, 0] = t[4, 2] = 8
    t[4, 1] = t[4, 3] = 5
    r = score_board(1, deal, Seat.NORTH, Vulnerability.NONE, t, 420, sa)
    assert r.wrong_strain and r.cause == "wrong strain" and r.game_failed
    # twelve tricks in every strain: the slam was missed
    r = score_board(1, deal, Seat.NORTH, Vulnerability.NONE, flat_table(12), 990, sa)
    assert r.slam_missed and r.cause == "slam missed"


def test_paired_difference():
    from ai.bidding.quality import paired
    deal = Deal.from_pbn(SPEC_DEAL)
    sa = StandardAmerican()
    results = [score_board(i + 1, deal, Seat.NORTH, Vulnerability.NONE, flat_table(t), 0, sa)
               for i, t in enumerate((10, 3, 12))]
    base = [dict(seed=r.seed, board=r.board, deal=r.deal, imps=r.imps + d)
            for r, d in zip(results, (0, 2, 4))]
    d = paired(results, base)
    assert d["boards"] == 3 and d["better"] == 2 and d["worse"] == 0
    assert d["mean_difference"] == pytest.approx(-2.0)
    assert d["standard_error"] == pytest.approx(np.std([0, -2, -4], ddof=1) / np.sqrt(3))


@pytest.mark.slow
def test_run_with_our_solver():
    results = run(count=2, seed=2024, progress=False)
    assert len(results) == 2
    for r in results:
        assert r.imps >= 0 and r.auction


def test_the_dd_cache_survives_a_cut_line_and_names_a_bad_one(tmp_path):
    import json

    from ai.bidding.quality import load_cache, tables_for
    from ddsolver.deal import random_deals
    from ddsolver.solver import dd_table
    deals = random_deals(3, 2)
    cache = tmp_path / "dd.jsonl"
    tables_for(deals[:1], str(cache), progress=False)
    cache.write_text(cache.read_text() + '{"pbn": "N:AK')     # a run killed mid-line
    assert list(load_cache(str(cache))) == [str(deals[0])]    # the cut line is skipped
    tables = tables_for(deals, str(cache), progress=False)    # ...and dropped, not glued
    assert cache.read_text().endswith("\n") and len(load_cache(str(cache))) == 2
    assert (tables[1] == dd_table(deals[1]).to_array()).all()
    for bad in ('{"pbn": "x", "table": 3}', '{"table": [[1, 2, 3, 4]]}', "not json"):
        cache.write_text(bad + "\n" + json.dumps({"pbn": "y", "table": [[7] * 4] * 5}) + "\n")
        with pytest.raises(ValueError, match=f"{cache}, line 1: not"):
            load_cache(str(cache))
