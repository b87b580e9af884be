"""Tests of ai.tui: the terminal game, driven by a scripted reader and, end to end, in tmux."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest
from rich.console import Console

from ai.chicago import ChicagoMatch, SavedGameError
from ai.daily import DailyBoards, Leaderboard
from ai.tui import Screen, TerminalGame, open_game
from ddsolver.cards import Card

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Board 1 (North deals): North opens 1NT; South (the human) then East pass... see below.
DEAL_NORTH_DECLARES = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
FAST = {"threads": 1, "time_budget": 0.05}


class Driver:
    """A scripted human: answers prompts from ``plan`` (a list of answers, or callables
    ``prompt -> answer``) and then by a default strategy (pass; the first legal card;
    Enter); keeps every screen it was shown with its prompt."""

    def __init__(self, plan=(), default_call="p"):
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=80, force_terminal=False,
                               color_system=None, highlight=False)
        self.plan = list(plan)
        self.default_call = default_call
        self.screens = []          # (screen text, prompt, answer)
        self._mark = 0

    def __call__(self, prompt: str) -> str:
        text = self.out.getvalue()[self._mark:]
        if self.plan:
            answer = self.plan.pop(0)
            if callable(answer):
                answer = answer(prompt)
        else:
            answer = self.default(prompt)
        self.screens.append((text, prompt, answer))
        if isinstance(answer, BaseException):
            raise answer
        self.console.print(prompt + answer)
        self._mark = len(self.out.getvalue())
        return answer

    def default(self, prompt: str) -> str:
        if prompt.startswith("Your call"):
            return self.default_call
        if prompt.startswith("Card from"):
            return first_legal(prompt)
        return ""

    def screen(self) -> Screen:
        return Screen(self.console, self, ascii=True)

    def shown(self) -> str:
        return self.out.getvalue()


def first_legal(prompt: str) -> str:
    legal = re.search(r"\[([^\]]*)\]", prompt).group(1).split()[0]
    return legal[:2]


def legal_cards(prompt: str):
    out = []
    for group in re.search(r"\[([^\]]*)\]", prompt).group(1).split():
        out += [Card.from_str(group[0] + r) for r in group[1:]]
    return out


def test_bad_calls_get_a_message_and_a_new_prompt(tmp_path):
    d = Driver(["9Z", "1C", "xx", "e 1", "e 2C", "auction", "?", "h", "", "p"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    tg = TerminalGame(game, d.screen(), level="medium", seed=1, computer_settings=FAST)
    d.plan.append("quit")                         # at the first card: leave (saved)
    assert tg.run() == 0
    said = [s for s, _, _ in d.screens]
    assert "'9Z' is not a call" in said[1]
    assert "1C is not legal now: insufficient bid: it must be higher than the last bid " \
           "1NT" in said[2]
    assert "XX is not legal now" in said[3]
    assert "Call 1: North 1NT - 1NT opening; 15-17 HCP, balanced; non-forcing" in said[4]
    assert "If you bid 2C now: Stayman: asks for a four-card major" in said[5]
    assert " 1 North 1NT   1NT opening" in said[6] and " 2 East  Pass" in said[6]
    assert "claim N = N of them" in said[7]
    assert "Suggestions are given at the easy level only." in said[8]
    assert "Type a call" in said[9]
    # the auction went 1NT Pass Pass Pass: North declares and the human plays both hands
    # (East led, dummy South is faced and plays second, from declarer North's view)
    text, prompt, answer = d.screens[-1]
    assert prompt.startswith("Card from South (dummy) [") and answer == "quit"
    assert "North (declarer)" in text and "South (dummy) - you" in text
    assert "Contract 1NT by North: N-S need 7 tricks." in text
    saved = json.loads((tmp_path / "m.json").read_text())
    assert saved["current"]["progress"]["calls"] == ["1NT", "Pass", "Pass", "Pass"]
    assert len(saved["current"]["progress"]["play"]) == 1          # East's opening lead


def test_help_and_auction_commands_while_playing(tmp_path):
    # the commands the auction and the play share work at a card prompt too
    d = Driver(["p", "?", "auction", "quit"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    assert TerminalGame(game, d.screen(), seed=1, computer_settings=FAST).run() == 0
    said = [s for s, _, _ in d.screens]
    assert [p.split(" [")[0] for _, p, _ in d.screens[1:]] == ["Card from South (dummy)"] * 3
    assert "claim N = N of them" in said[2]
    assert " 1 North 1NT   1NT opening" in said[3] and " 2 East  Pass" in said[3]


def test_a_broken_pipe_mid_game_saves_it_and_propagates(tmp_path):
    """The screen's reader gone (``ddsolver-play | head``): the game is saved as after
    Ctrl-C, and the BrokenPipeError goes on to the command (status 141), not reported as
    "the game cannot be saved" (an OSError)."""
    path = tmp_path / "m.json"
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=path)
    d = Driver(["p", BrokenPipeError(32, "Broken pipe")])
    tg = TerminalGame(game, d.screen(), seed=1, computer_settings=FAST)
    with pytest.raises(BrokenPipeError):
        tg.run()
    assert "cannot be saved" not in d.shown()
    saved = json.loads(path.read_text())
    assert saved["current"]["progress"]["calls"][:2] == ["1NT", "Pass"]


def test_the_pbn_file_is_written_atomically_and_never_refused_for_its_characters(
        tmp_path, monkeypatch):
    """--pbn was opened with "w" (truncated at once) and written in Latin-1 only: a write
    that failed left half a file or none (the old one gone), and a character beyond
    Latin-1 stopped the game with a UnicodeEncodeError.  Now as write_pbn: atomic, Latin-1
    when every character fits, else UTF-8."""
    import ddsolver._io

    pbn = tmp_path / "boards.pbn"
    pbn.write_bytes(b"the old file\n")
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    d = Driver([])
    tg = TerminalGame(game, d.screen(), seed=1, computer_settings=FAST, pbn=str(pbn))
    monkeypatch.setattr(game, "to_pbn", lambda: "% PBN 2.1\r\n{Caf\u00e9 \u20ac}\r\n")

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ddsolver._io.os, "fsync", full)
    tg.finish()
    assert f"Could not write {pbn}" in d.shown() and "No space left" in d.shown()
    assert pbn.read_bytes() == b"the old file\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    monkeypatch.undo()
    monkeypatch.setattr(game, "to_pbn", lambda: "% PBN 2.1\r\n{Caf\u00e9 \u20ac}\r\n")
    tg.finish()
    assert f"The boards are in {pbn} (PBN)." in d.shown()
    assert pbn.read_bytes() == "% PBN 2.1\r\n{Caf\u00e9 \u20ac}\r\n".encode("utf-8")


def test_bad_cards_and_claims_then_resume(tmp_path):
    path = tmp_path / "m.json"
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=path)
    d = Driver(["p"])

    def wrong_card(prompt):
        legal = legal_cards(prompt)
        return next(str(c) for c in sorted(Card.from_str(s + r) for s in "SHDC"
                                             for r in "AKQJT98765432") if c not in legal)

    d.plan += ["ZZ", wrong_card, "claim 99", "claim x", "e", KeyboardInterrupt()]
    tg = TerminalGame(game, d.screen(), seed=1, computer_settings=FAST)
    assert tg.run() == 130                                  # Ctrl-C: saved
    said = [s for s, _, _ in d.screens]
    assert "'ZZ' is not a card" in said[2]
    assert re.search(r"(South|You) do(es)? not hold|You must follow suit|has been played "
                     r"already", said[3]), said[3]
    assert "Claim how many of the 13 remaining tricks?" in said[4]
    assert "Claim how many" in said[5]
    assert "Call 4: West Pass" in said[6]
    assert "Interrupted. Saved to" in d.shown()
    back = ChicagoMatch.load(path)
    assert back.progress.calls and len(back.progress.play) == 1
    # resume: the human concedes the rest at once (claim 0 always holds)
    d2 = Driver(["claim 0"], default_call="p")
    d2.plan.append("quit")
    assert TerminalGame(back, d2.screen(), seed=1, computer_settings=FAST).run() == 0
    assert "North claimed 0 of the remaining tricks: accepted." in d2.shown()
    r = ChicagoMatch.load(path).results[0]
    assert r.claim == (r.declarer, 0) and r.tricks == 0 and r.result_text == "1NTN-7"


def test_a_whole_chicago_match_at_the_terminal(tmp_path):
    d = Driver()
    game = ChicagoMatch(seed=11, path=tmp_path / "m.json", settings={"level": "easy"})
    assert TerminalGame(game, d.screen(), level="easy", seed=11,
                        computer_settings=FAST).run() == 0
    shown = d.shown()
    assert game.is_finished and "Chicago - finished" in shown
    assert f"Your final score: {game.final_score()}" in shown
    assert "Suggested: " in shown                                # easy level
    for text, prompt, _ in d.screens:                             # 80 x 24
        assert len(text.rstrip("\n").split("\n")) <= 23, text
        assert max(len(x) for x in text.split("\n")) <= 80
    # the running score: every summary shows the totals after the board
    ns, ew = game.totals
    assert f"Totals: N-S {ns}, E-W {ew}." in shown


def test_the_boards_of_the_day_and_the_leaderboard(tmp_path):
    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    date = __import__("datetime").date(2024, 3, 1)
    d = Driver(["Ann"])
    game = open_game(daily=True, level="easy", seed=None, save=save, name=None, new=False,
                     screen=d.screen(), leaderboard=lb, date=date)
    assert isinstance(game, DailyBoards) and game.settings["name"] == "Ann"
    tg = TerminalGame(game, d.screen(), level="medium", seed=f"daily:{game.date}",
                      leaderboard=lb, computer_settings=FAST,
                      pbn=str(tmp_path / "day.pbn"))
    assert tg.run() == 0
    shown = d.shown()
    assert f"Leaderboard entry: Ann, 2024-03-01, {game.total:+d}." in shown
    assert "Your place: 1 of 1." in shown
    with Leaderboard(lb) as board:
        e = board.entry("Ann", "2024-03-01")
    assert e.score == game.total and list(e.results) == game.result_texts()
    from ddsolver import read_pbn
    assert len(read_pbn(tmp_path / "day.pbn")) == 4
    # the same name the same day: offered practice only, and declining leaves
    d2 = Driver(["n"])
    assert open_game(daily=True, level="easy", seed=None, save=str(tmp_path / "d2.json"),
                     name="ann", new=False, screen=d2.screen(), leaderboard=lb,
                     date=date) is None
    assert "ann has played today's boards already" in d2.shown()


@pytest.mark.parametrize("name", ["x" * 50, "Ann\x07", "\x1b[31mAnn", "   ", "Bob\u200b",
                                  "\u202eevil", "\u0085x\u009b31m", "\ufeff"])
def test_a_bad_name_is_refused_before_the_game_starts(tmp_path, name):
    """--name is checked first: exit 2 with the one-line reason, no game played or saved,
    no leaderboard written (it was reported, then played and saved with the bad name)."""
    from click.testing import CliRunner

    from ai.daily import LeaderboardError
    from ai.tui import main

    save, lb = tmp_path / "day.json", tmp_path / "lb.sqlite3"
    run = CliRunner().invoke(main, ["--daily", "--new", "--name", name, "--save", str(save),
                                    "--leaderboard", str(lb)], input="p\n" * 50)
    assert run.exit_code == 2, run.output
    assert "Invalid value for '--name': a name has 1 to 40 printable characters" in run.output
    assert "Traceback" not in run.output and "Your call" not in run.output
    assert not save.exists() and not lb.exists()
    # open_game refuses it too, before reading or asking anything
    with pytest.raises(LeaderboardError, match="1 to 40 printable characters"):
        open_game(daily=True, level="easy", seed=None, save=str(save), name=name, new=False,
                  screen=Driver([]).screen(), leaderboard=str(lb))
    assert not save.exists() and not lb.exists()


# --------------------------------------------------------------------------------------
# tmux: the real program in a real (virtual) terminal of 80 x 24
# --------------------------------------------------------------------------------------

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the terminal "
                                                     "game's end-to-end test is skipped "
                                                     "(apt-get install tmux)")


class Tmux:
    def __init__(self, tmp_path):
        self.starts = 0
        self.sock = str(tmp_path / "tmux0.sock")
        self.env = {**os.environ, "PYTHONPATH": ROOT, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                    "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
        self.tmp = tmp_path

    def tmux(self, *args, check=True):
        return subprocess.run([TMUX, "-S", self.sock, *args], env=self.env, cwd=ROOT,
                              capture_output=True, text=True, timeout=30, check=check)

    def start(self, args: str, size=(80, 24)) -> None:
        # a fresh server (socket) for each start: a killed server may still be going away
        self.starts += 1
        self.sock = str(self.tmp / f"tmux{self.starts}.sock")
        cmd = f"{sys.executable} -m ai.tui {args}; echo EXIT=$?; sleep 60"
        self.tmux("new-session", "-d", "-s", "play", "-x", str(size[0]), "-y", str(size[1]),
                  cmd)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play").stdout

    def send(self, *keys) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def prompt(self, screen: str) -> str:
        lines = [ln for ln in screen.split("\n") if ln.strip()]
        return lines[-1] if lines else ""

    def wait(self, before: str, timeout: float = 60.0) -> str:
        """The next screen that differs from ``before`` and waits for an answer."""
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen()
            last = self.prompt(s)
            if s != before and (last.endswith(":") or last.endswith("]") or "EXIT=" in s):
                return s
            time.sleep(0.05)
        raise AssertionError(f"the game did not answer in {timeout} s; screen:\n{before}")

    def kill(self) -> None:
        self.tmux("kill-server", check=False)


def _legal_from(prompt: str):
    m = re.search(r"\[([^\]]*)\]", prompt)
    out = []
    for group in m.group(1).split():
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[group[0]]
        out += [suit + r for r in group[1:]]
    return out


@needs_tmux
def test_a_whole_match_in_tmux_with_bad_keystrokes_and_ctrl_c(tmp_path):
    t = Tmux(tmp_path)
    save = tmp_path / "data" / "ddsolver" / "chicago.json"
    t.start("--seed 3 --level easy --new --threads 1")
    bad_calls = ["7Q", "1C?", "xx"]
    bad_cards = ["zz", "S1"]
    seen, interrupted, started = [], False, time.time()
    screen = t.wait("")
    try:
        for _ in range(600):
            last = t.prompt(screen)
            seen.append(screen)
            if "EXIT=" in screen:
                break
            if last.startswith(("Your call", "Card from")):     # the whole board fits
                assert screen.startswith("Chicago - board ")
            if last.startswith("Your call"):
                answer = bad_calls.pop(0) if bad_calls else "p"
            elif last.startswith("Card from"):
                legal = _legal_from(last)
                if bad_cards:
                    answer = bad_cards.pop(0)
                elif not interrupted and len(seen) > 40:
                    t.send("C-c")                   # Ctrl-C: saved, the program ends
                    screen = t.wait(screen)
                    assert "Interrupted. Saved to" in screen and "EXIT=130" in screen
                    assert json.loads(save.read_text())["current"] is not None
                    interrupted = True
                    t.kill()
                    t.start("--seed 3 --level easy --threads 1")   # resume
                    screen = t.wait("")
                    assert "Resume the saved Chicago match" in screen
                    t.send("y", "Enter")
                    screen = t.wait(screen)
                    continue
                else:
                    answer = legal[0]
            elif last.startswith("Press Enter"):
                answer = ""
            else:
                raise AssertionError(f"unexpected prompt {last!r}:\n{screen}")
            if answer:
                t.send("-l", answer)
            t.send("Enter")
            screen = t.wait(screen)
            if answer in ("7Q",):
                assert "'7Q' is not a call" in screen
            if answer == "xx":
                assert "XX is not legal now" in screen
            if answer == "zz":
                assert "'zz' is not a card" in screen
            if answer == "S1":
                assert "'S1' is not a card" in screen
        else:
            raise AssertionError("the match did not end")
    finally:
        t.kill()
    final = seen[-1]
    assert "EXIT=0" in final and "Chicago - finished" in final
    assert "Your final score:" in final
    assert interrupted and not bad_calls and not bad_cards
    done = ChicagoMatch.load(save)
    assert done.is_finished
    assert f"Your final score: {done.final_score()} " in final
    assert time.time() - started < 120


def test_the_command_reports_bad_files_without_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT, "XDG_DATA_HOME": str(tmp_path / "data")}
    (tmp_path / "file").write_text("not a directory")
    run = subprocess.run([sys.executable, "-m", "ai.tui", "--new", "--save",
                          str(tmp_path / "file" / "x.json")], env=env, cwd=ROOT,
                         input="", capture_output=True, text=True, timeout=60)
    # refused at the start (it was exit 1 from the first save, before the first board)
    assert run.returncode == 2 and "'--save': cannot write" in run.stderr
    assert "is not a folder" in " ".join(run.stderr.split())
    assert "Traceback" not in run.stderr
    bad = tmp_path / "lb.sqlite3"
    bad.write_text("name,score\n")
    run = subprocess.run([sys.executable, "-m", "ai.tui", "--daily", "--new",
                          "--leaderboard", str(bad)], env=env, cwd=ROOT, input="Ann\n",
                         capture_output=True, text=True, timeout=60)
    # refused at the start (it was reported only when the result was to be recorded)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "'--leaderboard'" in run.stderr and "not a ddsolver leaderboard" in run.stderr
    assert "Your call" not in run.stdout and bad.read_text() == "name,score\n"
    assert not (tmp_path / "data").exists()
    # a damaged saved game: reported, and a new game starts
    (tmp_path / "data" / "ddsolver").mkdir(parents=True)
    (tmp_path / "data" / "ddsolver" / "chicago.json").write_text("{broken")
    run = subprocess.run([sys.executable, "-m", "ai.tui"], env=env, cwd=ROOT, input="",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "The saved game cannot be used" in run.stdout
    assert "not JSON" in run.stdout


def test_one_file_for_two_of_save_leaderboard_and_pbn_is_refused(tmp_path):
    """`--save x --leaderboard x` played the four boards and then could not record them
    (the saved game had taken the leaderboard's place); `--pbn lb.sqlite3` with the same
    leaderboard wrote the boards over everybody's entries.  Refused before the game."""
    from click.testing import CliRunner

    from ai.tui import main

    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    (tmp_path / "data" / "ddsolver").mkdir(parents=True)     # the default files' folder
    lb = tmp_path / "lb.sqlite3"
    with Leaderboard(lb) as board:
        board.record("Ann", "2024-03-01", 10, ["Pass 0"] * 4)
    kept = lb.read_bytes()
    x = tmp_path / "x"
    for args in (["--daily", "--save", str(x), "--leaderboard", str(x)],
                 ["--daily", "--pbn", str(lb), "--leaderboard", str(lb)],
                 ["--save", str(x), "--pbn", str(tmp_path / "." / "x")],
                 ["--daily", "--pbn", str(tmp_path / "data" / "ddsolver" / "daily.json")]):
        name = ["--name", "Bob"] if "--daily" in args else []    # --name goes with --daily
        run = CliRunner().invoke(main, [*name, "--threads", "1", *args], input="", env=env)
        assert run.exit_code == 2, (args, run.output)
        assert "are the same file" in run.output, run.output
        assert "Your call" not in run.output and not x.exists()
    assert lb.read_bytes() == kept
    # the default leaderboard too
    run = CliRunner().invoke(main, ["--daily", "--name", "Bob", "--pbn",
                                    str(tmp_path / "data" / "ddsolver" / "leaderboard.sqlite3")],
                             input="", env=env)
    assert run.exit_code == 2 and "are the same file" in run.output, run.output


def test_a_name_is_stored_in_its_plain_unicode_form(tmp_path):
    from ai.daily import LeaderboardError, _check_name
    assert _check_name("\uff22\uff4f\uff42") == "Bob"        # full-width letters
    assert _check_name("  Zoë   Smith ") == "Zoë Smith"
    assert _check_name("Zoe\u0308") == "Zoë"                    # combined into one letter
    with pytest.raises(LeaderboardError, match="a name is required"):
        _check_name(None)
    with Leaderboard(tmp_path / "lb.sqlite3") as lb:
        results = ("4HS+1 +650", "3NTE-2 +200", "Pass 0", "2SN= +110")
        lb.record("Bob", "2026-12-05", 960, results)
        with pytest.raises(LeaderboardError, match="already"):
            lb.record("\uff22\uff4f\uff42", "2026-12-05", 960, results)


def test_an_illegal_call_is_explained_in_the_screens_notation(tmp_path):
    """With suit symbols on screen, the reason names the bids with symbols too (it said
    "1♣ is not legal now: ... the last bid 1NT" but "1S" inside the reason)."""
    d = Driver(["1C", "p"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    screen = Screen(d.console, d, ascii=False)
    d.plan.append("quit")
    assert TerminalGame(game, screen, level="medium", seed=1, computer_settings=FAST).run() == 0
    said = [s for s, _, _ in d.screens]
    assert "1♣ is not legal now: insufficient bid: it must be higher than the last bid " \
           "1NT (by North)." in said[1]
    # a suit bid named in the reason: Stayman, opener's answer, then 2C again
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "n.json")
    d = Driver(["2C", "2C", "p", "p", "p", "quit"])
    screen = Screen(d.console, d, ascii=False)
    TerminalGame(game, screen, level="medium", seed=1, computer_settings=FAST).run()
    said = [s for s, _, _ in d.screens]
    assert re.search(r"2♣ is not legal now: insufficient bid: it must be higher than the "
                     r"last bid 2[♦♥♠] \(by North\)\.", said[2]), said[2]


def test_save_never_overwrites_a_file_that_is_not_a_saved_game(tmp_path):
    # --save given a hand record (--pbn mistyped as --save) or notes: refused, file kept
    env = {**os.environ, "PYTHONPATH": ROOT, "XDG_DATA_HOME": str(tmp_path / "data")}
    for name, text in (("hands.pbn", '[Event "club"]\n[Board "1"]\n'),
                       ("notes.txt", "my notes\n"), ("other.json", '{"name": "x"}')):
        path = tmp_path / name
        path.write_text(text)
        for extra in ([], ["--new"], ["--daily", "--name", "Ann"]):
            run = subprocess.run([sys.executable, "-m", "ai.tui", "--save", str(path),
                                  *extra], env=env, cwd=ROOT, input="quit\n",
                                 capture_output=True, text=True, timeout=60)
            assert run.returncode == 2, (name, extra, run.stdout, run.stderr)
            assert "is not a ddsolver saved game" in run.stderr
            assert "left untouched" in run.stderr and "Traceback" not in run.stderr
            assert path.read_text() == text


def _limit_memory():  # pragma: no cover - in the child
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/full", "fifo"])
def test_a_save_that_is_not_a_regular_file_is_refused_at_the_start(tmp_path, kind):
    """--save /dev/zero read the file without end (all the memory); --save FIFO waited
    forever for a writer.  Refused at the start, unread, with exit 2 (SavePathError)."""
    if kind == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    else:
        path = kind
        if not os.path.exists(path):
            pytest.skip(f"no {path}")
    env = {**os.environ, "PYTHONPATH": ROOT, "XDG_DATA_HOME": str(tmp_path / "data")}
    for extra in ([], ["--new"], ["--daily", "--name", "Ann"]):
        run = subprocess.run([sys.executable, "-m", "ai.tui", "--save", path, *extra],
                             env=env, cwd=ROOT, input="quit\n", capture_output=True,
                             text=True, timeout=60, preexec_fn=_limit_memory)
        assert run.returncode == 2, (extra, run.stdout, run.stderr[-2000:])
        assert f"{path}: not a saved game (not a regular file" in " ".join(
            run.stderr.split()), run.stderr
        assert "Traceback" not in run.stderr and "Your call" not in run.stdout


def test_read_json_refuses_a_huge_file_or_a_socket_unread(tmp_path):
    import socket

    from ai.chicago import MAX_SAVE_SIZE, SavePathError, read_json

    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_SAVE_SIZE + 1)
    with pytest.raises(SavePathError, match=r"big.json: not a saved game \(larger than "
                                            r"the 4 MiB a saved game can be\)"):
        read_json(big)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        with pytest.raises(SavePathError, match="not a regular file"):
            read_json(tmp_path / "s")
    finally:
        sock.close()
    with pytest.raises(SavePathError, match="it is a folder"):
        read_json(tmp_path)
    # open_game does not replace such a file with a new game, even at the default path
    with pytest.raises(SavePathError, match="larger than"):
        open_game(daily=False, level="medium", seed=1, save=str(big), name=None,
                  new=False, screen=Driver([]).screen())
    assert big.stat().st_size == MAX_SAVE_SIZE + 1


@pytest.mark.parametrize("kind", ["text", "sqlite", "devnull"])
def test_a_file_that_is_not_a_leaderboard_is_refused_before_the_first_board(tmp_path,
                                                                             kind):
    """--daily --leaderboard FILE checked FILE only when the four boards were played: text,
    another program's SQLite database or /dev/null is refused at the start, exit 2."""
    import sqlite3

    from click.testing import CliRunner

    from ai.tui import main

    path = tmp_path / "lb"
    if kind == "text":
        path.write_text("name,score\nAnn,10\n")
    elif kind == "sqlite":
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (x)")
        db.close()
    else:
        path = "/dev/null"
    before = None if kind == "devnull" else path.read_bytes()
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, ["--daily", "--new", "--name", "Ann", "--leaderboard", str(path),
               "--save", str(tmp_path / "day.json"), "--threads", "1"], input="p\n" * 60)
    assert run.exit_code == 2, run.output
    assert f"Invalid value for '--leaderboard': {path}: not a ddsolver leaderboard" in \
        " ".join(run.output.split()), run.output
    assert "Your call" not in run.output and "Traceback" not in run.output
    assert not (tmp_path / "day.json").exists()
    if before is not None:
        assert path.read_bytes() == before


