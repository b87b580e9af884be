"""The hard-bidding benchmark's cheap comparison of another confidence (``--changed-from``):
a board is bid again only when one of its logged decisions would be decided otherwise."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from ai.bidding.quality import changed_boards, decided
from ai.bidding.simulation import SimulationSettings

BASE = SimulationSettings()


def _decision(gains, errors, call=None, reason="simulated"):
    cands = ["3S", "Pass", "4S"][:len(gains)]
    return {"call": call or cands[0], "rules": cands[0], "candidates": cands,
            "gains": gains, "errors": errors, "reason": reason, "samples": 8,
            "seconds": 0.1}


def test_decided_applies_margin_and_confidence_to_the_logged_gains():
    d = _decision([0.0, 0.2, 1.5], [0.0, 0.5, 1.0])
    assert decided(d, 0.5, 2.0) == "3S"          # 1.5 < 2 x 1.0
    assert decided(d, 0.5, 1.0) == "4S"          # the best gain, 1.5 SE
    assert decided(d, 2.0, 0.0) == "3S"          # under the margin
    # no standard error logged (one layout differed): never a departure, as in decide()
    assert decided(_decision([0.0, 0.9], [0.0, None]), 0.5, 0.0) == "3S"
    assert decided(_decision([0.0, 9.0], [0.0, 0.1], reason="out of time"), 0.5, 0) == "3S"


def _row(board, decisions, settings=BASE):
    return {"seed": 7, "board": board, "decisions": decisions, "settings": asdict(settings)}


def test_only_boards_a_new_confidence_decides_otherwise_are_bid_again():
    rows = [_row(1, [_decision([0.0, 0.2, 1.5], [0.0, 0.5, 1.0])]),        # 1.5 SE
            _row(2, [_decision([0.0, 0.2, 2.5], [0.0, 0.5, 1.0], call="4S")]),  # 2.5 SE
            _row(3, [_decision([0.0, -1.0], [0.0, 0.5])])]
    assert [r["board"] for r in changed_boards(rows, replace(BASE, confidence=1.0))] == [1]
    assert [r["board"] for r in changed_boards(rows, replace(BASE, confidence=3.0))] == [2]
    assert changed_boards(rows, replace(BASE, threads=1)) == []
    # a logged call its own settings do not reproduce: bid again, to be safe
    odd = [_row(4, [_decision([0.0, 0.2, 1.5], [0.0, 0.5, 1.0], call="4S")])]
    assert [r["board"] for r in changed_boards(odd, BASE)] == [4]


def test_other_settings_or_none_logged_are_refused():
    rows = [_row(1, [])]
    with pytest.raises(ValueError, match="margin"):
        changed_boards(rows, replace(BASE, margin=0.25))
    with pytest.raises(ValueError, match="samples"):
        changed_boards(rows, replace(BASE, samples=96))
    with pytest.raises(ValueError, match="no settings"):
        changed_boards([{"seed": 7, "board": 1, "decisions": []}], BASE)


def _bench(*args):
    """The benchmark run from the repository's root with ``args``."""
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-m", "benchmarks.quality.hard_bidding", *args],
                          cwd=root, capture_output=True, text=True, timeout=120)


def test_a_bad_changed_from_file_is_a_clear_command_line_error(tmp_path):
    cases = {"missing.jsonl": None, "text.jsonl": "not json\n", "empty.jsonl": "",
             "other.jsonl": '{"a": 1}\n'}
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        r = _bench("--changed-from", str(path))
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert f"--changed-from {path}" in r.stderr
        assert "[Errno" not in r.stderr
    assert "No such file or directory" in _bench("--changed-from",
                                                 str(tmp_path / "missing.jsonl")).stderr
    assert "Is a directory" in _bench("--changed-from", str(tmp_path)).stderr


def test_the_help_is_plain_text_and_names_what_each_option_takes():
    r = _bench("--help")
    assert r.returncode == 0
    assert "python -m benchmarks.quality.hard_bidding" in r.stdout
    assert ":mod:" not in r.stdout and "`" not in r.stdout
    assert "--pass-in-competition yes|no" in r.stdout
    assert "--time-budget SECONDS|none" in r.stdout
    text = " ".join(r.stdout.split())
    assert "layouts of the hidden hands per decision (at most; 1 to MAX_SAMPLES). (default 48)" \
        in text
    assert "SimulationSettings.samples" not in text and "(default no)" in text


