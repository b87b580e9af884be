"""Tests for the ``ddsolver`` command (ddsolver.cli).

The solver is exact but a full 52-card DD table of an ordinary deal takes a while, so the
fast tests use deals whose tables follow from a few lines of reasoning: one side holds all
the top cards, or every hand holds one solid suit.  The whole club hand record (36 boards,
checked against the DD tables and par written by another solver) is ``@pytest.mark.slow``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ddsolver.cards import Strain
from ddsolver.cli import check_path, main
from ddsolver.deal import Deal
from ddsolver.pbn import dd_tricks_from_pbn, read_pbn
from ddsolver.solver import dd_table
from ddsolver.table import Seat

DATA = Path(__file__).parent / "data"
CLUB = DATA / "club_hand_record_36.pbn"
#: the deal of the spec (game.md): North makes 10 tricks in notrump
SPEC_DEAL_TEXT = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"

# North holds the top four spades and hearts, the top three diamonds and the top two clubs:
# 13 sure winners in notrump and in spades, hearts, diamonds; in clubs East-West hold
# eight trumps (QJT9 5432 against AK876) and ruff the fourth spade and the fourth heart.
TOPS = "N:AKQJ.AKQJ.AKQ.AK T98.T98.JT9.QJT9 765.765.8765.876 432.432.432.5432"
# Each hand holds one 13-card suit: N spades, E hearts, S diamonds, W clubs.  In notrump
# the opening leader cashes 13 tricks; in a suit the trump holder's side takes all 13.
SOLID = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def runner() -> CliRunner:
    """A runner that keeps stdout and stderr apart (click 8.0/8.1 need mix_stderr)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def run(*args: str):
    result = runner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result


def pbn_game(board: int, deal: str, dealer: str = "N", vul: str = "None",
             extra: str = "") -> str:
    return (f'[Event "CLI test"]\n[Site ""]\n[Board "{board}"]\n[Dealer "{dealer}"]\n'
            f'[Vulnerable "{vul}"]\n[Deal "{deal}"]\n{extra}')


def write(path: Path, *games: str) -> Path:
    path.write_text("% PBN 2.1\n" + "\n".join(games), encoding="latin-1")
    return path


def table_rows(stdout: str) -> dict[str, list[int]]:
    """The DD table rows of `ddsolver table` text output, keyed by strain label."""
    lines = stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.split() == ["N", "E", "S", "W"])
    rows = {}
    for ln in lines[start + 1:start + 6]:
        parts = ln.split()
        rows[parts[0]] = [int(x) for x in parts[1:]]
    return rows


# ---------------------------------------------------------------------------------------
# ddsolver table
# ---------------------------------------------------------------------------------------

def test_table_text_rows_and_par():
    result = run("table", TOPS, "--ascii")
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert list(rows) == ["NT", "S", "H", "D", "C"]
    for strain in ("NT", "S", "H", "D"):
        assert rows[strain] == [13, 0, 13, 0]
    # Clubs: 11 for N-S (two ruffs), so 2 for E-W declaring.
    assert rows["C"] == [11, 2, 11, 2]
    # Par: 7NT by N-S, 220 trick score + 300/500 game + 1000/1500 grand slam bonus.
    par_lines = {ln.split()[0]: ln.split()[1:] for ln in result.stdout.splitlines()
                 if ln.strip().split()[:1] in (["None"], ["NS"], ["EW"], ["All"])}
    assert par_lines["None"] == ["NS", "1520", "NS", "7N="]
    assert par_lines["NS"] == ["NS", "2220", "NS", "7N="]
    assert par_lines["EW"] == ["NS", "1520", "NS", "7N="]
    assert par_lines["All"] == ["NS", "2220", "NS", "7N="]


def test_an_error_quoting_a_huge_argument_is_shortened():
    result = run("table", "N:" + "A" * 100_000)
    assert result.exit_code == 2
    assert "must have 4 hands" in result.stderr
    assert "'... (100,002 characters)" in result.stderr     # ddsolver.errors.brief_repr
    assert len(result.stderr) < 1000


def test_table_matches_solver_and_shows_symbols():
    result = run("table", SOLID)
    assert result.exit_code == 0
    rows = table_rows(result.stdout)
    assert list(rows) == ["NT", "♠", "♥", "♦", "♣"]
    # Notrump: declarer's LHO leads his solid suit and takes everything.
    assert rows["NT"] == [0, 0, 0, 0]
    # A suit contract: the side holding all 13 trumps takes all 13 tricks.
    assert rows["♠"] == [13, 0, 13, 0]
    assert rows["♥"] == [0, 13, 0, 13]
    expected = dd_table(Deal.from_pbn(SOLID))
    labels = {"NT": 4, "♠": 3, "♥": 2, "♦": 1, "♣": 0}
    for label, strain in labels.items():
        assert rows[label] == [expected[strain, seat] for seat in (N, E, S, W)]
    # The diagram shows the hands.
    assert "♠ AKQJT98765432" in result.stdout
    assert "♣ AKQJT98765432" in result.stdout


def test_table_json():
    result = run("table", TOPS, "--json", "--dealer", "E")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["deal"] == TOPS
    assert data["dealer"] == "E"
    assert list(data["table"]) == ["C", "D", "H", "S", "NT"]
    assert data["table"]["NT"] == {"N": 13, "E": 0, "S": 13, "W": 0}
    assert data["table"]["C"] == {"N": 11, "E": 2, "S": 11, "W": 2}
    assert set(data["par"]) == {"None", "NS", "EW", "All"}
    assert data["par"]["NS"] == {"score": 2220, "contracts": ["7N-NS"],
                                 "optimum_score": "NS 2220", "par_contract": "NS 7N="}


