# The transposition table: its types (code in search/transtable.pxi, C helpers in
# search/transtable.h).

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

cdef enum:
    BLOCK_ENTRIES = 8    # entries of one key are kept together, in blocks of this many
                         # (dd_block_hits handles exactly 8)
    # the table's bucket array starts with 1 << START_BUCKET_BITS buckets
    START_BUCKET_BITS = 14

cdef struct TTBlock:
    # up to BLOCK_ENTRIES entries of one key, newest last.  Entry j: the owners (2 bits a
    # card, seat number, top first) of the top k cards of each suit, suits 0 and 1 in
    # pat0[j] (suit 1 from bit 32), suits 2 and 3 in pat1[j]; kk0[2j], kk0[2j + 1],
    # kk1[2j], kk1[2j + 1] are 2 k of suits 0..3 (k: the number of top cards whose owners
    # matter); lo[j] / hi[j] are the bounds on N-S tricks among the tricks left.  Laid out
    # by field so that a probe compares all entries of a block at once (dd_block_hits).
    uint64_t pat0[BLOCK_ENTRIES]
    uint64_t pat1[BLOCK_ENTRIES]
    uint8_t kk0[2 * BLOCK_ENTRIES]
    uint8_t kk1[2 * BLOCK_ENTRIES]
    int8_t lo[BLOCK_ENTRIES]
    int8_t hi[BLOCK_ENTRIES]
    int32_t n            # entries used
    int32_t next         # next (older) block of the same key, -1 at the end

cdef struct TTKey:
    uint64_t lengths     # 16 suit lengths, 4 bits each: (seat * 4 + suit) * 4
    int32_t leader
    int32_t first        # newest block of this key (index into blocks), -1 when none
    int32_t next         # next key in the same bucket, -1 at the end

cdef struct TT:
    int32_t *buckets
    TTKey *keys
    TTBlock *blocks
    int32_t bucket_bits      # buckets in use: 1 << bucket_bits (grown as keys are added)
    int32_t max_bucket_bits  # buckets allocated: 1 << max_bucket_bits
    int32_t nkeys
    int32_t max_keys
    int32_t nblocks
    int32_t max_blocks
    int64_t nentries
    int64_t resets

cdef extern from "search/transtable.h":
    void* dd_alloc_table(size_t n) nogil
    unsigned int dd_block_hits(const uint64_t* pat0, const uint64_t* pat1,
                               const uint8_t* kk0, const uint8_t* kk1, const int8_t* lo,
                               const int8_t* hi, int n, uint64_t d0, uint64_t d1,
                               int need) nogil
