"""Build the compiled search of ddsolver.

Everything else lives in pyproject.toml.  The search (``ddsolver/search/``: .pxi code, .pxd
declarations, .h C helpers; ``ddsolver/search/search.pxi`` lists them) is compiled into one
extension module, twice from the same sources (``docs/building.md``):

* ``ddsolver._search_portable``: only the target architecture's baseline instructions, so
  it runs on every CPU of that architecture (any x86-64, any arm64, ...).
* ``ddsolver._search_fast`` (x86-64 targets, gcc or clang): also POPCNT, BMI1, BMI2, LZCNT
  and AVX2.  Not built for other targets, nor with MSVC.

``ddsolver/_search.py`` picks one when it is imported, by asking the CPU that runs it (never
the one that built it); ``DDSOLVER_PORTABLE=1`` at run time forces the portable one.

Build-time environment variables:

* ``DDSOLVER_DEBUG=1``: a debug build: ``-O0 -g``, C assertions on, Cython's run-time checks
  on (bounds, wraparound, initialised memoryviews, None), the detailed statistics counters.
* ``DDSOLVER_STATS=1``: the detailed statistics counters of ``Engine.stats`` in an optimised
  build (they cost time; the default build keeps only the cheap ones).
* ``DDSOLVER_NATIVE=1``: the fast build made with ``-march=native`` for experiments on the
  building machine (it may use instructions the import-time check does not know about).

A change of these, or of this file, rebuilds everything (the last configuration is kept in
``build/``).
Compiler directives and C flags are set here and nowhere else.
"""
import hashlib
import os
import re
import sys
import sysconfig
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
DEBUG = os.environ.get("DDSOLVER_DEBUG") == "1"
STATS = DEBUG or os.environ.get("DDSOLVER_STATS") == "1"
NATIVE = os.environ.get("DDSOLVER_NATIVE") == "1"

#: the configuration of the last build, to rebuild everything when it changes
STAMP = HERE / "build" / "ddsolver-build-config.txt"
CONFIG = (f"debug={DEBUG} stats={STATS} native={NATIVE} "
          f"setup.py={hashlib.sha1(Path(__file__).read_bytes()).hexdigest()}")
CONFIG_CHANGED = not STAMP.exists() or STAMP.read_text() != CONFIG

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}

#: the instruction sets of the fast build; ddsolver/search/build.h checks the same ones
FAST_FLAGS = ["-mpopcnt", "-mbmi", "-mbmi2", "-mlzcnt", "-mavx2"]


def _target_is_x86_64() -> bool:
    """Whether the extensions are built for x86-64 (the target, also when cross-compiling:
    sysconfig follows ``_PYTHON_HOST_PLATFORM``, macOS builds name theirs in ARCHFLAGS)."""
    archflags = os.environ.get("ARCHFLAGS", "")
    if sys.platform == "darwin" and archflags:
        return re.findall(r"-arch\s+(\S+)", archflags) == ["x86_64"]
    return sysconfig.get_platform().endswith(("x86_64", "amd64"))


def _variants() -> list:
    """The builds of the search for this target: [(module name, fast?)]."""
    out = [("ddsolver._search_portable", False)]
    if _target_is_x86_64() and sys.platform != "win32":
        out.append(("ddsolver._search_fast", True))
    return out


def _compile_args(fast: bool, msvc: bool) -> list:
    if msvc:
        return ["/Od", "/Zi"] if DEBUG else ["/O2"]
    args = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3"]
    if fast and NATIVE:
        args.append("-march=native")
    elif _target_is_x86_64():
        # the baseline stated, so that -march options in CFLAGS cannot leak in
        args.append("-march=x86-64")
        if fast:
            args += FAST_FLAGS
    return args


class BuildExt(build_ext):
    """Compiler-specific flags; a full rebuild when the configuration changed; in-place
    builds remove outputs of earlier builds that would get in the way."""

    def run(self):
        if CONFIG_CHANGED:
            self.force = True
        if self.inplace:
            # outputs of earlier builds: the single module (it would hide _search.py) and
            # C files written beside the .pyx (they would land in wheels)
            for pattern in ("_search.*.so", "_search.*.pyd", "_search*.c"):
                for old in HERE.glob(f"ddsolver/{pattern}"):
                    print(f"removing {old.relative_to(HERE)} (from an earlier build)")
                    old.unlink()
        super().run()

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1    # the two builds compile side by side

    def build_extensions(self):
        msvc = self.compiler.compiler_type == "msvc"
        for ext in self.extensions:
            ext.extra_compile_args = _compile_args(ext.name.endswith("_fast"), msvc)
        super().build_extensions()


def _extensions() -> list:
    exts = []
    for name, fast in _variants():
        macros = [("DD_FAST", "1" if fast else "0"), ("DD_STATS", "1" if STATS else "0"),
                  ("DD_DEBUG", "1" if DEBUG else "0")]
        exts.append(Extension(name, [name.replace(".", "/") + ".pyx"], include_dirs=["ddsolver"],
                              define_macros=macros))
    # the C files go to build/ (not into the package, where they would land in wheels)
    exts = cythonize(exts, compiler_directives=COMPILER_DIRECTIVES, force=CONFIG_CHANGED,
                     build_dir=str(Path("build") / "cython"),
                     # processes side by side (not on Windows, where they would re-run setup.py)
                     nthreads=0 if sys.platform == "win32" else min(len(exts), os.cpu_count() or 1))
    STAMP.parent.mkdir(parents=True, exist_ok=True)
    STAMP.write_text(CONFIG)
    return exts


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
