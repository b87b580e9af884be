"""Build the Cython extensions of ddsolver.

Everything else lives in pyproject.toml.  To add a compiled module, add one line to
``MODULES`` (a dotted name whose ``.pyx`` lives beside its ``.pxd``).
"""
import os

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

EXTRA_COMPILE_ARGS = ["-O3"]
if os.environ.get("DDSOLVER_NATIVE") == "1":
    EXTRA_COMPILE_ARGS.append("-march=native")

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
