# cython: language_level=3
"""C-level double-dummy search.

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

No Python object is touched inside the search: everything below ``cdef class Engine`` runs
without the GIL, except a check for pending signals every ``SIGNAL_CHECK_MASK + 1`` nodes
(``PyErr_CheckSignals``, which runs Python's handlers; they run in the main thread only).
When a handler raises (Ctrl-C), the search leaves at once with ``longjmp`` to the driver,
which restores the position saved before the search; the table keeps only entries of
completed subtrees, so it stays exact, and the exception propagates to the caller.
"""

import operator

from cpython.exc cimport PyErr_Occurred
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from *:
    """
    static inline int dd_popcount(unsigned int x) { return __builtin_popcount(x); }
    static inline int dd_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int dd_highest(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int dd_lowest(unsigned int x) { return __builtin_ctz(x); }
    static inline void dd_prefetch(const void* p) { __builtin_prefetch(p); }
    /* A large table array on 2 MiB boundaries, marked for transparent huge pages where
       the kernel offers them on request (Linux "madvise" mode): the table is probed at
       random, and 4 KiB pages miss the TLB on most probes of a large table.  The size is
       not rounded up (the last partial 2 MiB keeps small pages), memory is still only
       committed as it is touched, and free() releases it. */
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static inline void* dd_alloc_table(size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const size_t align = (size_t)2 << 20;
        void* p = NULL;
        if (n >= align) {
            if (posix_memalign(&p, align, n) != 0)
                return NULL;
            madvise(p, n & ~(align - 1), MADV_HUGEPAGE);    /* advice only: errors ignored */
            return p;
        }
    #endif
        return malloc(n);
    }
    #if defined(__AVX2__) || defined(__SSE2__)
    #include <immintrin.h>
    #endif
    /* Bit j set when entry j (< n) of a table block (8 entries, laid out by field) has
       the owners d0 / d1 on the cards it keeps and bounds that decide whether N-S reach
       need.  Without a branch per entry: entries of one key differ in unpredictable ways.
       The masks of the cards kept (2 k low bits of each suit's 32) come from kk0 / kk1. */
    static inline uint64_t dd_pair_mask(const uint8_t* kk) {
        return (((uint64_t)1 << kk[0]) - 1) | ((((uint64_t)1 << kk[1]) - 1) << 32);
    }
    static inline unsigned int dd_block_hits(const uint64_t* pat0, const uint64_t* pat1,
            const uint8_t* kk0, const uint8_t* kk1, const int8_t* lo, const int8_t* hi,
            int n, uint64_t d0, uint64_t d1, int need) {
        unsigned int m = 0;
        int j;
    #if defined(__AVX2__)
        __m256i D0 = _mm256_set1_epi64x((long long)d0), D1 = _mm256_set1_epi64x((long long)d1);
        __m256i one = _mm256_set1_epi32(1);
        for (j = 0; j < 8; j += 4) {
            __m256i m0 = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i*)(kk0 + 2 * j)))), one);
            __m256i m1 = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i*)(kk1 + 2 * j)))), one);
            __m256i x = _mm256_or_si256(
                _mm256_xor_si256(_mm256_and_si256(D0, m0),
                                 _mm256_loadu_si256((const __m256i*)(pat0 + j))),
                _mm256_xor_si256(_mm256_and_si256(D1, m1),
                                 _mm256_loadu_si256((const __m256i*)(pat1 + j))));
            x = _mm256_cmpeq_epi64(x, _mm256_setzero_si256());
            m |= (unsigned int)_mm256_movemask_pd(_mm256_castsi256_pd(x)) << j;
        }
    #else
        for (j = 0; j < 8; j++)
            m |= (unsigned int)((((d0 & dd_pair_mask(kk0 + 2 * j)) ^ pat0[j])
                                 | ((d1 & dd_pair_mask(kk1 + 2 * j)) ^ pat1[j])) == 0) << j;
    #endif
    #if defined(__SSE2__)
        {
            __m128i L = _mm_loadl_epi64((const __m128i*)lo), H = _mm_loadl_epi64((const __m128i*)hi);
            __m128i ok = _mm_or_si128(_mm_cmpgt_epi8(L, _mm_set1_epi8((char)(need - 1))),
                                      _mm_cmpgt_epi8(_mm_set1_epi8((char)need), H));
            m &= (unsigned int)_mm_movemask_epi8(ok);
        }
    #else
        {
            unsigned int b = 0;
            for (j = 0; j < 8; j++)
                b |= (unsigned int)((lo[j] >= need) | (hi[j] < need)) << j;
            m &= b;
        }
    #endif
        return m & ((1u << n) - 1u);
    }
    /* The k highest set bits of x (k <= popcount(x)). */
    #ifdef __BMI2__
    #include <immintrin.h>
    static inline unsigned int dd_top_bits(unsigned int x, int k) {
        return _pdep_u32(((1u << k) - 1) << (__builtin_popcount(x) - k), x);
    }
    static inline unsigned int dd_pext(unsigned int x, unsigned int m) { return _pext_u32(x, m); }
    static inline unsigned int dd_pdep(unsigned int x, unsigned int m) { return _pdep_u32(x, m); }
    #else
    static inline unsigned int dd_pext(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) {
            unsigned int low = m & (0u - m);
            if (x & low) r |= bit;
            bit <<= 1;
            m ^= low;
        }
        return r;
    }
    static inline unsigned int dd_pdep(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) {
            unsigned int low = m & (0u - m);
            if (x & bit) r |= low;
            bit <<= 1;
            m ^= low;
        }
        return r;
    }
    static inline unsigned int dd_top_bits(unsigned int x, int k) {
        unsigned int r = 0;
        while (k-- > 0) {
            unsigned int b = 1u << (31 - __builtin_clz(x));
            r |= b;
            x ^= b;
        }
        return r;
    }
    #endif
    """
    void dd_prefetch(const void* p) nogil
    void* dd_alloc_table(size_t n) nogil
    unsigned int dd_block_hits(const uint64_t* pat0, const uint64_t* pat1,
                               const uint8_t* kk0, const uint8_t* kk1, const int8_t* lo,
                               const int8_t* hi, int n, uint64_t d0, uint64_t d1,
                               int need) nogil
    int dd_popcount(unsigned int x) nogil
    int dd_popcount64(unsigned long long x) nogil
    int dd_highest(unsigned int x) nogil
    int dd_lowest(unsigned int x) nogil
    unsigned int dd_top_bits(unsigned int x, int k) nogil
    unsigned int dd_pext(unsigned int x, unsigned int m) nogil
    unsigned int dd_pdep(unsigned int x, unsigned int m) nogil


ctypedef int (*search_fn)(void*, int, int) noexcept nogil


cdef extern from *:
    """
    #include <setjmp.h>
    /* Run pending signal handlers; 1 if one raised (the exception stays set).  Out of
       line: the search's hot path carries only the node-counter test. */
    __attribute__((noinline, cold)) static int dd_signal_raised(void) {
        PyGILState_STATE st = PyGILState_Ensure();
        int r = PyErr_CheckSignals();
        PyGILState_Release(st);
        return r != 0;
    }
    __attribute__((noinline, cold, noreturn)) static void dd_leave(void* jump) {
        longjmp(*(jmp_buf*)jump, 1);
    }
    /* Run f(c, pos, guess) with a return point in *jump_slot; *aborted = 1 when the search
       left through dd_leave. */
    static int dd_run_search(void* c, void** jump_slot, int (*f)(void*, int, int),
                             int pos, int guess, int* aborted) {
        jmp_buf env;
        int v;
        *aborted = 0;
        *jump_slot = &env;
        if (setjmp(env)) {
            *jump_slot = NULL;
            *aborted = 1;
            return 0;
        }
        v = f(c, pos, guess);
        *jump_slot = NULL;
        return v;
    }
    """
    int dd_signal_raised() nogil
    void dd_leave(void* jump) nogil
    int dd_run_search(void* c, void** jump_slot, search_fn f, int pos, int guess,
                      int* aborted) nogil


cdef enum:
    SIGNAL_CHECK_MASK = (1 << 18) - 1    # signals are checked about every 50 ms of search


cdef int propagate_signal() except -1:
    """Re-raise the exception a signal handler raised inside the search."""
    if PyErr_Occurred() != NULL:
        return -1
    raise KeyboardInterrupt


# ---------------------------------------------------------------------------------------
# Transposition table
# ---------------------------------------------------------------------------------------

