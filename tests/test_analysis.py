"""Tests of the analyse job as a library (ddsolver.analysis)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import ddsolver
from ddsolver.analysis import (
    MAX_INPUT_BYTES,
    MAX_INPUT_GAMES,
    AnalysisReport,
    analyse_file,
    analyse_games,
    read_games,
)
from ddsolver.cards import Strain
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError, InputTooLargeError, LINError, PBNError
from ddsolver.par import par
from ddsolver.pbn import parse_pbn, read_pbn
from ddsolver.pbn.dd_tags import dd_tricks_from_pbn
from ddsolver.solver import dd_table
from ddsolver.table import Seat, Vulnerability

DATA = Path(__file__).parent / "data"
CLUB = DATA / "club_hand_record_36.pbn"
#: the first four boards of CLUB, with BridgeComposer's analysis tags
FOUR = Path(__file__).parent.parent / "examples" / "four_boards.pbn"
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
#: North-South take every trick in notrump and three suits, 11 in clubs
TOPS = "N:AKQJ.AKQJ.AKQ.AK T98.T98.JT9.QJT9 765.765.8765.876 432.432.432.5432"
SPEC = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"


def game(board: int, deal: str, extra: str = "") -> str:
    return (f'[Event "t"]\n[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            f'[Deal "{deal}"]\n{extra}')


def test_analyse_file_agrees_with_the_tags_of_a_real_hand_record():
    before = read_pbn(FOUR)
    report = analyse_file(FOUR, check=True, threads=2)
    assert isinstance(report, AnalysisReport)
    assert report.format == "pbn" and report.source == str(FOUR)
    assert report.analysed == 4 and report.skipped == 0 and report.malformed == 0
    assert report.mismatched == 0 and report.compared == 4 and report.unchecked == 0
    assert report.distinct_deals == 4
    assert [b.label for b in report.boards] == [f"board {i}" for i in range(1, 5)]
    for b, old in zip(report.boards, before):
        assert b.check == "ok" and b.mismatches == []
        # the tags written are the ones BridgeComposer wrote
        assert b.game.get("DoubleDummyTricks") == old.get("DoubleDummyTricks")
        assert b.game.get("ParContract") == old.get("ParContract")
        assert b.par.score == par(b.table, b.vulnerability, b.dealer).score


def test_analyse_file_bytes_and_file_objects():
    text = "% PBN 2.1\n" + game(1, TOPS) + "\n" + game(2, SPEC)
    for source in (text.encode("latin-1"), io.BytesIO(text.encode()), io.StringIO(text)):
        report = analyse_file(source)
        assert report.analysed == 2 and report.mismatched is None
        tops, spec = report.boards
        assert tops.table[Strain.NOTRUMP, N] == 13 and tops.table[Strain.CLUBS, E] == 2
        assert spec.table[Strain.NOTRUMP, N] == 10
        assert spec.table.to_array().tolist() == dd_table(Deal.from_pbn(SPEC)).to_array().tolist()
        assert tops.par.score == 1520 and tops.dealer == N
        assert tops.vulnerability == Vulnerability.NONE
        assert tops.to_json()["table"]["C"] == {"N": 11, "E": 2, "S": 11, "W": 2}
        assert tops.to_json()["par"]["par_contract"] == "NS 7N="


def test_analyse_games_skips_incomplete_and_malformed_and_changes_games_in_place():
    text = ("% PBN 2.1\n" + game(1, TOPS) + "\n" + game(2, "N:AKQJ.AKQJ.AKQ.AK - - -")
            + "\n" + game(3, "N:AKQ.x.y.z - - -") + "\n" + '[Board "4"]\n[Deal "' + TOPS
            + '"]\n')
    games = parse_pbn(text, errors="keep")
    report = analyse_games(games, threads=1, check=True)
    b1, b2, b3, b4 = report.boards
    assert b1.skipped is None and b1.check == "unchecked"
    assert b2.skipped.startswith("the deal is not complete") and not b2.malformed
    assert b3.malformed and "N:AKQ.x.y.z" in b3.skipped and b3.table is None
    # no dealer, no vulnerability: from the board number (board 4: West, both)
    assert b4.dealer == W and b4.vulnerability == Vulnerability.BOTH
    assert b4.notes == ["no dealer given: par computed with dealer W (board number)",
                        "no vulnerability given: par computed for All (board number)"]
    assert report.analysed == 2 and report.skipped == 2 and report.malformed == 1
    assert report.distinct_deals == 1 and report.mismatched == 0 and report.unchecked == 2
    assert games[0].get("OptimumScore") == "NS 1520"
    assert games[1].get("DoubleDummyTricks") is None
    assert dd_tricks_from_pbn(games[3].get("DoubleDummyTricks"))[(Strain.CLUBS, S)] == 11
    data = report.to_json()
    assert [b.get("skipped") is None for b in data["boards"]] == [True, False, False, True]
    assert data["boards"][2]["malformed"] is True and "malformed" not in data["boards"][1]


def test_report_write_keeps_a_malformed_board_as_it_stands(tmp_path: Path):
    bad = '[Board "2"]\n[Deal "N:AKQ.x"\n'
    src = tmp_path / "in.pbn"
    src.write_bytes(("% PBN 2.1\r\n" + game(1, TOPS) + "\n" + bad).replace("\n", "\r\n")
                    .encode())
    report = analyse_file(src)
    assert report.newline == "\r\n" and report.malformed == 1
    out = tmp_path / "out.pbn"
    report.write(out)
    data = out.read_bytes()
    assert data.endswith(bad.replace("\n", "\r\n").encode())
    assert b"[DoubleDummyTricks" in data


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_report_write_keeps_the_line_ends_of_the_input(tmp_path: Path, newline: str):
    # CR alone (classic Mac OS files) is kept as CRLF and LF are
    bad = '[Board "2"]\n[Deal "N:AKQ.x"\n'
    src = tmp_path / "in.pbn"
    src.write_bytes(("% PBN 2.1\n" + game(1, TOPS) + "\n" + bad).replace("\n", newline)
                    .encode())
    assert read_games(src)[2] == newline
    report = analyse_file(src)
    assert report.newline == newline and report.analysed == 1 and report.malformed == 1
    out = tmp_path / "out.pbn"
    report.write(out)
    data = out.read_bytes().decode("latin-1")
    assert data.endswith(bad.replace("\n", newline)) and "[DoubleDummyTricks" in data
    # every line ends so, and no other line end is left
    stripped = data.replace(newline, "")
    assert "\r" not in stripped and "\n" not in stripped


def test_read_games_formats_and_errors(tmp_path: Path):
    lin = DATA / "bbo_robot_session_8.lin"
    games, kind, newline = read_games(lin)
    assert kind == "lin" and newline == "\r\n" and len(games) == 8
    games, kind, newline = read_games(CLUB, format="pbn")
    assert kind == "pbn" and len(games) == 36
    with pytest.raises(PBNError, match="no boards found"):
        read_games(b"% PBN 2.1\n")
    with pytest.raises(PBNError, match="line 1, game 1: text 'hello' outside any tag"):
        read_games(b"hello\n\nworld\n", format="pbn")
    with pytest.raises(LINError):
        read_games(b"md|zz|", format="lin")
    with pytest.raises(ValueError, match="format"):
        read_games(CLUB, format="xml")
    with pytest.raises(TypeError):
        read_games(42)
    with pytest.raises(FileNotFoundError):
        read_games(tmp_path / "none.pbn")


def test_analyse_games_rejects_bad_arguments():
    games = parse_pbn(game(1, TOPS))
    with pytest.raises(TypeError, match="PBNGames"):
        analyse_games(["not a game"])
    # as Solver's memory_mb: the wrong type is a TypeError, an integer out of range a
    # ValueError, and analyse_file checks before it reads the file
    for threads in (1.5, 2.0, "2", True):
        with pytest.raises(TypeError, match="threads"):
            analyse_games(games, threads=threads)
        with pytest.raises(TypeError, match="threads"):
            analyse_file(Path("no such file.pbn"), threads=threads)
    for threads in (0, -1):
        with pytest.raises(ValueError, match="threads"):
            analyse_games(games, threads=threads)
        with pytest.raises(ValueError, match="threads"):
            analyse_file(Path("no such file.pbn"), threads=threads)
    assert games[0].get("DoubleDummyTricks") is None


class EndlessInput(io.RawIOBase):
    """A binary stream that never ends (``yes x``): counts what was asked of it."""

    def __init__(self, line: bytes = b"x\n"):
        self.line = line
        self.reads = 0
        self.given = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "an endless input read to its end"
        self.reads += 1
        data = (self.line * (size // len(self.line) + 1))[:size]
        self.given += len(data)
        return data


def test_an_input_without_a_tag_is_refused_at_its_first_error_as_not_pbn():
    # not one tag: refused at the first line that is not a comment, without keeping each
    # stretch between empty lines as an unreadable game first; the message asks whether
    # the input is PBN at all
    suffix = "; there is no tag ('[Name \"value\"]') in the input: is it a PBN file?"
    garbage = b"% a comment\n; another\n\n  x  y\n" + b"x\n\nx\n" * 1000
    with pytest.raises(PBNError) as info:
        read_games(garbage, name="g.pbn")
    assert str(info.value) == ("g.pbn, line 4, game 1: text 'x  y' outside any tag "
                               "(expected '[')" + suffix)
    with pytest.raises(PBNError) as info:
        read_games(b"{ [ not a tag ] }\r\n\r\n" + b"[x\r\n\r\n" * 1000, format="pbn")
    assert str(info.value) == "line 3, game 1: unterminated tag [x" + suffix
    with pytest.raises(PBNError, match=r"^line 2, game 1: unterminated comment '\{' \(no "
                                       r"'\}'\); there is no tag"):
        read_games(b"%\n{ open\n\nx\n", format="pbn")
    # a LIN file named .pbn (read as PBN by its name): the message says how to read it
    lin = b"pn|a,b,c,d|md|3SAKQ,HAK,|ah|Board 1|"
    with pytest.raises(PBNError, match=r"is it a PBN file\? It looks like LIN: read it as "
                                       r"LIN \(--format lin"):
        read_games(lin, name="hands.pbn")
    with pytest.raises(PBNError, match=r"^g.pbn: no boards found \(is it a PBN file\?\)$"):
        read_games(b"% only\n{ comments }\n; here [\n", name="g.pbn")
    # with a tag somewhere, even one across lines, unreadable games are kept as before
    games, _, _ = read_games(b"x\n\n" + (DATA / "club_hand_record_36.pbn").read_bytes())
    assert len(games) == 37 and games[0].error.startswith("line 1, game 1: text 'x'")
    assert games[0].raw_text == "x" and all(g.error is None for g in games[1:])
    games, _, _ = read_games(b"[x\n\n[\r\n  Board\r\n\"3\"]\n\n[y\n", name="f.pbn")
    assert [(g.board, g.error) for g in games] == [
        (None, "f.pbn, line 1, game 1: unterminated tag [x"), (3, None),
        (None, "f.pbn, line 7, game 3: unterminated tag [y")]


def test_an_endless_input_is_refused_after_the_cap_and_read_in_chunks():
    endless = EndlessInput()
    with pytest.raises(InputTooLargeError,
                       match=r"^<stdin> is larger than 3 MiB, the most that is read "
                             r"\(max_bytes=3145728\)"):
        read_games(endless, name="<stdin>", max_bytes=3 * 1024 * 1024)
    # 1 MiB at a time, and nothing after the first chunk past the cap
    assert endless.reads == 4 and endless.given == 4 * 1024 * 1024
    with pytest.raises(InputTooLargeError, match="the input is larger than 100 bytes"):
        analyse_file(EndlessInput(), max_bytes=100)
    assert issubclass(InputTooLargeError, BridgeError)
    assert ddsolver.InputTooLargeError is InputTooLargeError
    assert MAX_INPUT_BYTES == 256 * 1024 * 1024


def test_the_number_of_games_is_capped_too(tmp_path: Path):
    # one-tag games cost hundreds of bytes each whatever their text: the byte cap alone
    # would let 256 MiB of them take over 10 GB, so the games are counted as they are read
    assert MAX_INPUT_GAMES == 1_000_000
    four = "".join(f'[Event "e{i}"]\n\n' for i in range(4)).encode()
    assert len(read_games(four, max_games=4)[0]) == 4             # exactly the cap: read
    with pytest.raises(InputTooLargeError,
                       match=r"^<in> holds more than 3 games, the most that is read "
                             r"\(max_games=3\); split it into smaller files$"):
        read_games(four, name="<in>", max_games=3)
    assert len(read_games(four, max_games=None)[0]) == 4
    # unreadable games kept in their place count too
    damaged = b'[Event "a"]\n\n[Deal "N:junk"]\n\n[Event "b"]\n\n'
    assert len(read_games(damaged, max_games=3)[0]) == 3
    with pytest.raises(InputTooLargeError, match="more than 2 games"):
        read_games(damaged, max_games=2)
    path = tmp_path / "many.pbn"
    path.write_bytes(four)
    with pytest.raises(InputTooLargeError, match=f"^{re.escape(str(path))} holds more"):
        analyse_file(path, max_games=2)
    with pytest.raises(InputTooLargeError, match="more than 1 games"):
        parse_pbn(four.decode(), max_games=1)
    for bad, error in [(0, ValueError), (-1, ValueError), (True, TypeError),
                       (2.0, TypeError), ("3", TypeError)]:
        with pytest.raises(error, match="max_games"):
            parse_pbn(four.decode(), max_games=bad)
        with pytest.raises(error, match="max_games"):
            read_games(four, format="lin", max_games=bad)     # checked for LIN input too


def test_the_cap_counts_bytes_for_paths_bytes_and_text(tmp_path: Path):
    text = "% PBN 2.1\n" + game(1, TOPS)
    size = len(text.encode())
    path = tmp_path / "one.pbn"
    path.write_bytes(text.encode())
    sources = [lambda: path, lambda: str(path), lambda: text.encode(),
               lambda: io.BytesIO(text.encode()), lambda: io.StringIO(text)]
    for source in sources:
        games, kind, _ = read_games(source(), max_bytes=size)    # exactly the cap: read
        assert len(games) == 1 and kind == "pbn"
        with pytest.raises(InputTooLargeError, match=f"larger than {size - 1} bytes"):
            read_games(source(), max_bytes=size - 1)
        assert len(read_games(source(), max_bytes=None)[0]) == 1
    # the message names the file
    with pytest.raises(InputTooLargeError, match=f"^{re.escape(str(path))} is larger"):
        read_games(path, max_bytes=10)
    # a text file object is counted in UTF-8 bytes: 'é' is two
    accented = text.replace('"t"', '"été"')
    assert len(accented) == size + 2 and len(accented.encode()) == size + 4
    with pytest.raises(InputTooLargeError):
        read_games(io.StringIO(accented), max_bytes=size + 3)
    assert read_games(io.StringIO(accented), max_bytes=size + 4)[0][0].get("Event") == "été"


def test_a_regular_file_over_the_cap_is_refused_without_being_read(tmp_path: Path,
                                                                    monkeypatch):
    path = tmp_path / "big.pbn"
    path.write_bytes(b"% PBN 2.1\n" + b" " * 5000)
    import ddsolver._io as io_module

    def no_reading(*args, **kwargs):
        raise AssertionError("read a file known to be too large")

    monkeypatch.setattr(io_module, "read_capped", no_reading)
    with pytest.raises(InputTooLargeError, match="big.pbn is larger than 4096 bytes"):
        read_games(path, max_bytes=4096)


def test_max_bytes_must_be_a_positive_integer_or_none():
    data = ("% PBN 2.1\n" + game(1, TOPS)).encode()
    for bad in ("100", 1.5, True):
        with pytest.raises(TypeError, match="max_bytes"):
            read_games(data, max_bytes=bad)
        with pytest.raises(TypeError, match="max_bytes"):
            analyse_file(Path("no such file.pbn"), max_bytes=bad)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_bytes must be at least 1"):
            read_games(data, max_bytes=bad)


@pytest.mark.parametrize("data", [b"\xff\xfeA", b"\xff\xfe\x00\xd8[\x00", b"\xfe\xff\x00"])
def test_a_broken_utf16_input_is_a_pbn_error_not_a_decoding_crash(data: bytes):
    # a UTF-16 byte order mark, then an odd byte or a lone surrogate
    with pytest.raises(PBNError, match="line 1, game 1"):
        read_games(data, format="pbn")
    from ddsolver._io import decode_text

    assert decode_text(b"\xff\xfe[\x00A") == "[\ufffd"
    assert decode_text(b"\xff\xfe[\x00B\x00") == "[B"


ROOT = Path(__file__).resolve().parent.parent


def _undocumented_raises(path: Path) -> list[str]:
    """The public functions and methods of a module whose docstring has no ``:raises X:``
    for an exception class ``X`` they raise themselves (``raise X(...)``)."""
    import ast

    found = []

    def visit(node, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if child.name.startswith("_"):
                    continue
                documented = set()
                for m in re.finditer(r":raises ([\w, ]+):", ast.get_docstring(child) or ""):
                    documented.update(x.strip() for x in m.group(1).split(","))
                raised = set()
                todo = list(ast.iter_child_nodes(child))
                while todo:
                    n = todo.pop()
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                      ast.ClassDef)):
                        continue  # a nested function documents its own
                    if isinstance(n, ast.Raise) and n.exc is not None:
                        exc = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
                        if isinstance(exc, ast.Name) and exc.id[:1].isupper():
                            raised.add(exc.id)
                    todo.extend(ast.iter_child_nodes(n))
                for name in sorted(raised - documented):
                    found.append(f"{path.name}: {prefix}{child.name} raises {name}")

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_the_functions_of_the_analyse_path_document_what_they_raise():
    modules = ["ddsolver/analysis.py", "ddsolver/_io.py", "ddsolver/_dask.py",
               "ddsolver/lin.py", "ddsolver/pbn/reader.py"]
    assert [p for m in modules for p in _undocumented_raises(ROOT / m)] == []
    # the checker finds what it looks for
    assert _undocumented_raises(ROOT / "tests" / "data" / "raises_sample.py") == [
        "raises_sample.py: function raises ValueError",
        "raises_sample.py: Thing.method raises KeyError"]


def test_the_documented_cap_and_its_message_are_the_real_ones():
    from ddsolver._io import too_large

    doc = " ".join((ROOT / "docs" / "analyse.md").read_text(encoding="utf-8").split())
    message = str(too_large("INPUT", MAX_INPUT_BYTES))
    assert f"`Error: {message}`" in doc
    assert "at most 256 MiB of it (`ddsolver.analysis.MAX_INPUT_BYTES`)" in doc
    assert "`Interrupted: nothing written.` on stderr" in doc


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_the_export_line_of_the_input_is_written_back(newline: str):
    # PBN 2.1: '% EXPORT', the line after '% PBN 2.1', says the file is in export format.
    # analyse writes the file back with the input's line ends; it dropped '% EXPORT' from
    # an input with LF (or CR) line ends, keeping it only for CRLF.
    text = ("% PBN 2.1\n% EXPORT\n%Creator: someone\n" + game(1, TOPS) + "\n"
            + game(2, SPEC)).replace("\n", newline)
    report = analyse_file(text.encode("latin-1"), name="x.pbn", threads=1)
    out = io.BytesIO()
    report.write(out)
    lines = out.getvalue().decode("latin-1").split(newline)
    assert lines[:3] == ["% PBN 2.1", "% EXPORT", "%Creator: someone"]
    assert sum(1 for ln in lines if ln.startswith("%")) == 3


def test_an_input_without_the_export_line_is_not_given_one_with_lf():
    text = "% PBN 2.1\n" + game(1, TOPS)
    out = io.BytesIO()
    analyse_file(text.encode(), name="x.pbn", threads=1).write(out)
    assert out.getvalue().decode().split("\n")[:2] == ["% PBN 2.1", '[Event "t"]']


def test_deal_only_games_cost_a_bounded_memory_each_once_analysed():
    # 2,000 games of a Deal tag alone (2 deals in turn): read and analysed, they held ~4.9
    # kB each (20 OptimumResultTable lines of their own, four Tag dataclasses); ~2.8 kB now.
    import gc
    import tracemalloc
    data = ''.join(f'[Deal "{d}"]\n\n' for d in (TOPS, SPEC) * 1000).encode()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        report = analyse_file(data, name="x.pbn", threads=1)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert report.analysed == 2000 and report.distinct_deals == 2
    assert held / 2000 < 3800, f"{held / 2000:.0f} bytes a game"


def test_lin_boards_without_a_number_are_labelled_by_their_place():
    """A LIN board without a number was reported as "game None" (a LIN game has no PBN
    index); it is "game 2", its place in the file, as a PBN game is."""
    short = "md|3SAKQJT98765432,HAKQJT98765432,,|sv|o|pg||\n"
    report = analyse_file(io.StringIO(short * 2), format="lin")
    assert [b.label for b in report.boards] == ["game 1", "game 2"]
    assert report.boards[1].skipped.startswith("the deal is not complete")


def test_an_input_of_which_no_game_can_be_read_names_every_error():
    """Every board bad: only the first board's error was shown, so a file was fixed one
    board per run.  Each game's error is listed (ten, then a count)."""
    bad = ['[Board "{n}"]\n[Deal "N:AKQ.xx"]\n', '[Board "{n}"]\n[Deal "Q:AKQJT98765432..."]\n',
           '[Board "{n}"]\n[Vulnerable "Maybe"]\n[Deal "N:..."]\n']
    text = "\n".join(b.format(n=i + 1) for i, b in enumerate(bad))
    with pytest.raises(PBNError) as info:
        read_games(io.StringIO(text), format="pbn")
    lines = str(info.value).split("\n")
    assert lines[0] == "none of the 3 games can be read:"
    assert "board 1: bad deal 'N:AKQ.xx'" in lines[1] and "invalid seat 'Q'" in lines[2]
    assert "bad vulnerability 'Maybe'" in lines[3] and len(lines) == 4
    many = "\n".join(bad[0].format(n=i + 1) for i in range(12))
    with pytest.raises(PBNError, match=r"none of the 12 games can be read:\n(  .*board \d+: "
                                       r"bad deal.*\n){10}  \.\.\. and 2 more$"):
        read_games(io.StringIO(many), format="pbn")
    # one game: its error alone, as before
    with pytest.raises(PBNError) as info:
        read_games(io.StringIO(bad[0].format(n=1)), format="pbn")
    assert "board 1: bad deal 'N:AKQ.xx'" in str(info.value)
    assert "none of" not in str(info.value) and "\n" not in str(info.value)
