"""The double-dummy search, fast build (x86-64 only): also POPCNT, BMI1, BMI2, LZCNT and
AVX2, which x86-64 CPUs have had since about 2013-2015.

Import :mod:`ddsolver._search`, which chooses between this build and
:mod:`ddsolver._search_portable` for the CPU running it: it loads this one only on a CPU
that has them all.  The code is in ``ddsolver/search/`` (``search.pxi`` lists its units);
``setup.py`` builds it twice, this file and ``_search_portable.pyx`` being the same but for
their names.

Zero-window alpha-beta over the cards of each trick, driven MTD(f)-style to the exact value,
with a transposition table of lower/upper bounds at trick starts generalised by Ginsberg's
partition search ("winning ranks"; M. Ginsberg, "Partition search", AAAI 1996; the same idea
as DDS, B. Haglund and S. Hein).
"""

include "search/search.pxi"
