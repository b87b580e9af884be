"""The oracle declarer diagnostic (``benchmarks/diagnostics/oracle_declarer.py``): the
sampler told the hidden hands' true shape deals only layouts of that shape, and the real
``infer`` is back in place after every deal."""

import json
import random

import pytest

import ai.sampling
from ai.bidding import StandardAmerican
from ai.players import seat_view
from benchmarks.diagnostics import oracle_declarer
from benchmarks.quality.play_strength import DealSet
from ddsolver.cards import Suit


def _first_member():
    return next(iter(DealSet(2025).members(0, 1)))


def _shape(hand):
    return tuple(hand.length(s) for s in Suit)


@pytest.mark.parametrize("know", [("shape",), ("shape", "hcp")])
def test_the_oracle_deals_only_the_true_shapes(know):
    _, _, deal, dealer, vul, auction = _first_member()
    declarer = auction.declarer
    leader = declarer.lho
    lead = min(deal[leader], key=lambda c: (c.suit, c.rank))     # any opening lead
    view = seat_view(declarer, deal[declarer], dealer=dealer, vulnerability=vul,
                     auction=auction, played=((leader, lead),),
                     dummy_hand=deal[declarer.partner])
    system = StandardAmerican()
    plain = ai.sampling.sample_deals(view, 60, random.Random(1), method="auction",
                                     system=system, bid_weights=False)
    assert {_shape(d[s]) for d in plain.deals for s in view.hidden_seats} != \
        {_shape(deal[s]) for s in view.hidden_seats}     # the auction alone leaves shapes open
    ai.sampling.infer = oracle_declarer.oracle_infer(deal, know)
    try:
        told = ai.sampling.sample_deals(view, 60, random.Random(1), method="auction",
                                        system=system, bid_weights=False)
    finally:
        ai.sampling.infer = oracle_declarer._real_infer
    assert len(told) > 0
    for d in told.deals:
        for s in view.hidden_seats:
            assert _shape(d[s]) == _shape(deal[s])
            if "hcp" in know:
                assert d[s].hcp == deal[s].hcp


def test_a_run_writes_rows_and_puts_the_real_infer_back(tmp_path):
    out = tmp_path / "rows.jsonl"
    assert oracle_declarer.main(["--seed", "2025", "--deals", "1", "--know", "shape",
                                 "--out", str(out)]) == 0
    assert ai.sampling.infer is oracle_declarer._real_infer
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1
    assert rows[0]["player"] == "hard+shape" and rows[0]["test"] == "declarer"
    assert rows[0]["loss"] >= 0


@pytest.mark.parametrize("args, message", [
    (["--know", "aces"], "--know takes a comma list of shape, hcp"),
    (["--deals", "-1"], "--deals and --start must be >= 0"),
    (["--start", "-1"], "--deals and --start must be >= 0"),
    (["--threads", "0"], "--threads must be >= 1"),
    (["--out", "{tmp}"], "is a folder"),
    (["--out", "{tmp}/no/such/folder/x.jsonl"], "no folder"),
])
def test_bad_arguments_are_refused_before_any_deal_is_played(args, message, capsys,
                                                            tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "x.jsonl")]
    with pytest.raises(SystemExit) as info:
        oracle_declarer.main(args)
    assert info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()

