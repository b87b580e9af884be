"""Tests of ai.daily: the deals of a date, playing them, and the SQLite leaderboard."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from table_players import SystemPlayer

from ai.chicago import SavedGameError
from ai.daily import (
    SCHEMA_VERSION,
    DailyBoards,
    DuplicateEntryError,
    Leaderboard,
    LeaderboardError,
    LeaderboardFileError,
    daily_deal,
    daily_deals,
    default_leaderboard_path,
    load_game,
)
from ddsolver.auction import Call
from ddsolver.deal import Deal
from ddsolver.table import Seat, Vulnerability

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Computed once with the documented algorithm; they must never change (every machine,
# every Python version, every day after).
GOLDEN_2024_03_01 = [
    "N:97.AJ75.AK63.A93 AK63.8643.542.87 T54.Q92.J7.QT654 QJ82.KT.QT98.KJ2",
    "N:853.AT.KJT752.86 AJ762.52.983.A42 KT9.KQ73.A6.JT73 Q4.J9864.Q4.KQ95",
    "N:8.AKQ632.K7.AK65 KQT6.T8.AQT3.JT4 J753.7.J865.9873 A942.J954.942.Q2",
    "N:A85.QT83.976.986 KT93.AKJ94.K43.J Q62.52.AJT85.532 J74.76.Q2.AKQT74",
]


def docstring_algorithm(iso: str, board: int) -> str:
    """The module docstring's algorithm written out again, independently."""
    words, k = [], 0
    while len(words) < 400:
        d = hashlib.sha256(f"ddsolver boards of the day {iso} board {board} block {k}"
                           .encode("ascii")).digest()
        words += [int.from_bytes(d[i:i + 4], "big") for i in range(0, 32, 4)]
        k += 1
    deck = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    w = iter(words)
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            x = next(w)
            if x < 2 ** 32 - 2 ** 32 % n:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    hands = []
    for h in range(4):
        cards = deck[13 * h:13 * h + 13]
        hands.append(".".join("".join(sorted((c[1] for c in cards if c[0] == s),
                                             key="AKQJT98765432".index)) for s in "SHDC"))
    return "N:" + " ".join(hands)


def test_the_deals_follow_the_documented_algorithm():
    assert [d.to_pbn() for d in daily_deals("2024-03-01")] == GOLDEN_2024_03_01
    for iso in ("2024-03-01", "1999-12-31", "2030-02-28", "2024-02-29"):
        assert [d.to_pbn() for d in daily_deals(iso)] == \
            [docstring_algorithm(iso, b) for b in range(1, 5)]
    assert daily_deals(datetime.date(2024, 3, 1)) == daily_deals("2024-03-01")
    days = {tuple(d.to_pbn() for d in daily_deals(datetime.date(2025, 1, 1)
                                                   + datetime.timedelta(n)))
            for n in range(30)}
    assert len(days) == 30                           # a new set every day
    with pytest.raises(ValueError):
        daily_deals("2024-13-01")
    for other_form in ("20240301", "2024-W09-5", "2024-3-01"):   # fromisoformat reads some
        with pytest.raises(ValueError, match=r"not a date \(YYYY-MM-DD\)"):
            daily_deals(other_form)
    with pytest.raises(TypeError):
        daily_deals(datetime.datetime(2024, 3, 1, 12))
    with pytest.raises(TypeError):
        daily_deals(20240301)
    with pytest.raises(ValueError):
        daily_deal("2024-03-01", 5)


_CHILD = """
import os, sys, time
if hasattr(time, "tzset"):
    time.tzset()
from ai.daily import daily_deals, local_today
print(local_today().isoformat(), os.environ["TZ"])
for d in daily_deals(sys.argv[1]):
    print(d.to_pbn())
"""


def test_two_processes_in_different_time_zones_get_the_same_boards():
    outs = []
    for tz, hashseed in (("Pacific/Kiritimati", "1"), ("Pacific/Pago_Pago", "4242"),
                         ("UTC", "random")):
        env = {**os.environ, "TZ": tz, "PYTHONHASHSEED": hashseed, "PYTHONPATH": ROOT}
        out = subprocess.run([sys.executable, "-c", _CHILD, "2024-03-01"], env=env,
                             cwd=ROOT, capture_output=True, text=True, timeout=120,
                             check=True).stdout.splitlines()
        assert out[0].endswith(tz)
        outs.append(out[1:])
    assert outs[0] == outs[1] == outs[2] == GOLDEN_2024_03_01


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="time.tzset is POSIX only")
def test_a_time_zone_change_within_one_process_changes_nothing():
    before = daily_deals("2024-03-01")
    old = os.environ.get("TZ")
    try:
        for tz in ("Asia/Kolkata", "America/Los_Angeles", "Pacific/Kiritimati"):
            os.environ["TZ"] = tz
            time.tzset()
            assert time.strftime("%Z") != "" and daily_deals("2024-03-01") == before
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


