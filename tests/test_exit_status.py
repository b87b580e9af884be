"""Exit statuses every command of the project shares (ddsolver.cli.StatusCommand /
StatusGroup): a broken pipe on standard output or standard error is status 141, silently."""

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
], ids=lambda argv: " ".join(a[:12] for a in argv[1:4]))
def test_a_closed_standard_output_is_status_141_silently(argv, tmp_path):
    """`ddsolver analyse big.pbn | head -1`: 141 (128 + SIGPIPE), not 1 (which
    `analyse --check` gives to a difference) nor 120 (a failed flush at shutdown), and
    nothing on standard error: no traceback, no "Exception ignored"."""
    status, err = _run_with_a_closed("stdout", argv, tmp_path)
    assert (status, err) == (141, "")


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