def test_a_missing_or_real_leaderboard_passes_the_check_untouched(tmp_path):
    from ai.daily import LeaderboardPathError, check_leaderboard

    missing = tmp_path / "new.sqlite3"
    check_leaderboard(missing)
    assert not missing.exists()                         # nothing created
    with pytest.raises(LeaderboardPathError, match="the folder .*new does not exist"):
        check_leaderboard(tmp_path / "new" / "lb.sqlite3")  # Leaderboard refuses it too
    assert not (tmp_path / "new").exists()
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    check_leaderboard(empty)
    assert empty.read_bytes() == b""
    real = tmp_path / "lb.sqlite3"
    with Leaderboard(real) as lb:
        lb.record("Ann", "2024-03-01", 10, ["Pass 0"] * 4)
    check_leaderboard(real)
    with Leaderboard(real) as lb:
        assert [e.name for e in lb.day("2024-03-01")] == ["Ann"]


def test_a_save_file_that_cannot_be_read_is_a_saved_game_error(tmp_path, monkeypatch):
    import ai.tui

    def unreadable(path, **kw):
        raise PermissionError(13, "Permission denied")

    save = tmp_path / "game.json"
    save.write_text("{}")
    monkeypatch.setattr(ai.tui, "load_game", unreadable)
    with pytest.raises(SavedGameError, match="game.json cannot be read \\(Permission denied"):
        open_game(daily=False, level="medium", seed=1, save=str(save), name=None,
                  new=False, screen=Driver([]).screen())


