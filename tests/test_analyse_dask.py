"""``ddsolver analyse --scheduler``: the tables solved on a Dask cluster give the same output
as a local run (tested with a ``distributed.LocalCluster`` in this process)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddsolver.analysis import analyse_file
from ddsolver.cli import main

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
