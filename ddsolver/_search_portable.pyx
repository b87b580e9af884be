"""The double-dummy search, portable build: only the instructions every CPU of the target
architecture has (any x86-64, any arm64, ...).

Import :mod:`ddsolver._search`, which chooses between this build and
:mod:`ddsolver._search_fast` for the CPU running it.  The code is in ``ddsolver/search/``
(``search.pxi`` lists its units); ``setup.py`` builds it twice, this file and
``_search_fast.pyx`` being the same but for their names.

Zero-window alpha-beta over the cards of each trick, driven MTD(f)-style to the exact value,
with a transposition table of lower/upper bounds at trick starts generalised by Ginsberg's
partition search ("winning ranks"; M. Ginsberg, "Partition search", AAAI 1996; the same idea
as DDS, B. Haglund and S. Hein).
"""

include "search/search.pxi"
