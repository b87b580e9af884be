"""Tests of ai.match: engine-versus-engine matches (two tables, seats swapped), the
journal (resume, a killed run), PBN output read back, worker processes and Dask.

Matches here are between easy computers with one solver thread and a few boards: the
point is the machinery (same results whatever runs the tables), not strength.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ai.bidding import StandardAmerican
from ai.cli import main as ai_main
from ai.game import BoardResult, pbn_note_text
from ai.match import (
    UNTIMED_SECONDS,
    BoardOutcome,
    JournalError,
    MatchBoard,
    MatchError,
    MatchResult,
    PlayerConfig,
    TableResult,
    TableTask,
    _Journal,
    boards_from_pbn,
    match_games,
    play_table,
    read_journal,
    result_from_game,
    run_match,
    seeded_boards,
)
from ai.robot import LEVELS
from ddsolver.deal import random_deals
from ddsolver.pbn import read_pbn
from ddsolver.scoring import Contract
from ddsolver.table import Seat, Vulnerability

ROOT = Path(__file__).resolve().parent.parent
SEED = 11
#: Easy computers with the fewest layouts: these tests are about the machinery, not strength.
LIGHT = {"samples": 2, "lead_samples": 2, "min_samples": 2}
ONE_THREAD = dict(LIGHT, threads=1)
LIGHT_ARGS = [x for k, v in LIGHT.items() for side in "ab" for x in (f"-{side}", f"{k}={v}")]


def match(boards, **kwargs):
    """:func:`run_match` of the tests' light easy computers, A against B, seed ``SEED``."""
    kwargs.setdefault("seed", SEED)
    kwargs.setdefault("options_a", ONE_THREAD)
    kwargs.setdefault("options_b", ONE_THREAD)
    return run_match(kwargs.pop("a", "easy"), kwargs.pop("b", "easy"), boards, **kwargs)


