"""Build the compiled search of ddsolver.

Everything else lives in pyproject.toml.  The search (``ddsolver/search/``: .pxi code, .pxd
declarations, .h C helpers; ``ddsolver/search/search.pxi`` lists them) is compiled into one
extension module, ``ddsolver._search``.

Build-time environment variables:

* ``DDSOLVER_DEBUG=1``: a debug build: ``-O0 -g``, C assertions on, Cython's run-time checks
  on (bounds, wraparound, initialised memoryviews, None), the detailed statistics counters.
* ``DDSOLVER_STATS=1``: the detailed statistics counters of ``Engine.stats`` in an optimised
  build (they cost time; the default build keeps only the cheap ones).
* ``DDSOLVER_NATIVE=1``: ``-march=native``; ``DDSOLVER_PORTABLE=1``: baseline instructions
  only.

A change of these rebuilds everything (the last configuration is kept in ``build/``).
Compiler directives and C flags are set here and nowhere else.
"""
import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
DEBUG = os.environ.get("DDSOLVER_DEBUG") == "1"
STATS = DEBUG or os.environ.get("DDSOLVER_STATS") == "1"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}


def _cpu_has(flag: str) -> bool:
    """Whether the building machine's CPU lists ``flag`` (Linux /proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return flag in line.split()
    except OSError:
        pass
    return False


EXTRA_COMPILE_ARGS = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3"]
if os.environ.get("DDSOLVER_NATIVE") == "1":
    EXTRA_COMPILE_ARGS.append("-march=native")
elif os.environ.get("DDSOLVER_PORTABLE") == "1":
    pass    # baseline instructions only (the fallbacks of the bit and table helpers)
elif platform.machine() in ("x86_64", "AMD64"):
    # Only instructions the building CPU has (source builds run where they are built).
    # The search counts bits all the time: without popcnt gcc calls a library routine
    # (6 % of the time); BMI1/BMI2/LZCNT give tzcnt, lzcnt, bzhi, blsr, shlx, pext, pdep
    # for the bit scans and masks (-6 % instructions, benchmarks/NOTES.md); AVX2 compares
    # four table entries at once.
    for flag, option in (("popcnt", "-mpopcnt"), ("bmi1", "-mbmi"), ("bmi2", "-mbmi2"),
                         ("abm", "-mlzcnt"), ("avx2", "-mavx2")):
        if _cpu_has(flag):
            EXTRA_COMPILE_ARGS.append(option)

#: the configuration of the last build: everything is rebuilt when it changes
STAMP = HERE / "build" / "ddsolver-build-config.txt"
CONFIG = f"debug={DEBUG} stats={STATS} args={' '.join(EXTRA_COMPILE_ARGS)}"
CONFIG_CHANGED = not STAMP.exists() or STAMP.read_text() != CONFIG


class BuildExt(build_ext):
    """Rebuilds everything when the configuration changed."""

    def run(self):
        if CONFIG_CHANGED:
            self.force = True
        super().run()
        STAMP.parent.mkdir(parents=True, exist_ok=True)
        STAMP.write_text(CONFIG)


extensions = [
    Extension(
        "ddsolver._search",
        ["ddsolver/_search.pyx"],
        include_dirs=["ddsolver"],
        extra_compile_args=EXTRA_COMPILE_ARGS,
        define_macros=[("DD_FAST", "1" if "-mavx2" in EXTRA_COMPILE_ARGS else "0"),
                       ("DD_STATS", "1" if STATS else "0"), ("DD_DEBUG", "1" if DEBUG else "0")],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES,
                            force=CONFIG_CHANGED),
      cmdclass={"build_ext": BuildExt})
