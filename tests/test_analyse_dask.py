"""``ddsolver analyse --scheduler``: the tables solved on a Dask cluster give the same output
as a local run (tested with a ``distributed.LocalCluster`` in this process)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddsolver._dask import check_scheduler_address, connect_scheduler
from ddsolver.analysis import analyse_file
from ddsolver.cli import DASK_CONNECT_TIMEOUT, main
from ddsolver.errors import SchedulerAddressError, SchedulerUnreachableError

FOUR = Path(__file__).resolve().parent.parent / "examples" / "four_boards.pbn"


def test_analyse_on_a_dask_cluster_writes_the_same_file(tmp_path):
    distributed = pytest.importorskip("distributed")
    runner = CliRunner()
    local = tmp_path / "local.pbn"
    res = runner.invoke(main, ["analyse", str(FOUR), "-o", str(local), "-q", "--check"])
    assert res.exit_code == 0, res.output
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        remote = tmp_path / "dask.pbn"
        res = runner.invoke(main, ["analyse", str(FOUR), "-o", str(remote), "-q", "--check",
                                   "--scheduler", cluster.scheduler_address])
        assert res.exit_code == 0, res.output
        with distributed.Client(cluster, set_as_default=False) as client:
            report = analyse_file(FOUR, check=True, executor=client.get_executor())
    assert remote.read_bytes() == local.read_bytes()
    mine = analyse_file(FOUR, threads=1)
    assert report.analysed == mine.analysed == 4
    assert [b.table.to_array().tolist() for b in report.boards] == \
        [b.table.to_array().tolist() for b in mine.boards]
    assert [b.par for b in report.boards] == [b.par for b in mine.boards]
    # the file carries another program's analysis: the tables from Dask agree with it
    assert report.compared == 4 and report.mismatched == 0


def test_an_unreachable_scheduler_or_no_dask_is_a_clear_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("ddsolver.cli.DASK_CONNECT_TIMEOUT", 1)
    out = tmp_path / "x.pbn"
    res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                    "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2
    assert "cannot reach the Dask scheduler 'tcp://127.0.0.1:1'" in res.output
    assert not out.exists()
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                    "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2 and "pip install 'ddsolver[dask]'" in res.output
    assert not out.exists()


@pytest.mark.parametrize("address, why", [
    ("nonsense", "no port"),
    ("tcp://", "no host and port"),
    ("tcp://host:notaport", "the port 'notaport' is not a number"),
    ("tcp://:8786", "no host"),
    ("tcp://host:", "no port"),
    ("tcp://host:0", "the port 0 is not in 1..65535"),
    ("tcp://host:65536", "the port 65536 is not in 1..65535"),
    ("tcp://::1:8786", "an IPv6 host goes in brackets"),
    ("tcp://[::1]", "no port"),
    ("tcp://ho st:8786", "'ho st' is not a host name or IP address"),
    ("foo://host:8786", "unknown protocol 'foo://'"),
    ("host/path:8786", "no protocol"),
    ("inproc://x", "an inproc address is inproc://HOST/PID/N"),
    ("  ", "it is empty"),
])
def test_a_malformed_scheduler_address_is_refused_before_any_client(
        tmp_path, monkeypatch, address, why):
    distributed = pytest.importorskip("distributed")

    def no_client(*args, **kwargs):
        raise AssertionError("a Dask client was created")

    monkeypatch.setattr(distributed, "Client", no_client)
    out = tmp_path / "x.pbn"
    res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                    "--scheduler", address])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)  # no traceback
    assert f"bad Dask scheduler address {address!r}: {why}" in res.output
    assert "Invalid value for '--scheduler'" in res.output
    assert not out.exists()
    with pytest.raises(SchedulerAddressError, match="bad Dask scheduler address"):
        check_scheduler_address(address)


def test_well_formed_scheduler_addresses_are_accepted():
    for address in ("tcp://127.0.0.1:8786", "127.0.0.1:8786", "tcp://[::1]:8786",
                    "tls://sched.example.org:8786", "ws://h-1:1", "wss://h:65535",
                    "inproc://192.0.2.2/24156/1"):
        assert check_scheduler_address(f" {address}\n") == address
    with pytest.raises(TypeError, match="string"):
        check_scheduler_address(8786)


def test_nothing_listening_fails_within_seconds_naming_the_address(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "x.pbn"
    start = time.monotonic()
    res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                    "--scheduler", "tcp://127.0.0.1:1"])
    elapsed = time.monotonic() - start
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert "cannot reach the Dask scheduler 'tcp://127.0.0.1:1'" in res.output
    # Dask's own default is 30 s; ours is DASK_CONNECT_TIMEOUT (5 s) plus start-up
    assert DASK_CONNECT_TIMEOUT == 5
    assert elapsed < 15, elapsed
    assert not out.exists()


def test_connect_scheduler_raises_a_connection_error_naming_the_address():
    pytest.importorskip("distributed")
    start = time.monotonic()
    with pytest.raises(SchedulerUnreachableError,
                       match=r"cannot reach the Dask scheduler 'tcp://127.0.0.1:1'") as info:
        connect_scheduler("tcp://127.0.0.1:1", timeout=0.5)
    assert isinstance(info.value, ConnectionError)
    assert time.monotonic() - start < 5


def test_tls_without_certificates_is_a_clear_error(tmp_path):
    pytest.importorskip("distributed")
    import dask

    out = tmp_path / "x.pbn"
    no_tls = {"distributed.comm.tls.ca-file": None, "distributed.comm.tls.client.cert": None,
              "distributed.comm.tls.client.key": None}
    with dask.config.set(no_tls):
        res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                        "--scheduler", "tls://127.0.0.1:1"])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert ("cannot use the Dask scheduler 'tls://127.0.0.1:1': tls:// needs certificates "
            "in the Dask configuration: distributed.comm.tls.ca-file") in res.output
    missing = tmp_path / "ca.pem"
    with dask.config.set({**no_tls, "distributed.comm.tls.ca-file": str(missing)}):
        res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out),
                                        "--scheduler", "tls://127.0.0.1:1"])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert (f"the file {str(missing)!r} of the Dask setting distributed.comm.tls.ca-file "
            f"does not exist") in res.output
    assert not out.exists()


def _server(reply: bytes):
    """A TCP server on loopback that accepts connections and sends ``reply`` (nothing if
    empty) but never speaks Dask; returns its address and a function that stops it."""
    import socket
    import threading

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.settimeout(0.2)
    held, stop = [], threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            held.append(conn)
            if reply:
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def close():
        stop.set()
        thread.join()
        for c in held:
            c.close()
        sock.close()
    return f"tcp://127.0.0.1:{sock.getsockname()[1]}", close


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.0 400 Bad request\r\n\r\n" + b"\xff" * 64],
                         ids=["silent", "not-dask"])
def test_a_server_that_is_not_a_dask_scheduler_fails_within_the_timeout(reply):
    # a server that accepts and says nothing, or answers in another protocol: Dask's
    # Client waited for it without end (seen: over 1,000 s for `python -m http.server`)
    pytest.importorskip("distributed")
    address, close = _server(reply)
    try:
        start = time.monotonic()
        with pytest.raises(SchedulerUnreachableError, match=re.escape(repr(address))):
            connect_scheduler(address, timeout=1.0)
        assert time.monotonic() - start < 10
    finally:
        close()


def test_threads_with_a_scheduler_are_refused_not_ignored(tmp_path):
    """--threads with --scheduler was accepted and did nothing (the cluster's workers
    solve).  Refused before anything is read or a client made."""
    out = tmp_path / "x.pbn"
    res = CliRunner().invoke(main, ["analyse", str(FOUR), "-o", str(out), "-j", "2",
                                    "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2, res.output
    assert "--threads is for solving here" in res.output
    assert not out.exists()
