# The transposition table and its keys.
#
# Entries hold lower / upper bounds on N-S tricks at trick starts, generalised by
# Ginsberg's partition search ("winning ranks"; M. Ginsberg, "Partition search", AAAI 1996;
# the same idea as DDS, B. Haglund and S. Hein): each search result carries, per suit, the
# set of cards whose *ownership* the result relied on, and an entry keeps, per suit, the
# owners of the top k cards still in play, where k reaches down to the lowest relied-on
# card.  Together with the key (the 16 suit lengths and the leader; the trump strain is
# fixed for the table's life) every position that agrees on those owners has the same
# value.  Cards below the top k of a suit are "small cards", interchangeable given the
# lengths.
#
# Keys are chained in buckets; a key's entries sit in blocks of BLOCK_ENTRIES, laid out by
# field so that one probe compares a whole block (dd_block_hits, search/transtable.h).
# When the keys or blocks run out the table is emptied (``resets``).  Types in
# search/transtable.pxd.  The key and owners of each trick start are computed here too
# (``trick_key``), incrementally from the trick start before.

from libc.stdint cimport int8_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from ddsolver.search.bits cimport dd_highest, dd_lowest, dd_popcount, dd_top_bits
from ddsolver.search.context cimport Ctx
from ddsolver.search.transtable cimport (BLOCK_ENTRIES, START_BUCKET_BITS, TT, TTBlock, TTKey,
                                         dd_alloc_table, dd_block_hits)


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