def test_open_game_refuses_a_save_in_a_missing_folder_as_the_command_does(tmp_path):
    """open_game(save=...) in a folder that does not exist returned a game whose first
    save() created the folder, while ddsolver-play --save refuses it: the API refuses it
    too, before anything is asked, with a SavedGameError (SavePathError) naming the file
    and the folder; nothing is created."""
    from ai.chicago import SavePathError

    missing = tmp_path / "no such folder"
    for daily in (False, True):
        with pytest.raises(SavedGameError) as info:
            open_game(daily=daily, level="medium", seed=1, save=str(missing / "g.json"),
                      name="Ann", new=True, screen=Driver([]).screen())
        assert isinstance(info.value, SavePathError)
        assert str(info.value) == f"cannot write {missing / 'g.json'}: the folder " \
                                  f"{missing} does not exist"
    assert list(tmp_path.iterdir()) == []


def test_an_unfinished_game_of_the_other_kind_is_not_replaced_silently(tmp_path):
    save = tmp_path / "game.json"
    DailyBoards("2026-12-05", settings={"name": "Ann", "practice": False,
                                        "level": "medium"}, path=save).save()
    before = save.read_bytes()
    with pytest.raises(SavedGameError, match="unfinished boards of the day: resume it "
                                             "with --daily, or give --new"):
        open_game(daily=False, level="medium", seed=1, save=str(save), name=None,
                  new=False, screen=Driver([]).screen())
    assert save.read_bytes() == before
    game = open_game(daily=False, level="medium", seed=1, save=str(save), name=None,
                     new=True, screen=Driver([]).screen())
    assert isinstance(game, ChicagoMatch)
    ChicagoMatch(seed=1, path=save).save()
    with pytest.raises(SavedGameError, match="an unfinished Chicago match: resume it "
                                             "without --daily"):
        open_game(daily=True, level="medium", seed=1, save=str(save), name="Ann",
                  new=False, screen=Driver([]).screen())
    env = {**os.environ, "PYTHONPATH": ROOT, "XDG_DATA_HOME": str(tmp_path / "data")}
    run = subprocess.run([sys.executable, "-m", "ai.tui", "--daily", "--name", "Ann",
                          "--save", str(save)], env=env, cwd=ROOT, input="",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "an unfinished Chicago match" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_refused_claim_then_play_goes_on(tmp_path):
    # 1NT by North, East leads: North-South cannot take all 13 tricks against every defence
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    d = Driver(["p", "claim", "claim 12", first_legal, "quit"])
    assert TerminalGame(game, d.screen(), seed=1, computer_settings=FAST).run() == 0
    said = [s for s, _, _ in d.screens]
    assert "North's claim of 13 trick(s) does not hold against every defence: play goes " \
           "on." in said[2]
    assert "Your claim was just refused: play a card" in said[3]
    assert len(ChicagoMatch.load(tmp_path / "m.json").progress.play) == 3


@pytest.mark.parametrize("option", ["--save", "--pbn", "--leaderboard"])
def test_a_file_in_a_missing_folder_is_refused_at_the_start(tmp_path, option):
    """--save, --pbn or --leaderboard in a folder that does not exist (a typing mistake):
    exit 2 naming the option and the folder before anything is played or written (the
    folder was created for --save and --leaderboard; the PBN file failed at the end of the
    match)."""
    from click.testing import CliRunner

    from ai.tui import main

    missing = tmp_path / "no such folder"
    files = {"--save": tmp_path / "game.json", "--pbn": tmp_path / "boards.pbn",
             "--leaderboard": tmp_path / "lb.sqlite3"}
    files[option] = missing / "file"
    args = ["--new", "--seed", "1", "--level", "easy", "--threads", "1"]
    for name, path in files.items():
        args += [name, str(path)]
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, args, input="p\n" * 20)
    assert run.exit_code == 2, run.output
    assert f"Invalid value for '{option}': cannot write {missing / 'file'}: the folder " \
           f"{missing} does not exist" in " ".join(run.output.split()), run.output
    assert "Your call" not in run.output and "Traceback" not in run.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []     # nothing created


