# What this build is and whether the CPU can run the fast one (search/build.h).

cdef extern from "search/build.h":
    const char* DD_VARIANT
    const int DD_STATS
    const int DD_DEBUG
    const char* dd_isa() nogil
    int dd_cpu_runs_fast() nogil