def tables(result: MatchResult):
    """Every table's result, for comparing two runs (times left out)."""
    return [(b.board, b.open, b.closed) for b in result.boards]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-board match of (light) easy against easy, with its journal and PBN file."""
    folder = tmp_path_factory.mktemp("match")
    journal = folder / "m.journal"
    pbn = folder / "m.pbn"
    result = match(3, journal=journal, pbn=pbn)
    return result, journal, pbn


# -- boards and configurations ---------------------------------------------------------------

def test_seeded_boards_follow_the_standard_cycle_and_extend():
    boards = seeded_boards(5, 4)
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert [b.dealer for b in boards] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert [b.vulnerability for b in boards] == [Vulnerability.NONE, Vulnerability.NS,
                                                 Vulnerability.EW, Vulnerability.BOTH]
    assert [b.deal for b in boards] == random_deals(5, 4)
    assert seeded_boards(5, 2) == boards[:2]
    with pytest.raises(MatchError, match="at least one board"):
        seeded_boards(5, 0)
    with pytest.raises(MatchError, match="integer"):
        seeded_boards("5", 2)


@pytest.mark.parametrize("player, options, message", [
    ("expert", {}, "unknown player 'expert'"),
    ("no_such_module_xyz:Bot", {}, "cannot import"),
    ("ddsolver.cards:Card", {}, "no call\\(view\\) and card\\(view\\)"),
    ("ddsolver.cards:NoSuchThing", {}, "has no 'NoSuchThing'"),
    ("ddsolver.cards:FULL_DECK_MASK", {}, "is not a class"),
    ("easy", {"samples": 0}, "samples must be an integer >= 1"),
    ("easy", {"no_such_setting": 1}, "unknown option .no_such_setting.; the options are .*samples"),
    ("easy", {"seed": 3}, "set by the match"),
    ("easy", {"samples": object()}, "must be a JSON value"),
])
def test_bad_configurations_are_refused_by_name(player, options, message):
    with pytest.raises(MatchError, match=message):
        PlayerConfig.parse(player, options)


def test_configuration_label_and_identity_leave_out_result_neutral_options():
    c = PlayerConfig.parse("hard", {"threads": 2, "samples": 64, "memory_mb": 32})
    assert c.label == "hard(samples=64)"
    assert c.identity() == {"player": "hard", "options": {"samples": 64}}
    # a reproducible computer has no time budget; the rest of its settings are the level's
    settings = c._computer_settings()
    assert settings.samples == 64 and settings.threads == 2
    assert settings.time_budget == settings.lead_time_budget == UNTIMED_SECONDS
    hard = LEVELS["hard"]
    expected = hard.with_(samples=64, memory_mb=32)
    if hard.method == "auction":    # the auction sampler's time caps are lifted too
        expected = expected.with_(sampling=tuple(sorted(
            {**dict(hard.sampling), "max_seconds": None, "bid_seconds": None,
             "play_seconds": None}.items())))
    assert settings.with_(time_budget=hard.time_budget, lead_time_budget=hard.lead_time_budget,
                          threads=None) == expected
    assert c._computer_settings(timed=True) == hard.with_(samples=64, threads=2, memory_mb=32)
    # nor time caps in the auction sampler (those the user set are lifted too)
    c = PlayerConfig.parse("easy", {"method": "auction", "sampling": {"play_seconds": 0.5,
                                                                      "play_weights": True}})
    assert dict(c._computer_settings().sampling) == {
        "max_seconds": None, "bid_seconds": None, "play_seconds": None, "play_weights": True}
    assert dict(c._computer_settings(timed=True).sampling) == {"play_seconds": 0.5,
                                                               "play_weights": True}
    # nor a hard time limit
    c = PlayerConfig.parse("easy", {"time_limit": 2.0})
    assert c._computer_settings().time_limit is None
    assert c._computer_settings(timed=True).time_limit == 2.0


# -- a match ----------------------------------------------------------------------------------

def test_every_board_is_played_at_two_tables_with_seats_swapped(played):
    result, _, pbn = played
    assert [b.board for b in result.boards] == seeded_boards(SEED, 3)
    for b in result.boards:
        for tr, table in ((b.open, 1), (b.closed, 2)):
            r = tr.result
            assert (tr.board, tr.table) == (b.board.number, table)
            assert (r.deal, r.dealer, r.vulnerability) == (b.board.deal, b.board.dealer,
                                                           b.board.vulnerability)
            assert r.contract is not None or len(r.calls) == 4
    names = [(g.board, g.get("Room"), g.get("North"), g.get("East"), g.get("South"),
              g.get("West")) for g in read_pbn(pbn)]
    a = "A: easy(lead_samples=2, min_samples=2, samples=2)"
    b = "B" + a[1:]
    assert names[:2] == [(1, "Open", a, b, a, b), (1, "Closed", b, a, b, a)]
    # the same table played again gives the same result: it depends on the board alone
    b = result.boards[1]
    again = play_table(TableTask(result.a, result.b, SEED, "IMP", b.board, 2, threads=1))
    assert TableResult.from_json(again) == b.closed
    # a record's time is a number of seconds >= 0: a tampered journal's -5 or "x" was
    # read (-5 gave a negative time per table in the summary, "x" was taken for 0)
    for bad in (-5, "x", float("nan"), float("inf"), True):
        with pytest.raises(MatchError, match="'seconds'"):
            TableResult.from_json(dict(again, seconds=bad))
    assert TableResult.from_json({k: v for k, v in again.items() if k != "seconds"}) \
        == b.closed                                              # absent: not timed


def test_imps_and_matchpoints_of_a_match():
    deal = random_deals(3, 1)[0]
    board = MatchBoard.standard(1, deal)

    def table(n, table_no, level, strain, declarer, tricks, score):
        contract = Contract(level, strain, 0, Seat.from_str(declarer))
        r = BoardResult(deal, board.dealer, board.vulnerability, "IMP", (), None, contract,
                        contract.declarer, (), tricks, score)
        return TableResult(n, table_no, r)

    # A +420 against B's +170 (6 IMPs to A); A -50 against B's +100 (150 to B: 4 IMPs);
    # both +400 (a push)
    outcomes = (
        BoardOutcome(board, table(1, 1, 4, "S", "N", 10, 420), table(1, 2, 2, "S", "N", 8, 170)),
        BoardOutcome(board, table(2, 1, 4, "S", "N", 9, -50), table(2, 2, 3, "S", "N", 9, 100)),
        BoardOutcome(board, table(3, 1, 3, "NT", "S", 9, 400), table(3, 2, 3, "NT", "N", 9, 400)),
    )
    a = PlayerConfig.parse("easy")
    m = MatchResult(a, a, 1, "IMP", outcomes)
    assert m.imps == [6, -4, 0]
    assert [b.imps_for("B") for b in outcomes] == [-6, 4, 0]
    assert m.imps_total == 2
    assert m.imps_mean == pytest.approx(2 / 3)
    # sample standard deviation of (6, -4, 0) is sqrt(76/3); over sqrt(3)
    assert m.imps_se == pytest.approx(math.sqrt(76 / 3) / math.sqrt(3))
    assert [b.matchpoints for b in outcomes] == [2, 0, 1]
    assert m.mp_mean == pytest.approx(50.0)
    assert m.mp_se == pytest.approx(50 / math.sqrt(3))
    text = m.summary(matchpoints=True)
    assert "A: +0.67 IMPs/board +- 2.91 (standard error); +2 IMPs in all" in text
    assert "A: 50.0% of the matchpoints +- 28.9" in text
    one = MatchResult(a, a, 1, "IMP", outcomes[:1])
    assert one.imps_mean == 6 and math.isnan(one.imps_se)
    assert "+- n/a" in one.summary()


# -- PBN ----------------------------------------------------------------------------------------

def test_pbn_of_a_match_reads_back_to_the_same_auctions_play_and_scores(played):
    result, _, pbn = played
    games = read_pbn(pbn)
    assert len(games) == 6
    by_key = {(b.board.number, t.table): t for b in result.boards for t in (b.open, b.closed)}
    for g in games:
        table = {"Open": 1, "Closed": 2}[g.get("Room")]
        r = by_key[(g.board, table)].result
        assert g.deal == r.deal and g.dealer == r.dealer and g.vulnerability == r.vulnerability
        assert g.calls == list(r.calls)
        assert [e.note_text for e in g.auction.entries] == [
            pbn_note_text(e.text) for e in r.explanations]
        assert all(e.text for e in r.explanations)
        assert [(pc.seat, pc.card) for pc in g.play_sequence] == list(r.play)
        if r.contract is None:
            assert g.get("Contract") == "Pass" and r.score == 0
        else:
            assert g.contract == r.contract and g.declarer == r.declarer
            assert g.result == r.tricks
            g.check_play()  # every card legal, replayed by the rules
        assert g.get("Score") == f"NS {r.score}"
        imps_a = next(b.imps for b in result.boards if b.board.number == g.board)
        assert g.get("ScoreIMP") == f"NS {imps_a if table == 1 else -imps_a}"
        back = result_from_game(g)
        assert back.explanations == tuple(e.note_text for e in g.auction.entries)
        assert back == dataclasses.replace(r, explanations=back.explanations)
    # and the file's games are what match_games gives
    assert read_pbn(pbn) == match_games(result)


def test_result_from_game_refuses_a_score_that_is_not_the_result(played):
    _, _, pbn = played
    game = next(g for g in read_pbn(pbn) if g.contract is not None)
    game.set_tag("Score", f"NS {int(game.get('Score').split()[1]) + 10}")
    with pytest.raises(Exception, match="is not the score of"):
        result_from_game(game)
    game.set_tag("Score", "lots")
    with pytest.raises(Exception, match="bad Score tag"):
        result_from_game(game)


def test_boards_from_pbn_count_each_board_once(played, tmp_path):
    result, journal, pbn = played
    boards = boards_from_pbn(pbn)
    assert boards == [b.board for b in result.boards]
    assert boards_from_pbn(pbn, 2) == boards[:2]
    # a match over the file's boards is the same match: the journal serves it whole
    copy = tmp_path / "j"
    shutil.copy(journal, copy)
    again = match(boards, journal=copy)
    assert again.played == 0 and tables(again) == tables(result)
    games = read_pbn(pbn)
    games[2].remove_tag("Play")
    games[2].set_deal(random_deals(99, 1)[0])  # board 2, open room: another deal
    with pytest.raises(MatchError, match="board 2 appears twice with different deals"):
        boards_from_pbn(games_text(games))
    games = read_pbn(pbn)
    games[0].remove_tag("Play")
    games[0].set_tag("Deal", "")
    with pytest.raises(MatchError, match="board 1 .* has no complete deal"):
        boards_from_pbn(games_text(games))


def test_boards_from_pbn_refuses_an_empty_string_naming_no_file():
    """"" was read as empty PBN text and refused with "the file holds no board" (no file was
    named); an empty or blank string is a ValueError saying what the function takes, while
    blank PBN text (with a line break) is still text without a board."""
    for empty in ("", "   "):
        with pytest.raises(ValueError, match="^boards_from_pbn needs a PBN file's path or "
                                             "PBN text, not an empty string$") as info:
            boards_from_pbn(empty)
        assert isinstance(info.value, MatchError)
    with pytest.raises(MatchError, match="^the file holds no board$"):
        boards_from_pbn("\n\n")


def games_text(games) -> str:
    from ddsolver.pbn import dumps_pbn
    return dumps_pbn(games)


# -- same results whatever plays the tables ------------------------------------------------

def test_worker_processes_give_the_same_results(played):
    result, _, _ = played
    pooled = match(2, workers=2)
    assert pooled.played == 4 and pooled.workers == 2
    assert tables(pooled) == tables(result)[:2]


def test_a_dask_cluster_gives_the_same_results(played):
    distributed = pytest.importorskip("distributed")
    result, _, _ = played
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        on_dask = match(2, scheduler=cluster.scheduler_address)
        with distributed.Client(cluster, set_as_default=False) as client:
            one = match([result.boards[2].board], scheduler=client)
    assert on_dask.workers is None
    assert tables(on_dask) == tables(result)[:2]
    assert tables(one) == tables(result)[2:]


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("ai.match.DASK_CONNECT_TIMEOUT", 1)
    with pytest.raises(MatchError, match="cannot reach the Dask scheduler"):
        match(1, scheduler="tcp://127.0.0.1:1")


def test_a_malformed_scheduler_address_is_refused_before_anything_is_played(tmp_path,
                                                                              monkeypatch):
    distributed = pytest.importorskip("distributed")

    def no_client(*args, **kwargs):
        raise AssertionError("a Dask client was created")

    monkeypatch.setattr(distributed, "Client", no_client)
    journal = tmp_path / "m.journal"
    for address, why in (("nonsense", "no port"),
                         ("tcp://host:notaport", "the port 'notaport' is not a number")):
        with pytest.raises(MatchError,
                           match=f"bad Dask scheduler address '{address}': {why}"):
            match(1, scheduler=address, journal=journal)
    assert not journal.exists()


# -- the journal ------------------------------------------------------------------------------

def test_a_rerun_skips_the_journal_and_an_extension_plays_only_new_boards(played, tmp_path):
    result, journal, _ = played
    copy = tmp_path / "j"
    shutil.copy(journal, copy)
    again = match(3, journal=copy, options_a=dict(LIGHT, threads=2))  # threads change nothing
    assert again.played == 0 and tables(again) == tables(result)
    longer = match(4, journal=copy, progress=True)
    assert longer.played == 2 and tables(longer)[:3] == tables(result)
    header, records = read_journal(copy)
    assert header["seed"] == SEED and len(records) == 8
    assert sorted((r["board"], r["table"]) for r in records) == [
        (n, t) for n in range(1, 5) for t in (1, 2)]


@pytest.mark.parametrize("change, what", [
    ({"seed": SEED + 1}, "seed"),
    ({"options_a": dict(LIGHT, samples=4)}, "a"),
    ({"b": "medium"}, "b"),
    ({"scoring": "MP"}, "scoring"),
    ({"timed": True}, "timed"),
])
def test_a_journal_of_another_match_is_refused(played, tmp_path, change, what):
    _, journal, _ = played
    copy = tmp_path / "j"
    shutil.copy(journal, copy)
    before = copy.read_bytes()
    with pytest.raises(JournalError, match=f"belongs to another match \\(different {what}"):
        match(3, journal=copy, **change)
    assert copy.read_bytes() == before


def test_a_damaged_last_line_is_dropped_and_other_damage_refused(played, tmp_path):
    result, journal, _ = played
    lines = journal.read_bytes().split(b"\n")[:-1]
    assert len(lines) == 7
    # killed while writing board 3's second table: the record is cut off
    copy = tmp_path / "cut"
    copy.write_bytes(b"\n".join(lines[:-1]) + b"\n" + lines[-1][:40])
    again = match(3, journal=copy)
    assert again.played == 1 and tables(again) == tables(result)
    header, records = read_journal(copy)
    assert len(records) == 6
    assert all(json.loads(x) for x in copy.read_bytes().split(b"\n")[:-1])
    # damage before the last line is not a killed run: refused, file untouched
    bad = tmp_path / "bad"
    bad.write_bytes(b"\n".join(lines[:3] + [b"{not json"] + lines[3:]) + b"\n")
    with pytest.raises(JournalError, match="line 4: not a JSON record"):
        match(3, journal=bad)
    # a record that does not hold together (score of another result)
    wrong = tmp_path / "wrong"
    rec = json.loads(lines[1])
    rec["score"] += 10
    wrong.write_bytes(b"\n".join([lines[0], json.dumps(rec).encode()]) + b"\n")
    with pytest.raises(JournalError, match="line 2: board 1, table 1: the saved score"):
        match(3, journal=wrong)
    # or a play that breaks the rules (the first two cards of the play swapped)
    rec = json.loads(lines[1])
    rec["play"][0], rec["play"][1] = rec["play"][1], rec["play"][0]
    wrong.write_bytes(b"\n".join([lines[0], json.dumps(rec).encode()]) + b"\n")
    with pytest.raises(JournalError, match="line 2: board 1, table 1: card 1 of the saved "
                                           "play"):
        match(3, journal=wrong)
    # a journal of the same match over other deals
    other = tmp_path / "other"
    rec = json.loads(lines[1])
    rec["board"] = 2
    other.write_bytes(b"\n".join([lines[0], json.dumps(rec).encode()]) + b"\n")
    with pytest.raises(JournalError, match="board 2 of the journal has another deal"):
        match(3, journal=other)
    for text in ('[Event "x"]\n', '[Event "x"]', '{"a": 1}\n'):
        notjournal = tmp_path / "x.pbn"
        notjournal.write_text(text)
        with pytest.raises(JournalError, match="not a ddsolver-ai match journal"):
            match(3, journal=notjournal)
        assert notjournal.read_text() == text
    # killed while writing the header: started afresh
    cut = tmp_path / "cut-header"
    cut.write_bytes(lines[0][:15])
    assert match([result.boards[0].board], journal=cut).played == 2
    assert read_journal(cut)[0] == read_journal(journal)[0]


def test_two_runs_cannot_write_one_journal(played, tmp_path):
    result, journal, _ = played
    copy = tmp_path / "j"
    shutil.copy(journal, copy)
    header, _ = read_journal(copy)
    holder = _Journal(copy, header)
    try:
        with pytest.raises(JournalError, match="being written by another run"):
            match(3, journal=copy)
    finally:
        holder.close()
    assert match(3, journal=copy).played == 0


def test_a_killed_run_resumes_to_the_same_results(played, tmp_path):
    """Kill -9 a running match once two tables are in its journal; what the journal held is
    still there, and the same command finishes the match with the same results."""
    result, _, _ = played
    out = tmp_path / "k.pbn"
    journal = tmp_path / "k.pbn.journal"
    cmd = [sys.executable, "-m", "ai", "match", "easy", "easy", "-n", "3", "--seed",
           str(SEED), *LIGHT_ARGS, "-a", "threads=1", "-b", "threads=1", "-q", "-o", str(out),
           "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    seen = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if journal.exists():
                seen = [x for x in journal.read_bytes().split(b"\n")[:-1]]
                if len(seen) >= 3:
                    break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.02)
        assert proc.poll() is None, "the match ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
        proc.stdout.close()
        proc.stderr.close()
    assert not out.exists()  # the PBN file is written when the match is over
    header, records = read_journal(journal)
    kept = len(records)
    assert 2 <= kept < 6
    assert journal.read_bytes().split(b"\n")[:len(seen)] == seen
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()
    summary = json.loads(done.stdout)
    assert summary["tables_played"] == 6 - kept
    resumed = match(3, journal=journal)
    assert resumed.played == 0 and tables(resumed) == tables(result)
    assert read_pbn(out) == match_games(resumed)
    # the summary of a run that only read the journal says so
    last = resumed.summary().splitlines()[-1]
    assert "for 0 table(s) played now (6 more from the journal)" in last, last
    assert "a table on average over all 6" in last


# -- other players ------------------------------------------------------------------------------

class SystemLowest:
    """Bids by the system, plays its lowest legal card; records the seeds it is given."""

    seeds: list = []

    def __init__(self, seed=None, tag="x"):
        self.sa = StandardAmerican()
        self.tag = tag
        SystemLowest.seeds.append(seed)

    def call(self, view):
        return self.sa.choose(view.original_hand, view.auction, view.vulnerability)

    def card(self, view):
        return min(view.legal_cards, key=lambda c: (c.rank, c.suit))


class Revoker(SystemLowest):
    """Plays a card it may not play."""

    def card(self, view):
        return next(iter(view.unseen_cards))


def test_a_player_class_by_import_path_with_options_and_seeds():
    SystemLowest.seeds = []
    result = match(2, a="test_match:SystemLowest", options_a={"tag": "y"})
    assert result.a.label == "test_match:SystemLowest(tag='y')"
    assert sorted(SystemLowest.seeds) == sorted(
        f"{SEED}:{n}:{t}:{s}" for n in (1, 2) for t, seats in ((1, "NS"), (2, "EW"))
        for s in seats)
    for b in result.boards:  # A plays its lowest card whenever it is on play
        for tr in (b.open, b.closed):
            r = tr.result
            a_seats = {Seat.NORTH, Seat.SOUTH} if tr.table == 1 else {Seat.EAST, Seat.WEST}
            assert len(r.play) in (0, 52)
            if r.play:
                assert any(s in a_seats for s, _ in r.play)


def test_a_player_that_breaks_the_rules_stops_the_match_naming_the_table():
    with pytest.raises(MatchError, match="board 1, table [12]: IllegalCardError: "):
        match(1, a="test_match:Revoker", options_a={})


# -- the command ------------------------------------------------------------------------------

def test_the_match_command(played, tmp_path):
    result, journal, _ = played
    out = tmp_path / "c.pbn"
    shutil.copy(journal, str(out) + ".journal")
    runner = CliRunner()
    args = ["match", "easy", "easy", "-n", "2", "--seed", str(SEED), *LIGHT_ARGS, "-o",
            str(out), "-q"]
    res = runner.invoke(ai_main, args + ["--matchpoints"])
    assert res.exit_code == 0, res.output
    first_two = MatchResult(result.a, result.b, SEED, "IMP", result.boards[:2])
    mean = first_two.imps_mean
    assert f"A: {mean:+.2f} IMPs/board" in res.output
    assert "% of the matchpoints" in res.output
    assert "time: " in res.output and "for 0 table(s)" in res.output
    assert [g.board for g in read_pbn(out)] == [1, 1, 2, 2]
    res = runner.invoke(ai_main, args + ["--json"])
    data = json.loads(res.output)
    assert data["imps_total"] == sum(b.imps for b in result.boards[:2])
    assert [r["imps"] for r in data["results"]] == [b.imps for b in result.boards[:2]]
    res = runner.invoke(ai_main, ["match", "expert", "easy", "-o", str(tmp_path / "e.pbn")])
    assert res.exit_code == 2 and "unknown player 'expert'" in res.output
    res = runner.invoke(ai_main, ["match", "easy", "easy", "--deals", str(tmp_path / "no.pbn")])
    assert res.exit_code == 2 and "no such file" in res.output.lower()
    res = runner.invoke(ai_main, ["match", "easy", "easy", "-a", "samples"])
    assert res.exit_code == 2 and "expected KEY=VALUE" in res.output
    res = runner.invoke(ai_main, args + ["--seed", "12"])
    assert res.exit_code == 2 and "belongs to another match" in res.output


def test_the_journal_and_the_pbn_file_must_be_two_files(tmp_path):
    """`-o m.pbn --journal m.pbn`: the PBN file written at the end would replace the
    journal (a rerun then refuses it: "not a ddsolver-ai match journal"); refused before
    anything is played, also through another spelling of the same path or a link."""
    pbn = tmp_path / "m.pbn"
    with pytest.raises(MatchError, match="the journal and the PBN file are the same file"):
        match(1, journal=pbn, pbn=pbn)
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.pbn"
    link.symlink_to(pbn)
    with pytest.raises(MatchError, match="the journal and the PBN file are the same file"):
        match(1, journal=tmp_path / "sub" / ".." / "m.pbn", pbn=link)
    assert not pbn.exists()
    res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "-n", "1", "-o", str(pbn),
                                       "--journal", str(pbn)])
    assert res.exit_code == 2 and "the same file" in res.output, res.output
    assert not pbn.exists()


def test_a_match_of_more_boards_than_the_cap_is_refused_at_once(tmp_path):
    """-n 100000000000 dealt every board before the first was played: memory without end
    and no table played.  Refused at once (MAX_BOARDS), as a board count that is not an
    integer is (1.0 was a raw TypeError)."""
    from ai.match import MAX_BOARDS

    started = time.perf_counter()
    with pytest.raises(MatchError, match="at most 100,000 boards"):
        seeded_boards(1, MAX_BOARDS + 1)
    with pytest.raises(MatchError, match="at most 100,000 boards"):
        run_match("easy", "easy", 10 ** 11, journal=tmp_path / "j")
    with pytest.raises(MatchError, match="a number of boards or MatchBoard"):
        run_match("easy", "easy", 1.0)
    assert len(seeded_boards(1, 3)) == 3 and time.perf_counter() - started < 5
    res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "-n", "100000000000", "-o",
                                       str(tmp_path / "m.pbn")])
    assert res.exit_code == 2 and "1<=x<=100000" in res.output, res.output
    assert not os.path.exists(tmp_path / "j") and not os.path.exists(tmp_path / "m.pbn")


def test_bad_counts_and_options_are_match_errors(tmp_path):
    """boards_from_pbn(path, 0) gave one board ("at most 0"), a count of text and options
    that are not a mapping were raw TypeErrors: MatchErrors, as documented."""
    deals = tmp_path / "d.pbn"
    deals.write_text("\n\n".join(f'[Board "{i}"]\n[Deal "{d.to_pbn()}"]'
                                 for i, d in enumerate(random_deals(1, 3), 1)))
    assert len(boards_from_pbn(deals, 2)) == 2 and len(boards_from_pbn(deals)) == 3
    for count in (0, -1, "2", 1.5, True):
        with pytest.raises(MatchError, match="count"):
            boards_from_pbn(deals, count)
    for options in ([1], "samples=2", 5):
        with pytest.raises(MatchError, match="options"):
            PlayerConfig.parse("easy", options)
        with pytest.raises(MatchError, match="options"):
            run_match("easy", "easy", 1, options_b=options)


def test_numpy_integers_count_as_integers():
    """A NumPy match seed or board count was refused as "must be an integer"."""
    import numpy as np
    assert seeded_boards(np.int64(3), np.int32(2)) == seeded_boards(3, 2)
    a = run_match("easy", "easy", np.int64(1), seed=np.int64(5), workers=np.int64(1),
                  options_a={"threads": 1}, options_b={"threads": 1})
    b = run_match("easy", "easy", 1, seed=5, options_a={"threads": 1},
                  options_b={"threads": 1})
    assert [o.imps for o in a.boards] == [o.imps for o in b.boards]

def test_match_workers_are_capped_at_64(tmp_path):
    # each worker is a process: --workers 100000 would start that many (the other
    # commands cap their --threads at 64 too)
    res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "--boards", "1",
                                       "--workers", "100000", "-o", str(tmp_path / "m.pbn")])
    assert res.exit_code == 2
    assert "100000 is not in the range 1<=x<=64" in res.output
    assert not (tmp_path / "m.pbn").exists()


def test_a_time_option_without_timed_is_refused_not_ignored(tmp_path):
    # an untimed match lifts every computer's time caps: -a time_budget=0.5 was accepted
    # and then replaced by a year without a word; it is refused before anything is played,
    # and kept with --timed
    for opt in ("time_budget=0.5", "lead_time_budget=1", "time_limit=2",
                'sampling={"play_seconds": 0.5}'):
        res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "--boards", "1",
                                           "-b", "method=auction", "-b", opt,
                                           "-o", str(tmp_path / "m.pbn")])
        assert res.exit_code == 2, (opt, res.output)
        assert opt.split("=")[0] in res.output and "--timed" in res.output, res.output
        assert not os.listdir(tmp_path)
    with pytest.raises(MatchError, match="time_budget.*timed"):
        run_match("easy", "easy", 1, options_a={"time_budget": 0.5})
    c = PlayerConfig.parse("easy", {"time_budget": 0.5})
    assert c._computer_settings(timed=True).time_budget == 0.5


def test_workers_with_a_scheduler_are_refused_not_ignored(tmp_path):
    # the tables go to the Dask cluster: -w 4 --scheduler ... was accepted and ignored
    res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "--boards", "1", "-w", "4",
                                       "--scheduler", "tcp://127.0.0.1:9",
                                       "-o", str(tmp_path / "m.pbn")])
    assert res.exit_code == 2, res.output
    assert "--workers" in res.output and "--scheduler" in res.output, res.output
    assert "cannot reach" not in res.output and not os.listdir(tmp_path)


@pytest.mark.parametrize("args", [["-o", "-"], ["--journal", "-"]])
def test_a_dash_for_the_match_files_is_refused(tmp_path, args, monkeypatch):
    """'-' means standard output elsewhere; here it made files named '-' and '-.journal'
    in the current folder.  Refused before a board is played."""
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(ai_main, ["match", "easy", "easy", "-n", "1", *args],
                             catch_exceptions=False)
    assert res.exit_code == 2, res.output
    assert "'-' is no file here" in res.output
    assert ("'-o' / '--output'" if args[0] == "-o" else "'--journal'") in res.output
    assert not os.path.exists("-") and not os.path.exists("-.journal")


def test_a_long_player_is_quoted_by_its_start_and_length():
    """PlayerConfig.parse put a 10 MB player name whole into the MatchError."""
    for player in ("x" * 1_000_000, "ddsolver.cards:" + "x" * 1_000_000):
        with pytest.raises(MatchError) as info:
            PlayerConfig.parse(player)
        assert " characters)" in str(info.value) and len(str(info.value)) < 400


@pytest.mark.parametrize("where", ["folder", "missing folder", "ends in a separator",
                                   "read-only folder"])
def test_a_pbn_path_that_cannot_be_written_is_refused_before_anything_is_played(
        tmp_path, monkeypatch, where):
    """run_match(pbn=<a folder>) played the whole match and only then failed with
    IsADirectoryError, while a bad journal was refused at once (when it was opened)."""
    from ai.match import MatchPathError

    if where == "read-only folder":
        if os.geteuid() == 0:
            pytest.skip("root writes in a read-only folder")
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        pbn, reason = folder / "m.pbn", "is not writable"
    else:
        pbn, reason = {"folder": (tmp_path, "it is a folder"),
                       "missing folder": (tmp_path / "no" / "m.pbn", "does not exist"),
                       "ends in a separator": (f"{tmp_path}{os.sep}new{os.sep}",
                                               "it names a folder")}[where]

    def no_play(*args, **kwargs):
        raise AssertionError("a table was played")

    monkeypatch.setattr("ai.match._run_local", no_play)
    journal = tmp_path / "m.journal"
    with pytest.raises(MatchPathError, match=f"cannot write {re.escape(str(pbn))}: .*{reason}") \
            as info:
        match(2, journal=journal, pbn=pbn)
    assert isinstance(info.value, MatchError) and isinstance(info.value, OSError)
    assert not journal.exists()        # refused before the journal was made
