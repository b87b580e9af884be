"""The ``ddsolver-ai`` command as a whole (ai/cli.py): Ctrl-C in every subcommand, and
the examples of every subcommand's --help."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _start(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "ai", *args], cwd=cwd, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)


def _default_sigint():
    """In the child: SIGINT's default disposition, so that Python installs its Ctrl-C
    handler.  A process started in the background by a non-interactive shell (a CI script,
    ``nohup ... &``) inherits SIGINT as ignored, and so would every subcommand started here:
    it would then never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(proc, predicate, timeout=60.0):
    """Poll until ``predicate()`` holds (the subcommand is at work), or fail."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail("the subcommand did not start its work in time")


def _threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def _stderr_line(proc, words):
    def ready():
        line = proc.stderr.readline()
        return words in line
    return ready


def _interrupt(proc, within):
    """SIGINT, then the status, the time it took and standard error."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=within + 30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, time.monotonic() - t0, out, err


def _check_interrupted(proc, within):
    code, seconds, out, err = _interrupt(proc, within)
    assert code == 130, (code, out, err)
    assert "Interrupted." in err, err
    assert "Traceback" not in err and "Aborted!" not in err, err
    assert seconds < within, f"{seconds:.1f} s to stop"
    return err


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self/task"),
                                reason="counts the threads in /proc (Linux)")


@needs_proc
def test_ctrl_c_stops_a_threaded_simulate_and_its_workers_at_once(tmp_path):
    # 3,000 deals take minutes; two solver threads are at work once three threads exist
    proc = _start(["simulate", "-c", "3NT", "-d", "N", "-n", "3000", "--threads", "2",
                   "--seed", "1"], tmp_path)
    _wait_for(proc, lambda: _threads(proc.pid) >= 3)
    time.sleep(0.5)
    # the workers' searches are cancelled: the whole process ends within seconds (before
    # the fix the pool's shutdown waited for every deal of both workers)
    _check_interrupted(proc, within=5.0)


def test_ctrl_c_stops_a_single_threaded_simulate(tmp_path):
    proc = _start(["simulate", "-c", "3NT", "-d", "N", "-n", "3000", "--threads", "1",
                   "--seed", "1"], tmp_path)
    time.sleep(3.0)
    _check_interrupted(proc, within=5.0)


def test_ctrl_c_in_the_engine_waiting_for_input(tmp_path):
    proc = _start(["engine"], tmp_path)
    proc.stdin.write('{"type": "hello"}\n')
    proc.stdin.flush()
    assert '"hello"' in proc.stdout.readline()          # started, now waiting on stdin
    _check_interrupted(proc, within=5.0)


def test_ctrl_c_in_the_table_manager_reports_the_boards_then_exits_130(tmp_path):
    proc = _start(["bluechip", "tm", "--boards", "1", "--seed", "1", "--port", "0", "-o",
                   str(tmp_path / "tm.pbn")], tmp_path)
    _wait_for(proc, _stderr_line(proc, "listening"))
    err = _check_interrupted(proc, within=5.0)
    assert "0 board(s) finished, 0 unfinished: interrupted" in err


def test_ctrl_c_in_a_client_waiting_for_its_table_manager(tmp_path):
    with socket.socket() as server:                     # accepts, then never answers
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        proc = _start(["bluechip", "client", "--seat", "n", "--port", str(port)], tmp_path)
        conn, _ = server.accept()
        with conn:
            conn.recv(100)                               # the client's first line
            _check_interrupted(proc, within=5.0)


def test_ctrl_c_in_a_match_points_at_its_journal(tmp_path):
    proc = _start(["match", "easy", "easy", "-n", "50", "-q", "-o", "m.pbn"], tmp_path)
    time.sleep(3.0)
    err = _check_interrupted(proc, within=10.0)
    assert "The finished tables are in m.pbn.journal" in err


@pytest.mark.parametrize("args", [["http", "--port", "0"],
                                  ["web", "--port", "0", "--data-dir", "data",
                                   "--leaderboard", "board.json"]])
