# Leaving a search for a signal or a cancel (search/signals.h, search/signals.pxi).

ctypedef int (*search_fn)(void*, int, int) noexcept nogil

cdef extern from "search/signals.h":
    int dd_signal_raised() nogil
    void dd_leave(void* jump) nogil
    int dd_run_search(void* c, void** jump_slot, search_fn f, int pos, int guess,
                      int* aborted) nogil

cdef enum:
    SIGNAL_CHECK_MASK = (1 << 18) - 1    # signals are checked about every 50 ms of search
