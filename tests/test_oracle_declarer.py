"""The oracle declarer diagnostic (``benchmarks/diagnostics/oracle_declarer.py``), run in
child processes as every benchmark is (tests import no benchmark): the sampler told the
hidden hands' true shape deals only layouts of that shape, a run writes its rows, and bad
arguments are refused before any deal is played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# In a child process: the first deal of the tuning seed, the declarer's view after an
# opening lead, and the shapes (clubs first) of the layouts dealt with and without the
# oracle, and of the real hidden hands.
_SHAPES = r"""
import json, random, sys
import ai.sampling
from ai.bidding import StandardAmerican
from ai.players import seat_view
from benchmarks.diagnostics import oracle_declarer
from benchmarks.quality.play_strength import DealSet
from ddsolver.cards import Suit

know = sys.argv[1].split(",")
_, _, deal, dealer, vul, auction = next(iter(DealSet(2025).members(0, 1)))
declarer = auction.declarer
leader = declarer.lho
lead = min(deal[leader], key=lambda c: (c.suit, c.rank))
view = seat_view(declarer, deal[declarer], dealer=dealer, vulnerability=vul,
                 auction=auction, played=((leader, lead),), dummy_hand=deal[declarer.partner])
def shapes(samples):
    return sorted({json.dumps([[d[s].length(x) for x in Suit] + [d[s].hcp]
                               for s in view.hidden_seats]) for d in samples.deals})
args = dict(method="auction", system=StandardAmerican(), bid_weights=False)
plain = ai.sampling.sample_deals(view, 60, random.Random(1), **args)
ai.sampling.infer = oracle_declarer.oracle_infer(deal, know)
told = ai.sampling.sample_deals(view, 60, random.Random(1), **args)
real = json.dumps([[deal[s].length(x) for x in Suit] + [deal[s].hcp]
                   for s in view.hidden_seats])
print(json.dumps({"plain": shapes(plain), "told": shapes(told), "real": real}))
"""


def _tool(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "benchmarks.diagnostics.oracle_declarer",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("know", ["shape", "shape,hcp"])
def test_the_oracle_deals_only_the_true_shapes(know):
    r = subprocess.run([sys.executable, "-c", _SHAPES, know], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    real = json.loads(out["real"])
    told = [json.loads(x) for x in out["told"]]
    plain = [json.loads(x) for x in out["plain"]]
    assert told
    for layout in told:
        assert [h[:4] for h in layout] == [h[:4] for h in real]      # the lengths
        if "hcp" in know:
            assert [h[4] for h in layout] == [h[4] for h in real]
    # the auction alone leaves the shapes open
    assert {json.dumps([h[:4] for h in x]) for x in plain} != \
        {json.dumps([h[:4] for h in real])}


def test_a_run_writes_rows(tmp_path):
    out = tmp_path / "rows.jsonl"
    r = _tool("--seed", "2025", "--deals", "1", "--know", "shape", "--out", str(out))
    assert r.returncode == 0, r.stderr
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
def test_bad_arguments_are_refused_before_any_deal_is_played(args, message, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "x.jsonl")]
    r = _tool(*args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert not (tmp_path / "x.jsonl").exists()