def test_table_one_vulnerability_and_solid_suits_par():
    # Solid suits: N-S make 7S and 7D, E-W make 7H and 7C; 7S outranks 7H, and E-W take
    # no trick in notrump or spades, so no sacrifice: par 7S by N-S.
    result = run("table", SOLID, "--vul", "Both", "--json")
    data = json.loads(result.stdout)
    assert list(data["par"]) == ["All"]
    assert data["par"]["All"]["score"] == 2210  # 210 + 500 + 1500
    assert data["par"]["All"]["par_contract"] == "NS 7S="
    text = run("table", SOLID, "--vulnerability", "EW", "--ascii").stdout
    par_part = text.split("Par, dealer N:")[1]
    assert "NS 1510" in par_part and "None" not in par_part and "All" not in par_part


@pytest.mark.parametrize("deal, words", [
    ("N:AKQJ.AKQJ.AKQ.AK T98.T98.JT9.QJT9 765.765.8765.876", ["4 hands"]),
    ("N:AKQJ.AKQJ.AKQ.AK AKQJ.AKQJ.AKQ.AK 765.765.8765.876 432.432.432.5432",
     ["duplicate"]),
    ("N:AK2... QJ3... T54... 876...", ["13 cards", "solve"]),
    ("N:AKQJ.AKQJ.AKQ.AK - 765.765.8765.876 432.432.432.5432", ["13 cards"]),
    ("nonsense", []),
])
def test_table_bad_deal_exit_2(deal, words):
    result = run("table", deal)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Error:")
    for w in words:
        assert w in result.stderr


def test_table_bad_options_exit_2():
    assert run("table", TOPS, "--dealer", "X").exit_code == 2
    bad_vul = run("table", TOPS, "--vulnerability", "sometimes")
    assert bad_vul.exit_code == 2 and "sometimes" in bad_vul.stderr


# ---------------------------------------------------------------------------------------
# ddsolver solve
# ---------------------------------------------------------------------------------------