def test_ctrl_c_in_the_servers(tmp_path, args):
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    proc = _start(args, tmp_path)
    _wait_for(proc, _stderr_line(proc, "Application startup complete"))
    _check_interrupted(proc, within=10.0)


# -- the examples of every subcommand's --help ------------------------------------------------
def _examples():
    """``(command path, argv)`` for every example command line in the help of every
    (sub)command: a line starting with ``ddsolver-ai``, continued by lines after a
    trailing backslash."""
    import shlex

    import click

    from ai.cli import main
    found = []

    def walk(cmd, path):
        text = cmd.get_help(click.Context(cmd, info_name=" ".join(path)))
        lines = iter(text.splitlines())
        for line in lines:
            s = line.strip()
            if not s.startswith("ddsolver-ai ") or s.startswith("Usage:"):
                continue
            while s.endswith("\\"):
                s = s[:-1] + " " + next(lines).strip()
            found.append((" ".join(path), shlex.split(s)[1:]))
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, [*path, name])

    walk(main, ["ddsolver-ai"])
    return found


#: the options the test lowers so that an example runs in seconds (everything else is run
#: as printed): deals to simulate, boards to play
_COUNT_OPTIONS = {"-n": "1"}


def test_every_help_example_runs(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from ai.cli import main
    examples = _examples()
    commands = {path for path, _ in examples}
    assert {"ddsolver-ai bid", "ddsolver-ai match", "ddsolver-ai simulate"} <= commands
    monkeypatch.chdir(tmp_path)                          # files the examples write
    for path, argv in examples:
        argv = [_COUNT_OPTIONS.get(prev, a) if prev in _COUNT_OPTIONS else a
                for prev, a in zip([None, *argv], argv)]
        r = CliRunner().invoke(main, argv, catch_exceptions=False)
        assert r.exit_code == 0, (path, argv, r.output)
        assert r.output.strip(), (path, argv)


def test_match_paths_empty_looping_or_unreadable_get_the_reason(tmp_path, monkeypatch):
    import builtins

    from click.testing import CliRunner

    from ai.cli import main
    monkeypatch.chdir(tmp_path)
    os.symlink("loop", "loop")
    run = CliRunner().invoke
    os.mkdir("folder")
    for args, message in (
            (["--deals", ""], "Error: Invalid value for '--deals': an empty file name"),
            (["-o", ""], "Error: Invalid value for '-o' / '--output': an empty file name"),
            (["--journal", " "], "Error: Invalid value for '--journal': an empty file name"),
            (["--deals", "loop"], "Error: Invalid value for '--deals': cannot read loop: Too "
                                  "many levels of symbolic links"),
            (["--deals", "missing.pbn"], "Error: Invalid value for '--deals': cannot read "
                                         "missing.pbn: No such file or directory"),
            (["--deals", "folder"], "Error: Invalid value for '--deals': File 'folder' is a "
                                    "directory"),
            # the PBN file was written at the end: after the match had been played
            (["-o", "loop"], "Error: Invalid value for '-o' / '--output': cannot write loop: "
                             "Too many levels of symbolic links"),
            (["-o", "no/m.pbn", "--journal", "m.journal"],
             f"Error: Invalid value for '-o' / '--output': cannot write no/m.pbn: the folder "
             f"{tmp_path / 'no'} does not exist"),
            (["-o", "folder"], "Error: Invalid value for '-o' / '--output': cannot write "
                               "folder: it is a folder"),
            (["--journal", "no/m.journal"], f"Error: Invalid value for '--journal': cannot "
                                            f"write no/m.journal: the folder {tmp_path / 'no'} "
                                            f"does not exist")):
        r = run(main, ["match", "easy", "easy", "-n", "1", "-q", *args])
        assert r.exit_code == 2, (args, r.output)
        assert message in " ".join(r.output.split()), (args, r.output)
    assert sorted(os.listdir(tmp_path)) == ["folder", "loop"]     # no journal begun
    # a file that cannot be read (simulated: the tests may run as root): the OS's reason
    (tmp_path / "deals.pbn").write_text("")
    real_open = builtins.open

    def refusing(file, *a, **k):
        if str(file).endswith("deals.pbn"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(builtins, "open", refusing)
    r = run(main, ["match", "easy", "easy", "-n", "1", "-q", "--deals", "deals.pbn"])
    assert r.exit_code == 2, r.output
    assert "deals.pbn: Permission denied" in r.output, r.output


@pytest.mark.parametrize("command", [
    ["match", "easy", "easy", "-n", "1"],
    ["simulate", "-c", "3NT", "-d", "N", "-n", "1"],
    ["bluechip", "client", "--seat", "N"],
    ["bluechip", "tm", "--boards", "1"],
])
def test_a_negative_seed_is_refused(command, tmp_path, monkeypatch):
    """Python's random.Random(-1) deals what random.Random(1) deals (the sign is dropped),
    so '--seed -1' printed 'seed -1' and dealt the boards of seed 1.  Refused at once
    (status 2), naming the option; 0 is a seed like any other."""
    monkeypatch.chdir(tmp_path)        # a match not refused would write match.pbn here
    from click.testing import CliRunner

    from ai.cli import main
    run = CliRunner().invoke(main, [*command, "--seed", "-1"])
    assert run.exit_code == 2, run.output
    assert "--seed" in run.output and "-1" in run.output, run.output


def test_a_negative_seed_is_refused_by_the_terminal_game(tmp_path):
    from click.testing import CliRunner

    from ai.tui import main
    run = CliRunner().invoke(main, ["--seed", "-1", "--save", str(tmp_path / "m.json")],
                             input="quit\n")
    assert run.exit_code == 2 and "--seed" in run.output, run.output
    assert not (tmp_path / "m.json").exists()


def test_bad_input_to_bid_is_said_as_every_command_says_it():
    """'error: ...' (lower case) where every other command says 'Error: ...'."""
    from click.testing import CliRunner

    from ai.cli import main
    run = CliRunner().invoke(main, ["bid", "x"])
    assert run.exit_code == 2
    assert run.output == "Error: deal 'x' must have 4 hands, found 1\n", run.output


@pytest.mark.parametrize("command", [["http"], ["web", "--data-dir", "{tmp}/d"],
                                     ["bluechip", "tm", "--boards", "1", "--seed", "1",
                                      "-o", "{tmp}/s.pbn"]])
def test_servers_refuse_a_port_in_use_and_a_host_that_is_not_there(command, tmp_path,
                                                                   monkeypatch):
    """A port in use or a host that does not resolve gave uvicorn's own "[Errno 98] ...
    address already in use" with status 3 (http, web: after "Serving the page on ...") or
    a late status 1 (bluechip tm): now the option is refused, status 2, before anything
    starts or is written."""

    from click.testing import CliRunner

    import ai.protocols.http
    import ai.web.app
    from ai.cli import main

    started = []
    monkeypatch.setattr(ai.protocols.http, "serve", lambda *a, **kw: started.append(a))
    monkeypatch.setattr(ai.web.app, "serve", lambda *a, **kw: started.append(a))
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        r = CliRunner().invoke(main, [*args, "--port", port])
        assert r.exit_code == 2, r.output
        assert f"Invalid value for '--port': port {port} of 127.0.0.1 is in use by " \
               f"another program" in r.output
        assert "Serving" not in r.output
    r = CliRunner().invoke(main, [*args, "--host", "999.1.1.1", "--port", "0"])
    assert r.exit_code == 2, r.output
    assert "Invalid value for '--host': '999.1.1.1' is not an address or a name this " \
           "machine resolves" in r.output
    assert started == [] and not (tmp_path / "s.pbn").exists()
    if command[0] != "bluechip":
        # a free port: the server starts
        r = CliRunner().invoke(main, [*args, "--port", "0", "--leaderboard",
                                      str(tmp_path / "lb.sqlite3")] if command[0] == "web"
                               else [*args, "--port", "0"])
        assert r.exit_code == 0 and len(started) == 1, r.output
