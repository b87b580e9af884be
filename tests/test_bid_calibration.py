"""The hard bidder's calibration diagnostic (``benchmarks/diagnostics/bid_calibration.py``),
run as a command: its rows hold the real gains of the real deal, recomputed here another
way (a fresh DD solve of the contract the system reaches), and bad input is a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.bidding import StandardAmerican, bid_deal
from ddsolver.auction import Auction, Call
from ddsolver.deal import Deal
from ddsolver.scoring import imps, score
from ddsolver.solver import dd_table
from ddsolver.table import Seat, Vulnerability

ROOT = Path(__file__).resolve().parent.parent


def _tool(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "benchmarks.diagnostics.bid_calibration",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("bidcal") / "rows.jsonl"
    # seed 7's deals 5-8 hold simulated decisions (seed 7 board 5: 3NT or 3S)
    r = _tool("run", "--seed", "7", "--start", "4", "--deals", "4", "--samples", "8",
              "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert not Path(str(out) + ".part").exists()
    return out, [json.loads(line) for line in out.read_text().splitlines()]


def _real_score(deal, auction, vul, seat):
    """The side of ``seat``'s double-dummy score of ``auction``'s contract."""
    c = auction.contract
    if c is None:
        return 0
    tricks = dd_table(deal)[c.strain, c.declarer]
    points = score(c, tricks, vul.is_vulnerable(c.declarer))
    return points if c.declarer.side == seat.side else -points


def test_every_deal_has_a_row_and_the_real_gains_are_the_real_deals(rows):
    _, rows = rows
    assert [r["board"] for r in rows] == [5, 6, 7, 8]
    system = StandardAmerican()
    decisions = 0
    for r in rows:
        deal = Deal.from_pbn(r["deal"])
        vul = Vulnerability.coerce(r["vulnerability"])
        auction = bid_deal(deal, Seat.coerce(r["dealer"]), vul, system)
        assert " ".join(str(c) for c in auction.calls) == r["auction"]
        for d in r["decisions"]:
            decisions += 1
            assert d["sim"][0] == 0 and d["real_gain"][0] == 0
            assert d["candidates"][0] == r["auction"].split()[d["at"]]   # the rules' call
            assert 0 <= min(d["slam"]) and max(d["slam"]) <= 1 and d["layouts"] == 8
            seat = Seat.coerce(d["seat"])
            base = None
            for j, call in enumerate(d["candidates"]):
                prefix = Auction(auction.dealer)
                for c in auction.calls[:d["at"]]:
                    prefix.add(c)
                prefix.add(Call.from_str(call))
                while not prefix.is_finished:
                    prefix.add(system.choose(deal[prefix.to_act], prefix, vul))
                got = _real_score(deal, prefix, vul, seat)
                base = got if j == 0 else base
                assert d["real_gain"][j] == imps(got - base), (r["board"], call)
                assert d["real_contract"][j] == (None if prefix.contract is None
                                                 else str(prefix.contract))
    assert decisions >= 1


def test_the_report_prints_the_tables_and_pairs_a_run_with_itself(rows):
    out, _ = rows
    r = _tool("report", str(out), "--against", str(out))
    assert r.returncode == 0, r.stderr
    assert "real minus simulated gain" in r.stdout and "an oracle" in r.stdout
    # the same rows against themselves: every paired difference is zero
    lines = [x for x in r.stdout.splitlines() if x.startswith("| 0.5 | 2.0 |")]
    assert len(lines) == 1 and lines[0].rstrip("| ").endswith("+0.000 ± 0.000")


def test_a_damaged_line_is_counted_and_a_closed_pipe_is_no_error(rows, tmp_path):
    out, _ = rows
    lines = out.read_text().splitlines()
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([lines[0], lines[1][:40], *lines[2:], '{"seed": 7, "bo']))
    r = _tool("report", str(damaged))
    assert r.returncode == 0, r.stderr
    # the cut line in the middle is named; the one cut at the end (an interruption) is not
    assert "1 line(s) that are not JSON skipped (line 2)" in r.stderr, r.stderr
    # `report ... | head`: the reader closes the pipe before the tables are written
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.diagnostics.bid_calibration",
                             "report", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0 and "Traceback" not in err and "Error" not in err, err


def test_rows_with_impossible_values_are_refused_before_anything_is_printed(rows, tmp_path):
    out, good = rows
    row = next(r for r in good if r["decisions"])
    d = row["decisions"][0]
    cases = {"no seed": dict(row, seed="7"), "no board": dict(row, board=1.5),
             "not a call's name": dict(row, decisions=[dict(d, candidates=[["3NT"]] * len(
                 d["candidates"]))]),
             "IMPs from -24 to 24": dict(row, decisions=[dict(d, real_gain=[0] + [10 ** 400] * (
                 len(d["candidates"]) - 1))]),
             "standard error": dict(row, decisions=[dict(d, se=[-1.0] * len(d["se"]))]),
             "slam share": dict(row, decisions=[dict(d, slam=[7.0] * len(d["slam"]))])}
    for k, (words, bad) in enumerate(cases.items()):
        path = tmp_path / f"bad{k}.jsonl"
        path.write_text(json.dumps(good[0]) + "\n" + json.dumps(bad) + "\n")
        for args in (("report", str(path)), ("report", str(out), "--against", str(path))):
            r = _tool(*args)
            assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
            assert f"{path}: row 2 is not a row that 'run' writes" in r.stderr, r.stderr
            assert words in r.stderr and r.stdout == "", (words, r.stderr, r.stdout)


def test_run_refuses_outputs_it_would_destroy_and_a_damaged_cache(tmp_path):
    import os
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)                       # like /dev/null: a rename would replace it
    cache = tmp_path / "dd.jsonl"
    cache.write_text('{"pbn": "N:...", "table": 3}\n{"pbn": "x"}\n')
    out = tmp_path / "rows.jsonl"
    for args, words in ((("--out", str(fifo)), "not a regular file"),
                        (("--out", str(out), "--cache", str(out)), "the same file as --out"),
                        (("--out", str(out), "--cache", ""), "no file name"),
                        (("--out", str(out), "--start", "200000"), "at most 100,000"),
                        (("--out", str(out), "--cache", str(cache)),
                         f"{cache}, line 1: not a row of DD tables")):
        r = _tool("run", "--seed", "7", "--deals", "1", "--samples", "8", *args, timeout=120)
        assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
        assert words in r.stderr, (args, r.stderr)
        assert not out.exists() and not (tmp_path / "rows.jsonl.part").exists()
    assert fifo.exists() and not fifo.is_file()


def test_a_symbolic_link_as_out_writes_its_target_and_kill_keeps_finished_deals(tmp_path):
    import signal
    import time
    target = tmp_path / "target.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    r = _tool("run", "--seed", "7", "--start", "4", "--deals", "1", "--samples", "8",
              "--out", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and len(target.read_text().splitlines()) == 1
    # kill (SIGTERM) after the first deal: the finished deals stay in OUT.part
    out = tmp_path / "killed.jsonl"
    part = tmp_path / "killed.jsonl.part"
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.diagnostics.bid_calibration",
                             "run", "--seed", "7", "--deals", "200", "--samples", "8",
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (part.exists() and part.read_text().count("\n")):
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert f"the finished deals are in {part}" in err and not out.exists()
    assert all(json.loads(line)["seed"] == 7 for line in part.read_text().splitlines())


def test_bad_input_is_a_one_line_error(tmp_path):
    (tmp_path / "text.jsonl").write_text("not json\n")
    (tmp_path / "other.jsonl").write_text('{"a": 1}\n')
    short = {"seed": 7, "board": 1, "decisions": [{"candidates": ["3NT", "Pass"], "sim": [0],
                                                   "se": [0], "slam": [0], "real_gain": [0]}]}
    (tmp_path / "short.jsonl").write_text(json.dumps(short) + "\n")
    whole = {**short, "decisions": []}
    (tmp_path / "whole.jsonl").write_text(json.dumps(whole) + "\n")
    for args, words in ((("report", str(tmp_path / "missing.jsonl")), "no such file"),
                        (("report", str(tmp_path)), "it is a directory"),
                        (("report", str(tmp_path / "text.jsonl")), "no rows"),
                        (("report", str(tmp_path / "other.jsonl")), "no seed"),
                        (("report", str(tmp_path / "short.jsonl")), "differ in length"),
                        (("report", str(tmp_path / "whole.jsonl"), str(tmp_path / "whole.jsonl")),
                         "seed 7 board 1 twice"),
                        (("run", "--seed", "7", "--deals", "0", "--out", "x.jsonl"),
                         "a count of deals"),
                        (("run", "--seed", "7", "--deals", "1", "--out", str(tmp_path)),
                         "it is a directory"),
                        (("run", "--seed", "7", "--deals", "1", "--out", ""), "no file name"),
                        (("run", "--seed", "7", "--deals", "1", "--out", "x.jsonl", "--cache",
                          str(tmp_path / "none" / "dd.jsonl")), "no folder")):
        r = _tool(*args, timeout=60)
        assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
        assert words in r.stderr, (args, r.stderr)
        if args[0] == "report" or "--cache" in args:       # argparse: the subcommand's usage
            assert f"bid_calibration {args[0]}" in r.stderr, r.stderr
