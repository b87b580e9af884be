# Bit helpers (search/bits.h): counts and scans of 16-bit holdings, pext / pdep.
from libc.stdint cimport uint64_t

cdef extern from "search/bits.h":
    void dd_prefetch(const void* p) nogil
    int dd_popcount(unsigned int x) nogil
    int dd_popcount64(unsigned long long x) nogil
    int dd_highest(unsigned int x) nogil
    int dd_lowest(unsigned int x) nogil
    unsigned int dd_top_bits(unsigned int x, int k) nogil
    unsigned int dd_pext(unsigned int x, unsigned int m) nogil
    unsigned int dd_pdep(unsigned int x, unsigned int m) nogil
