"""The compiled double-dummy search, in the build that suits the CPU running it.

The search (``ddsolver/search/``) is compiled twice from the same sources (``setup.py``):

* ``ddsolver._search_portable`` uses only the instructions every CPU of its architecture has;
* ``ddsolver._search_fast`` (x86-64 only) also uses POPCNT, BMI1, BMI2, LZCNT and AVX2, which
  x86-64 CPUs have had since about 2013-2015 (Intel Haswell, AMD Excavator and Zen).

At import the CPU is asked (``cpuid``, by code of the portable build) whether it has all of
them and the operating system saves AVX registers; if so, the fast build is used.  Setting
the environment variable ``DDSOLVER_PORTABLE`` to anything but ``""`` or ``"0"`` before the
import forces the portable build.  Both give the same answers and visit the same nodes; the
portable build is slower (``docs/building.md`` has the measured cost).

:data:`BUILD` is the name of the build in use, ``"fast"`` or ``"portable"``;
:data:`BUILD_INFO` says more (see its comment).  :class:`Engine` is the build's engine.
"""

from __future__ import annotations

import os

from . import _search_portable

#: ``DDSOLVER_PORTABLE`` was set (to anything but "" or "0") when this module was imported
PORTABLE_FORCED: bool = os.environ.get("DDSOLVER_PORTABLE", "") not in ("", "0")


def _choose():
    """The extension module to use: the fast build when allowed, present (only x86-64
    builds have it) and runnable on this CPU, else the portable one."""
    if PORTABLE_FORCED or not _search_portable.cpu_runs_fast():
        return _search_portable
    try:
        from . import _search_fast
    except ImportError:     # built for another architecture or compiler: no fast build
        return _search_portable
    return _search_fast


_impl = _choose()

Engine = _impl.Engine

#: ``"fast"`` or ``"portable"``: the build of the search in use
BUILD: str = _impl.BUILD_INFO["variant"]

#: the build in use: ``variant`` (as :data:`BUILD`), ``isa`` (the instruction sets beyond
#: the architecture's baseline it was compiled with, e.g. ``["popcnt", "bmi", "bmi2",
#: "lzcnt", "avx2"]``), ``stats`` (the detailed statistics counters are compiled in),
#: ``debug`` (a debug build), ``module`` (the extension module's name), ``cpu_runs_fast``
#: (this CPU can run the fast build) and ``portable_forced`` (``DDSOLVER_PORTABLE`` was set)
BUILD_INFO: dict = dict(_impl.BUILD_INFO, module=_impl.__name__,
                        cpu_runs_fast=bool(_search_portable.cpu_runs_fast()),
                        portable_forced=PORTABLE_FORCED)

__all__ = ["BUILD", "BUILD_INFO", "Engine", "PORTABLE_FORCED"]