cdef int tt_init(TT* tt, int64_t memory_bytes) noexcept nogil:
    cdef int64_t per_key = sizeof(TTKey) + 2 * sizeof(int32_t)
    cdef int64_t budget_keys = memory_bytes // 5
    cdef int64_t budget_entries = memory_bytes - budget_keys
    cdef int bits = 10
    if budget_keys // per_key > 0x7FFFFFFF or budget_entries // sizeof(TTBlock) > 0x7FFFFFFF:
        return -1      # more keys or blocks than 32-bit indices address
    tt.max_keys = <int32_t>(budget_keys // per_key)
    if tt.max_keys < 1024:
        tt.max_keys = 1024
    while (1 << (bits + 1)) <= tt.max_keys and bits < 26:
        bits += 1
    tt.max_bucket_bits = bits
    tt.bucket_bits = bits if bits < START_BUCKET_BITS else START_BUCKET_BITS
    tt.max_blocks = <int32_t>(budget_entries // sizeof(TTBlock))
    if tt.max_blocks < 512:
        tt.max_blocks = 512
    tt.buckets = <int32_t*>dd_alloc_table(sizeof(int32_t) * (1 << tt.max_bucket_bits))
    tt.keys = <TTKey*>dd_alloc_table(sizeof(TTKey) * tt.max_keys)
    tt.blocks = <TTBlock*>dd_alloc_table(sizeof(TTBlock) * tt.max_blocks)
    tt.resets = 0
    if tt.buckets == NULL or tt.keys == NULL or tt.blocks == NULL:
        tt_free(tt)
        return -1
    tt_clear(tt)
    tt.resets = 0
    return 0


cdef void tt_free(TT* tt) noexcept nogil:
    free(tt.buckets)
    free(tt.keys)
    free(tt.blocks)
    tt.buckets = NULL
    tt.keys = NULL
    tt.blocks = NULL


cdef void tt_clear(TT* tt) noexcept nogil:
    if tt.max_bucket_bits < START_BUCKET_BITS:
        tt.bucket_bits = tt.max_bucket_bits
    else:
        tt.bucket_bits = START_BUCKET_BITS
    memset(tt.buckets, 0xFF, sizeof(int32_t) * (1 << tt.bucket_bits))
    tt.nkeys = 0
    tt.nentries = 0
    tt.nblocks = 0


cdef inline uint32_t tt_bucket(TT* tt, uint64_t lengths, int leader) noexcept nogil:
    cdef uint64_t h = (lengths ^ (<uint64_t>leader << 62)) * <uint64_t>0x9E3779B97F4A7C15
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9
    return <uint32_t>(h >> (64 - tt.bucket_bits))


cdef void tt_grow(TT* tt) noexcept nogil:
    """Double the buckets in use (a small bucket array stays in cache; it grows with the
    number of keys, up to the allocated size) and re-chain every key."""
    cdef int32_t ki
    cdef uint32_t b
    tt.bucket_bits += 1
    memset(tt.buckets, 0xFF, sizeof(int32_t) * (1 << tt.bucket_bits))
    for ki in range(tt.nkeys):
        b = tt_bucket(tt, tt.keys[ki].lengths, tt.keys[ki].leader)
        tt.keys[ki].next = tt.buckets[b]
        tt.buckets[b] = ki


cdef inline int32_t tt_find_key(TT* tt, uint64_t lengths, int leader) noexcept nogil:
    cdef int32_t ki = tt.buckets[tt_bucket(tt, lengths, leader)]
    while ki >= 0:
        if tt.keys[ki].lengths == lengths and tt.keys[ki].leader == leader:
            return ki
        ki = tt.keys[ki].next
    return -1


cdef inline int block_k(TTBlock* blk, int j, int s) noexcept nogil:
    """The number of top cards of suit ``s`` whose owners entry ``j`` of ``blk`` keeps."""
    return (blk.kk0[2 * j + s] if s < 2 else blk.kk1[2 * j + s - 2]) >> 1


cdef inline TTBlock* tt_find(TT* tt, int32_t ki, uint32_t* dist, int need,
                             int* jout) noexcept nogil:
    """The block holding the newest entry of key ``ki`` (-1: none) that matches ``dist``
    and decides whether N-S reach ``need`` (its index in ``jout``), or NULL."""
    cdef int32_t bi
    cdef TTBlock* blk
    cdef unsigned int m
    cdef uint64_t d0 = <uint64_t>dist[0] | (<uint64_t>dist[1] << 32)
    cdef uint64_t d1 = <uint64_t>dist[2] | (<uint64_t>dist[3] << 32)
    if ki < 0:
        return NULL
    bi = tt.keys[ki].first
    while bi >= 0:
        blk = &tt.blocks[bi]
        m = dd_block_hits(blk.pat0, blk.pat1, blk.kk0, blk.kk1, blk.lo, blk.hi, blk.n,
                          d0, d1, need)
        if m:
            jout[0] = dd_highest(m)
            return blk
        bi = blk.next
    return NULL


cdef int tt_lookup(Ctx* c, uint64_t lengths, uint32_t* dist, int need,
                   uint16_t* wr) noexcept nogil:
    """1: N-S surely reach ``need``; 0: surely not; -1: no answer.  Sets ``wr``."""
    cdef TT* tt = &c.tt
    cdef int32_t ki = tt_find_key(tt, lengths, c.leader)
    cdef int j, f, s, i
    cdef TTBlock* blk = tt_find(tt, ki, dist, need, &j)
    cdef TTBlock* fb
    cdef uint64_t t64
    cdef int8_t t8
    if blk == NULL:
        return -1
    for s in range(4):
        # the top k cards in play of suit s
        wr[s] = <uint16_t>dd_top_bits(c.agg[c.tl][s], block_k(blk, j, s))
    s = 1 if blk.lo[j] >= need else 0
    # move the entry to the front (newest place) of its key: later probes of the key find
    # it first
    fb = &tt.blocks[tt.keys[ki].first]
    f = fb.n - 1
    if blk != fb or j != f:
        t64 = fb.pat0[f]; fb.pat0[f] = blk.pat0[j]; blk.pat0[j] = t64
        t64 = fb.pat1[f]; fb.pat1[f] = blk.pat1[j]; blk.pat1[j] = t64
        for i in range(2):
            t8 = fb.kk0[2 * f + i]; fb.kk0[2 * f + i] = blk.kk0[2 * j + i]; blk.kk0[2 * j + i] = t8
            t8 = fb.kk1[2 * f + i]; fb.kk1[2 * f + i] = blk.kk1[2 * j + i]; blk.kk1[2 * j + i] = t8
        t8 = fb.lo[f]; fb.lo[f] = blk.lo[j]; blk.lo[j] = t8
        t8 = fb.hi[f]; fb.hi[f] = blk.hi[j]; blk.hi[j] = t8
    return s


cdef int tt_peek(Ctx* c, uint64_t lengths, uint32_t* dist, int need) noexcept nogil:
    """tt_lookup without its side effects (no relied-on cards, no reordering): 1 N-S
    surely reach ``need``, 0 surely not, -1 no answer."""
    cdef int j
    cdef TTBlock* blk = tt_find(&c.tt, tt_find_key(&c.tt, lengths, c.leader), dist, need, &j)
    if blk == NULL:
        return -1
    return 1 if blk.lo[j] >= need else 0


cdef void tt_store(Ctx* c, uint64_t lengths, uint32_t* dist, int need, int success,
                   uint16_t* wr) noexcept nogil:
    """Add the bound found for the position of key ``lengths`` (leader ``c.leader``) and
    owners ``dist`` as a new entry.  No search for an entry with the same owners: such a
    duplicate (another bound of the same position) is rare and both stay exact; the scan
    for it cost more than the duplicates do (benchmarks/NOTES.md)."""
    cdef TT* tt = &c.tt
    cdef int32_t ki, bi
    cdef uint32_t b
    cdef TTBlock* blk
    cdef int k[4]
    cdef uint32_t pat[4]
    cdef int s, lo, hi, j
    cdef uint16_t a
    for s in range(4):
        if wr[s]:
            a = c.agg[c.tl][s] & ~(<uint16_t>((1 << dd_lowest(wr[s])) - 1))
            k[s] = dd_popcount(a)
        else:
            k[s] = 0
        pat[s] = dist[s] & ((<uint32_t>1 << (2 * k[s])) - 1)
    if success:
        lo = need
        hi = c.tl
    else:
        lo = 0
        hi = need - 1
    ki = tt_find_key(tt, lengths, c.leader)
    if ki < 0 and tt.nkeys >= tt.max_keys:
        tt_clear(tt)
        tt.resets += 1
    if ki >= 0 and tt.keys[ki].first >= 0 and tt.blocks[tt.keys[ki].first].n < BLOCK_ENTRIES:
        blk = &tt.blocks[tt.keys[ki].first]
    else:
        if tt.nblocks >= tt.max_blocks:
            tt_clear(tt)
            tt.resets += 1
            ki = -1
        if ki < 0:
            if tt.nkeys >= (2 << tt.bucket_bits) and tt.bucket_bits < tt.max_bucket_bits:
                tt_grow(tt)
            ki = tt.nkeys
            tt.nkeys += 1
            b = tt_bucket(tt, lengths, c.leader)
            tt.keys[ki].lengths = lengths
            tt.keys[ki].leader = c.leader
            tt.keys[ki].first = -1
            tt.keys[ki].next = tt.buckets[b]
            tt.buckets[b] = ki
        bi = tt.nblocks
        tt.nblocks += 1
        blk = &tt.blocks[bi]
        # a new block is cleared: the probe reads all its places (and masks the unused)
        memset(blk, 0, sizeof(TTBlock))
        blk.next = tt.keys[ki].first
        tt.keys[ki].first = bi
    j = blk.n
    blk.n += 1
    tt.nentries += 1
    blk.pat0[j] = <uint64_t>pat[0] | (<uint64_t>pat[1] << 32)
    blk.pat1[j] = <uint64_t>pat[2] | (<uint64_t>pat[3] << 32)
    blk.kk0[2 * j] = 2 * k[0]
    blk.kk0[2 * j + 1] = 2 * k[1]
    blk.kk1[2 * j] = 2 * k[2]
    blk.kk1[2 * j + 1] = 2 * k[3]
    blk.lo[j] = lo
    blk.hi[j] = hi


# ---------------------------------------------------------------------------------------
# Search
# ---------------------------------------------------------------------------------------

cdef inline int beats(int suit, int rank, int wsuit, int wrank, int trump) noexcept nogil:
    if suit == wsuit:
        return rank > wrank
    return suit == trump


cdef inline uint64_t shape_key(Ctx* c) noexcept nogil:
    """The 16 suit lengths, 4 bits each at (seat * 4 + suit) * 4."""
    cdef int s, h
    cdef uint64_t L = 0
    for h in range(4):
        for s in range(4):
            L |= <uint64_t>dd_popcount(c.hold[h][s]) << (4 * (4 * h + s))
    return L


cdef void trick_dist(Ctx* c, uint32_t* dist) noexcept nogil:
    """Per suit, the owners (2 bits each, seat number) of the cards in play, top first."""
    cdef int s, r, h
    cdef uint32_t d
    cdef uint16_t a, hh
    for s in range(4):
        a = c.agg[c.tl][s]
        d = 0
        # North owns 0: only East, South and West add bits.  A card's place is the number
        # of cards in play above it.
        for h in range(1, 4):
            hh = c.hold[h][s]
            while hh:
                r = dd_lowest(hh)
                hh &= hh - 1
                d |= <uint32_t>h << (2 * dd_popcount(a >> (r + 1)))
        dist[s] = d


cdef inline void trick_key(Ctx* c) noexcept nogil:
    """The table's key and owners at this trick start into ``c.tshape[c.tl]`` and
    ``c.tdist[c.tl]``.  When those of the trick start before (``c.tl + 1``) were computed
    in this search, they are updated for the four cards of the trick between: each takes
    one off its holder's length and leaves the owners of its suit, where the cards below
    it move up one place.  Otherwise they are computed from the hands."""
    cdef int s, h, r, p, i, t = c.tl
    cdef uint64_t L
    cdef uint32_t low
    cdef uint32_t d[4]
    cdef uint16_t a[4]
    if t < 13 and c.tkey_ok[t + 1]:
        L = c.tshape[t + 1]
        for s in range(4):
            d[s] = c.tdist[t + 1][s]
            a[s] = c.agg[t + 1][s]
        for p in range(4):
            s = c.trick_suit[t + 1][p]
            r = c.trick_rank[t + 1][p]
            h = (c.tlead[t + 1] + p) & 3
            L -= <uint64_t>1 << (4 * (4 * h + s))
            i = dd_popcount(a[s] >> (r + 1))
            low = (<uint32_t>1 << (2 * i)) - 1
            d[s] = (d[s] & low) | ((d[s] >> 2) & ~low)
            a[s] &= ~(<uint16_t>(1 << r))
        c.tshape[t] = L
        for s in range(4):
            c.tdist[t][s] = d[s]
    else:
        c.tshape[t] = shape_key(c)
        trick_dist(c, c.tdist[t])
    c.tlead[t] = c.leader
    c.tkey_ok[t] = 1


cdef int last_trick(Ctx* c, int target, uint16_t* wr) noexcept nogil:
    """Every hand holds one card: play the last trick out."""
    cdef int i, seat, s, r, ws = -1, wrk = 0, wseat = 0, lead_suit = -1, count = 0
    cdef int suits[4]
    for i in range(4):
        seat = (c.leader + i) & 3
        for s in range(4):
            if c.hold[seat][s]:
                suits[i] = s
                r = dd_highest(c.hold[seat][s])
                if i == 0:
                    ws = s
                    wrk = r
                    wseat = seat
                elif beats(s, r, ws, wrk, c.trump):
                    ws = s
                    wrk = r
                    wseat = seat
                break
    for i in range(4):
        wr[i] = 0
        if suits[i] == ws:
            count += 1
    if count >= 2:
        wr[ws] = <uint16_t>(1 << wrk)
    return (c.ns_won + (1 if (wseat & 1) == 0 else 0)) >= target


cdef inline int opp_top(int k, int nl, int tl_, int nr, int tr) noexcept nogil:
    """The highest card the opponents may still hold in a suit after k rounds of it: an
    opponent with more than k cards (``nl``/``nr``) may keep its top card (``tl_``/``tr``),
    one with k or fewer is out (it had to follow).  0 when both are out."""
    cdef int t = 0
    if k < nl:
        t = tl_
    if k < nr and tr > t:
        t = tr
    return t


cdef int cash_tricks(Ctx* c, int L, uint16_t* qwr) noexcept nogil:
    """Tricks seat ``L``'s side surely wins by cashing ``L``'s top cards, ``L`` on lead.

    Counts, per suit, the cards of ``L`` higher than both opponents' cards, while ``L``'s
    partner can follow low (stops before the partner would have to overtake).  In a suit
    contract ``L`` first cashes top trumps; if the opponents may still hold trumps, only one
    side suit is counted, for no more rounds than a trump-holding opponent can follow.
    ``qwr`` receives the cards relied on (the counted winners).
    """
    cdef int lho = (L + 1) & 3, rho = (L + 3) & 3
    cdef int pard = (L + 2) & 3, r
    cdef int s, t = c.trump, total = 0, best = 0, bs = -1, k, rem_l, rem_r, n, oh
    cdef int m1, m2, lp, lh, kp, j
    cdef int ks[4]
    cdef uint16_t kmask[4]
    cdef uint16_t h, m, ph
    for s in range(4):
        qwr[s] = 0
        h = c.hold[L][s]
        if not h:
            ks[s] = 0
            kmask[s] = 0
            continue
        # each opponent's length and top card: after k rounds an opponent with more than
        # k cards may still hold its top card (it chooses what to keep); one with k or
        # fewer is out of the suit (it had to follow)
        rem_l = dd_popcount(c.hold[lho][s])
        rem_r = dd_popcount(c.hold[rho][s])
        oh = dd_highest(c.hold[lho][s]) if rem_l else 0
        n = dd_highest(c.hold[rho][s]) if rem_r else 0
        # L's cards from the top win while they beat every card an opponent may still
        # hold; partner plays low under each winner; stop before partner would have to
        # overtake (the lead would pass to partner and the rest could be stranded)
        # closed form: while both opponents follow (m1 rounds) L's cards must beat the
        # higher of their tops, then (to m2 rounds) the top of the longer one, then any card
        # wins; k = the first round that fails
        m1 = rem_l if rem_l < rem_r else rem_r
        m2 = rem_l + rem_r - m1
        k = dd_popcount(h >> ((oh if oh > n else n) + 1))
        if k >= m1:
            k = dd_popcount(h >> ((oh if rem_l > rem_r else n) + 1))
            if k >= m2:
                k = dd_popcount(h)
        # partner follows with its lowest card each round: stop before the round where it
        # is higher than L's card (it would have to overtake)
        ph = c.hold[pard][s]
        lp = dd_popcount(ph)
        lh = dd_popcount(h)
        kp = k if k < lp else lp
        for j in range(kp):
            if dd_pdep(<uint32_t>1 << j, ph) > dd_pdep(<uint32_t>1 << (lh - 1 - j), h):
                k = j
                break
        kmask[s] = <uint16_t>dd_top_bits(h, k)
        ks[s] = k
    if t == 4:
        for s in range(4):
            total += ks[s]
            qwr[s] = kmask[s]
        return total
    total = ks[t]
    qwr[t] = kmask[t]
    rem_l = dd_popcount(c.hold[lho][t]) - ks[t]
    rem_r = dd_popcount(c.hold[rho][t]) - ks[t]
    if rem_l <= 0 and rem_r <= 0:
        for s in range(4):
            if s != t:
                total += ks[s]
                qwr[s] = kmask[s]
        return total
    for s in range(4):
        if s == t or ks[s] == 0:
            continue
        k = ks[s]
        if rem_l > 0:
            n = dd_popcount(c.hold[lho][s])
            if n < k:
                k = n
        if rem_r > 0:
            n = dd_popcount(c.hold[rho][s])
            if n < k:
                k = n
        if k > best:
            best = k
            bs = s
    if bs >= 0:
        total += best
        qwr[bs] |= <uint16_t>dd_top_bits(kmask[bs], best)
    return total


cdef int trump_sure(Ctx* c, int X, uint16_t* qwr, int want) noexcept nogil:
    """Sure tricks of seat ``X``'s side from top trumps held in one hand: each trump of that
    hand higher than every trump of the other side wins the trick it is played to.  When
    there are more than ``want``, only the top ``want`` are relied on and counted."""
    cdef int t = c.trump, h, n, best = 0
    cdef uint16_t other, m
    qwr[0] = 0; qwr[1] = 0; qwr[2] = 0; qwr[3] = 0
    if t == 4:
        return 0
    other = c.hold[(X + 1) & 3][t] | c.hold[(X + 3) & 3][t]
    for h in range(2):
        m = c.hold[(X + 2 * h) & 3][t]
        if other:
            m &= <uint16_t>(~((1 << (dd_highest(other) + 1)) - 1))
        n = dd_popcount(m)
        if n > best:
            best = n
            qwr[t] = m
    while best > want and best > 0:
        qwr[t] &= qwr[t] - 1
        best -= 1
    return best


cdef inline int trim_winners(uint16_t* qwr, int excess, int keep_suit, int keep_top) noexcept nogil:
    """Drop up to ``excess`` counted winners, lowest first, from the suits other than
    ``keep_suit``; in suit ``keep_top`` the highest relied-on card stays.  Each counted
    winner of a suit is one of the top cards relied on there, so relying on fewer of them
    still proves that many fewer tricks.  Returns how many were dropped."""
    cdef int s, dropped = 0
    for s in range(4):
        if s == keep_suit:
            continue
        while excess > 0 and qwr[s]:
            if s == keep_top and (qwr[s] & (qwr[s] - 1)) == 0:
                break
            qwr[s] &= qwr[s] - 1
            excess -= 1
            dropped += 1
    return dropped


cdef int side_suit_tricks(Ctx* c, int L, int s, uint16_t* rel) noexcept nogil:
    """Tricks seat ``L``'s side surely wins in suit ``s`` alone, ``L`` on lead, playing it
    out with both hands' winners (no trumps on the opponents' side).

    A card is a winner when it beats the top card of every opponent still in the suit (after
    k rounds an opponent with k cards or fewer is out; one with more may keep its top card).
    Each round the hand on lead plays its highest card if it is a winner, its partner its
    lowest card (taking the lead if that card is higher); otherwise the hand on lead plays
    its lowest card under partner's highest winner, which takes the lead.  Counting stops at
    the first round neither applies.  ``rel`` gets the winners played (the cards relied on).
    """
    cdef int P = (L + 2) & 3, nl, nr, tl_, tr, thr, k = 0, r, lo, on_l = 1, sw
    cdef uint16_t hl = c.hold[L][s], hp = c.hold[P][s], cur, oth, tmp
    nl = dd_popcount(c.hold[(L + 1) & 3][s])
    nr = dd_popcount(c.hold[(L + 3) & 3][s])
    tl_ = dd_highest(c.hold[(L + 1) & 3][s]) if nl else 0
    tr = dd_highest(c.hold[(L + 3) & 3][s]) if nr else 0
    rel[0] = 0
    while True:
        cur = hl if on_l else hp
        oth = hp if on_l else hl
        if not cur:
            break
        thr = opp_top(k, nl, tl_, nr, tr)
        r = dd_highest(cur)
        sw = 0
        if r > thr:
            rel[0] |= <uint16_t>(1 << r)
            cur &= ~(<uint16_t>(1 << r))
            if oth:
                lo = dd_lowest(oth)
                oth &= ~(<uint16_t>(1 << lo))
                sw = lo > r             # partner overtook: it leads next
        elif oth and dd_highest(oth) > thr and dd_lowest(cur) < dd_highest(oth):
            r = dd_highest(oth)
            rel[0] |= <uint16_t>(1 << r)
            oth &= ~(<uint16_t>(1 << r))
            cur &= ~(<uint16_t>(1 << dd_lowest(cur)))
            sw = 1                      # partner won: it leads next
        else:
            break
        if sw:
            on_l = 1 - on_l
            tmp = cur
            cur = oth
            oth = tmp
        if on_l:
            hl = cur; hp = oth
        else:
            hp = cur; hl = oth
        k += 1
    return k


cdef inline void partner_follows(Ctx* c, int P, uint16_t* won, int skip, int* fol,
                                 int* dsc) noexcept nogil:
    """While the leader cashes the counted winners ``won`` (every suit but ``skip``), its
    partner ``P`` follows with ``fol`` cards and must discard ``dsc`` times (void)."""
    cdef int s, k, n
    fol[0] = 0
    dsc[0] = 0
    for s in range(4):
        if s == skip or won[s] == 0:
            continue
        k = dd_popcount(won[s])
        n = dd_popcount(c.hold[P][s])
        fol[0] += k if k < n else n
        dsc[0] += k - n if k > n else 0


cdef inline int ruff_rounds(Ctx* c, int leader, int ruffer, int s, int cross) noexcept nogil:
    """How many times ``leader`` can lead side suit ``s`` for its partner ``ruffer`` (void
    in it) to ruff, each ruff surely winning: while the opponents follow suit nobody can
    ruff over, so the rounds are bounded by the leader's cards of ``s``, the ruffer's
    trumps and the cards of ``s`` of each opponent holding a trump.  ``cross`` (-1: none)
    is the suit of a trick played before (the leader's side won it with partner's top
    card; both of the side spent a card of it, the opponents too where they held it).
    Only suit lengths decide it: the proof relies on no card's rank."""
    cdef int t = c.trump, x, n, m, k
    if s == t or s == cross or c.hold[ruffer][s] != 0:
        return 0
    n = dd_popcount(c.hold[leader][s])
    m = dd_popcount(c.hold[ruffer][t]) - (1 if cross == t else 0)
    if m < n:
        n = m
    for k in range(1, 4, 2):
        x = (leader + k) & 3
        if c.hold[x][t] != 0 and not (cross == t and dd_popcount(c.hold[x][t]) == 1):
            m = dd_popcount(c.hold[x][s])
            if m < n:
                n = m
    return n if n > 0 else 0


cdef inline void ruff_best(Ctx* c, int cross, int* n1, int* n2) noexcept nogil:
    """The most rounds of ruffs (``ruff_rounds``) over the suits: ``n1`` of the leader's
    leads for partner to ruff, ``n2`` of partner's leads for the leader to ruff."""
    cdef int L = c.leader, P = (c.leader + 2) & 3, s, x
    n1[0] = 0
    n2[0] = 0
    for s in range(4):
        x = ruff_rounds(c, L, P, s, cross)
        if x > n1[0]:
            n1[0] = x
        x = ruff_rounds(c, P, L, s, cross)
        if x > n2[0]:
            n2[0] = x


cdef inline int ruff_tricks(Ctx* c, int cross, uint16_t* qwr) noexcept nogil:
    """Sure tricks of the side on lead in a suit contract from a crossruff (0 when none):
    the leader leads a suit partner ruffs, partner one the leader ruffs, and so on, every
    ruff won while both opponents follow suit (or hold no trump).  With ``cross`` >= 0
    (the caller's low lead to partner's top card of that suit, won by partner) the
    crossruff may also start with that trick and partner's lead.  ``qwr`` gets the
    relied-on cards: partner's top card of ``cross``, or none."""
    cdef int L = c.leader, P = (c.leader + 2) & 3, n1, n2, k, best = 0, t = c.trump
    cdef unsigned int hl, hp
    # most positions have no side suit one hand of the side holds and the other, holding a
    # trump, is void in: nothing to count (tested without a branch per suit)
    hl = ((c.hold[L][0] != 0) | ((c.hold[L][1] != 0) << 1) | ((c.hold[L][2] != 0) << 2)
          | ((c.hold[L][3] != 0) << 3))
    hp = ((c.hold[P][0] != 0) | ((c.hold[P][1] != 0) << 1) | ((c.hold[P][2] != 0) << 2)
          | ((c.hold[P][3] != 0) << 3))
    if ((((hl & ~hp) * ((hp >> t) & 1)) | ((hp & ~hl) * ((hl >> t) & 1)))
            & ~(<unsigned int>1 << t)) == 0:
        return 0
    # the leader leads first: the count (2 n2 + 1 or 2 n1) grows with both
    ruff_best(c, -1, &n1, &n2)
    if n1 > 0:
        best = 2 * n2 + 1 if n1 > n2 else 2 * n1
        qwr[0] = 0; qwr[1] = 0; qwr[2] = 0; qwr[3] = 0
    if cross >= 0:
        # after the trick to partner's top card of cross, partner leads first
        ruff_best(c, cross, &n1, &n2)
        k = 1 + (2 * n1 + 1 if n2 > n1 else 2 * n2)
        if k > best:
            best = k
            qwr[0] = 0; qwr[1] = 0; qwr[2] = 0; qwr[3] = 0
            qwr[cross] = <uint16_t>(1 << dd_highest(c.hold[P][cross]))
    return best


cdef int quick_tricks(Ctx* c, uint16_t* qwr, int want) noexcept nogil:
    """Sure tricks of the leader's side: the leader's cashable winners, or a low lead to
    partner's winner followed by partner's cashable winners (with no trumps against them,
    after the leader's winners in the other suits, partner discarding on them), or top
    trumps in one hand.

    When the count reaches ``want``, ``qwr`` keeps only enough of the counted winners to
    prove ``want`` tricks (a smaller set of relied-on cards generalises better in the
    table); the return value is then the proven count.  A count below ``want`` only says
    that ``want`` is not proven (``qwr`` is then not meaningful).

    Every trick counted is won in a suit whose top card (among the cards in play) the
    side holds, and in that suit by a card of one hand or the other with both following:
    at most the longer of the two holdings.  When those bounds add up to less than
    ``want``, nothing is counted."""
    cdef int L = c.leader, P = (c.leader + 2) & 3, lho = (c.leader + 1) & 3
    cdef int rho = (c.leader + 3) & 3, s, t = c.trump, a, b = -1, ptop, cross = -1
    cdef int which = 0, fol, dsc, w, n, s2, keep = -1, no_opp_trumps, j
    cdef uint16_t bwr[4]
    cdef uint16_t lwr[4]
    cdef uint16_t sr
    cdef uint16_t hp, hl, opp
    a = 0
    for s in range(4):
        hl = c.hold[L][s]
        hp = c.hold[P][s]
        if ((hl | hp) >> dd_highest(c.agg[c.tl][s] | 1)) & 1:
            n = dd_popcount(hl)
            w = dd_popcount(hp)
            a += n if n > w else w
    if a < want:
        # tricks won in suits whose top card the side holds cannot reach it; ruffs may
        if t < 4 and want <= RUFF_WANT_MAX:
            return ruff_tricks(c, -1, qwr)
        return 0
    no_opp_trumps = t == 4 or (c.hold[lho][t] == 0 and c.hold[rho][t] == 0)
    a = cash_tricks(c, L, qwr)
    lwr[0] = qwr[0]; lwr[1] = qwr[1]; lwr[2] = qwr[2]; lwr[3] = qwr[3]
    for s in range(4):
        hp = c.hold[P][s]
        hl = c.hold[L][s]
        if hp == 0 or hl == 0:
            continue
        ptop = dd_highest(hp)
        opp = c.hold[lho][s] | c.hold[rho][s]
        if opp and dd_highest(opp) > ptop:
            continue
        if dd_lowest(hl) > ptop:
            continue
        if t < 4 and s != t and (
                (c.hold[lho][s] == 0 and c.hold[lho][t] != 0) or
                (c.hold[rho][s] == 0 and c.hold[rho][t] != 0)):
            continue
        cross = s
        break
    if cross >= 0:
        b = cash_tricks(c, P, bwr)
        if no_opp_trumps and a > dd_popcount(qwr[cross]):
            # notrump, or the opponents hold no trumps: L first cashes its own winners in
            # the other suits, then leads low to partner's top card of the crossing suit,
            # and partner cashes its winners there and in the suits where L counted none.
            # Partner follows low to L's winners (its lowest cards) and discards when void:
            # its discards come from cards it does not need (neither followed with nor
            # counted), then from its lowest winners, keeping the top card of the crossing
            # suit while one is left.  (DDS's QuickTricks also adds partner's winners
            # reached through an entry.)
            partner_follows(c, P, qwr, cross, &fol, &dsc)
            w = 0
            for s in range(4):
                if qwr[s] == 0 or s == cross:
                    w += dd_popcount(bwr[s])
            n = dsc - (c.tl - fol - w)
            if n < 0:
                n = 0
            j = a - dd_popcount(qwr[cross]) + w - n
            if j > b and j > a and w - n > 0:
                qwr[cross] = 0
                for s in range(4):
                    if qwr[s] == 0:
                        qwr[s] = bwr[s]
                a = j
                which = 1
                b = -1
        if b > a:
            bwr[cross] |= <uint16_t>(1 << dd_highest(c.hold[P][cross]))
            qwr[0] = bwr[0]; qwr[1] = bwr[1]; qwr[2] = bwr[2]; qwr[3] = bwr[3]
            a = b
            which = 1
    if a < want and no_opp_trumps:
        # one suit played out with both hands' winners, after the leader's own winners in
        # the other suits (partner keeps all its cards of that suit, so its discards on the
        # leader's winners must come from cards it neither follows with nor keeps)
        for s in range(4):
            if c.hold[P][s] == 0 or c.hold[L][s] == 0:
                continue
            n = side_suit_tricks(c, L, s, &sr)
            if n <= dd_popcount(lwr[s]):
                continue
            partner_follows(c, P, lwr, s, &fol, &dsc)
            w = 0
            for s2 in range(4):
                if s2 != s:
                    w += dd_popcount(lwr[s2])
            if c.tl - fol - dd_popcount(c.hold[P][s]) < dsc or w + n <= a:
                continue
            a = w + n
            for s2 in range(4):
                qwr[s2] = lwr[s2] if s2 != s else sr
            which = 2
            keep = s
    if t < 4:
        b = trump_sure(c, L, bwr, want)
        if b > a or (b >= want and a >= want):
            qwr[0] = bwr[0]; qwr[1] = bwr[1]; qwr[2] = bwr[2]; qwr[3] = bwr[3]
            return b
        if a < want <= RUFF_WANT_MAX:
            b = ruff_tricks(c, cross, qwr)
            if b >= want:
                return b
    if a > want:
        if which == 2:
            # the suit played out by both hands stays whole
            a -= trim_winners(qwr, a - want, keep, -1)
        else:
            # in a suit contract the trumps counted decide which side suits count: keep them
            a -= trim_winners(qwr, a - want, t if t < 4 else -1, cross if which == 1 else -1)
    return a


cdef int later_tricks(Ctx* c, int xneed, uint16_t* wr) noexcept nogil:
    """1 when the side on lead (X) surely cannot win ``xneed`` of the ``c.tl`` tricks left,
    with ``wr`` set to the cards relied on; 0 when this test cannot tell.

    Sure tricks of the other side (Y), the "later tricks" of DDS (B. Haglund, S. Hein):
    a side without trumps loses at least as many tricks as the longer trump holding of the
    other side; in notrump (or with no trumps left) a side that needs every trick cannot get
    more than, over the suits whose top card it holds, the longer of its two holdings
    (Y keeps each top card until it can win with it); in a suit contract Y's top trump, or
    its second trump when it sits over the top one or comes with the third, is a trick.
    """
    cdef int X = c.leader & 1, t = c.trump, s, h, sum_len = 0, n, top_seat, sec_seat
    cdef int third_seat, lx, ly, i, L, k, one
    cdef uint16_t a, m
    cdef uint16_t tops[3]
    cdef int seats[3]
    wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
    if t < 4 and c.agg[c.tl][t]:
        lx = dd_popcount(c.hold[X][t]) + dd_popcount(c.hold[X + 2][t])
        if lx == 0:
            # X has no trumps: every trump of Y's longer trump hand wins its own trick
            ly = dd_popcount(c.hold[1 - X][t])
            n = dd_popcount(c.hold[3 - X][t])
            if n > ly:
                ly = n
            return 1 if xneed > c.tl - ly else 0
        # the owners of the three highest trumps in play
        a = c.agg[c.tl][t]
        for i in range(3):
            seats[i] = -1
            tops[i] = 0
            if a:
                tops[i] = <uint16_t>(1 << dd_highest(a))
                a &= ~tops[i]
                for h in range(4):
                    if c.hold[h][t] & tops[i]:
                        seats[i] = h
        top_seat = seats[0]
        sec_seat = seats[1]
        third_seat = seats[2]
        if (top_seat & 1) != X:
            if xneed == c.tl:
                wr[t] = tops[0]
                return 1
            if (xneed == c.tl - 1 and sec_seat >= 0 and (sec_seat & 1) != X
                    and (dd_popcount(c.hold[sec_seat][t]) > 1
                         or dd_popcount(c.hold[(sec_seat + 2) & 3][t]) > 1)):
                wr[t] = tops[1]
                return 1
            return 0
        # X holds the top trump
        if xneed != c.tl or sec_seat < 0 or (sec_seat & 1) == X:
            return 0
        if dd_popcount(c.hold[sec_seat][t]) <= 1:
            return 0
        if top_seat == ((sec_seat + 3) & 3):
            # the second trump sits over the top one and is guarded
            wr[t] = tops[1]
            return 1
        if third_seat >= 0 and (third_seat & 1) != X:
            wr[t] = tops[2]
            return 1
        return 0
    # notrump, or no trumps left.  When the top card of every suit the leader holds is
    # with the other side, that side wins the first trick (whatever the leader leads), and
    # when one hand holds all those top cards it wins the trick and cashes the others: as
    # many tricks as the leader has suits (H. Xue's solver counts these).
    L = c.leader
    k = 0
    one = -1
    for s in range(4):
        if not c.hold[L][s]:
            continue
        m = <uint16_t>(1 << dd_highest(c.agg[c.tl][s]))
        if c.hold[(L + 1) & 3][s] & m:
            h = (L + 1) & 3
        elif c.hold[(L + 3) & 3][s] & m:
            h = (L + 3) & 3
        else:
            k = 0
            break
        wr[s] = m
        k += 1
        if one == -1:
            one = h
        elif one != h:
            one = -2
    if k > 0:
        if one < 0:
            k = 1
        if xneed > c.tl - k:
            return 1
    wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
    if xneed != c.tl:
        return 0
    for s in range(4):
        a = c.agg[c.tl][s]
        if not a:
            continue
        m = <uint16_t>(1 << dd_highest(a))
        if (c.hold[X][s] | c.hold[X + 2][s]) & m:
            n = dd_popcount(c.hold[X][s])
            h = dd_popcount(c.hold[X + 2][s])
            sum_len += n if n > h else h
        else:
            # Y's top card: relied on, unless its hand holds the whole suit
            for h in range(4):
                if c.hold[h][s] & m:
                    if c.hold[h][s] != a:
                        wr[s] = m
    if sum_len < xneed:
        return 1
    wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
    return 0


cdef enum:
    # weight per card the opponents may choose from when a suit is led (see gen_moves)
    LEAD_SIZE_W = 16
    # notrump leads: the same per card (a little more), low to partner's top card, and per
    # card of our side's length in the suit (benchmarks/NOTES.md: -6 % nodes on held-out
    # deals, no change in suit contracts)
    LEAD_SIZE_NT_W = 20
    LEAD_PARTNER_TOP_NT_W = 40
    LEAD_LENGTH_NT_W = 5
    # the table's bucket array starts with 1 << START_BUCKET_BITS buckets
    START_BUCKET_BITS = 14
    # leads: into / through a tenace; a ruff for either side; low from under our own top
    # card.  Discards: points per card of the suit's length
    LEAD_TENACE_W = 20
    LEAD_RUFF_W = 25
    LEAD_UNDER_W = 40
    DISCARD_LEN_W = 3
    # the cut-off cache: 1 << CUT_BITS slots of 4 bytes
    CUT_BITS = 16
    CUT_MASK = (1 << CUT_BITS) - 1
    # leads are probed (probe_lead) at trick starts with at least this many tricks left
    PROBE_TRICKS_LEFT = 10
    # crossruffs are counted for the side on lead when it needs at most this many tricks
    RUFF_WANT_MAX = 2

cdef extern from *:
    """
    #define CUT_CHECK 0xFFFFFF00u
    """
    const uint32_t CUT_CHECK

cdef inline int owner_of(Ctx* c, int s, int r) noexcept nogil:
    """The seat holding card (s, r), which must be held by someone."""
    return (((c.hold[1][s] >> r) & 1) | (((c.hold[2][s] >> r) & 1) << 1)
            | (((c.hold[3][s] >> r) & 1) * 3))


cdef inline void reverse_moves(Move* moves, int a, int b) noexcept nogil:
    """Reverse ``moves[a..b)``."""
    cdef Move tmp
    b -= 1
    while a < b:
        tmp = moves[a]
        moves[a] = moves[b]
        moves[b] = tmp
        a += 1
        b -= 1


cdef int gen_moves(Ctx* c, int pos, int seat, Move* moves, int* multi) noexcept nogil:
    """The legal moves of ``seat`` (one per group of equivalent cards), ordered heaviest
    first; ``multi`` is set when a group has more than one card."""
    cdef int n = 0, s, r, lead_suit = -1, first_suit, last_suit, i, j
    cdef int wsuit = 0, wrank = 0, wseat = 0, partner_wins = 0, partner_safe, mine
    cdef int max_next = 0, partner_over = 0, k, o1, o2, o3, size, force_rank = -1, size_w, pv
    cdef int top_of[4]
    cdef int w_top[4]
    cdef int w_low[4]
    cdef uint16_t h, a, held
    cdef uint32_t x, tops, lows
    cdef Move tmp
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pard = (seat + 2) & 3
    cdef int trump = c.trump
    if pos > 0:
        lead_suit = c.trick_suit[c.tl][0]
        i = c.win_idx[c.tl][pos - 1]
        wsuit = c.trick_suit[c.tl][i]
        wrank = c.trick_rank[c.tl][i]
        wseat = (c.leader + i) & 3
        partner_wins = (wseat & 1) == (seat & 1)
    if lead_suit >= 0 and c.hold[seat][lead_suit]:
        first_suit = lead_suit
        last_suit = lead_suit
    else:
        first_suit = 0
        last_suit = 3
    for s in range(first_suit, last_suit + 1):
        h = c.hold[seat][s]
        if not h:
            continue
        # the hand's cards among the cards in play (bit i: the i-th lowest in play); each
        # run of ones is a group, generated from the highest
        a = c.agg[c.tl][s]
        x = dd_pext(h, a)
        tops = x & ~(x >> 1)
        lows = x & ~(x << 1)
        multi[0] |= tops != lows
        while tops:
            r = dd_highest(tops)
            tops ^= <uint32_t>1 << r
            j = dd_highest(lows & ((<uint32_t>2 << r) - 1))
            lows ^= <uint32_t>1 << j
            moves[n].suit = s
            moves[n].group = <uint16_t>dd_pdep(((<uint32_t>2 << r) - 1) & ~((<uint32_t>1 << j) - 1), a)
            moves[n].rank = dd_lowest(moves[n].group)    # a group is played as its lowest card
            n += 1
    # move ordering weights
    if 0 < pos < 3 and lead_suit >= 0:
        # highest card of the lead suit still to come from the next hand; whether the
        # hand after it (our partner, at pos 1) beats everything so far and that card
        a = c.hold[(seat + 1) & 3][lead_suit]
        max_next = dd_highest(a) if a else 0
        a = c.hold[pard][lead_suit]
        partner_over = (pos == 1 and a != 0 and wsuit == lead_suit
                        and dd_highest(a) > wrank and dd_highest(a) > max_next)
    if n == 1:
        return 1
    # partner surely wins the trick, so a ruff would waste a trump: at fourth hand whenever
    # partner's card wins so far; at third hand when fourth hand cannot beat partner's card
    # (it follows lower, or is void with no trump); at second hand when partner, fourth,
    # beats the card led and third hand's top card and third hand must follow (or has no
    # trump).  Ruffing partner's winner went first at third hand before (list100 deal 13:
    # 54 trick nodes where the ruff needs 1; benchmarks/NOTES.md)
    # (only a void hand's ruffs use it; max_next is 0 when fourth hand is void)
    partner_safe = partner_wins
    if lead_suit >= 0 and c.hold[seat][lead_suit] == 0:
        if pos == 2 and partner_wins:
            if max_next:
                partner_safe = max_next < wrank
            else:
                partner_safe = (trump == 4 or lead_suit == trump
                                or c.hold[(seat + 1) & 3][trump] == 0)
        elif pos == 1 and partner_over and (trump == 4 or max_next != 0
                                            or c.hold[(seat + 1) & 3][trump] == 0):
            partner_safe = 1
    if pos & 1 and c.hold[seat][lead_suit]:
        # following suit second or fourth: the groups that win (second hand: that also beat
        # third hand, unless partner beats them all) cheapest first, then the others lowest
        # first.  The groups come highest first, so that is each part reversed: the order
        # the weights below give (winners 81 - r / 80 - r, the others 40 - rank).
        k = 15
        if wsuit == lead_suit:
            if pos == 1 and not partner_over:
                k = wrank if wrank > max_next else max_next
            elif pos == 3 and not partner_wins:
                k = wrank
        j = 0
        while j < n and dd_highest(moves[j].group) > k:
            j += 1
        reverse_moves(moves, 0, j)
        reverse_moves(moves, j, n)
        return n
    if pos == 2 and c.hold[seat][lead_suit]:
        # third hand cannot beat fourth hand's top card: the cheapest card that beats
        # fourth hand's second group and the card winning so far forces out the top (DDS's
        # RankForcesAce idea); not when the trick is ruffed, nor when partner's card already
        # beats that group.  (Before, the card winning so far counted only when it was
        # below that group, and a ruffed trick took the forcing card first.)
        a = c.hold[(seat + 1) & 3][lead_suit]
        if a and dd_highest(a) > dd_highest(c.hold[seat][lead_suit]):
            held = (c.hold[0][lead_suit] | c.hold[1][lead_suit] | c.hold[2][lead_suit]
                    | c.hold[3][lead_suit])
            r = dd_highest(a)
            # fourth hand's top group: its cards with no other card in play between them
            while r > 2 and (held >> (r - 1)) & 1 and (a >> (r - 1)) & 1:
                r -= 1
            a &= <uint16_t>((1 << r) - 1)
            if a and wsuit == lead_suit and (dd_highest(a) > wrank or not partner_wins):
                k = dd_highest(a)
                if wrank > k:
                    k = wrank
                h = c.hold[seat][lead_suit] & <uint16_t>(~((1 << (k + 1)) - 1))
                if h:
                    force_rank = dd_lowest(h)
    if pos == 0:
        size_w = LEAD_SIZE_NT_W if trump == 4 else LEAD_SIZE_W
        for s in range(4):
            if not c.hold[seat][s]:
                continue
            a = c.agg[c.tl][s]
            top_of[s] = dd_highest(a)
            # smaller trees first: suits where the opponents have few cards to choose from
            # (a void opponent chooses among all its discards)
            k = dd_popcount(c.hold[lho][s])
            size = size_w * (k if k else c.tl)
            k = dd_popcount(c.hold[rho][s])
            size += size_w * (k if k else c.tl)
            pv = 0
            if c.hold[pard][s] == 0 and trump == 4:
                # in notrump a void partner also chooses among all its cards (and cannot
                # win the trick); not counted against the suit's top card (a winner cashed:
                # benchmarks/NOTES.md, -2 to -5 % nodes on notrump solves)
                pv = size_w * c.tl
                size += pv
            # a winner: cash it unless an opponent can ruff
            if (trump < 4 and s != trump and
                    ((c.hold[lho][s] == 0 and c.hold[lho][trump] != 0) or
                     (c.hold[rho][s] == 0 and c.hold[rho][trump] != 0))):
                w_top[s] = 20 - size
            else:
                w_top[s] = 100 + dd_popcount(c.hold[seat][s]) - (size - pv)
            if c.hold[pard][s] and dd_highest(c.hold[pard][s]) == top_of[s]:
                w_low[s] = 70 - size
                if trump == 4:
                    w_low[s] += LEAD_PARTNER_TOP_NT_W
                if (trump < 4 and s != trump and dd_popcount(c.hold[seat][s]) == 1
                        and c.hold[seat][trump] and dd_popcount(c.hold[pard][s]) > 1):
                    w_low[s] += LEAD_RUFF_W   # partner wins and gives us a ruff
                continue
            w_low[s] = 40 - size
            if trump == 4:
                # notrump: a suit of our side's length sets up long cards
                w_low[s] += LEAD_LENGTH_NT_W * (dd_popcount(c.hold[seat][s])
                                                + dd_popcount(c.hold[pard][s]))
            if (trump < 4 and s != trump and c.hold[pard][s] == 0
                    and c.hold[pard][trump] != 0):
                w_low[s] += 25
            if w_top[s] == 20 - size:
                w_low[s] -= LEAD_RUFF_W       # an opponent can ruff
            # owners of the top three cards of the suit
            o1 = owner_of(c, s, top_of[s])
            a &= ~(<uint16_t>(1 << top_of[s]))
            o2 = -1
            o3 = -1
            if a:
                o2 = owner_of(c, s, dd_highest(a))
                a &= ~(<uint16_t>(1 << dd_highest(a)))
                if a:
                    o3 = owner_of(c, s, dd_highest(a))
            if (o1 == rho or o2 == rho) and dd_popcount(c.hold[rho][s]) != 1:
                w_low[s] -= LEAD_TENACE_W      # leading into a tenace
            elif o1 == lho and o2 == pard:
                w_low[s] += LEAD_TENACE_W      # leading through to partner
            if o2 >= 0 and o3 >= 0 and (o2 & 1) == (seat & 1) and (o3 & 1) == (seat & 1):
                w_low[s] += LEAD_TENACE_W      # sets up a winner for our side
            if o1 == seat and (o2 != pard or trump < 4):
                # leading low from under our own top card (in notrump not when partner holds
                # the second card: the low lead to it keeps our top card as an entry)
                w_low[s] -= LEAD_UNDER_W
    for i in range(n):
        s = moves[i].suit
        r = dd_highest(moves[i].group)   # the group's top card
        if pos == 0:
            if r == top_of[s]:
                moves[i].weight = w_top[s]
            else:
                moves[i].weight = w_low[s] - moves[i].rank
        else:
            if s == lead_suit:
                if pos == 1:
                    # second hand: win only with a card that also beats third hand; low if
                    # fourth hand (partner) beats them both
                    if wsuit == s and r > wrank and r > max_next and not partner_over:
                        moves[i].weight = 81 - r
                    else:
                        moves[i].weight = 40 - moves[i].rank
                elif pos == 2:
                    # third hand: low when partner's card already beats fourth hand;
                    # otherwise the cheapest card that beats both the trick and fourth hand
                    if force_rank >= 0 and (moves[i].group >> force_rank) & 1:
                        moves[i].weight = 60
                    elif partner_wins and (wsuit != s or wrank > max_next):
                        moves[i].weight = 50 - moves[i].rank
                    elif (wsuit == s and r > wrank) and r > max_next:
                        moves[i].weight = 80 - r
                    elif not partner_wins and wsuit == s and r > wrank:
                        moves[i].weight = 45 - r
                    else:
                        moves[i].weight = 40 - moves[i].rank
                elif partner_wins:
                    moves[i].weight = 50 - moves[i].rank
                elif wsuit == s and r > wrank:
                    moves[i].weight = 80 - r
                else:
                    moves[i].weight = 40 - moves[i].rank
            elif s == trump:
                if partner_safe:
                    moves[i].weight = 5 - moves[i].rank
                elif wsuit != trump or moves[i].rank > wrank:
                    moves[i].weight = 70 - moves[i].rank
                else:
                    moves[i].weight = 2 - moves[i].rank
            else:
                # discard: low cards of long suits; keep a guarded second-best card and
                # a singleton top card (DDS's discard weights)
                k = dd_popcount(c.hold[seat][s])
                moves[i].weight = 30 - moves[i].rank + DISCARD_LEN_W * k
                if k <= 2:
                    a = c.hold[0][s] | c.hold[1][s] | c.hold[2][s] | c.hold[3][s]
                    r = dd_highest(a)               # the suit's top card
                    if k == 1 and moves[i].rank == r:
                        moves[i].weight -= 8
                    elif k == 2 and not (c.hold[seat][s] >> r) & 1:
                        a &= ~(<uint16_t>(1 << r))
                        if (c.hold[seat][s] >> dd_highest(a)) & 1:
                            moves[i].weight -= 6    # the guarded second-best card
    # insertion sort, heaviest first (stable: equal weights keep the generation order)
    for i in range(1, n):
        tmp = moves[i]
        j = i - 1
        while j >= 0 and moves[j].weight < tmp.weight:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = tmp
    return n


cdef inline int trump_length_cutoff(Ctx* c, int need) noexcept nogil:
    """Trump length at a trick start (N-S need ``need`` more tricks): each trump of a side's
    longer trump hand wins the trick it is played to unless an opponent's trump is in it,
    so that side surely wins the longer holding less all the opponents' trumps (H. Xue's
    solver counts these).  1 N-S surely reach ``need``, 0 surely not, -1 undecided.  Only
    lengths are relied on (no card)."""
    cdef int n, e, s, w, t = c.trump
    if t == 4:
        return -1
    n = dd_popcount(c.hold[0][t])
    e = dd_popcount(c.hold[1][t])
    s = dd_popcount(c.hold[2][t])
    w = dd_popcount(c.hold[3][t])
    if (n if n > s else s) - (e + w) >= need:
        return 1
    if c.tl - ((e if e > w else w) - (n + s)) < need:
        return 0
    return -1


cdef inline int sure_cutoff(Ctx* c, int need, uint16_t* wr) noexcept nogil:
    """Sure-trick tests at a trick start (N-S need ``need`` more tricks): 1 N-S surely reach
    it, 0 surely not, -1 undecided.  ``wr`` gets the cards a decision relied on."""
    cdef int r
    if (c.leader & 1) == 0:
        r = quick_tricks(c, wr, need)
        if r >= need:
            return 1
    else:
        r = quick_tricks(c, wr, c.tl - need + 1)
        if c.tl - r < need:
            return 0
    if c.trump < 4:
        # top trumps of the side not on lead
        if (c.leader & 1) == 0:
            r = trump_sure(c, (c.leader + 1) & 3, wr, c.tl - need + 1)
            if c.tl - r < need:
                return 0
        else:
            r = trump_sure(c, (c.leader + 1) & 3, wr, need)
            if r >= need:
                return 1
    if (c.leader & 1) == 0:
        if later_tricks(c, need, wr):
            return 0
    elif later_tricks(c, c.tl - need + 1, wr):
        return 1
    return -1


cdef int second_hand_sure(Ctx* c, int seat, int ywant, uint16_t* wr) noexcept nogil:
    """Second hand (``seat``) to play: does its side (Y) surely win ``ywant`` tricks among
    the tricks left (the current one included)?  1 yes (``wr`` set), 0 cannot tell.

    Y wins the current trick when it can ruff and the third hand cannot, or when its highest
    card of the suit led beats the card led and every card of the third hand (who cannot
    ruff).  In notrump the Y hand holding that card then keeps the lead: its second-best card
    of the suit if it also holds the next card, its top card in each other suit, and every
    card of a suit no other hand holds.  (The idea of DDS's QuickTricksSecondHand.)"""
    cdef int ss = c.trick_suit[c.tl][0], lr = c.trick_rank[c.tl][0], t = c.trump
    cdef int third = (seat + 1) & 3, fourth = (seat + 2) & 3, hh, q, s, top
    cdef uint16_t yh, a
    wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
    yh = c.hold[seat][ss] | c.hold[fourth][ss]
    if t < 4 and ss != t and ((c.hold[seat][ss] == 0 and c.hold[seat][t] != 0) or
                              (c.hold[fourth][ss] == 0 and c.hold[fourth][t] != 0)):
        # Y can ruff: a sure trick unless the third hand can ruff too
        if c.hold[third][ss] == 0 and c.hold[third][t] != 0:
            return 0
        return 1 if ywant <= 1 else 0
    if yh == 0:
        return 0
    top = dd_highest(yh)
    if top < lr or (c.hold[third][ss] and dd_highest(c.hold[third][ss]) > top):
        return 0
    if t < 4 and ss != t and c.hold[third][ss] == 0 and c.hold[third][t] != 0:
        return 0
    wr[ss] = <uint16_t>(1 << top)
    if ywant <= 1:
        return 1
    if t < 4:
        # top trumps of one Y hand that will not go on this trick win tricks of their own
        a = c.hold[(seat + 1) & 3][t] | c.hold[(seat + 3) & 3][t]
        for q in range(2):
            hh = seat if q == 0 else fourth
            if (c.hold[hh][ss] == 0 and ss != t and c.hold[hh][0] | c.hold[hh][1]
                    | c.hold[hh][2] | c.hold[hh][3] == c.hold[hh][t]):
                continue
            yh = c.hold[hh][t]
            if ss == t:
                yh &= ~(<uint16_t>(1 << top))
            if a:
                yh &= <uint16_t>(~((1 << (dd_highest(a) + 1)) - 1))
            if ss == t and yh and not (c.hold[hh][t] >> top) & 1 and yh == c.hold[hh][t]:
                # trumps led: this hand must follow with one of its top trumps
                yh &= yh - 1
            if dd_popcount(yh) + 1 >= ywant:
                while dd_popcount(yh) + 1 > ywant:
                    yh &= yh - 1
                wr[t] |= yh
                return 1
        wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
        return 0
    q = 1
    hh = seat if (c.hold[seat][ss] >> top) & 1 else fourth
    a = c.hold[0][ss] | c.hold[1][ss] | c.hold[2][ss] | c.hold[3][ss]
    if dd_highest(a) == top:
        a &= ~(<uint16_t>(1 << top))
        if a and (c.hold[hh][ss] >> dd_highest(a)) & 1:
            q += 1
            wr[ss] |= <uint16_t>(1 << dd_highest(a))
            if q >= ywant:
                return 1
    for s in range(4):
        if s == ss or c.hold[hh][s] == 0:
            continue
        a = c.hold[0][s] | c.hold[1][s] | c.hold[2][s] | c.hold[3][s]
        if a == c.hold[hh][s]:
            q += dd_popcount(a)
        elif (c.hold[hh][s] >> dd_highest(a)) & 1:
            q += 1
            wr[s] |= <uint16_t>(1 << dd_highest(a))
        else:
            continue
        if q >= ywant:
            return 1
    wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
    return 0


cdef inline uint64_t hand64(Ctx* c, int seat) noexcept nogil:
    """A seat's cards as one 64-bit mask (16 bits a suit)."""
    return (<uint64_t>c.hold[seat][0] | (<uint64_t>c.hold[seat][1] << 16)
            | (<uint64_t>c.hold[seat][2] << 32) | (<uint64_t>c.hold[seat][3] << 48))


cdef inline uint64_t cut_key(Ctx* c, int pos, int seat, int need) noexcept nogil:
    """Hash of what the card that cut off last time depends on most, for the cut-off cache
    (an idea of H. Xue's bridge solver; our own keys).  ``need``: N-S tricks still needed.

    Lead: the leader's hand, the parity of partner's suit lengths, ``need`` and, in a suit
    contract, the trump lengths of the other three hands.  Following suit: the cards of
    the suit led in play at the trick start, the card winning so far and the leader.
    Discarding or ruffing: the hand, who wins so far (notrump) or the winning card and
    ``need`` (suit contract).  Always the trump strain and the position in the trick."""
    cdef uint64_t k, x, h
    cdef int ls, i, p
    if pos == 0:
        p = (seat + 2) & 3
        k = hand64(c, seat)
        x = ((dd_popcount(c.hold[p][0]) & 1) | ((dd_popcount(c.hold[p][1]) & 1) << 1)
             | ((dd_popcount(c.hold[p][2]) & 1) << 2) | ((dd_popcount(c.hold[p][3]) & 1) << 3))
        x |= <uint64_t>need << 4
        if c.trump < 4:
            # the trump lengths of the other three hands (who can ruff)
            x |= <uint64_t>dd_popcount(c.hold[p][c.trump]) << 12
            x |= <uint64_t>dd_popcount(c.hold[(seat + 1) & 3][c.trump]) << 16
            x |= <uint64_t>dd_popcount(c.hold[(seat + 3) & 3][c.trump]) << 20
        x |= <uint64_t>seat << 10
    else:
        ls = c.trick_suit[c.tl][0]
        i = c.win_idx[c.tl][pos - 1]
        if c.hold[seat][ls]:
            k = (<uint64_t>c.agg[c.tl][ls]
                 | (<uint64_t>(c.trick_suit[c.tl][i] * 16 + c.trick_rank[c.tl][i]) << 16)
                 | (<uint64_t>c.leader << 24) | (<uint64_t>1 << 40))
            x = 1
        else:
            k = hand64(c, seat)
            if c.trump == 4:
                x = <uint64_t>((c.leader + i) & 3) << 4
            else:
                x = ((<uint64_t>(c.trick_suit[c.tl][i] * 16 + c.trick_rank[c.tl][i]) << 4)
                     | (<uint64_t>need << 12))
            x |= 2
    x |= (<uint64_t>pos << 20) | (<uint64_t>c.trump << 24)
    h = (k ^ (x * <uint64_t>0x9E3779B97F4A7C15)) * <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 31
    h *= <uint64_t>0x94D049BB133111EB
    h ^= h >> 29
    return h


cdef inline void cut_clear(Ctx* c) noexcept nogil:
    """Empty the cut-off cache."""
    memset(c.cut, 0, sizeof(uint32_t) << CUT_BITS)


cdef inline int cut_card(Ctx* c, int pos, int seat, uint64_t key) noexcept nogil:
    """The card (suit * 16 + rank) the cut-off cache holds for ``key`` when ``seat`` may
    play it now, else -1.  A slot keeps 24 check bits of the key and the card."""
    cdef uint32_t e = c.cut[key & CUT_MASK]
    cdef int s, r
    if ((e ^ <uint32_t>(key >> 32)) & CUT_CHECK) != 0 or (e & 0xFF) == 0:
        return -1
    s = (e >> 4) & 15
    r = e & 15
    if ((c.hold[seat][s] >> r) & 1) == 0:
        return -1
    if pos > 0 and s != c.trick_suit[c.tl][0] and c.hold[seat][c.trick_suit[c.tl][0]] != 0:
        return -1       # must follow suit
    return s * 16 + r


cdef int probe_lead(Ctx* c, int target, int s0, int r0) noexcept nogil:
    """Play the lead (s0, r0) at a trick start, then each next hand's card from the cut-off
    cache, and look at the next trick start: 1 when N-S surely reach ``target`` there
    (counting the trick: reached, or the table says so), 0 when surely not, -1 when not
    decided or a hand has no remembered card.  The position is left as it was; the table is
    only read."""
    cdef int pos, seat, f, res = -1, k, played = 1
    cdef int leader = c.leader, tl = c.tl, ns_won = c.ns_won
    cdef uint32_t dist[4]
    pos = play_card(c, 0, s0, r0)
    while pos != 0:
        seat = (c.leader + pos) & 3
        f = cut_card(c, pos, seat, cut_key(c, pos, seat, target - c.ns_won))
        if f < 0:
            break
        pos = play_card(c, pos, f >> 4, f & 15)
        played += 1
    if played == 4:
        c.lead_probes += 1
        if c.ns_won >= target:
            res = 1
        elif c.ns_won + c.tl < target:
            res = 0
        elif c.tl > 1:
            for k in range(4):
                c.agg[c.tl][k] = c.hold[0][k] | c.hold[1][k] | c.hold[2][k] | c.hold[3][k]
            trick_dist(c, dist)
            res = tt_peek(c, shape_key(c), dist, target - c.ns_won)
    c.leader = leader
    c.tl = tl
    c.ns_won = ns_won
    for pos in range(played):
        c.hold[(leader + pos) & 3][c.trick_suit[tl][pos]] ^= <uint16_t>(
            1 << c.trick_rank[tl][pos])
    return res


cdef void promote_probed(Ctx* c, int target, Move* moves, int n, int is_max) noexcept nogil:
    """Reorder the leads ``moves[0..n)`` at a trick start: those whose probe (probe_lead)
    shows the leader's side succeeding go first, each group keeping its order (the idea of
    H. Xue's solver: a look past the trick, cheap because the replies come from the cut-off
    cache)."""
    cdef Move hit[MAX_MOVES]
    cdef Move miss[MAX_MOVES]
    cdef int nh = 0, nm = 0, i
    for i in range(n):
        if probe_lead(c, target, moves[i].suit, moves[i].rank) == is_max:
            hit[nh] = moves[i]
            nh += 1
        else:
            miss[nm] = moves[i]
            nm += 1
    if nh == 0 or nm == 0:
        return
    for i in range(nh):
        moves[i] = hit[i]
    for i in range(nm):
        moves[nh + i] = miss[i]


cdef int ab(Ctx* c, int pos, int target, uint16_t* wr) noexcept nogil:
    """Can N-S win at least ``target - c.ns_won`` of the tricks left?  1 yes, 0 no.

    On return ``wr`` holds, per suit, the cards whose ownership the answer relied on.
    """
    cdef int seat, i, n, r, s, is_max, need = 0, w, idx, count, old_leader, old_ns
    cdef uint16_t cwr[4]
    cdef uint16_t acc[4]
    cdef int skip_below[4]
    cdef Move moves[MAX_MOVES]
    cdef uint64_t lengths = 0
    cdef uint64_t ck = 0
    cdef uint32_t* dist = NULL
    cdef int first, lazy = 0, j, m, multi = 0
    cdef uint16_t below, forced = 0
    c.nodes += 1
    if (c.nodes & SIGNAL_CHECK_MASK) == 0 and c.jump != NULL and (c.cancel or dd_signal_raised()):
        dd_leave(c.jump)
    if pos == 0:
        if c.ns_won >= target:
            wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
            return 1
        if c.ns_won + c.tl < target:
            wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
            return 0
        if c.tl == 1:
            return last_trick(c, target, wr)
        for s in range(4):
            c.agg[c.tl][s] = c.hold[0][s] | c.hold[1][s] | c.hold[2][s] | c.hold[3][s]
        need = target - c.ns_won
        # trump length first: it relies on no card
        r = trump_length_cutoff(c, need)
        if r >= 0:
            c.qtcuts += 1
            wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
            return r
        # the table before the sure tricks: it answers two thirds of its probes, and costs
        # less than the sure-trick count (see benchmarks/NOTES.md)
        if c.use_tt:
            trick_key(c)
            lengths = c.tshape[c.tl]
            dist = c.tdist[c.tl]
            c.probes += 1
            r = tt_lookup(c, lengths, dist, need, wr)
            if r >= 0:
                c.hits += 1
                return r
        # the cut-off cache's slot starts loading while the sure tricks are counted
        ck = cut_key(c, 0, c.leader, need)
        dd_prefetch(&c.cut[ck & CUT_MASK])
        r = sure_cutoff(c, need, wr)
        if r >= 0:
            c.qtcuts += 1
            return r
        seat = c.leader
    else:
        seat = (c.leader + pos) & 3
        # a single card of the suit led is forced: no cut-off cache, no move generation
        forced = c.hold[seat][c.trick_suit[c.tl][0]]
        if forced & (forced - 1):
            forced = 0
        if not forced:
            ck = cut_key(c, pos, seat, target - c.ns_won)
            dd_prefetch(&c.cut[ck & CUT_MASK])
        if pos == 1:
            if (seat & 1) == 0:
                if second_hand_sure(c, seat, target - c.ns_won, wr):
                    c.qtcuts += 1
                    return 1
            elif second_hand_sure(c, seat, c.tl - (target - c.ns_won) + 1, wr):
                c.qtcuts += 1
                return 0
    is_max = (seat & 1) == 0
    # The card that cut off in a similar position (the cut-off cache) is tried first, before
    # the other cards are generated and ordered: most nodes cut off with their first card.
    if forced:
        moves[0].suit = c.trick_suit[c.tl][0]
        moves[0].rank = dd_lowest(forced)
        moves[0].group = forced
        n = 1
        first = -2
    else:
        first = cut_card(c, pos, seat, ck)
    if first >= 0:
        s = first >> 4
        r = first & 15
        # play the lowest card of its group (cards adjacent among those in play), as
        # gen_moves does
        while True:
            below = c.agg[c.tl][s] & <uint16_t>((1 << r) - 1)
            if below == 0 or not (c.hold[seat][s] >> dd_highest(below)) & 1:
                break
            r = dd_highest(below)
        moves[0].suit = s
        moves[0].rank = r
        moves[0].group = <uint16_t>(1 << r)
        n = 1
        lazy = 1
        c.cut_tries += 1
    elif first == -1:
        n = gen_moves(c, pos, seat, moves, &multi)
        if pos == 0 and c.tl >= PROBE_TRICKS_LEFT and n > 1:
            promote_probed(c, target, moves, n, is_max)
    acc[0] = 0; acc[1] = 0; acc[2] = 0; acc[3] = 0
    skip_below[0] = 0; skip_below[1] = 0; skip_below[2] = 0; skip_below[3] = 0
    for i in range(MAX_MOVES):
        if i == 1 and lazy:
            # the remembered card did not cut off: generate and order the moves, and drop
            # the group already searched
            lazy = 0
            m = gen_moves(c, pos, seat, &moves[1], &multi)
            for j in range(1, m + 1):
                if moves[j].suit == moves[0].suit and (moves[j].group >> moves[0].rank) & 1:
                    moves[0] = moves[j]
                    while j < m:
                        moves[j] = moves[j + 1]
                        j += 1
                    break
            n = m
            if pos == 0 and c.tl >= PROBE_TRICKS_LEFT and n > 2:
                promote_probed(c, target, &moves[1], n - 1, is_max)
        if i >= n:
            break
        s = moves[i].suit
        if moves[i].rank < skip_below[s]:
            continue
        c.hold[seat][s] ^= <uint16_t>(1 << moves[i].rank)
        c.trick_suit[c.tl][pos] = s
        c.trick_rank[c.tl][pos] = moves[i].rank
        if pos == 0:
            c.win_idx[c.tl][0] = 0
        else:
            idx = c.win_idx[c.tl][pos - 1]
            if beats(s, moves[i].rank, c.trick_suit[c.tl][idx], c.trick_rank[c.tl][idx], c.trump):
                c.win_idx[c.tl][pos] = pos
            else:
                c.win_idx[c.tl][pos] = idx
        if pos == 3:
            idx = c.win_idx[c.tl][3]
            w = (c.leader + idx) & 3
            old_leader = c.leader
            old_ns = c.ns_won
            c.leader = w
            c.tl -= 1
            if (w & 1) == 0:
                c.ns_won += 1
            c.trick_nodes += 1
            r = ab(c, 0, target, cwr)
            c.tl += 1
            c.leader = old_leader
            c.ns_won = old_ns
            w = c.trick_suit[c.tl][idx]
            count = ((c.trick_suit[c.tl][0] == w) + (c.trick_suit[c.tl][1] == w)
                     + (c.trick_suit[c.tl][2] == w) + (c.trick_suit[c.tl][3] == w))
            if count >= 2:
                cwr[c.trick_suit[c.tl][idx]] |= <uint16_t>(1 << c.trick_rank[c.tl][idx])
        else:
            r = ab(c, pos + 1, target, cwr)
        c.hold[seat][s] ^= <uint16_t>(1 << moves[i].rank)
        if r == is_max:
            c.cut_at[pos][i if i < 3 else 3] += 1
            if lazy:
                c.cut_hits += 1
            elif not forced:
                c.cut[ck & CUT_MASK] = ((<uint32_t>(ck >> 32) & CUT_CHECK)
                                        | <uint32_t>(s * 16 + moves[i].rank))
            wr[0] = cwr[0]; wr[1] = cwr[1]; wr[2] = cwr[2]; wr[3] = cwr[3]
            if pos == 0 and c.use_tt:
                tt_store(c, lengths, dist, need, r, wr)
            return r
        acc[0] |= cwr[0]; acc[1] |= cwr[1]; acc[2] |= cwr[2]; acc[3] |= cwr[3]
        # rank irrelevance: the answer relied on no card of the suit below T (the lowest
        # relied-on card; none at all: T = 15).  If this card is below T, every card of
        # this hand below T is interchangeable with it (the child positions differ only in
        # cards the answer did not rely on), higher or lower than it.
        w = dd_lowest(cwr[s]) if cwr[s] else 15
        if moves[i].rank < w and w > skip_below[s]:
            skip_below[s] = w
    # A group searched through its lowest card stands for its other cards only while they
    # stay adjacent: when the relied-on cards of the suit reach into the group but not down
    # to its lowest card, rely on the lowest card too (groups above every relied-on card keep
    # their ownership; groups wholly below are small cards, all equivalent).  Highest group
    # first, since each addition lowers the suit's threshold.  (At most one group of a suit
    # can straddle it.)  Only nodes with a group of several cards have anything to do.
    if multi:
        for i in range(n):
            s = moves[i].suit
            if (moves[i].group & (moves[i].group - 1)) and acc[s]:
                if (dd_highest(moves[i].group) >= dd_lowest(acc[s])
                        and moves[i].rank < dd_lowest(acc[s])):
                    acc[s] |= <uint16_t>(1 << moves[i].rank)
    c.fails[pos] += 1
    wr[0] = acc[0]; wr[1] = acc[1]; wr[2] = acc[2]; wr[3] = acc[3]
    r = 1 - is_max
    if pos == 0 and c.use_tt:
        tt_store(c, lengths, dist, need, r, wr)
    return r


cdef inline void start_search(Ctx* c) noexcept nogil:
    """Forget the trick-start keys of earlier searches at the root's level and the one
    above (``trick_key`` builds on them)."""
    c.tkey_ok[c.tl] = 0
    c.tkey_ok[c.tl + 1] = 0


cdef int ns_value(Ctx* c, int pos, int guess) noexcept nogil:
    """Exact N-S tricks among the ``c.tl`` tricks left (current one included), from the
    position with ``pos`` cards of the current trick played.  ``c.ns_won`` must be 0."""
    cdef int lo = 0, hi = c.tl, t
    cdef uint16_t wr[4]
    start_search(c)
    if pos == 0:
        for t in range(4):
            c.agg[c.tl][t] = c.hold[0][t] | c.hold[1][t] | c.hold[2][t] | c.hold[3][t]
    t = guess
    while lo < hi:
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        if ab(c, pos, t, wr):
            lo = t
            t = t + 1
        else:
            hi = t - 1
    return lo


cdef int estimate_ns(Ctx* c, int pos) noexcept nogil:
    """A first guess at N-S's tricks among the ``c.tl`` tricks left (the current one
    included), for the driver's first target, from the cards held at the start of the
    current trick (the ``pos`` cards already played to it given back to their players): a
    least-squares fit on the 10,000 DD results of tests/data/dd_tables.jsonl (500 deals x
    20) of N-S tricks against N-S's share of the high-card points (A 4, K 3, Q 2, J 1) and,
    in a suit contract, of the trumps, plus the lead.  Rounded, its mean error there is 0.92
    tricks (the middle value: 2.29).  Partway through a trick it replaced the middle value
    (benchmarks/NOTES.md: -4 to -6 % nodes on 1,400 such single solves)."""
    cdef int h, s, r, ns_hcp = 0, all_hcp = 0, p, ns_t = 0, all_t = 0, i
    cdef double est, fit
    cdef uint16_t held[4][4]
    for h in range(4):
        for s in range(4):
            held[h][s] = c.hold[h][s]
    for i in range(pos):
        held[(c.leader + i) & 3][c.trick_suit[c.tl][i]] |= <uint16_t>(1 << c.trick_rank[c.tl][i])
    for h in range(4):
        for s in range(4):
            for r in range(11, 15):
                if (held[h][s] >> r) & 1:
                    p = r - 10
                    all_hcp += p
                    if (h & 1) == 0:
                        ns_hcp += p
    est = 0.5055 * c.tl + 0.415 * (ns_hcp - 0.5 * all_hcp)
    if c.trump < 4:
        for h in range(4):
            p = dd_popcount(held[h][c.trump])
            all_t += p
            if (h & 1) == 0:
                ns_t += p
        fit = ns_t - 0.5 * all_t
        est += 1.489 * fit - 0.16 * fit * (fit if fit > 0 else -fit)
    else:
        est += 0.057
    est += 0.272 if (c.leader & 1) == 0 else -0.272
    # rounded up, a further trick when East-West lead: a first target above the result
    # (a failing search first) measured cheaper than one below it
    est += 0.5 if (c.leader & 1) == 0 else 1.5
    r = <int>est if est > 0 else 0
    if r > c.tl:
        r = c.tl
    return r


cdef int ns_value_v(void* c, int pos, int guess) noexcept nogil:
    return ns_value(<Ctx*>c, pos, guess)


cdef int ns_reach_v(void* cp, int pos, int target) noexcept nogil:
    """1 when N-S can win ``target`` of the tricks left (current one included), else 0."""
    cdef Ctx* c = <Ctx*>cp
    cdef uint16_t wr[4]
    cdef int s
    start_search(c)
    if pos == 0:
        for s in range(4):
            c.agg[c.tl][s] = c.hold[0][s] | c.hold[1][s] | c.hold[2][s] | c.hold[3][s]
    return ab(c, pos, target, wr)



cdef int play_card(Ctx* c, int pos, int suit, int rank) noexcept nogil:
    """Make one card at ``pos``; returns the new pos (0 after a completed trick)."""
    cdef int idx, w
    cdef int seat = (c.leader + pos) & 3
    c.hold[seat][suit] ^= <uint16_t>(1 << rank)
    c.trick_suit[c.tl][pos] = suit
    c.trick_rank[c.tl][pos] = rank
    if pos == 0:
        c.win_idx[c.tl][0] = 0
    else:
        idx = c.win_idx[c.tl][pos - 1]
        if beats(suit, rank, c.trick_suit[c.tl][idx], c.trick_rank[c.tl][idx], c.trump):
            c.win_idx[c.tl][pos] = pos
        else:
            c.win_idx[c.tl][pos] = idx
    if pos < 3:
        return pos + 1
    w = (c.leader + c.win_idx[c.tl][3]) & 3
    c.leader = w
    c.tl -= 1
    if (w & 1) == 0:
        c.ns_won += 1
    return 0


# ---------------------------------------------------------------------------------------
# Python-facing engine
# ---------------------------------------------------------------------------------------

def _int_arg(value, str name):
    """``value`` as a Python int for an Engine argument: an int or any integer type
    (``operator.index``); a bool, float, string or None raises TypeError."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return operator.index(value)


def _guess_arg(value):
    """A driver's first target as an int: -1 (none) up to 13; an integer outside is
    clamped (any guess gives the same answer).

    :raises TypeError: for a value that is not an integer (a bool or a float included)."""
    value = _int_arg(value, "guess")
    return -1 if value < 0 else (13 if value > 13 else value)


cdef class Engine:
    """Owns one search context and its transposition table.

    Not for sharing between threads: use one Engine per thread.  The GIL is released while
    searching; a call made while another thread searches on the same Engine raises
    RuntimeError instead of corrupting the search.
    Table entries depend on the trump strain only, so they stay valid across positions and
    deals of the same strain; :meth:`set_position` clears the table (and the cut-off cache,
    the cards that last cut off, kept to order the moves) when the strain changes, and the
    cut-off cache alone when the position is of another deal.

    ``Engine(memory_bytes=256 MiB, use_tt=True)``: the table's memory cap in bytes (an
    integer, at least 1 MiB).

    :raises TypeError: if ``memory_bytes`` is not an integer.
    :raises ValueError: if it is below 1 MiB.
    :raises MemoryError: if the table cannot be allocated.
    """

    cdef Ctx ctx
    cdef int pos            # cards of the current trick already played at the root
    cdef int has_table
    cdef int busy           # a search runs (without the GIL) on this engine
    cdef int has_position   # set_position has loaded a position
    cdef uint64_t last_held[4]   # per seat, the cards of the last position loaded
    cdef public int64_t memory_bytes

    def __cinit__(self, memory_bytes=256 * 1024 * 1024, bint use_tt=True):
        memset(&self.ctx, 0, sizeof(Ctx))
        memory_bytes = operator.index(memory_bytes)    # TypeError for a float
        if memory_bytes < 1024 * 1024:
            raise ValueError(f"memory_bytes must be at least 1 MiB, got {memory_bytes}")
        if memory_bytes >= (1 << 62):
            raise MemoryError(f"cannot allocate a transposition table of {memory_bytes} bytes")
        self.memory_bytes = memory_bytes
        if tt_init(&self.ctx.tt, memory_bytes) != 0:
            raise MemoryError(f"cannot allocate a transposition table of {memory_bytes} bytes "
                              "(too large for this machine, or beyond the table's 32-bit "
                              "indices)")
        self.has_table = 1
        self.ctx.use_tt = 1 if use_tt else 0
        self.ctx.cut = <uint32_t*>malloc(sizeof(uint32_t) << CUT_BITS)
        if self.ctx.cut == NULL:
            raise MemoryError("cannot allocate the cut-off cache")
        cut_clear(&self.ctx)
        self.ctx.trump = -1

    def __dealloc__(self):
        free(self.ctx.cut)
        self.ctx.cut = NULL
        if self.has_table:
            tt_free(&self.ctx.tt)
            self.has_table = 0

    def clear(self):
        """Empty the transposition table and the cut-off cache."""
        self._check_idle()
        tt_clear(&self.ctx.tt)
        cut_clear(&self.ctx)

    def cancel(self):
        """Ask the search running on this engine (in any thread) to stop: it raises
        KeyboardInterrupt within about 50 ms, as on Ctrl-C, and so does every later search
        until :meth:`clear_cancel`.  Safe to call from another thread while a search runs
        (:func:`ddsolver.solver.dd_tables` uses it to stop its workers on Ctrl-C)."""
        self.ctx.cancel = 1

    def clear_cancel(self):
        """Let searches run again after :meth:`cancel`."""
        self.ctx.cancel = 0

    def clear_cut_cache(self):
        """Empty the cut-off cache only (the cards that last cut off, kept to order moves;
        :meth:`set_position` does it when a position of another deal is loaded)."""
        self._check_idle()
        cut_clear(&self.ctx)

    cdef int _check_idle(self) except -1:
        if self.busy:
            raise RuntimeError("this Engine is searching in another thread; use one Engine "
                               "(or Solver) per thread")
        return 0

    cdef int _check_loaded(self) except -1:
        self._check_idle()
        if not self.has_position:
            raise RuntimeError("no position loaded: call set_position first")
        return 0

    @property
    def searching(self):
        """Whether a search runs on this engine (in another thread) right now."""
        return self.busy != 0

    @property
    def nodes(self):
        """Nodes searched since the engine was made (one per card tried and trick start)."""
        return self.ctx.nodes

    @property
    def stats(self):
        """Counters: nodes, table probes and hits, quick-trick cutoffs, entries, resets, and
        the cut-off cache's tries (nodes that tried its card first) and hits (that card cut
        off), and the leads probed to the next trick start (``lead_probes``)."""
        return {"nodes": self.ctx.nodes, "probes": self.ctx.probes, "hits": self.ctx.hits,
                "qtcuts": self.ctx.qtcuts,
                "trick_nodes": self.ctx.trick_nodes, "entries": self.ctx.tt.nentries,
                "keys": self.ctx.tt.nkeys, "resets": self.ctx.tt.resets,
                "cut_at": [[self.ctx.cut_at[p][i] for i in range(4)] for p in range(4)],
                "fails": [self.ctx.fails[p] for p in range(4)],
                "blocks": self.ctx.tt.nblocks, "cut_tries": self.ctx.cut_tries,
                "cut_hits": self.ctx.cut_hits, "lead_probes": self.ctx.lead_probes}

    def entry_k_histogram(self):
        """How many entries keep k cards of a suit, k = 0..13 (all suits pooled)."""
        cdef int i, j, s
        hist = [0] * 14
        for i in range(self.ctx.tt.nblocks):
            for j in range(self.ctx.tt.blocks[i].n):
                for s in range(4):
                    hist[block_k(&self.ctx.tt.blocks[i], j, s)] += 1
        return hist

    @property
    def table_entries(self):
        return self.ctx.tt.nentries

    @property
    def table_resets(self):
        return self.ctx.tt.resets

    @property
    def table_bytes(self):
        """Bytes allocated for the table (address space; pages are touched as used)."""
        return (sizeof(TTBlock) * self.ctx.tt.max_blocks + sizeof(TTKey) * self.ctx.tt.max_keys
                + sizeof(int32_t) * (1 << self.ctx.tt.bucket_bits))

    def set_position(self, hands, trump_arg, leader_arg, trick=()):
        """Load a position.

        :param hands: four 64-bit card masks (bit ``16 * suit + rank``), N, E, S, W: the
            cards still held (not those already on the table in the current trick).
        :param trump: 0..3 = C, D, H, S; 4 = notrump.
        :param leader: 0..3, the seat that led (or leads) to the current trick.
        :param trick: up to 3 ``(suit, rank)`` pairs already played to the current trick.

        Everything is checked before anything is loaded (a refused position leaves the
        engine as it was).

        :raises TypeError: if the trump, the leader, a mask or a trick card's suit or rank
            is not an integer (a bool or a float included).
        :raises ValueError: for a bad trump, leader, mask, trick card, hands that share a
            card, a trick card that revokes (its seat still holds the suit led), or hand
            sizes that do not fit the trick.
        :raises RuntimeError: if another thread is searching on this engine.
        """
        self._check_idle()
        cdef int h, s, i, idx, k, want, trump, leader
        cdef uint64_t m
        cdef uint16_t held
        trump_arg = _int_arg(trump_arg, "trump")
        leader_arg = _int_arg(leader_arg, "leader")
        if not (0 <= trump_arg <= 4) or not (0 <= leader_arg <= 3):
            raise ValueError("invalid trump, leader or trick")
        trump = trump_arg
        leader = leader_arg
        if len(trick) > 3:
            raise ValueError(f"a current trick holds at most 3 cards, got {len(trick)}")
        if len(hands) != 4:
            raise ValueError(f"need 4 hands, got {len(hands)}")
        # every mask checked before anything is loaded (a bad one leaves the engine as it
        # was); operator.index refuses floats
        hands = [operator.index(x) for x in hands]
        for x in hands:
            if not 0 <= x < (1 << 64):
                raise ValueError(f"a hand mask must be a 64-bit unsigned integer, got {x!r}")
            if x & ~0x7FFC7FFC7FFC7FFC:
                raise ValueError(f"hand mask {x:#x} has bits outside the card ranks "
                                 "(bit 16 * suit + rank, rank 2..14)")
        trick = [tuple(t) for t in trick]
        for t in trick:
            if len(t) != 2 or not (0 <= t[0] <= 3) or not (2 <= t[1] <= 14):
                raise ValueError(f"invalid trick card {t!r}: need (suit 0..3, rank 2..14)")
        trick = [(_int_arg(t[0], "a trick card's suit"), _int_arg(t[1], "a trick card's rank"))
                 for t in trick]
        for h in range(4):
            for i in range(h + 1, 4):
                if hands[h] & hands[i]:
                    raise ValueError(f"seats {h} and {i} both hold card mask "
                                     f"{hands[h] & hands[i]:#x}")
        if len(set(trick)) != len(trick):
            raise ValueError("a card appears twice in the current trick")
        for t in trick:
            for h in range(4):
                if (hands[h] >> (16 * t[0] + t[1])) & 1:
                    raise ValueError(f"trick card {t!r} is also held by seat {h}")
        k = len(trick)
        for i in range(1, k):
            h = (leader + i) & 3
            if trick[i][0] != trick[0][0] and (hands[h] >> (16 * trick[0][0])) & 0x7FFC:
                raise ValueError(f"trick card {trick[i]!r} revokes: seat {h} still holds "
                                 f"suit {trick[0][0]}, the suit led")
        want = -1
        for i in range(4):
            h = (leader + i) & 3
            n = bin(hands[h]).count("1") + (1 if i < k else 0)
            if want < 0:
                want = n
            if n != want or n > 13:
                raise ValueError("hand sizes do not fit the current trick "
                                 "(the leader's count, less one for each card already played)")
        if want < 1:
            raise ValueError("a position needs 1..13 tricks left")
        if trump != self.ctx.trump:
            # table entries depend on the strain; the cut-off cache's cards of the other
            # strains would only take its slots (one reused across deals measured +1.8 %
            # nodes against a fresh one)
            tt_clear(&self.ctx.tt)
            cut_clear(&self.ctx)
            self.ctx.trump = trump
        # Another deal: some seat holds a card it did not hold in the last position loaded
        # and lacks one it held there (one deal's positions are subsets of each other).  The
        # cut-off cache's cards of the other deal would cost nodes (measured +6 to +8 %).
        # When more than half the cards changed hands (more than a Monte Carlo sample's
        # redeal of the two hidden hands can move; an unrelated deal moves about three
        # quarters), the table is emptied too: the other deal's entries answer almost
        # nothing here but lengthen the probes' chains (benchmarks/NOTES.md: the same
        # nodes, -5 to -9 % CPU on solves of one deal after another).
        cdef uint64_t seat_cards[4]
        cdef int related = 1, moved = 0, total = 0
        for h in range(4):
            seat_cards[h] = <uint64_t>hands[h]
        for i in range(k):
            seat_cards[(leader + i) & 3] |= <uint64_t>1 << (16 * trick[i][0] + trick[i][1])
        for h in range(4):
            if ((seat_cards[h] & ~self.last_held[h]) != 0
                    and (self.last_held[h] & ~seat_cards[h]) != 0):
                related = 0
            moved += dd_popcount64(seat_cards[h] & ~self.last_held[h])
            total += dd_popcount64(seat_cards[h])
            self.last_held[h] = seat_cards[h]
        if not related:
            cut_clear(&self.ctx)
        if 2 * moved > total:
            tt_clear(&self.ctx.tt)
        for h in range(4):
            m = hands[h]
            for s in range(4):
                self.ctx.hold[h][s] = <uint16_t>((m >> (16 * s)) & 0x7FFC)
        self.ctx.leader = leader
        self.ctx.ns_won = 0
        self.pos = len(trick)
        n = 0
        for s in range(4):
            n += dd_popcount(self.ctx.hold[leader][s])
        self.ctx.tl = n + (1 if self.pos > 0 else 0)    # 1..13: checked above
        for i in range(self.pos):
            self.ctx.trick_suit[self.ctx.tl][i] = trick[i][0]
            self.ctx.trick_rank[self.ctx.tl][i] = trick[i][1]
            if i == 0:
                self.ctx.win_idx[self.ctx.tl][0] = 0
            else:
                idx = self.ctx.win_idx[self.ctx.tl][i - 1]
                if beats(trick[i][0], trick[i][1], self.ctx.trick_suit[self.ctx.tl][idx],
                         self.ctx.trick_rank[self.ctx.tl][idx], trump):
                    self.ctx.win_idx[self.ctx.tl][i] = i
                else:
                    self.ctx.win_idx[self.ctx.tl][i] = idx
        for s in range(4):
            self.ctx.agg[self.ctx.tl][s] = (self.ctx.hold[0][s] | self.ctx.hold[1][s]
                                            | self.ctx.hold[2][s] | self.ctx.hold[3][s])
        for i in range(self.pos):
            self.ctx.agg[self.ctx.tl][self.ctx.trick_suit[self.ctx.tl][i]] |= <uint16_t>(
                1 << self.ctx.trick_rank[self.ctx.tl][i])
        self.has_position = 1

    def ns_tricks(self, guess=-1):
        """Exact N-S tricks among the tricks left (the current one included).

        ``guess`` is the driver's first target; -1: an estimate from the high cards and
        trumps at the start of the current trick (``estimate_ns``).  Any guess
        gives the same answer; a close one saves searches.

        :raises TypeError: if ``guess`` is not an integer.
        :raises RuntimeError: if another thread is searching on this engine, or no position
            is loaded.
        :raises KeyboardInterrupt: (or whatever a Python signal handler raises) when a
            signal arrives during the search; the engine keeps its position and table."""
        cdef int g = _guess_arg(guess)
        cdef Ctx saved
        self._check_loaded()
        if self.ctx.tl == 0:
            return 0
        if g < 0:
            g = estimate_ns(&self.ctx, self.pos)
        memcpy(&saved, &self.ctx, sizeof(Ctx) - sizeof(TT))
        return self._search(&saved, ns_value_v, self.pos, g)

    cdef int _search(self, Ctx* saved, search_fn f, int pos, int arg) except? -1:
        """Run ``f(ctx, pos, arg)`` without the GIL, marked busy, with a return point for an
        interrupting signal; then restore the position ``saved`` (taken before any change
        the caller made) and re-raise a signal handler's exception."""
        cdef int v, aborted = 0
        if self.ctx.cancel:
            self._restore(saved)
            raise KeyboardInterrupt("search cancelled (Engine.cancel)")
        self.busy = 1
        try:
            with nogil:
                v = dd_run_search(<void*>&self.ctx, &self.ctx.jump, f, pos, arg, &aborted)
        finally:
            self.busy = 0
        self._restore(saved)
        if aborted:
            propagate_signal()
        return v

    cdef void _restore(self, Ctx* saved) noexcept:
        """Back to the position saved before a search: the fields before ``tshape`` (the
        position); the counters, the table and the cut-off cache stay."""
        memcpy(&self.ctx, saved, <size_t>(<char*>&self.ctx.tshape - <char*>&self.ctx))

    def ns_reaches(self, target):
        """Whether N-S can win at least ``target`` of the tricks left (the current one
        included): one zero-window search, the question DDS's SolveBoard answers for a
        given target.  ``target`` (an integer) <= 0 is always reached; above the tricks
        left, never.

        :raises TypeError: if ``target`` is not an integer (a bool or a float included).
        :raises RuntimeError: if another thread is searching on this engine, or no position
            is loaded.
        :raises KeyboardInterrupt: (or whatever a Python signal handler raises) when a
            signal arrives during the search; the engine keeps its position and table."""
        cdef Ctx saved
        target = _int_arg(target, "target")
        self._check_loaded()
        if target <= 0:
            return True
        if target > self.ctx.tl:
            return False
        memcpy(&saved, &self.ctx, sizeof(Ctx) - sizeof(TT))
        return self._search(&saved, ns_reach_v, self.pos, target) == 1

    def ns_tricks_after(self, suit_arg, rank_arg, guess=-1):
        """N-S tricks among the tricks left (current one included) after the player to
        move plays ``(suit, rank)``, then all play double-dummy.

        :raises TypeError: if the suit, rank or guess is not an integer.
        :raises ValueError: for a card the player to move does not hold or may not play.
        :raises RuntimeError: if another thread is searching on this engine, or no position
            is loaded."""
        cdef Ctx saved
        cdef int newpos, g = _guess_arg(guess), won, lead, suit, rank
        cdef int seat = (self.ctx.leader + self.pos) & 3
        suit_arg = _int_arg(suit_arg, "suit")
        rank_arg = _int_arg(rank_arg, "rank")
        if not (0 <= suit_arg <= 3) or not (2 <= rank_arg <= 14):
            raise ValueError(f"invalid card (suit {suit_arg}, rank {rank_arg})")
        suit = suit_arg
        rank = rank_arg
        self._check_loaded()
        if self.ctx.tl < 1:
            raise ValueError(f"invalid card (suit {suit}, rank {rank}): no trick left")
        if not (self.ctx.hold[seat][suit] >> rank) & 1:
            raise ValueError(f"seat {seat} does not hold (suit {suit}, rank {rank})")
        if self.pos > 0:
            lead = self.ctx.trick_suit[self.ctx.tl][0]
            if suit != lead and self.ctx.hold[seat][lead]:
                raise ValueError(f"seat {seat} must follow suit {lead}")
        memcpy(&saved, &self.ctx, sizeof(Ctx) - sizeof(TT))
        newpos = play_card(&self.ctx, self.pos, suit, rank)
        won = self.ctx.ns_won
        self.ctx.ns_won = 0
        if self.ctx.tl == 0:
            self._restore(&saved)
            return won
        g = estimate_ns(&self.ctx, newpos) if g < 0 else g - won
        return self._search(&saved, ns_value_v, newpos, g) + won

    def groups(self):
        """Legal moves of the player to move as ``(suit, rank, group_mask)``, one per group
        of equivalent cards (``group_mask`` holds every card of the group)."""
        cdef Move moves[MAX_MOVES]
        cdef int n, i, multi = 0
        cdef int seat = (self.ctx.leader + self.pos) & 3
        self._check_loaded()
        n = gen_moves(&self.ctx, self.pos, seat, moves, &multi)
        return [(moves[i].suit, moves[i].rank, moves[i].group) for i in range(n)]