class Passer(SystemPlayer):
    def call(self, view):
        self.log.append((self.name, "call", view, Call.from_str("Pass")))
        return Call.from_str("Pass")


def test_playing_the_boards_of_the_day(tmp_path):
    g = DailyBoards("2024-03-01", path=tmp_path / "day.json", settings={"name": "Ann"})
    seen = []
    while not g.is_finished:
        seen.append((g.board_number, g.dealer, g.vulnerability))
        r = g.play({s: SystemPlayer(s, seed=i) for i, s in enumerate("NESW")})
        assert r.deal == Deal.from_pbn(GOLDEN_2024_03_01[len(seen) - 1])
    assert seen == [(1, Seat.NORTH, Vulnerability.NONE), (2, Seat.EAST, Vulnerability.NS),
                    (3, Seat.SOUTH, Vulnerability.EW), (4, Seat.WEST, Vulnerability.BOTH)]
    assert g.total == sum(r.score for r in g.results)
    texts = g.result_texts()
    assert len(texts) == 4
    for t, r in zip(texts, g.results):
        assert t == (f"{r.result_text} {r.score:+d}" if r.score else f"{r.result_text} 0")
    back = load_game(tmp_path / "day.json")
    assert isinstance(back, DailyBoards) and back.is_finished and back.total == g.total
    assert back.settings == {"name": "Ann"} and back.date == "2024-03-01"
    # four passes: the board scores 0 and is not dealt again
    p = DailyBoards("2024-03-01", human=None)
    p.play_all({s: Passer(s) for s in "NESW"})
    assert len(p.results) == 4 and p.total == 0 and p.result_texts() == ["Pass 0"] * 4
    # a saved game of another day does not pass for this one
    data = json.loads((tmp_path / "day.json").read_text())
    data["date"] = "2024-03-02"
    (tmp_path / "other.json").write_text(json.dumps(data))
    with pytest.raises(SavedGameError, match="not the deal"):
        load_game(tmp_path / "other.json")


def test_a_board_against_medium_computers():
    from ai.chicago import close_table, computer_table
    south = SystemPlayer("S", seed=2)
    players = computer_table(south, level="medium", seed=1, threads=1)
    assert [getattr(players[Seat.from_str(s)], "level", None) for s in "NEW"] == ["medium"] * 3
    g = DailyBoards("2024-03-01")
    try:
        r = g.play(players)
    finally:
        close_table(players)
    assert r.deal == Deal.from_pbn(GOLDEN_2024_03_01[0]) and g.board_number == 2


# --------------------------------------------------------------------------------------
# The leaderboard
# --------------------------------------------------------------------------------------

RESULTS = ("4HS+1 +650", "3NTE-2 +200", "Pass 0", "2SN= +110")