def test_errors_name_the_option_and_nothing_to_bid_is_refused():
    r = _bench("--confidence", "-1")
    assert r.returncode == 2 and "argument --confidence: confidence must be" in r.stderr
    for args in (("--deals", "0"), ("--start", "5", "--deals", "5"), ("--count", "0")):
        r = _bench("--threads", "none", *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        error = r.stderr.strip().splitlines()[-1]
        assert "nothing to bid" in error and "threads" not in error


def test_a_setting_added_after_a_run_counts_at_its_default():
    old = asdict(BASE)
    del old["bid_filter"]
    rows = [{"seed": 7, "board": 1, "settings": old,
             "decisions": [_decision([0.0, 0.2, 1.5], [0.0, 0.5, 1.0])]}]
    assert [r["board"] for r in changed_boards(rows, replace(BASE, confidence=1.0))] == [1]
    with pytest.raises(ValueError, match="bid_filter"):
        changed_boards(rows, replace(BASE, bid_filter=True))


def _full_row(seed=7, board=1):
    from ai.bidding.quality import BoardResult
    result = asdict(BoardResult(board, "N:AKQJ.T98.765.432 - - -", "N", "None", "1NT P P P",
                                "1NTN", 7, 90, 90, 0, False, False, False, False, False,
                                False, False))
    return dict(_row(board, [_decision([0.0, 0.2], [0.0, 0.5])]), seed=seed,
                rules=result, hard=dict(result))


def test_a_changed_from_file_with_wrong_fields_names_the_line_and_field(tmp_path):
    import json
    good = _full_row()
    cases = {"no 'hard'": {k: v for k, v in good.items() if k != "hard"},
             "'seed' must be int, not str": dict(good, seed="7"),
             "'decisions' must be list, not str": dict(good, decisions="3S"),
             "'hard' has no 'tricks'": dict(good, hard={k: v for k, v in good["hard"].items()
                                                        if k != "tricks"}),
             "differ in length": dict(good, decisions=[dict(good["decisions"][0],
                                                            gains=[0.0])]),
             "no 'reason'": dict(good, decisions=[{k: v for k, v in
                                                   good["decisions"][0].items()
                                                   if k != "reason"}])}
    for k, (message, row) in enumerate(cases.items()):
        path = tmp_path / f"bad{k}.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps(row) + "\n")
        r = _bench("--changed-from", str(path))
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert f"--changed-from {path}: line 2" in r.stderr and message in r.stderr, r.stderr


def test_the_validation_seed_cannot_enter_through_a_changed_from_file(tmp_path):
    import json

    from ai.bidding.quality import VALIDATION_SEED
    path = tmp_path / "v.jsonl"
    path.write_text(json.dumps(_full_row(seed=VALIDATION_SEED)) + "\n")
    r = _bench("--changed-from", str(path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"validation seed {VALIDATION_SEED}" in r.stderr


@pytest.mark.parametrize("option", [("--confidence", "-1"), ("--confidence", "nan"),
                                    ("--time-budget", "-1"), ("--time-budget", "nan"),
                                    ("--samples", "0")])
def test_bad_settings_are_command_line_errors(option):
    r = _bench(*option, "--deals", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "error:" in r.stderr and option[0].lstrip("-").split("-")[0] in r.stderr


def test_a_run_logged_before_pass_in_competition_existed_allowed_it():
    old = asdict(BASE)
    del old["pass_in_competition"]
    rows = [{"seed": 7, "board": 1, "settings": old, "decisions": []}]
    assert changed_boards(rows, replace(BASE, pass_in_competition=True)) == []
    with pytest.raises(ValueError, match="pass_in_competition"):
        changed_boards(rows, BASE)


def test_merge_reports_checked_rows_once_and_refuses_what_it_cannot_merge(tmp_path):
    import json
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(_full_row(board=1)) + "\n" + json.dumps(_full_row(board=2))
                    + "\n")
    r = _bench("--merge", str(good), "--merge", str(tmp_path / "g*.jsonl"))
    assert r.returncode == 0, r.stderr
    assert "on 2 boards" in r.stdout                  # the file matched twice is read once
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(_full_row(board=2)) + "\n")
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(json.dumps(_full_row(board=3)) + "\n{\"seed\": 7,\n"
                       + json.dumps(_full_row(board=4)) + "\n")
    for args, words in (((str(tmp_path / "none*.jsonl"),), "no file matches"),
                        ((str(tmp_path),), "it is a directory"),
                        ((str(good), "--merge", str(other)), "seed 7 board 2 is in another"),
                        ((str(damaged),), "line 2 is not JSON")):
        r = _bench("--merge", *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert words in r.stderr, (args, r.stderr)


def test_a_damaged_dd_cache_is_named_before_any_bidding(tmp_path):
    cache = tmp_path / "dd_seed7.jsonl"
    cache.write_text('{"pbn": 1}\n{}\n')
    r = _bench("--seed", "7", "--deals", "1", "--cache", str(tmp_path / "dd_seed{seed}.jsonl"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"--cache: {cache}, line 1: not a row of DD tables" in r.stderr
    # the seeds of a --changed-from file are checked too (here 7, not the default seeds)
    import json
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_text(json.dumps(_full_row(seed=7)) + "\n")
    r = _bench("--changed-from", str(earlier), "--confidence", "1",
               "--cache", str(tmp_path / "dd_seed{seed}.jsonl"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"--cache: {cache}, line 1: not a row of DD tables" in r.stderr
