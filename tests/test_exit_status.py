"""Exit statuses every command of the project shares (ddsolver.cli.StatusCommand /
StatusGroup, the entry points of _ddsolver_entry): a broken pipe on standard output or
standard error is status 141, silently; Ctrl-C while a command's modules are still being
imported is status 130 with one line, no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEAL = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
EXAMPLE = ROOT / "examples" / "four_boards.pbn"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and signals")


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _default_signals():
    """In the child: SIGINT's default disposition, so that Python installs its Ctrl-C
    handler (a process started in the background by a non-interactive shell inherits it
    ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run_with_a_closed(stream: str, argv, cwd):
    """Run ``python argv`` with the read end of its standard output (``stream="stdout"``)
    or standard error (``"stderr"``) closed at once, as ``| head -0`` would: its first
    write there fails with EPIPE, whenever it comes.  Returns (status, the other stream)."""
    proc = subprocess.Popen([sys.executable, *argv], cwd=cwd, env=_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_default_signals)
    closed, other = ((proc.stdout, proc.stderr) if stream == "stdout"
                     else (proc.stderr, proc.stdout))
    closed.close()
    try:
        text = other.read().decode("utf-8", "replace")
        status = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        other.close()
    return status, text


@pytest.mark.parametrize("argv", [
    ["-m", "ddsolver", "table", DEAL],
    ["-m", "ddsolver", "--help"],
    ["-m", "ddsolver", "table", "--help"],
    ["-m", "ddsolver", "analyse", str(EXAMPLE), "-o", "-"],
    ["-m", "ddsolver", "analyse", str(EXAMPLE), "--check", "-o", "-"],
    ["-m", "ai", "--help"],
    ["-m", "ai", "bid", DEAL],
    ["-m", "ai.bidding", DEAL],
    ["-m", "ai.tui", "--help"],
    # the game's screen (rich's Console, which exits with 1 on a broken pipe by default)
    ["-m", "ai.tui", "--new", "--seed", "3", "--threads", "1", "--save", "game.json"],
], ids=lambda argv: " ".join(a[:12] for a in argv[1:4]))
def test_a_closed_standard_output_is_status_141_silently(argv, tmp_path):
    """`ddsolver analyse big.pbn | head -1`: 141 (128 + SIGPIPE), not 1 (which
    `analyse --check` gives to a difference) nor 120 (a failed flush at shutdown), and
    nothing on standard error: no traceback, no "Exception ignored"."""
    status, err = _run_with_a_closed("stdout", argv, tmp_path)
    assert (status, err) == (141, "")


def test_the_game_is_saved_when_the_screens_reader_has_gone(tmp_path):
    """`ddsolver-play | head -1`: rich's Console turned the broken pipe into status 1
    ("the game cannot be saved") on its own; the game is saved and the status is 141."""
    status, err = _run_with_a_closed("stdout", ["-m", "ai.tui", "--new", "--seed", "3",
                                                "--threads", "1", "--save", "game.json"],
                                     tmp_path)
    assert (status, err) == (141, "")
    from ai.chicago import ChicagoMatch

    assert ChicagoMatch.load(tmp_path / "game.json").seed == 3


def test_a_reader_gone_in_the_middle_of_a_large_output_is_status_141(tmp_path):
    """`ddsolver analyse big.pbn -o - | head -1`: the reader takes the first line and goes
    while the output is still being written.  The write then comes back short without an
    error; the rest must be written again (and fail), not dropped with status 0."""
    club = (ROOT / "examples" / "club_hand_record_36.pbn").read_text()
    big = tmp_path / "big.pbn"
    big.write_text("\n".join([club] * 20))          # ~450 kB analysed: beyond a pipe's buffer
    proc = subprocess.Popen([sys.executable, "-m", "ddsolver", "analyse", str(big), "-o", "-",
                             "-q"], cwd=tmp_path, env=_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_signals)
    try:
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode("utf-8", "replace")
        status = proc.wait(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stderr.close()
    assert first.startswith(b"%") and (status, err) == (141, "")


@pytest.mark.parametrize("argv", [
    ["-m", "ddsolver", "table", "x"],                       # the error message
    ["-m", "ddsolver", "table", DEAL, "--no-such-option"],  # a usage error
    ["-m", "ai", "bid", "x"],
    ["-m", "ai.tui", "--level", "impossible"],
], ids=lambda argv: " ".join(argv[1:4]))
def test_a_closed_standard_error_is_status_141_silently(argv, tmp_path):
    status, out = _run_with_a_closed("stderr", argv, tmp_path)
    assert (status, out) == (141, "")


def test_a_closed_pipe_does_not_hide_other_statuses(tmp_path):
    """A pipe that is read to its end changes nothing: bad input is still 2."""
    proc = subprocess.run([sys.executable, "-m", "ddsolver", "table", "x"], cwd=tmp_path,
                          env=_env(), capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.startswith("Error: bad deal"), proc.stderr


# -- Ctrl-C while the command's modules are imported -----------------------------------------

#: the child: runs the console script ``NAME`` as installed (its entry point), with an
#: import hook that stops at numpy, imported by the package's __init__ (the bulk of the
#: start), and there raises KeyboardInterrupt ("raise") or says so and waits for a real
#: SIGINT ("wait")
_CHILD = r"""
import sys, time
from importlib.metadata import entry_points

how, name = sys.argv[1], sys.argv[2]

class Hook:
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "numpy":
            if how == "raise":
                raise KeyboardInterrupt
            sys.stdout.write("importing numpy\n")
            sys.stdout.flush()
            time.sleep(60)
        return None

eps = entry_points()
scripts = (eps.select(group="console_scripts") if hasattr(eps, "select")
           else eps["console_scripts"])
# the first of that name, as the script finds it: Python 3.9 lists a distribution once for
# each place it is seen (the checkout's egg-info on PYTHONPATH, then the installed one)
entry = next(ep for ep in scripts if ep.name == name)
assert "numpy" not in sys.modules
sys.meta_path.insert(0, Hook())
main = entry.load()                 # what the script generated for NAME imports
sys.argv = [name, "--version"]
sys.exit(main())
"""

MESSAGES = {"ddsolver": "Interrupted: nothing written.", "ddsolver-ai": "Interrupted.",
            "ddsolver-play": "Interrupted."}


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_ctrl_c_while_a_command_imports_its_modules_is_status_130(name, tmp_path):
    proc = subprocess.run([sys.executable, "-c", _CHILD, "raise", name], cwd=tmp_path,
                          env=_env(), capture_output=True, text=True, timeout=120,
                          preexec_fn=_default_signals)
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, f"\n{MESSAGES[name]}\n", "")


def test_a_real_sigint_while_ddsolver_imports_is_status_130(tmp_path):
    """The same with the signal itself, sent when the child says it is importing numpy."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, "wait", "ddsolver"], cwd=tmp_path,
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_signals)
    try:
        assert proc.stdout.readline() == "importing numpy\n"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert (proc.returncode, err, out) == (130, "\nInterrupted: nothing written.\n", "")


def test_the_entry_points_load_the_click_commands():
    import _ddsolver_entry as entry
    from ai.cli import main as ai_main
    from ai.tui import main as play_main
    from ddsolver.cli import main as dd_main

    assert entry.ddsolver.load() is dd_main
    assert entry.ddsolver_ai.load() is ai_main
    assert entry.ddsolver_play.load() is play_main


def test_ctrl_c_while_click_parses_the_arguments_is_status_130(capsys):
    """Not click's "Aborted!" and status 1 (a difference, for ``analyse --check``)."""
    import click

    from ddsolver.cli import StatusCommand

    def stop(ctx, param, value):
        raise KeyboardInterrupt

    @click.command(cls=StatusCommand)
    @click.option("--x", callback=stop)
    def command(x):
        raise AssertionError("not reached")

    with pytest.raises(SystemExit) as info:
        command.main(["--x", "1"], prog_name="command")
    assert info.value.code == 130
    assert capsys.readouterr().err == "\nInterrupted.\n"


def test_a_broken_pipe_elsewhere_is_not_taken_for_the_readers_going(tmp_path):
    """EPIPE from a socket or a worker's pipe, standard output and error still read, is
    not the reader gone: not 141 (click's own handling of EPIPE, status 1, as before)."""
    code = ("import click, socket\n"
            "from ddsolver.cli import StatusCommand\n"
            "@click.command(cls=StatusCommand)\n"
            "def command():\n"
            "    a, b = socket.socketpair()\n"
            "    b.close()\n"
            "    a.sendall(b'x' * 1000000)\n"
            "command()\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr


# -- a standard output or error that cannot be written (a full disk) ------------------------

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"),
                                    reason="/dev/full (a device that is always full)")


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["-m", "ddsolver", "table", DEAL],
    ["-m", "ddsolver", "--version"],
    ["-m", "ddsolver", "analyse", str(EXAMPLE), "--json", "-q"],
    ["-m", "ddsolver", "analyse", str(EXAMPLE), "--check", "--json", "-q"],
    ["-m", "ai", "bid", DEAL],
    ["-m", "ai", "simulate", "-c", "3NT", "-d", "N", "-n", "2", "--seed", "1",
     "--threads", "1"],
    ["-m", "ai.tui", "--help"],
], ids=lambda argv: " ".join(a[:12] for a in argv[1:5]))
def test_a_full_standard_output_is_status_2_with_one_line(argv, tmp_path):
    """`ddsolver analyse x.pbn --json > /dev/full`: one line naming the problem and status
    2 (output that cannot be written), not a traceback and status 1 (a difference, for
    `analyse --check`)."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=_env(),
                              stdin=subprocess.DEVNULL, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=300)
    assert (proc.returncode, proc.stderr) == (
        2, "Error: cannot write the output: No space left on device\n")


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["-m", "ddsolver", "table", "x"],                       # the error message
    ["-m", "ai", "bid", "x"],
], ids=lambda argv: " ".join(argv[1:4]))
def test_a_full_standard_error_is_status_2_silently(argv, tmp_path):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=_env(),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=full,
                              text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (2, "")


def _run_with_fd_closed(fd: int, argv, cwd):
    """Run ``python argv`` with file descriptor ``fd`` (0 or 1) closed, as ``<&-`` or
    ``>&-`` in a shell; returns (status, standard error)."""
    def close():
        os.close(fd)
    proc = subprocess.run([sys.executable, *argv], cwd=cwd, env=_env(),
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL if fd != 1
                          else None, stderr=subprocess.PIPE, text=True, timeout=300,
                          preexec_fn=close)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("fd, argv, said", [
    (0, ["-m", "ddsolver", "analyse", "-"], "Error: cannot read -: standard input is closed"),
    (1, ["-m", "ddsolver", "analyse", str(EXAMPLE), "-o", "-", "-q"],
     "Error: cannot write '-': standard output is closed"),
    (1, ["-m", "ddsolver", "table", DEAL], "Error: standard output is closed"),
    (1, ["-m", "ai", "bid", DEAL], "Error: standard output is closed"),
], ids=lambda v: v if isinstance(v, int) else " ".join(v[1:4]) if isinstance(v, list) else "")
def test_a_closed_standard_stream_the_command_needs_is_status_2_with_one_line(
        fd, argv, said, tmp_path):
    """`ddsolver analyse - <&-` and `ddsolver-ai bid DEAL >&-` ended with a raw
    AttributeError traceback (status 1, a difference for `analyse --check`), and `ddsolver
    analyse F -o - >&-` with status 0, its output gone nowhere.  One line and status 2."""
    code, err = _run_with_fd_closed(fd, argv, tmp_path)
    assert (code, err) == (2, said + "\n"), err


def test_a_closed_standard_output_a_command_does_not_use_is_no_error(tmp_path):
    out = tmp_path / "out.pbn"
    code, err = _run_with_fd_closed(1, ["-m", "ddsolver", "analyse", str(EXAMPLE), "-o",
                                        str(out), "-q"], tmp_path)
    assert (code, err) == (0, "") and out.exists()


def test_the_game_with_its_standard_input_closed_is_saved_and_status_2(tmp_path):
    """ddsolver-play <&-: the first question failed and was reported as 'The game cannot
    be saved' (status 1), though it was saved.  One line naming the closed stream, the
    game saved, status 2."""
    save = tmp_path / "m.json"
    code, err = _run_with_fd_closed(0, ["-m", "ai.tui", "--seed", "1", "--save", str(save),
                                        "--threads", "1"], tmp_path)
    assert (code, err) == (2, "Error: standard input is closed\n"), err
    assert save.exists()


def test_analyse_to_stdout_in_a_locale_that_cannot_encode_the_file(tmp_path):
    """`ddsolver analyse FILE -o -` in a Latin-1 (or ASCII) locale, FILE naming a player
    in Chinese: a UnicodeEncodeError traceback, status 1, nothing written.  The PBN is
    written as a file would be when the output's encoding cannot hold it: UTF-8."""
    deal = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
    pbn = tmp_path / "cjk.pbn"
    pbn.write_text(f'[Event "Caf\u00e9"]\n[Board "1"]\n[North "\u5c71\u7530"]\n'
                   f'[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n\n',
                   encoding="utf-8")
    for encoding in ("latin-1", "ascii"):
        run = subprocess.run([sys.executable, "-m", "ddsolver", "analyse", str(pbn), "-o",
                              "-"], cwd=tmp_path, capture_output=True, timeout=120,
                             env={**_env(), "PYTHONIOENCODING": f"{encoding}:strict"})
        assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
        text = run.stdout.decode("utf-8")
        assert '[North "\u5c71\u7530"]' in text and '[Event "Caf\u00e9"]' in text
    # what the locale can hold is written in its encoding, as before
    pbn.write_text(pbn.read_text(encoding="utf-8").replace("\u5c71\u7530", "Ann"),
                   encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "ddsolver", "analyse", str(pbn), "-o", "-"],
                         cwd=tmp_path, capture_output=True, timeout=120,
                         env={**_env(), "PYTHONIOENCODING": "latin-1:strict"})
    assert run.returncode == 0 and '[Event "Caf\u00e9"]'.encode("latin-1") in run.stdout
