"""C-level double-dummy search, built from the units of ``ddsolver/search/`` (the list and
why they are compiled as one module: ``ddsolver/search/search.pxi``).

Zero-window alpha-beta over the cards of each trick, driven MTD(f)-style to the exact value,
with a transposition table of lower/upper bounds at trick starts generalised by Ginsberg's
partition search ("winning ranks"; M. Ginsberg, "Partition search", AAAI 1996; the same idea
as DDS, B. Haglund and S. Hein).

Partition rule used here: each search result carries, per suit, the set of cards whose
*ownership* the result relied on.  A table entry keeps, per suit, the owners of the top k
cards still in play, where k reaches down to the lowest relied-on card; together with the 16
suit lengths, the leader and the trump strain, every position that agrees on those owners has
the same value.  Cards below the top k of a suit are "small cards", interchangeable given the
lengths.  A trick's winner is relied on when it won by rank (two or more cards of its suit in
the trick).  When a move stands for equivalent cards that were not searched and the node fails
for the side to move, the skipped cards are relied on as well.

Move ordering: the card that last cut off in a similar position (a small hash table, the
"cut-off cache", keyed by the hand and the state of the trick; an idea of H. Xue's bridge
solver) is tried first, before the other cards are generated and ordered by weights; at
the first tricks each lead is also played past the trick with the cached replies and the
leads the table then shows succeeding go first.  Sure-trick cutoffs at trick starts (trump
length, quick tricks, top trumps, the other side's tops) come before and after the table
probe.

No Python object is touched inside the search, which runs without the GIL; a signal
(Ctrl-C) or :meth:`Engine.cancel` ends it early and leaves the engine's position and table
exact (``ddsolver/search/signals.pxi``).
"""

include "search/search.pxi"