def test_solve_lead_values_for_side_to_move():
    # Spades only, West to lead: North's A and K win two tricks, East's Q the third.
    result = run("solve", "N:AK2... QJ3... T54... 876...", "--trump", "S", "--leader", "W",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["to_move"] == "W" and data["side"] == "EW"
    assert data["tricks_left"] == 3
    assert data["cards"] == {"S8": 1, "S7": 1, "S6": 1}
    assert data["best"] == 1


def test_solve_mid_trick_finesse():
    # West led the S2 and still holds the SK; North with AQ plays second.  The queen wins
    # and the ace takes the last trick (2); the ace first sets up West's king (1).
    result = run("solve", "N:AQ... 43... 65... K...", "--trump", "NT", "--leader", "W",
                 "--trick", "S2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["to_move"] == "N" and data["side"] == "NS"
    assert data["tricks_left"] == 2
    assert data["cards"] == {"SQ": 2, "SA": 1}
    text = run("solve", "N:AQ... 43... 65... K...", "-t", "N", "-l", "W", "--trick", "S2",
               "--ascii")
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[0].startswith("North to play")
    assert "SQ" in lines[2] and "best" in lines[2]
    assert "SA" in lines[3] and "best" not in lines[3]


@pytest.mark.parametrize("args, words", [
    (["N:AK2... QJ3... T54... 876...", "-t", "S", "-l", "W", "--trick", "S6"],
     ["S6"]),                                        # the led card is still in a hand
    (["N:AK2... QJ3... T54... 876...", "-t", "S", "-l", "W", "--trick", "S9"],
     ["bad position"]),                              # hand sizes do not fit the trick
    (["N:AK2... QJ3... T54... 876...", "-t", "S", "-l", "W", "--trick", "Z9"],
     ["Z9"]),
    (["N:AK2... QJ3... T54... 876...", "-t", "Q", "-l", "W"], ["Q"]),
    (["N:AK2... QJ3... T54...", "-t", "S", "-l", "W"], ["4 hands"]),
])
def test_solve_bad_input_exit_2(args, words):
    result = run("solve", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in result.stderr


# ---------------------------------------------------------------------------------------
# ddsolver analyse
# ---------------------------------------------------------------------------------------

@pytest.fixture()
def small_pbn(tmp_path: Path) -> Path:
    """Board 1: TOPS; board 2: only North's hand known (skipped); board 3: one solid suit
    per hand (E spades, S hearts, W diamonds, N clubs), no Dealer/Vulnerable tags (board 3
    of the cycle: dealer S, E-W vulnerable)."""
    return write(
        tmp_path / "small.pbn",
        pbn_game(1, TOPS, extra="{ keep this comment }\n[Contract \"6NT\"]\n"
                                "[Declarer \"N\"]\n[Result \"12\"]\n"),
        pbn_game(2, "N:AKQJ.AKQJ.AKQ.AK - - -", dealer="E", vul="NS"),
        '[Event "CLI test"]\n[Board "3"]\n'
        '[Deal "E:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n',
    )


def test_analyse_writes_tags_and_keeps_the_rest(small_pbn: Path):
    result = run("analyse", small_pbn)
    assert result.exit_code == 0, result.output
    out = small_pbn.with_name("small.analysed.pbn")
    assert out.exists()
    games = read_pbn(out)
    assert [g.board for g in games] == [1, 2, 3]
    g1, g2, g3 = games
    tricks = dd_tricks_from_pbn(g1["DoubleDummyTricks"])
    assert tricks[(Strain.NOTRUMP, N)] == 13 and tricks[(Strain.NOTRUMP, E)] == 0
    assert tricks[(Strain.CLUBS, S)] == 11 and tricks[(Strain.CLUBS, W)] == 2
    assert g1["OptimumScore"] == "NS 1520" and g1["ParContract"] == "NS 7N="
    assert g1.tag("OptimumResultTable").section[0].split() == ["N", "NT", "13"]
    # Everything else is kept.
    assert g1["Contract"] == "6NT" and g1["Result"] == "12" and g1["Event"] == "CLI test"
    assert "keep this comment" in g1.comments
    # Board 2 is reported and left alone.
    assert "DoubleDummyTricks" not in g2 and "OptimumScore" not in g2
    assert "board 2: skipped" in result.stderr
    # Board 3: dealer and vulnerability from the board number (S, E-W).
    assert "board 3: no dealer given" in result.stderr
    t3 = dd_tricks_from_pbn(g3["DoubleDummyTricks"])
    # In spades East's trumps take all 13 whoever of E-W declares; in notrump East leads
    # the spades against North.
    assert t3[(Strain.SPADES, W)] == 13 and t3[(Strain.SPADES, E)] == 13
    assert t3[(Strain.HEARTS, N)] == 13 and t3[(Strain.NOTRUMP, N)] == 0
    # E-W (vulnerable on board 3) make 7S and 7D, N-S 7H and 7C; 7S is highest.
    assert g3["OptimumScore"] == "EW 2210" and g3["ParContract"] == "EW 7S="
    # The Deal tag is written as it was (East first).
    assert g3["Deal"].startswith("E:")
    # Input line ends (LF) are kept; not a tty: no progress bar.
    assert b"\r\n" not in out.read_bytes()
    assert "DD tables" not in result.stderr


def test_analyse_keeps_cr_only_line_ends(small_pbn: Path, tmp_path: Path):
    # an old Mac file (CR alone ends each line) is written back with CR line ends
    mac = tmp_path / "mac.pbn"
    mac.write_bytes(small_pbn.read_bytes().replace(b"\n", b"\r"))
    out = tmp_path / "mac.analysed.pbn"
    result = run("analyse", mac, "-q")
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert b"\n" not in data and data.startswith(b"% PBN 2.1\r")
    assert [g.board for g in read_pbn(out)] == [1, 2, 3]
    assert b'[OptimumScore "NS 1520"]\r' in data


@pytest.mark.parametrize("opt", ["--threads", "-j"])
def test_analyse_threads_capped_at_64(small_pbn: Path, opt: str):
    # 100,000 threads of 2 MB each would be started: refused at the start, as the other
    # commands' --threads are (1..64)
    result = run("analyse", small_pbn, "-o", "-", opt, "100000")
    assert result.exit_code == 2
    assert "100000 is not in the range 1<=x<=64" in result.stderr
    assert run("analyse", small_pbn, "-o", "-", opt, "64", "-q").exit_code == 0


def test_analyse_stdout_and_threads(small_pbn: Path):
    result = run("analyse", small_pbn, "-o", "-", "--threads", "2", "-q")
    assert result.exit_code == 0
    assert result.stdout.startswith("% PBN 2.1")
    games = read_pbn(result.stdout)
    assert games[0]["OptimumScore"] == "NS 1520"
    assert not small_pbn.with_name("small.analysed.pbn").exists()
    # --quiet: only the skipped board is mentioned.
    assert result.stderr.strip() == ("board 2: skipped: the deal is not complete (a hand "
                                     "unknown or short of 13 cards)")


def test_analyse_json_summary(small_pbn: Path):
    result = run("analyse", small_pbn, "--json", "-q")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["output"] is None          # --json alone writes no PBN file
    assert not small_pbn.with_name("small.analysed.pbn").exists()
    assert data["analysed"] == 2 and data["skipped"] == 1
    b1, b2, b3 = data["boards"]
    assert b1["table"]["NT"] == {"N": 13, "E": 0, "S": 13, "W": 0}
    assert b1["par"]["score"] == 1520 and b1["par"]["contracts"] == ["7N-NS"]
    assert "skipped" in b2 and "table" not in b2
    assert b3["dealer"] == "S" and b3["vulnerability"] == "EW"
    assert b3["par"]["score"] == -2210 and b3["par"]["optimum_score"] == "EW 2210"


def test_analyse_check_agrees_then_reports_edits(small_pbn: Path, tmp_path: Path):
    analysed = tmp_path / "a.pbn"
    assert run("analyse", small_pbn, "-o", analysed).exit_code == 0
    ok = run("analyse", analysed, "--check")
    assert ok.exit_code == 0, ok.stderr
    assert "2 board(s) compared, 0 with differences" in ok.stderr
    assert not analysed.with_name("a.analysed.pbn").exists()   # --check writes nothing

    text = analysed.read_text(encoding="latin-1")
    # Board 1's tag: declarers N, S, E, W x strains NT, S, H, D, C (13 = "d", 11 = "b").
    assert '[DoubleDummyTricks "ddddbddddb0000200002"]' in text
    edited = (text.replace('[DoubleDummyTricks "ddddbddddb0000200002"]',
                           '[DoubleDummyTricks "cdddbddddb0000200002"]')
              .replace('[OptimumScore "EW 2210"]', '[OptimumScore "EW 1510"]'))
    bad = write(tmp_path / "bad.pbn", edited.replace("% PBN 2.1\n", "", 1))
    result = run("analyse", bad, "--check")
    assert result.exit_code == 1
    err = result.stderr
    assert "board 1: DoubleDummyTricks N NT: file 12, ddsolver 13" in err
    assert "board 3: OptimumScore: file 'EW 1510', ddsolver 'EW 2210'" in err
    assert "2 board(s) compared, 2 with differences" in err
    # The OptimumResultTable of board 1 still agrees: only the one tag is named.
    assert "board 1: OptimumResultTable" not in err

    # A table cut short (its first 9 rows kept) is a difference too, not a silent pass.
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("[OptimumResultTable"))
    short = write(tmp_path / "short.pbn", "\n".join(lines[:at + 10] + lines[at + 21:]))
    result = run("analyse", short, "--check")
    assert result.exit_code == 1
    assert "OptimumResultTable lists 9 of the 20 results" in result.stderr

    # A table whose header puts the strain first is compared by its columns (it was
    # 'OptimumResultTable unreadable' under --check); a header lacking one is unreadable.
    section = lines[at + 1:at + 21]
    swapped = [" ".join(row.split()[i] for i in (1, 0, 2)) for row in section]
    for header, rows, expected in (("Denomination;Declarer;Result", swapped, 0),
                                   ("Declarer;Result", section, 1)):
        other = lines[:at] + [f'[OptimumResultTable "{header}"]'] + rows + lines[at + 21:]
        result = run("analyse", write(tmp_path / "other.pbn", "\n".join(other)), "--check")
        assert result.exit_code == expected, result.stderr
        assert ("board 1: OptimumResultTable unreadable" in result.stderr) == bool(expected)

    # The check also goes to the JSON summary; -o still writes our analysis.
    fixed = tmp_path / "fixed.pbn"
    result = run("analyse", bad, "--check", "--json", "-o", fixed)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["mismatched"] == 2
    assert data["boards"][0]["check"] == "mismatch"
    assert data["boards"][0]["mismatches"] == ["DoubleDummyTricks N NT: file 12, ddsolver 13"]
    assert read_pbn(fixed)[0]["DoubleDummyTricks"] == "ddddbddddb0000200002"
    assert run("analyse", fixed, "--check").exit_code == 0


def test_analyse_check_par_contract_forms(tmp_path: Path):
    # Another program's spelling of the same par: NT, no '=', extra spaces -> agrees;
    # a different contract -> difference; an unreadable value -> difference.
    def check(value: str):
        f = write(tmp_path / "p.pbn", pbn_game(1, TOPS, extra=f'[ParContract "{value}"]\n'))
        return run("analyse", f, "--check")

    assert check("NS  7NT").exit_code == 0
    assert check("NS 7N=").exit_code == 0
    r = check("NS 6N+1")
    assert r.exit_code == 1 and "ParContract: file 'NS 6N+1', ddsolver 'NS 7N='" in r.stderr
    r = check("seven notrump")
    assert r.exit_code == 1 and "ParContract unreadable" in r.stderr


def test_analyse_check_without_tags_is_not_a_failure(small_pbn: Path):
    result = run("analyse", small_pbn, "--check")
    assert result.exit_code == 0
    assert "0 board(s) compared, 0 with differences, 2 without analysis tags" in result.stderr


def test_analyse_check_quiet_still_says_nothing_was_compared(small_pbn: Path, tmp_path: Path):
    # with -q a script must still learn that --check verified nothing
    result = run("analyse", small_pbn, "--check", "-q")
    assert result.exit_code == 0
    assert "0 board(s) compared, 0 with differences, 2 without analysis tags" in result.stderr
    # boards that were compared and agree stay silent with -q
    analysed = tmp_path / "analysed.pbn"
    assert run("analyse", small_pbn, "-o", analysed, "-q").exit_code == 0
    quiet_ok = run("analyse", analysed, "--check", "-q")
    assert quiet_ok.exit_code == 0 and "compared" not in quiet_ok.stderr


def test_analyse_reads_games_without_empty_lines_and_says_so(tmp_path: Path):
    # no empty line between the games: both boards analysed, the reader's warning shown
    # (also with -q) instead of board 2 being dropped in silence
    src = tmp_path / "noblank.pbn"
    src.write_text(pbn_game(1, TOPS) + pbn_game(2, SOLID, dealer="E"), encoding="latin-1")
    out = tmp_path / "out.pbn"
    result = run("analyse", src, "-o", out, "-q")
    assert result.exit_code == 0
    assert "board 2: warning: line 7: a new game read from tag Event" in result.stderr
    games = read_pbn(out)
    assert [g.board for g in games] == [1, 2]
    assert games[1].dealer == E
    # SOLID: North holds the 13 spades and takes them all as declarer in spades
    assert dd_tricks_from_pbn(games[1].tag("DoubleDummyTricks").value)[(Strain.SPADES, N)] == 13


def test_analyse_malformed_board_reported_skipped_exit_3(tmp_path: Path):
    """A board that cannot be read is reported (file, line, board) and skipped, the other
    boards analysed, the output written with the bad board as it stands; exit 3 (issue 19:
    the whole file was refused with exit 2)."""
    bad_board = '[Board "2"]\n[Deal "N:AKQ.x"\n'
    bad = write(tmp_path / "bad.pbn", pbn_game(1, TOPS), bad_board)
    out = tmp_path / "out.pbn"
    out.write_text("old content")
    result = run("analyse", bad, "-o", out)
    assert result.exit_code == 3
    assert "board 2: skipped (cannot be read): " in result.stderr
    assert "bad.pbn, line 10, board 2: unterminated" in result.stderr
    assert "analysed 1 of 2 board(s)" in result.stderr
    assert "1 skipped (1 could not be read)" in result.stderr
    assert "Traceback" not in result.stderr
    text = out.read_text(encoding="latin-1")
    assert text.endswith("\n\n" + bad_board)
    games = read_pbn(out, errors="keep")
    assert [g.board for g in games] == [1, 2]
    assert games[1].error is not None and games[1].tag("DoubleDummyTricks") is None
    tricks = dd_tricks_from_pbn(games[0].tag("DoubleDummyTricks").value)
    assert tricks[(Strain.NOTRUMP, N)] == 13 and tricks[(Strain.CLUBS, N)] == 11
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.pbn", "out.pbn"]


def test_analyse_malformed_board_quiet_json(tmp_path: Path):
    bad = write(tmp_path / "bad.pbn", '[Board "1"]\n[Deal "N:AKQ.x"]\n', pbn_game(2, TOPS))
    result = run("analyse", bad, "-q", "--json")
    assert result.exit_code == 3
    # -q keeps the problem and the summary
    assert "board 1: skipped (cannot be read): " in result.stderr
    assert "1 could not be read" in result.stderr
    data = json.loads(result.stdout)
    assert data["analysed"] == 1 and data["skipped"] == 1 and data["malformed"] == 1
    assert data["boards"][0]["malformed"] is True and "N:AKQ.x" in data["boards"][0]["skipped"]
    assert data["boards"][1]["table"]["NT"] == {"N": 13, "E": 0, "S": 13, "W": 0}


def test_analyse_check_difference_wins_over_skipped(tmp_path: Path):
    wrong = pbn_game(1, TOPS, extra='[OptimumScore "NS 1"]\n')
    bad = write(tmp_path / "bad.pbn", wrong, '[Board "2"]\n[Deal "N:AKQ.x"]\n')
    result = run("analyse", bad, "--check")
    assert result.exit_code == 1
    assert "board 1: OptimumScore: file 'NS 1'" in result.stderr
    assert "board 2: skipped (cannot be read)" in result.stderr


def test_analyse_one_bad_board_among_200(tmp_path: Path):
    """199 good boards (a few deals, each solved once) around one malformed board in the
    middle: the 199 are analysed, the bad one reported and written back unchanged."""
    from ddsolver.deal import random_deals

    deals = [d.to_pbn() for d in random_deals(19, 4)]
    games = [pbn_game(i, deals[i % 4]) for i in range(1, 201)]
    games[99] = ('[Event "CLI test"]\n[Board "100"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                 '[Deal "N:AKQ.x.y.z - - -"]\n[Auction "N"]\n1NT Pass\n')
    src = write(tmp_path / "big.pbn", *games)
    out = tmp_path / "big.out.pbn"
    result = run("analyse", src, "-o", out, "-q")
    assert result.exit_code == 3
    assert result.stderr.count("skipped (cannot be read)") == 1
    assert "board 100: skipped (cannot be read): " in result.stderr
    assert "analysed 199 of 200 board(s) (4 distinct deal(s))" in result.stderr
    written = read_pbn(out, errors="keep")
    assert [g.board for g in written] == list(range(1, 201))
    assert [i + 1 for i, g in enumerate(written) if g.error is not None] == [100]
    assert written[99].raw_text == games[99].rstrip("\n")
    tables = [dd_table(Deal.from_pbn(d)) for d in deals]
    for g in written:
        if g.board != 100:
            table = tables[g.board % 4]
            tricks = dd_tricks_from_pbn(g.get("DoubleDummyTricks"))
            assert all(tricks[(st, se)] == table[st, se] for (st, se) in tricks)


def test_analyse_unreadable_file_exit_2_and_nothing_written(tmp_path: Path):
    """When not one board can be read the input is refused as before (exit 2, the first
    board's error, nothing written)."""
    bad = write(tmp_path / "bad.pbn", '[Board "2"]\n[Deal "N:AKQ.x"\n')
    out = tmp_path / "out.pbn"
    out.write_text("old content")
    result = run("analyse", bad, "-o", out)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error:")
    assert "bad.pbn" in result.stderr and "line" in result.stderr
    assert "Traceback" not in result.stderr
    assert out.read_text() == "old content"
    default = tmp_path / "bad.analysed.pbn"
    assert run("analyse", bad).exit_code == 2
    assert not default.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.pbn", "out.pbn"]


def test_analyse_bad_deal_in_pbn_exit_2(tmp_path: Path):
    bad = write(tmp_path / "dup.pbn", pbn_game(
        1, "N:AKQJ.AKQJ.AKQ.AK AKQJ.AKQJ.AKQ.AK 765.765.8765.876 432.432.432.5432"))
    result = run("analyse", bad)
    assert result.exit_code == 2
    assert "board 1" in result.stderr and "duplicate" in result.stderr


def test_analyse_file_problems_exit_2(tmp_path: Path, small_pbn: Path):
    missing = run("analyse", tmp_path / "nope.pbn")
    assert missing.exit_code == 2 and "nope.pbn" in missing.stderr
    empty = tmp_path / "empty.pbn"
    empty.write_text("% PBN 2.1\n")
    r = run("analyse", empty)
    assert r.exit_code == 2 and "no boards" in r.stderr
    r = run("analyse", small_pbn, "-o", tmp_path / "no_such_dir" / "x.pbn")
    assert r.exit_code == 2 and "cannot write" in r.stderr
    r = run("analyse", small_pbn, "--json", "-o", "-")
    assert r.exit_code == 2


def lin_hand(hand_pbn: str) -> str:
    suits = hand_pbn.split(".")
    return "".join(letter + cards for letter, cards in zip("SHDC", suits))


def test_analyse_lin_input(tmp_path: Path):
    deal = Deal.from_pbn(TOPS)
    hands = [deal[s].to_pbn() for s in (S, W, N, E)]       # LIN order: S W N E
    md = "3" + ",".join(lin_hand(h) for h in hands)       # 3 = North deals
    lin = (f"pn|a,b,c,d|st||md|{md}|rh||ah|Board 1|sv|o|"
           f"mb|7N|mb|p|mb|p|mb|p|pg||\n")
    path = tmp_path / "session.lin"
    path.write_text(lin)
    result = run("analyse", path)
    assert result.exit_code == 0, result.output
    games = read_pbn(tmp_path / "session.analysed.pbn")
    assert len(games) == 1
    g = games[0]
    assert g["Contract"] == "7NT" and g.deal == deal
    assert g["OptimumScore"] == "NS 1520" and g["ParContract"] == "NS 7N="
    # Format detection by content for a file without the .lin extension.
    other = tmp_path / "session.txt"
    other.write_text(lin)
    r = run("analyse", other, "-o", "-", "-q")
    assert r.exit_code == 0 and '[ParContract "NS 7N="]' in r.stdout


def test_analyse_malformed_lin_exit_2(tmp_path: Path):
    path = tmp_path / "bad.lin"
    path.write_text("pn|a,b,c,d|md|3SAKQ,SJT9,,|sv|o|mb|9Z|")
    result = run("analyse", path)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error:") and "Traceback" not in result.stderr
    assert not (tmp_path / "bad.analysed.pbn").exists()


def test_analyse_stdin_to_stdout(small_pbn: Path):
    result = runner().invoke(main, ["analyse", "-", "-q"],
                             input=small_pbn.read_text(encoding="latin-1"))
    assert result.exit_code == 0
    assert '[OptimumScore "NS 1520"]' in result.stdout


def test_analyze_spelling(small_pbn: Path):
    result = run("analyze", small_pbn, "-o", "-", "-q")
    assert result.exit_code == 0 and '[ParContract "NS 7N="]' in result.stdout


def test_python_m_ddsolver():
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "ddsolver", "table", TOPS, "--json"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["par"]["None"]["score"] == 1520
    bad = subprocess.run([sys.executable, "-m", "ddsolver", "table", "junk"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


# ---------------------------------------------------------------------------------------
# The real club hand record (slow while the solver is being tuned)
# ---------------------------------------------------------------------------------------

@pytest.mark.slow
def test_club_hand_record_check_reproduces_other_solver(tmp_path: Path):
    out = tmp_path / "club.analysed.pbn"
    result = run("analyse", CLUB, "--check", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "36 board(s) compared, 0 with differences" in result.stderr
    before = read_pbn(CLUB)
    after = read_pbn(out)
    assert len(after) == 36
    for a, b in zip(before, after):
        for name in ("DoubleDummyTricks", "OptimumScore", "ParContract"):
            assert a[name] == b[name], (a.board, name)
        assert a.tag("OptimumResultTable").section == b.tag("OptimumResultTable").section
        assert a.tags == b.tags


@pytest.mark.skipif(not os.path.exists(os.devnull) or os.name != "posix",
                    reason="needs a POSIX /dev/null")
def test_analyse_to_dev_null_leaves_it_a_device(small_pbn: Path):
    import stat

    result = run("analyse", small_pbn, "-o", os.devnull, "-q")
    assert result.exit_code == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# ---------------------------------------------------------------------------------------
# found by a fresh-user check
# ---------------------------------------------------------------------------------------


def test_table_text_columns_line_up():
    """Each number's last digit sits under its seat letter in the text table."""
    result = run("table", SPEC_DEAL_TEXT)
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.strip() == "N   E   S   W")
    row = next(line for line in lines if line.lstrip().startswith("NT"))
    for letter in "NESW":
        col = header.index(letter)
        assert row[col].isdigit(), (header, row)
        assert col + 1 == len(row) or not row[col + 1].isdigit(), (header, row)


def test_analyse_unwritable_output_fails_before_solving(tmp_path, monkeypatch):
    import ddsolver.solver as solver_module

    def boom(*args, **kwargs):
        raise AssertionError("solved before checking the output path")

    monkeypatch.setattr(solver_module, "dd_tables", boom)
    src = write(tmp_path / "in.pbn", pbn_game(1, SPEC_DEAL_TEXT))
    result = run("analyse", src, "-o", tmp_path / "missing" / "out.pbn")
    assert result.exit_code == 2
    assert f"Invalid value for '-o' / '--output': cannot write {tmp_path / 'missing'}" \
           f"/out.pbn: the folder {tmp_path / 'missing'} does not exist" \
           in " ".join(result.stderr.split()), result.stderr
    result = run("analyse", src, "-o", tmp_path)
    assert result.exit_code == 2
    assert f"cannot write {tmp_path}: it is a folder" in " ".join(result.stderr.split())
    result = run("analyse", src, "-o", "")
    assert result.exit_code == 2
    assert "Invalid value for '-o' / '--output': an empty file name" in result.stderr
    # a loop of symbolic links: the operating system's reason, before the solving (it was
    # found when the report was written, after it)
    os.symlink("loop", tmp_path / "loop")
    result = run("analyse", src, "-o", tmp_path / "loop")
    assert result.exit_code == 2
    assert f"cannot write {tmp_path / 'loop'}: Too many levels of symbolic links" \
           in " ".join(result.stderr.split()), result.stderr


def test_analyse_input_empty_or_a_symlink_loop_gets_the_reason(tmp_path):
    """INPUT '' was "cannot read : no such file", a loop of symbolic links "no such file":
    the command names the argument and the real reason."""
    os.symlink("loop", tmp_path / "loop")
    result = run("analyse", "")
    assert result.exit_code == 2
    assert "Invalid value for 'INPUT': an empty file name" in result.stderr, result.stderr
    result = run("analyse", tmp_path / "loop")
    assert result.exit_code == 2
    assert f"Invalid value for 'INPUT': cannot read {tmp_path / 'loop'}: Too many levels " \
           f"of symbolic links" in " ".join(result.stderr.split()), result.stderr
    result = run("analyse", tmp_path / "none.pbn")
    assert result.exit_code == 2
    assert f"cannot read {tmp_path / 'none.pbn'}: No such file or directory" \
           in " ".join(result.stderr.split()), result.stderr


def test_analyse_interrupted_exit_code_and_no_file(tmp_path, monkeypatch):
    import ddsolver.solver as solver_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_module, "dd_tables", interrupted)
    src = write(tmp_path / "in.pbn", pbn_game(1, SPEC_DEAL_TEXT))
    out = tmp_path / "out.pbn"
    result = runner().invoke(main, ["analyse", str(src), "-o", str(out)])
    assert result.exit_code == 130
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]


def test_analyse_missing_input_in_a_missing_folder_names_the_input(tmp_path):
    result = run("analyse", tmp_path / "no_folder" / "none.pbn")
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "none.pbn" in result.stderr


def test_analyse_lin_explanation_over_two_lines(tmp_path):
    """A LIN explanation that wraps over a line break is read as one line and written
    back as a Note tag (found by a fresh-user check: the write failed after the solving)."""
    lin = tmp_path / "wrap.lin"
    lin.write_text("pn|a,b,c,d|st||md|3SKH4579QKAD69C58K,S569QAH3D5TJQAC69,"
                   "S47H8TD248KC347QA,|rh||ah|Board 1|sv|o|mb|1N|an|15-17\nbalanced|"
                   "mb|p|mb|p|mb|p|pg||\n", encoding="latin-1")
    out = tmp_path / "wrap.pbn"
    result = run("analyse", lin, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert '[Note "1:15-17 balanced"]' in out.read_text(encoding="latin-1")


def test_analyse_section_comment_with_an_empty_line(tmp_path):
    src = write(tmp_path / "blank.pbn", pbn_game(
        1, "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
        extra='[Auction "N"]\n1NT Pass Pass Pass {a comment\n\nwith an empty line}\n'))
    out = tmp_path / "blank.out.pbn"
    result = run("analyse", src, "-o", out)
    assert result.exit_code == 0, result.stderr
    game = read_pbn(out)[0]
    assert "with an empty line" in "\n".join(game.tag("Auction").section)
    assert game.get("DoubleDummyTricks")


def test_analyse_output_through_a_symlink(tmp_path: Path):
    """-o naming a symbolic link writes through it: the link's target is replaced and the
    link stays (issue 19: the link was replaced by a regular file)."""
    src = write(tmp_path / "in.pbn", pbn_game(1, TOPS))
    real = tmp_path / "real"
    real.mkdir()
    target = real / "analysed.pbn"
    target.write_text("old")
    link = tmp_path / "link.pbn"
    link.symlink_to(target)
    result = run("analyse", src, "-o", link, "-q")
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert read_pbn(target)[0].get("OptimumScore") == "NS 1520"
    # a link into a folder that does not exist is refused before the solving
    nowhere = tmp_path / "nowhere.pbn"
    nowhere.symlink_to(tmp_path / "missing" / "out.pbn")
    result = run("analyse", src, "-o", nowhere)
    assert result.exit_code == 2
    assert f"cannot write {nowhere}: the folder {tmp_path / 'missing'} does not exist" \
           in " ".join(result.stderr.split()), result.stderr
    assert nowhere.is_symlink() and not (tmp_path / "missing").exists()


def test_every_command_answers_dash_capital_v():
    """``-V`` prints the version for each console script (as ``--version`` does)."""
    from click.testing import CliRunner

    from ai.cli import main as ai_main
    from ai.tui import main as play_main
    from ddsolver import __version__
    from ddsolver.cli import main as dd_main

    for cmd in (dd_main, ai_main, play_main):
        res = CliRunner().invoke(cmd, ["-V"])
        assert res.exit_code == 0, res.output
        assert __version__ in res.output


# ---------------------------------------------------------------------------------------
# Hostile input and Ctrl-C, in a real process
# ---------------------------------------------------------------------------------------

def _child_env() -> dict:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _child_setup(memory_limit: int | None = None):
    """In the child: Python's own Ctrl-C handler (a process started in the background by a
    non-interactive shell inherits SIGINT as ignored), and a cap on its memory so that a
    reader without a cap fails instead of filling the machine."""
    def setup():
        import resource
        import signal

        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    return setup


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="os.wait4, RLIMIT_AS")
def test_analyse_an_endless_stdin_stops_at_the_cap_with_exit_2():
    """`yes x | ddsolver analyse -`: refused at MAX_INPUT_BYTES (256 MiB) in a second or two
    with a clear message, its memory bounded by the cap, instead of eating RAM."""
    import threading
    import time

    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", "analyse", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_child_env(),
                            preexec_fn=_child_setup(memory_limit=2 << 30))
    fed = []

    def feed():  # as `yes x`, but giving up after 1 GiB
        block = b"x\n" * (1 << 19)
        try:
            for _ in range(1024):
                proc.stdin.write(block)
                fed.append(len(block))
            proc.stdin.close()
        except OSError:  # BrokenPipeError: the reader stopped
            pass

    start = time.monotonic()
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    stderr = proc.stderr.read().decode()
    stdout = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - start
    writer.join(10)
    assert proc.returncode == 2, stderr[-2000:]
    assert stderr == ("Error: <stdin> is larger than 256 MiB, the most that is read "
                      "(max_bytes=268435456); split it into smaller files\n")
    assert stdout == b""
    assert elapsed < 20, elapsed            # about 1.5 s on an idle machine
    assert sum(fed) < 300 << 20             # the rest was never asked for
    assert usage.ru_maxrss * 1024 < 700 << 20, usage.ru_maxrss   # kB on Linux


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def _interrupt_analyse(proc) -> bytes:
    """SIGINT to a running ``ddsolver analyse``: it stops within 3 s with status 130 and
    says nothing was written; its standard output is returned."""
    import signal
    import time

    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - start < 3
    assert proc.returncode == 130
    assert stderr.decode() == "\nInterrupted: nothing written.\n"
    return stdout


def test_analyse_ctrl_c_while_reading_stdin_exits_130_at_once():
    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", "analyse", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_child_env(),
                            preexec_fn=_child_setup())
    # more than a pipe holds: when write returns, the command is reading its input
    proc.stdin.write(b"% PBN 2.1\n" + b"x" * (4 << 20))
    proc.stdin.flush()
    stdout = _interrupt_analyse(proc)
    assert stdout == b""


#: runs `ddsolver analyse ARGS`, saying "solving" on stderr when the tables are started
_ANNOUNCING_DRIVER = """
import sys
import ddsolver.solver as solver
real = solver.dd_tables
def announced(*args, **kwargs):
    print("solving", file=sys.stderr, flush=True)
    return real(*args, **kwargs)
solver.dd_tables = announced
from ddsolver.cli import main
main(sys.argv[1:], prog_name="ddsolver")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_analyse_ctrl_c_while_solving_exits_130_at_once_and_writes_nothing(tmp_path: Path):
    import time

    from ddsolver.ddsfiles import read_dds_file

    # thomas1's deal: each of its tables takes many seconds
    freak = read_dds_file(DATA / "thomas1.txt")[0].deal
    src = write(tmp_path / "freak.pbn", pbn_game(1, freak.to_pbn()))
    out = tmp_path / "out.pbn"
    proc = subprocess.Popen([sys.executable, "-c", _ANNOUNCING_DRIVER, "analyse", str(src),
                             "-o", str(out), "-j", "1"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_child_env(),
                            preexec_fn=_child_setup())
    assert proc.stderr.readline() == b"solving\n"
    time.sleep(0.3)
    assert _interrupt_analyse(proc) == b""
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["freak.pbn"]


def test_analyse_output_ending_in_a_separator_is_refused(small_pbn: Path, tmp_path):
    # 'newdir/' was accepted and the analysed file written as the file 'newdir'
    out = f"{tmp_path}/newdir/"
    result = run("analyse", small_pbn, "-o", out, "-q")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '-o' / '--output': cannot write {out}: it names a folder" \
        in " ".join(result.stderr.split())
    assert not (tmp_path / "newdir").exists()


def test_the_shared_path_checks(tmp_path, monkeypatch):
    """ddsolver._io's checks, used by every command's path options (ddsolver.cli.check_path):
    the reasons they give, and what they let through."""
    import ddsolver._io as io_module
    from ddsolver._io import input_file_problem, output_file_problem, output_folder_problem

    (tmp_path / "file").write_text("x")
    os.symlink("loop", tmp_path / "loop")
    assert input_file_problem(tmp_path / "file") is None
    assert input_file_problem(tmp_path) == f"cannot read {tmp_path}: it is a folder"
    assert input_file_problem(" ") == "an empty file name"
    assert output_file_problem(tmp_path / "new.pbn") is None
    assert output_file_problem(tmp_path / "file" / "x") == \
        f"cannot write {tmp_path / 'file' / 'x'}: the folder {tmp_path / 'file'} is not a " \
        f"folder"
    # a path ending in a separator names a folder: refused, whether it exists or not
    for name in ("newdir/", "file/", "new.pbn/"):
        assert output_file_problem(f"{tmp_path}/{name}") == \
            f"cannot write {tmp_path}/{name}: it names a folder (the path of a file must " \
            f"not end in '/')"
    assert output_file_problem(f"{tmp_path}/") == f"cannot write {tmp_path}/: it is a folder"
    assert output_folder_problem(tmp_path / "a" / "b") is None        # created later
    assert output_folder_problem(tmp_path / "file") == \
        f"cannot use the folder {tmp_path / 'file'}: it is not a folder"
    assert output_folder_problem(tmp_path / "file" / "d") == \
        f"cannot create the folder {tmp_path / 'file' / 'd'}: {tmp_path / 'file'} is not a " \
        f"folder"
    assert output_folder_problem(tmp_path / "loop") == \
        f"cannot use the folder {tmp_path / 'loop'}: Too many levels of symbolic links"
    assert output_folder_problem("") == "an empty folder name"
    assert sorted(os.listdir(tmp_path)) == ["file", "loop"]          # nothing created
    # a folder that is not writable (simulated: the tests may run as root); a device in it
    # is written into, so /dev/null passes
    real_access = os.access
    monkeypatch.setattr(io_module.os, "access", lambda p, mode: False if os.fspath(p) ==
                        "/dev" and mode == os.W_OK else real_access(p, mode))
    assert output_file_problem("/dev/x.pbn") == \
        "cannot write /dev/x.pbn: the folder /dev is not writable"
    if os.path.exists("/dev/null"):
        assert output_file_problem("/dev/null") is None
    with pytest.raises(click.BadParameter, match="the folder /dev is not writable") as info:
        check_path("/dev/x.pbn", "'-o'")
    assert info.value.param_hint == "'-o'"
    check_path(None, "'-o'")         # an option not given


def test_analyse_of_a_file_of_broken_boards_shows_every_error_line(tmp_path):
    """The list of every board's error (none can be read) was cut in its middle by the
    400-character limit of a message: board 2's line cut, board 3's hidden.  Each line is
    cut on its own now; every line is shown."""
    text = "\n".join(f'[Board "{n}"]\n[Deal "N:{"AKQ" * (n + 40)}"]\n' for n in range(1, 5))
    path = write(tmp_path / "broken.pbn", text)
    result = run("analyse", path)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.strip().split("\n")
    assert lines[0] == "Error: none of the 4 games can be read:", lines
    assert [n for n in range(1, 5) if any(f"board {n}: bad deal" in ln for ln in lines)] \
        == [1, 2, 3, 4], lines
