"""The two builds of the compiled search (docs/building.md): the fast build (x86-64 with
POPCNT, BMI1, BMI2, LZCNT, AVX2) and the portable one give the same answers and visit the
same nodes; ``DDSOLVER_PORTABLE`` forces the portable one; the build in use is the one the
CPU allows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ddsolver
from ddsolver import _search, solver

DATA = Path(__file__).parent / "data"
FAST_ISA = ["popcnt", "bmi", "bmi2", "lzcnt", "avx2"]

# three DD tables and every card's value at trick 1 of the same deals (spades, West leads)
_SCRIPT = r"""
import json, sys
from ddsolver import _search
from ddsolver.cards import Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat
recs = read_dds_file(sys.argv[1])[:3]
s = Solver()
tables = [s.dd_table(r.deal).to_array().tolist() for r in recs]
cards = [{str(c): v for c, v in s.solve(Position(r.deal, trump=Strain.SPADES,
                                                  leader=Seat.WEST)).items()} for r in recs]
print(json.dumps({"info": _search.BUILD_INFO, "tables": tables, "cards": cards,
                  "nodes": s.nodes}))
"""


_INFO = "import json; from ddsolver import _search; print(json.dumps({'info': _search.BUILD_INFO}))"


def _run(portable: str | None, script: str = _SCRIPT) -> dict:
    """The script's output in a fresh interpreter importing this ddsolver, with
    ``DDSOLVER_PORTABLE`` set to ``portable`` (None: unset)."""
    env = dict(os.environ)
    env.pop("DDSOLVER_PORTABLE", None)
    if portable is not None:
        env["DDSOLVER_PORTABLE"] = portable
    root = str(Path(ddsolver.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", script, str(DATA / "list100.txt")], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _expected_default_build() -> str:
    """The build ddsolver._search should choose without DDSOLVER_PORTABLE."""
    if not _search._search_portable.cpu_runs_fast():
        return "portable"
    try:
        from ddsolver import _search_fast  # noqa: F401
    except ImportError:
        return "portable"       # not built for this target (not x86-64, or MSVC)
    return "fast"


def test_portable_build_gives_the_same_answers_and_nodes():
    from ddsolver.ddsfiles import read_dds_file

    default = _run(None)
    portable = _run("1")
    assert portable["info"]["variant"] == "portable"
    assert portable["info"]["portable_forced"] is True
    assert portable["info"]["isa"] == []
    assert default["info"]["variant"] == _expected_default_build()
    assert portable["tables"] == default["tables"]
    assert portable["cards"] == default["cards"]
    assert portable["nodes"] == default["nodes"] > 0
    # and both are right (declarer's tricks of list100's own tables)
    recs = read_dds_file(DATA / "list100.txt")[:3]
    assert default["tables"] == [r.table.tolist() for r in recs]


def test_build_in_use_is_the_one_the_cpu_allows():
    expected = "portable" if _search.PORTABLE_FORCED else _expected_default_build()
    assert _search.BUILD == expected == _search.BUILD_INFO["variant"] == solver.BUILD
    assert _search.BUILD_INFO["module"] == f"ddsolver._search_{expected}"
    assert _search.Engine.__module__ == f"ddsolver._search_{expected}"
    assert _search.BUILD_INFO["isa"] == (FAST_ISA if expected == "fast" else [])
    assert _search.BUILD_INFO["cpu_runs_fast"] == _search._search_portable.cpu_runs_fast()


def test_portable_switch_values():
    """Only an empty value or "0" leaves the choice to the CPU."""
    assert _run("0", _INFO)["info"]["variant"] == _expected_default_build()
    assert _run("", _INFO)["info"]["portable_forced"] is False
    assert _run("yes", _INFO)["info"]["variant"] == "portable"
