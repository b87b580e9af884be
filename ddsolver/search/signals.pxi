# Signals and cancels: how a search is left early.
#
# No Python object is touched inside the search: everything runs without the GIL, except a
# check for pending signals every ``SIGNAL_CHECK_MASK + 1`` nodes (``dd_signal_raised``,
# which runs Python's handlers; they run in the main thread only) and a look at
# ``Ctx.cancel`` (set by ``Engine.cancel`` from any thread).  When a handler raises (Ctrl-C)
# or the search is cancelled, the search leaves at once with ``longjmp`` (``dd_leave``) to
# the driver's return point (``dd_run_search``); the Engine restores the position saved
# before the search and re-raises here.  The table keeps only entries of completed
# subtrees, so it stays exact.  C helpers: search/signals.h.

from cpython.exc cimport PyErr_Occurred


cdef int propagate_signal() except -1:
    """Re-raise the exception a signal handler raised inside the search."""
    if PyErr_Occurred() != NULL:
        return -1
    raise KeyboardInterrupt