@pytest.mark.parametrize("option", ["--save", "--pbn", "--leaderboard"])
def test_a_symlink_loop_is_refused_at_the_start(tmp_path, option):
    """A --save, --pbn or --leaderboard naming a loop of symbolic links passed the check
    (its folder exists): --save then stopped with "[Errno 40] ..." (exit 1), --pbn failed at
    the end of the match, --leaderboard only when the boards of the day were recorded.  It
    is refused at the start with the operating system's reason."""
    from click.testing import CliRunner

    from ai.tui import main

    os.symlink("loop", tmp_path / "loop")
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, ["--new", "--seed", "1", "--level", "easy", "--threads", "1",
               option, str(tmp_path / "loop")], input="p\n" * 20)
    assert run.exit_code == 2, run.output
    assert f"Invalid value for '{option}': cannot write {tmp_path / 'loop'}: Too many " \
           f"levels of symbolic links" in " ".join(run.output.split()), run.output
    assert "Your call" not in run.output and "Traceback" not in run.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]


def test_a_file_under_a_file_is_refused_at_the_start(tmp_path):
    from click.testing import CliRunner

    from ai.tui import main

    (tmp_path / "file").write_text("not a folder")
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, ["--new", "--pbn", str(tmp_path / "file" / "x.pbn")], input="")
    assert run.exit_code == 2, run.output
    assert f"'--pbn': cannot write {tmp_path / 'file' / 'x.pbn'}: the folder " \
           f"{tmp_path / 'file'} is not a folder" in " ".join(run.output.split()), run.output
    assert (tmp_path / "file").read_text() == "not a folder"
    assert not (tmp_path / "data").exists()
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, ["--new", "--pbn", ""], input="")
    assert run.exit_code == 2 and "'--pbn': an empty file name" in run.output, run.output
    # a path ending in '/' names a folder: refused, not written as the file 'newdir'
    run = CliRunner(env={"XDG_DATA_HOME": str(tmp_path / "data")}).invoke(
        main, ["--new", "--pbn", f"{tmp_path}/newdir/"], input="")
    assert run.exit_code == 2, run.output
    assert f"'--pbn': cannot write {tmp_path}/newdir/: it names a folder" in \
        " ".join(run.output.split()), run.output
    assert not (tmp_path / "newdir").exists() and not (tmp_path / "data").exists()


