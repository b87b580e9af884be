"""Build the Cython extensions of ddsolver.

Everything else lives in pyproject.toml.  To add a compiled module, add one line to
``MODULES`` (a dotted name whose ``.pyx`` lives beside its ``.pxd``).
"""
import os
import platform

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = [
    "ddsolver._search",
]

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    "nonecheck": False,
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


EXTRA_COMPILE_ARGS = ["-O3"]
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

extensions = [
    Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=EXTRA_COMPILE_ARGS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES))