def test_entries_one_per_name_per_day(tmp_path):
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "lb.sqlite3"
    with Leaderboard(path) as lb:
        e = lb.record("Ann", "2024-03-01", 960, RESULTS)
        assert (e.name, e.date, e.score, e.results) == ("Ann", "2024-03-01", 960, RESULTS)
        lb.record("Bob", datetime.date(2024, 3, 1), 1200, RESULTS)
        lb.record("  Cy   Young ", "2024-03-01", 960, RESULTS)
        lb.record("Ann", "2024-03-02", -100, RESULTS)
        with pytest.raises(DuplicateEntryError, match="ann already"):
            lb.record("ann", "2024-03-01", 5000, RESULTS)
        assert [x.name for x in lb.day("2024-03-01")] == ["Bob", "Ann", "Cy Young"]
        assert lb.rank("Ann", "2024-03-01") == 2 and lb.rank("Cy Young", "2024-03-01") == 2
        assert lb.rank("Dee", "2024-03-01") is None
        assert lb.entry("ANN", "2024-03-02").score == -100 and len(lb) == 4
        for bad in ("", " ", "x" * 41, "bell\x07", 7):
            with pytest.raises(LeaderboardError):
                lb.record(bad, "2024-03-01", 1, RESULTS)
        with pytest.raises(LeaderboardError):
            lb.record("Eve", "yesterday", 1, RESULTS)
        with pytest.raises(LeaderboardError):
            lb.record("Eve", "2024-03-01", 1.5, RESULTS)
        with pytest.raises(LeaderboardError):
            lb.record("Eve", "2024-03-01", 1, RESULTS[:3])
        # what SQLite cannot store: a LeaderboardError too, not OverflowError or
        # UnicodeEncodeError, and nothing written
        for score in (2 ** 63, -2 ** 63 - 1, 10 ** 30):
            with pytest.raises(LeaderboardError, match="a score is an integer"):
                lb.record("Eve", "2024-03-01", score, RESULTS)
        with pytest.raises(LeaderboardError, match="results as text"):
            lb.record("Eve", "2024-03-01", 1, ["Pass 0\ud800"] * 4)
        assert lb.entry("Eve", "2024-03-01") is None
    with Leaderboard(path) as lb:                     # reopened: everything kept
        assert len(lb) == 4
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_names_compare_without_case_beyond_ascii(tmp_path):
    # docs/play.md: "one entry per name per day (names compare without case)"; SQLite's
    # NOCASE folds only A-Z, so Émile and émile (or Đức and ĐỨC) must be matched here
    with Leaderboard(tmp_path / "lb.sqlite3") as lb:
        lb.record("Émile", "2024-03-01", 960, RESULTS)
        lb.record("Đức", "2024-03-01", 100, RESULTS)
        with pytest.raises(DuplicateEntryError, match="émile already"):
            lb.record("émile", "2024-03-01", 5000, RESULTS)
        with pytest.raises(DuplicateEntryError):
            lb.record("ĐỨC", "2024-03-01", 5000, RESULTS)
        assert lb.entry("ÉMILE", "2024-03-01").name == "Émile"
        assert lb.entry("đức", "2024-03-01").score == 100
        assert lb.rank("émile", "2024-03-01") == 1
        assert [x.name for x in lb.day("2024-03-01")] == ["Émile", "Đức"]
        lb.record("émile", "2024-03-02", 1, RESULTS)      # another day: its own entry
        assert len(lb) == 3


def test_the_default_file_is_in_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform.startswith("linux"):
        assert default_leaderboard_path() == str(tmp_path / "data" / "ddsolver" /
                                                 "leaderboard.sqlite3")
    with Leaderboard() as lb:
        assert lb.path == default_leaderboard_path() and len(lb) == 0
    assert os.path.exists(default_leaderboard_path())


def test_a_leaderboard_in_a_missing_folder_is_refused_and_creates_nothing(tmp_path):
    """Leaderboard(path) created a missing folder silently (``--leaderboard`` refuses it):
    a LeaderboardPathError (a LeaderboardFileError) names the file and the folder; a link
    into a missing folder too; check_leaderboard refuses it before anything is played."""
    from ai.daily import LeaderboardPathError, check_leaderboard

    missing = tmp_path / "no such folder"
    path = missing / "deeper" / "lb.sqlite3"
    problem = (f"{path}: cannot open the leaderboard: the folder {missing / 'deeper'} "
               f"does not exist")
    with pytest.raises(LeaderboardPathError) as info:
        Leaderboard(path)
    assert str(info.value) == problem and isinstance(info.value, LeaderboardFileError)
    with pytest.raises(LeaderboardPathError) as info:
        check_leaderboard(path)
    assert str(info.value) == problem
    link = tmp_path / "link.sqlite3"
    link.symlink_to(missing / "target.sqlite3")
    with pytest.raises(LeaderboardPathError, match=f"the folder {missing} does not exist"):
        Leaderboard(link)
    assert sorted(os.listdir(tmp_path)) == ["link.sqlite3"]
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(LeaderboardPathError, match=f"the folder {file} is not a folder"):
        Leaderboard(file / "lb.sqlite3")
    missing.mkdir()
    (missing / "deeper").mkdir()
    check_leaderboard(path)                   # an existing folder: passes, nothing made
    assert os.listdir(missing / "deeper") == []
    with Leaderboard(path) as lb:
        assert len(lb) == 0