def test_the_days_saved_boards_are_offered_to_the_same_name_in_any_case(tmp_path):
    """Names compare without case (the leaderboard's rule): --name ann finds Ann's
    unfinished boards of the day and offers to resume them; it started new boards and
    saved them over Ann's, whose calls were lost without a word."""
    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    date = __import__("datetime").date(2024, 3, 1)
    saved = DailyBoards(date.isoformat(), settings={"name": "Ann", "practice": False,
                                                    "level": "medium"}, path=save)
    saved.current_deal()
    d = Driver(["y"])
    game = open_game(daily=True, level="medium", seed=None, save=save, name="ANN",
                     new=False, screen=d.screen(), leaderboard=lb, date=date)
    assert "Resume today's boards" in d.screens[0][1]
    assert isinstance(game, DailyBoards) and game.settings["name"] == "Ann"


def test_quit_asked_for_a_name_leaves(tmp_path):
    """'quit' (the word that leaves at every other question) was taken for a name: it went
    on the leaderboard and the boards started."""
    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    d = Driver(["QUIT "])
    assert open_game(daily=True, level="medium", seed=None, save=save, name=None,
                     new=False, screen=d.screen(), leaderboard=lb) is None
    assert "quit to leave" in d.screens[0][1]
    assert not os.path.exists(save)


def test_another_players_unfinished_boards_of_the_day_are_not_replaced_unasked(tmp_path):
    """Ann's unfinished boards of the day in the save file: --daily --name Bob started new
    boards and saved them over Ann's without a word.  Refused unless --new; with it Bob's
    boards replace them."""
    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    date = __import__("datetime").date(2024, 3, 1)
    saved = DailyBoards(date.isoformat(), settings={"name": "Ann", "practice": False,
                                                    "level": "medium"}, path=save)
    saved.current_deal()
    kept = open(save, "rb").read()
    d = Driver([])
    with pytest.raises(SavedGameError, match="Ann's unfinished boards of the day.*--new"):
        open_game(daily=True, level="medium", seed=None, save=save, name="Bob", new=False,
                  screen=d.screen(), leaderboard=lb, date=date)
    assert open(save, "rb").read() == kept
    game = open_game(daily=True, level="medium", seed=None, save=save, name="Bob", new=True,
                     screen=d.screen(), leaderboard=lb, date=date)
    assert isinstance(game, DailyBoards) and game.settings["name"] == "Bob"


@pytest.mark.parametrize("args, option", [
    (["--daily", "--name", "Ann", "--level", "hard"], "--level"),
    (["--daily", "--name", "Ann", "--seed", "7"], "--seed"),
    (["--name", "Ann"], "--name"),
])
def test_an_option_the_game_would_ignore_is_refused(tmp_path, args, option):
    """The boards of the day are medium computers on the date's deals, and a Chicago match
    has no leaderboard name: --daily --level hard, --daily --seed 7 and --name without
    --daily were accepted and ignored; they are refused before anything is played."""
    from click.testing import CliRunner

    from ai.tui import main

    save, lb = tmp_path / "g.json", tmp_path / "lb.sqlite3"
    run = CliRunner().invoke(main, args + ["--new", "--save", str(save),
                                           "--leaderboard", str(lb)], input="p\n" * 50)
    assert run.exit_code == 2, run.output
    assert option in run.output and "Your call" not in run.output, run.output
    assert not save.exists() and not lb.exists()


def _daily_table(driver, save, lb, date):
    """The boards of the day of ``date`` opened from ``save`` (a new game: the name asked)
    and their terminal game, with fast medium computers."""
    game = open_game(daily=True, level="medium", seed=None, save=save, name=None,
                     new=False, screen=driver.screen(), leaderboard=lb, date=date)
    return game, TerminalGame(game, driver.screen(), level="medium",
                              seed=f"daily:{game.date}", leaderboard=lb,
                              computer_settings=FAST)


class _LeavesAtTheScore(Driver):
    """Plays the day's boards, then presses Ctrl-C instead of Enter to see the score."""

    def default(self, prompt: str) -> str:
        if prompt.startswith("Press Enter to see the final score"):
            return KeyboardInterrupt()
        return super().default(prompt)


