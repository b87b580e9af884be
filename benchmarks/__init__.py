"""Benchmarks, comparisons with DDS, diagnostics of the search and quality measures.

Run every script as a module from the repository root (no installation needed there;
elsewhere ``pip install -e '.[bench]'`` first)::

    python -m benchmarks.comparisons.compare_dds --set list100 --workload table
    python -m pytest benchmarks/suites --benchmark-enable -q

Sub-packages, by kind:

* ``suites``: pytest-benchmark suites of ddsolver and of DDS (answers checked);
* ``comparisons``: timed runs of ddsolver against DDS or against another way of calling it
  (threads, a reused solver);
* ``diagnostics``: tree sizes and move-ordering waste, ddsolver's search against DDS's;
* ``quality``: how well the computer players bid, scored double-dummy against par.

Shared by them: :mod:`benchmarks.bench_sets` (the deal and position sets, the workloads and
``DATA``, the folder ``tests/data``) and :mod:`benchmarks.dds_ctypes` (DDS 2.9.0 through
ctypes).  ``benchmarks/NOTES.md`` records every measurement.
"""