def test_a_corrupt_or_foreign_file_is_a_clear_error(tmp_path):
    cases = {}
    cases["text"] = b"name,date,score\nAnn,2024-03-01,960\n" * 50
    cases["random"] = random.Random(1).randbytes(8192)
    for name, data in cases.items():
        p = tmp_path / f"{name}.sqlite3"
        p.write_bytes(data)
        with pytest.raises(LeaderboardFileError, match="not a ddsolver leaderboard"):
            Leaderboard(p)
        assert p.read_bytes() == data                 # left untouched
    foreign = tmp_path / "foreign.sqlite3"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE scores (x)")
    db.commit()
    db.close()
    with pytest.raises(LeaderboardFileError, match="another program"):
        Leaderboard(foreign)
    newer = tmp_path / "newer.sqlite3"
    Leaderboard(newer).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(LeaderboardFileError, match="newer"):
        Leaderboard(newer)
    # a damaged page in the middle of a real leaderboard
    damaged = tmp_path / "damaged.sqlite3"
    with Leaderboard(damaged) as lb:
        for i in range(300):
            lb.record(f"player {i}", "2024-03-01", i, RESULTS)
    db = sqlite3.connect(damaged)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    raw = bytearray(damaged.read_bytes())
    page = 4096
    raw[2 * page:3 * page] = random.Random(3).randbytes(page)
    damaged.write_bytes(bytes(raw))
    with pytest.raises(LeaderboardFileError):
        Leaderboard(damaged)
    with pytest.raises(LeaderboardFileError, match="cannot open"):
        Leaderboard(tmp_path / "text.sqlite3" / "under-a-file.sqlite3")


_WRITER = """
import sys, time
from ai.daily import Leaderboard, DuplicateEntryError
path, prefix, count, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
lb = Leaderboard(path, timeout=30)
while time.time() < start:
    time.sleep(0.001)
dup = 0
for i in range(count):
    name = prefix + str(i) if prefix != "same" else "same"
    try:
        lb.record(name, "2024-03-01", i, ["a", "b", "c", "d"])
    except DuplicateEntryError:
        dup += 1
    print(name, flush=True)
print("duplicates", dup, flush=True)
"""


def _env():
    return {**os.environ, "PYTHONPATH": ROOT}


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / "lb.sqlite3"
    Leaderboard(path).close()
    start = time.time() + 2.0
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), p, "150",
                               str(start)], env=_env(), cwd=ROOT, stdout=subprocess.PIPE,
                              text=True) for p in ("a", "b")]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    with Leaderboard(path) as lb:
        names = {e.name for e in lb.day("2024-03-01")}
    assert names == {f"{p}{i}" for p in "ab" for i in range(150)}
    assert all(o.strip().endswith("duplicates 0") for o in outs)
    # both write the same name at once: exactly one entry, the other is refused
    start = time.time() + 2.0
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), "same", "1",
                               str(start)], env=_env(), cwd=ROOT, stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = sorted(p.communicate(timeout=120)[0].split()[-1] for p in procs)
    assert outs == ["0", "1"]
    with Leaderboard(path) as lb:
        assert len(lb) == 301


@pytest.mark.parametrize("after", [5, 40, 120])
def test_a_writer_killed_mid_write_leaves_every_committed_entry(tmp_path, after):
    path = tmp_path / "lb.sqlite3"
    with Leaderboard(path) as lb:
        lb.record("before", "2024-03-01", 1, RESULTS)
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), "k", "100000", "0"],
                            env=_env(), cwd=ROOT, stdout=subprocess.PIPE, text=True)
    done = []
    while len(done) < after:
        line = proc.stdout.readline()
        assert line, "the writer stopped early"
        done.append(line.strip())
    proc.send_signal(signal.SIGKILL)                  # in the middle of the next writes
    proc.wait(timeout=30)
    printed = done + [ln.strip() for ln in proc.stdout.read().splitlines()]  # in the pipe
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    with Leaderboard(path) as lb:                     # opens: quick_check passes
        names = [e.name for e in lb.day("2024-03-01")]
        assert "before" in names
        got = set(names) - {"before"}
        assert set(printed) <= got                      # nothing committed is lost
        assert len(got - set(printed)) <= 1             # at most the one not yet printed
        assert all(e.results == ("a", "b", "c", "d") for e in lb.day("2024-03-01")
                   if e.name != "before")               # no half-written entry
        lb.record("after", "2024-03-01", 2, RESULTS)    # and the file still takes writes
