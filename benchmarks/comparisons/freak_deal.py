"""The freak deal of DDS's ``hands/thomas1.txt``: the DD table by ddsolver and by DDS.

    python -m benchmarks.comparisons.freak_deal [--only ours|dds] [--memory-mb 256]

Every hand of thomas1 is void in one suit and holds 4-4-5 in the others, so notrump has
huge discard trees (DDS needs about a minute per notrump leader).  Each solver computes
the whole table (20 results) in its own subprocess, single thread, so the peak resident
memory (``ru_maxrss`` of the child) is that solver's alone.  Printed per solver: CPU
seconds of the table (``time.process_time``), peak RSS in MiB, and whether the table
equals the file's ``TABLE`` line; ddsolver also prints its nodes and table resets.  DDS
needs the bench extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository root, where the child starts
THOMAS1 = ROOT / "tests" / "data" / "thomas1.txt"

_CHILD = r"""
import json, resource, time
from ddsolver.ddsfiles import read_dds_file
rec = read_dds_file({path!r})[0]
out = {{}}
if {which!r} == "ours":
    from ddsolver.solver import Solver
    s = Solver(memory_mb={mb})
    t = time.process_time()
    table = s.dd_table(rec.deal).to_array()
    out["cpu"] = time.process_time() - t
    out["nodes"] = s.nodes
    out["resets"] = s._engine.stats["resets"]
else:
    from benchmarks.dds_ctypes import DDS
    d = DDS()
    td = d.table_deal(rec.deal)
    t = time.process_time()
    table = d.calc_dd_table(td)
    out["cpu"] = time.process_time() - t
out["table"] = table.tolist()
out["expected"] = rec.table.tolist()
out["maxrss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(which: str, mb: int) -> dict:
    code = _CHILD.format(path=str(THOMAS1), which=which, mb=mb)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"{which}: the child failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("ours", "dds"))
    ap.add_argument("--memory-mb", type=int, default=256,
                    help="ddsolver's table cap, MiB (default: the library default, 256)")
    args = ap.parse_args(argv)
    status = 0
    for which in ("dds", "ours"):
        if args.only and which != args.only:
            continue
        r = run(which, args.memory_mb)
        same = r["table"] == r["expected"]
        extra = (f"  nodes {r['nodes']:,}  table resets {r['resets']}" if which == "ours"
                 else "")
        print(f"{'DDS' if which == 'dds' else 'ddsolver':8s}: table {r['cpu']:8.1f} s CPU, "
              f"peak RSS {r['maxrss_mib']:6.0f} MiB, table {'= file' if same else '!= file'}"
              f"{extra}", flush=True)
        if not same:
            print("  got     ", r["table"])
            print("  expected", r["expected"])
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