def test_the_days_result_is_recorded_even_if_the_final_score_is_not_shown(tmp_path):
    """The result went on the leaderboard only after "Press Enter to see the final score":
    Ctrl-C there (the four boards seen, every hand shown) saved a finished game and
    recorded nothing, and the next start dealt the same boards again for a record.  The
    result is recorded as the last board ends."""
    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    date = __import__("datetime").date(2024, 3, 1)
    d = _LeavesAtTheScore(["Ann"])
    game, tg = _daily_table(d, save, lb, date)
    assert tg.run() == 130
    assert game.is_finished
    with Leaderboard(lb) as board:
        e = board.entry("Ann", "2024-03-01")
    assert e is not None and e.score == game.total
    # the next start offers practice only
    d2 = Driver(["n"])
    assert open_game(daily=True, level="medium", seed=None, save=save, name="Ann",
                     new=False, screen=d2.screen(), leaderboard=lb, date=date) is None
    assert "Ann has played today's boards already" in d2.shown()


def test_a_number_the_prompt_cannot_read_gets_a_message_not_a_traceback(tmp_path):
    """'e ²' or 'claim ²' (a digit to str.isdigit, not to int) and 'e' with 5000 digits
    (beyond Python's int conversion limit) stopped the game with a raw ValueError."""
    d = Driver(["e ²", "e " + "9" * 5000, "e ٣", "p"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    tg = TerminalGame(game, d.screen(), level="medium", seed=1, computer_settings=FAST)
    d.plan += ["claim ²", "claim " + "9" * 5000, "quit"]
    assert tg.run() == 0
    said = [s for s, _, _ in d.screens]
    assert "'²' is neither a call nor a call number." in said[1]
    assert "There is no call number 99999999999999999999...: the auction has 2" in said[2]
    assert "'٣' is neither a call nor a call number." in said[3]
    claims = [s for s, p, _ in d.screens if p.startswith("Card from")]
    assert sum("Claim how many of the 13 remaining tricks?" in s for s in claims) == 2


def test_a_saved_game_in_use_by_another_game_is_refused(tmp_path):
    """Two ddsolver-play on one --save file each overwrote the other's saves (and the
    second resumed the boards the first was playing): the file is locked while a game is
    played, and a second game on it is refused with status 2 before anything is asked."""
    from click.testing import CliRunner

    from ai.chicago import lock_saved_game
    from ai.tui import main

    save = tmp_path / "game.json"
    ChicagoMatch(seed=1, settings={"level": "easy"}, path=save).save()
    before = save.read_bytes()
    held = lock_saved_game(save)            # the first game, still playing
    try:
        run = CliRunner().invoke(main, ["--save", str(save), "--threads", "1"], input="y\n")
        assert run.exit_code == 2, run.output
        assert "game.json is in use by another game" in run.output, run.output
        assert "Resume" not in run.output and save.read_bytes() == before
        # a symbolic link to the same game shares the lock
        link = tmp_path / "link.json"
        link.symlink_to(save)
        run = CliRunner().invoke(main, ["--save", str(link), "--threads", "1"], input="")
        assert run.exit_code == 2 and "in use by another game" in run.output, run.output
    finally:
        held.close()
    # once the first game has ended, the file is the second's
    run = CliRunner().invoke(main, ["--save", str(save), "--threads", "1"], input="q\n")
    assert "in use" not in run.output and "Resume the saved Chicago match" in run.output
    # and a lock held by a process that died is gone with it
    code = (f"from ai.chicago import lock_saved_game; import os; "
            f"h = lock_saved_game({str(save)!r}); os._exit(0)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    lock_saved_game(save).close()


def test_level_and_seed_given_for_a_saved_match_are_said_to_apply_to_a_new_one(tmp_path):
    """--level and --seed were ignored without a word when the saved match was resumed
    (its own level and deals kept): the question now says so, and the level played."""
    save = str(tmp_path / "game.json")
    ChicagoMatch(seed=7, settings={"level": "hard"}, path=save).save()
    driver = Driver(["y"])
    game = open_game(daily=False, level="easy", seed=5, save=save, name=None,
                     new=False, screen=driver.screen(), given=("level", "seed"))
    assert isinstance(game, ChicagoMatch) and game.seed == 7
    text, prompt, _ = driver.screens[0]
    assert "The saved match is played against hard computers with seed 7: --level " \
           "easy and --seed 5 apply to a new match (answer n, or give --new)." in text
    assert prompt.startswith("Resume the saved Chicago match (board 1 of 4, N-S 0, "
                             "E-W 0, hard computers)?"), prompt
    # the same options, or none given: nothing to say
    for level, seed, given in (("hard", 7, ("level", "seed")), ("easy", 5, ())):
        driver = Driver(["y"])
        open_game(daily=False, level=level, seed=seed, save=save, name=None, new=False,
                  screen=driver.screen(), given=given)
        assert "apply to a new match" not in driver.screens[0][0]
    # answering no starts the new match with them
    game = open_game(daily=False, level="easy", seed=5, save=save, name=None,
                     new=False, screen=Driver(["n"]).screen(), given=("level", "seed"))
    assert game.seed == 5 and game.settings["level"] == "easy"


def _play(args, env_extra, stdin: bytes, tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT, "XDG_DATA_HOME": str(tmp_path / "data"),
           **env_extra}
    return subprocess.run([sys.executable, "-m", "ai.tui", *args], env=env, cwd=ROOT,
                          input=stdin, capture_output=True, timeout=60)


def test_a_line_that_is_not_text_in_the_terminals_encoding_is_typed_again(tmp_path):
    """In a UTF-8 locale (strict decoding, the usual one) a line in another encoding (a
    terminal set to Latin-1, a file in Windows-1252 piped in: 'Jos\\xe9') stopped the game
    with a UnicodeDecodeError traceback, status 1.  The line is refused with a message and
    asked again."""
    strict = {"PYTHONIOENCODING": "utf-8:strict"}
    run = _play(["--seed", "1", "--new", "--threads", "1"], strict, b"\xa3\nSA\xe9\nquit\n",
                tmp_path)
    out, err = run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace")
    assert run.returncode == 0 and "Traceback" not in err, err
    assert out.count("That line is not text in the terminal's encoding (utf-8): type it "
                     "again.") == 2, out
    assert "Saved to" in out
    run = _play(["--daily", "--new", "--threads", "1", "--leaderboard",
                 str(tmp_path / "lb.sqlite3")], strict, b"Jos\xe9\nquit\n", tmp_path)
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 0 and "Traceback" not in err, err
    assert b"That line is not text in the terminal's encoding" in run.stdout


def test_a_character_the_terminal_cannot_show_is_replaced_not_a_traceback(tmp_path):
    """A name the terminal's encoding cannot show (a Latin-1 locale and a CJK name on the
    shared leaderboard) or a file name that is not UTF-8 stopped the game with a
    UnicodeEncodeError traceback, status 1 (after the save, at the very end).  Such a
    character is shown as '?'."""
    from ai.daily import local_today

    lb = str(tmp_path / "lb.sqlite3")
    with Leaderboard(lb) as board:
        board.record("山田", local_today(), 100, ["Pass 0"] * 4)
    latin = {"PYTHONIOENCODING": "latin-1:strict"}
    run = _play(["--daily", "--new", "--name", "山田", "--threads", "1", "--leaderboard",
                 lb], latin, b"n\n", tmp_path)
    err = run.stderr.decode("latin-1")
    assert run.returncode == 0 and "Traceback" not in err, err
    assert b"?? has played today's boards already" in run.stdout, run.stdout
    save = os.fsencode(str(tmp_path)) + b"/partie-\xe9.json"      # not UTF-8
    env = {**os.environ, "PYTHONPATH": ROOT, "PYTHONIOENCODING": "utf-8:strict"}
    run = subprocess.run([sys.executable.encode(), b"-m", b"ai.tui", b"--seed", b"1",
                          b"--threads", b"1", b"--save", save], env=env, cwd=ROOT,
                         input=b"quit\n", capture_output=True, timeout=60)
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 0 and "Traceback" not in err, err
    assert b"partie-?.json. Run the same command again" in run.stdout, run.stdout
    assert os.path.exists(save)


def test_control_characters_typed_are_quoted_not_sent_back_to_the_terminal(tmp_path):
    """An arrow key (no line editing: its escape sequence ends in the line) was echoed raw
    in the message ("'<ESC>[D' is not a call"): the terminal moved the cursor and the
    message came out garbled; '<ESC>[2J' cleared the screen, a right-to-left override
    reversed the rest of the line.  Control and format characters are quoted as \\x1b,
    and a long line is cut."""
    d = Driver(["1N\x1b[D\x1b[DT", "e \x1b[2J", "1\u202eC", "e " + "z" * 500, "p",
                "S\x1b[A", "quit"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    assert TerminalGame(game, d.screen(), seed=1, computer_settings=FAST).run() == 0
    said = [s for s, _, _ in d.screens]
    assert "'1N\\x1b[D\\x1b[DT' is not a call" in said[1]
    assert "'\\x1b[2J' is neither a call nor a call number." in said[2]
    assert "'1\\u202eC' is not a call" in said[3]
    assert "'" + "z" * 30 + "...' is neither a call nor a call number." in said[4]
    assert "'S\\x1b[A' is not a card" in said[6]
    shown = "".join(said)
    assert "\x1b" not in shown and "\u202e" not in shown


def test_back_from_ctrl_z_the_screen_is_drawn_again_and_asked_again(tmp_path):
    """After Ctrl-Z and fg the shell's lines were left where the prompt had been, and the
    program waited without a word (with line editing, in the terminal modes the shell
    had set).  SIGCONT while a line is read draws the screen again and asks again; while
    the computers think it does nothing."""
    from ai.tui import Resumed

    d = Driver([Resumed(), "p", "quit"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    screen = d.screen()
    screen.resumed()                        # not reading: nothing happens
    assert TerminalGame(game, screen, seed=1, computer_settings=FAST).run() == 0
    first, prompt, _ = d.screens[0]
    again, prompt2, answer = d.screens[1]
    assert prompt == prompt2 and prompt.startswith("Your call") and answer == "p"
    # (the reader raised before the Driver marked the end of the first screen)
    assert "Your hand (South)" in first and again.count("Your hand (South)") == 2
    assert again.endswith(first)


@needs_tmux
def test_line_editing_and_ctrl_z_then_fg_in_a_terminal(tmp_path):
    """In a real terminal: the arrow keys edit the line (they typed escape sequences),
    and after Ctrl-Z and fg in an interactive shell the prompt is back."""
    t = Tmux(tmp_path)
    t.starts += 1
    t.sock = str(tmp_path / "tmux-shell.sock")
    t.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24",
           "bash --norc --noprofile -i")
    try:
        time.sleep(0.5)
        # alone on its line: after Ctrl-Z, bash would go on with the rest of a list
        t.send("-l", f"{sys.executable} -m ai.tui --seed 1 --new --threads 1")
        t.send("Enter")
        screen = t.wait("")
        assert t.prompt(screen).startswith("Your call")
        t.send("-l", "1X")
        t.send("BSpace", "Left")
        t.send("-l", "1")                     # "11", the cursor between them
        t.send("End", "BSpace")
        t.send("-l", "NT")
        t.send("Enter")
        screen = t.wait(screen)
        assert "'1NT' is not a call" not in screen and "is not a call" not in screen
        assert "1NT" in screen, screen
        t.send("C-z")
        end = time.time() + 20
        while "Stopped" not in t.screen() and time.time() < end:
            time.sleep(0.05)
        t.send("-l", "fg")
        t.send("Enter")
        end = time.time() + 20
        while time.time() < end:
            screen = t.screen()
            if t.prompt(screen).startswith(("Your call", "Card from")) and \
                    screen.startswith("Chicago - board"):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"no prompt after fg:\n{screen}")
        t.send("-l", "quit")
        t.send("Enter")
        end = time.time() + 20
        while not t.prompt(t.screen()).startswith("bash") and time.time() < end:
            time.sleep(0.05)
        t.send("-l", "echo EXIT=$?")
        t.send("Enter")
        end = time.time() + 20
        while "EXIT=" not in t.screen() and time.time() < end:
            time.sleep(0.05)
        assert "EXIT=0" in t.screen() and "Traceback" not in t.screen()
    finally:
        t.kill()


def test_every_line_fits_80_columns(tmp_path):
    """The help's lines were 81 to 84 characters: in the documented 80-column terminal
    they wrapped mid-word ("Enter whe" / "n") and the help took eight lines."""
    from rich.cells import cell_len

    from ai.tui import HELP

    assert max(cell_len(line) for line in HELP.splitlines()) <= 80
    d = Driver(["?", "auction", "e 1", "p", "?", "auction", "quit"])
    game = ChicagoMatch(seed=1, deals=[DEAL_NORTH_DECLARES], path=tmp_path / "m.json")
    assert TerminalGame(game, d.screen(), seed=1, computer_settings=FAST).run() == 0
    # (a message naming a file wraps in the terminal, as any long path would)
    wide = [line for line in d.shown().splitlines()
            if cell_len(line) > 80 and not line.startswith("Saved to")]
    assert not wide, wide


def test_the_leaderboard_table_aligns_wide_and_combining_characters(tmp_path):
    """The names were cut and padded to 20 characters, not 20 columns: a Chinese name or
    an emoji (two columns a character) pushed its score right, Hebrew points (no column)
    pulled it left, and a long Chinese name took 40 columns."""
    from types import SimpleNamespace

    from rich.cells import cell_len

    lb = str(tmp_path / "lb.sqlite3")
    names = {"山田太郎": 300, "😀😀 Emoji": 200, "עִבְרִית שלום": 100, "山" * 40: 75,
             "Zoë": 50}
    with Leaderboard(lb) as board:
        for name, score in names.items():
            board.record(name, "2024-03-01", score, ["Pass 0"] * 4)
    game = SimpleNamespace(settings={"name": "Bob"}, date="2024-03-01", total=-50,
                           system=None, result_texts=lambda: ["Pass 0"] * 4)
    tg = TerminalGame(game, Driver().screen(), leaderboard=lb)
    rows = [line for line in tg.record_daily() if re.match(r"  \d\. ", line)]
    assert len(rows) == 6
    assert {cell_len(row) for row in rows} == {cell_len("  1. " + "x" * 20 + "   +300")}
    assert rows[3].startswith("  4. " + "山" * 10 + " ")


def test_a_day_the_leaderboard_could_not_record_is_retried_and_never_lost(tmp_path,
                                                                         monkeypatch):
    """A leaderboard busy beyond the busy timeout (another program's long write) or not
    writable as the last board ended lost the day's result for good: the finished game
    was saved, nothing recorded, and the next start dealt the same boards again, every
    hand seen, for a new recorded try.  Now the human is offered to try again at once,
    and a finished day that is not on the leaderboard is recorded at the next start (or,
    if it still cannot be, the start is refused)."""
    from ai.daily import LeaderboardFileError

    save, lb = str(tmp_path / "day.json"), str(tmp_path / "lb.sqlite3")
    date = __import__("datetime").date(2024, 3, 1)
    tries = []

    def busy(self, *args, **kwargs):
        tries.append(args)
        raise LeaderboardFileError(f"{self.path}: cannot write the leaderboard: "
                                   f"database is locked")

    real = Leaderboard.record
    monkeypatch.setattr(Leaderboard, "record", busy)

    class TriesThenLeaves(Driver):
        def default(self, prompt):
            if prompt.startswith("Press Enter to try again"):
                return "" if len(tries) < 2 else "quit"
            return super().default(prompt)

    d = TriesThenLeaves(["Ann"])
    game, tg = _daily_table(d, save, lb, date)
    assert tg.run() == 0
    assert len(tries) == 2 and game.is_finished
    assert "database is locked" in d.shown()
    assert sum(p.startswith("Press Enter to try again") for _, p, _ in d.screens) == 2
    shutil.copy(save, tmp_path / "copy.json")
    # the next start, the leaderboard still busy: refused, the game kept
    with pytest.raises(LeaderboardFileError, match="not on the leaderboard yet"):
        open_game(daily=True, level="medium", seed=None, save=save, name=None,
                  new=False, screen=Driver([]).screen(), leaderboard=lb, date=date)
    assert len(json.loads(open(save).read())["boards"]) == 4
    # then free: recorded first, and the day is practice only
    monkeypatch.setattr(Leaderboard, "record", real)
    d2 = Driver(["Ann", "n"])
    assert open_game(daily=True, level="medium", seed=None, save=save, name=None,
                     new=False, screen=d2.screen(), leaderboard=lb, date=date) is None
    assert "Ann's boards of the day 2024-03-01 were not on the leaderboard: recorded " \
           f"now ({game.total:+d})." in d2.shown()
    assert "Ann has played today's boards already" in d2.shown()
    with Leaderboard(lb) as board:
        assert board.entry("Ann", "2024-03-01").score == game.total
    # recorded once: the same finished game again (another copy) says nothing more
    d3 = Driver(["Ann", "n"])
    open_game(daily=True, level="medium", seed=None, save=str(tmp_path / "copy.json"),
              name=None, new=False, screen=d3.screen(), leaderboard=lb, date=date)
    assert "recorded now" not in d3.shown()


def test_a_terminal_smaller_than_80_by_24_is_told_before_the_game():
    """Below 80 x 24 lines wrapped and the table scrolled away without a word."""
    from ai.tui import _too_small
    assert _too_small((80, 24)) is None and _too_small((200, 60)) is None
    assert _too_small((40, 15)) == ("This terminal is 40 x 15; the game is drawn for 80 x 24 "
                                    "or larger (lines would wrap and the table scroll "
                                    "away): enlarge the window, or play on.")
    assert _too_small((80, 23)) and _too_small((79, 24))


@needs_tmux
def test_a_small_terminal_is_told_and_may_leave(tmp_path):
    t = Tmux(tmp_path)
    t.start("--seed 3 --level easy --new --threads 1", size=(40, 15))
    try:
        s = t.wait("")
        assert "This terminal is 40 x 15" in s, s
        assert "Press Enter to play anyway" in s
        t.send("quit", "Enter")
        s = t.wait(s)
        assert "EXIT=0" in s and "Bye." in s, s
        assert not (tmp_path / "data" / "ddsolver" / "chicago.json").exists()
    finally:
        t.kill()


def test_a_default_saved_game_that_cannot_be_used_is_not_blamed_on_save(tmp_path):
    """With no --save given, an unusable default file was reported as "Invalid value for
    '--save'": the option the human never gave."""
    from click.testing import CliRunner

    from ai.tui import main

    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    (tmp_path / "data" / "ddsolver" / "chicago.json").mkdir(parents=True)  # a folder
    run = CliRunner().invoke(main, ["--threads", "1"], input="", env=env)
    assert run.exit_code == 2, run.output
    assert "'--save'" not in run.output and "Invalid value" not in run.output, run.output
    assert "Error: cannot write " in run.output and "chicago.json: it is a folder " \
           "(--save names another file)" in run.output, run.output


def test_messages_that_would_push_the_table_off_the_terminal_get_a_screen_of_their_own():
    """'auction' (every call explained) or '?' below the table made some 28 lines: in the
    80 x 24 terminal the header and the hands scrolled away.  Such messages are now shown
    alone until Enter, then the table; short ones stay below it."""
    from ai.tui import QuitGame

    table = [f"table line {i}" for i in range(18)]
    long = [f"call {i} explained" for i in range(12)]
    driver = Driver([""])
    screen = driver.screen()
    screen.height = 24
    screen.show_with(table, long)
    text, prompt, _ = driver.screens[0]
    assert prompt == "Press Enter to return to the table: "
    assert "call 11 explained" in text and "table line 0" not in text
    assert driver.shown().endswith("table line 17\n")       # then the table alone
    # room enough, or not a terminal: below the table as before
    for height, messages in ((24, long[:4]), (None, long)):
        driver = Driver([])
        screen = driver.screen()
        screen.height = height
        screen.show_with(table, messages)
        assert driver.screens == [] and driver.shown().endswith(f"{messages[-1]}\n")
    driver = Driver(["quit"])
    screen = driver.screen()
    screen.height = 24
    with pytest.raises(QuitGame):
        screen.show_with(table, long)


def test_keys_typed_before_a_question_are_dropped_in_a_terminal(monkeypatch):
    """Keys typed while the computers thought answered the next questions: a stray Enter
    played a forced card or skipped to the next board unseen.  In a terminal the input
    typed ahead is flushed before each question; from a pipe every line is an answer."""
    import builtins
    import termios

    flushed = []
    monkeypatch.setattr(termios, "tcflush", lambda fd, how: flushed.append(how))
    monkeypatch.setattr(builtins, "input", lambda prompt="": "p")
    with open(os.devnull) as stdin:         # pytest's own has no file descriptor
        monkeypatch.setattr(sys, "stdin", stdin)
        _ask_twice(flushed, termios.TCIFLUSH)


def _ask_twice(flushed, how):
    screen = Screen(ascii=True)
    screen.console.file = sys.stdout
    screen._terminal = True
    assert screen.ask("Your call: ") == "p" and flushed == [how]
    screen._terminal = False            # a pipe or a file: nothing dropped
    assert screen.ask("Your call: ") == "p" and flushed == [how]


def test_a_card_that_cannot_be_played_is_told_why():
    """Typing a card of declarer's hand when dummy was to play said "You must follow suit",
    and an opponent's card or one played already "is not yours to play here"; now the
    message names the reason (as the web page does)."""
    from ai.players import seat_view
    from ai.tui import HumanPlayer
    from ddsolver import Deal
    from ddsolver.table import Seat

    deal = Deal.from_pbn(DEAL_NORTH_DECLARES)
    view = seat_view(Seat.NORTH, deal[Seat.NORTH], dealer=Seat.NORTH, vulnerability="None",
                     auction="1NT Pass Pass Pass", played=[(Seat.EAST, "H2")],
                     dummy_hand=deal[Seat.SOUTH])
    assert view.to_play == Seat.SOUTH                      # dummy, played by the human
    human = HumanPlayer(Driver([]).screen(), lambda: [], None, "medium")
    legal = view.legal_cards
    assert human._read_card("SA", legal, view) == "South does not hold SA."
    assert human._read_card("h4", legal, view) == "South does not hold H4."
    assert human._read_card("H2", legal, view) == "H2 has been played already."
    assert human._read_card("S9", legal, view) == "You must follow suit: play a H."
    assert human._read_card("H8", legal, view) == Card.from_str("H8")
    view = seat_view(Seat.NORTH, deal[Seat.NORTH], dealer=Seat.NORTH, vulnerability="None",
                     auction="1NT Pass Pass Pass", played=[(Seat.EAST, "H2"),
                                                           (Seat.SOUTH, "H6"),
                                                           (Seat.WEST, "H3")],
                     dummy_hand=deal[Seat.SOUTH])
    assert human._read_card("SJ", view.legal_cards, view) == "You do not hold SJ."
