# C-level double-dummy search: declarations shared by _search.pyx.
#
# Card layout: a holding is a 16-bit mask with bit ``rank`` set (ranks 2..14, ace = 14).
# Seats 0..3 = N, E, S, W; suits 0..3 = C, D, H, S; trump 4 = notrump.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_MOVES = 14

cdef enum:
    BLOCK_ENTRIES = 8    # entries of one key are kept together, in blocks of this many
                         # (dd_block_hits handles exactly 8)

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

cdef struct Move:
    int8_t suit
    int8_t rank
    uint16_t group       # the card and its equivalents (adjacent among cards in play)
    int32_t weight

cdef struct Ctx:
    # the position: every field before ``tshape`` (Engine._restore copies them back)
    uint16_t hold[4][4]  # hold[seat][suit]
    int trump
    int leader           # seat leading the current trick
    int tl               # tricks left, counting the current trick
    int ns_won           # N-S tricks won since the search root
    int trick_suit[14][4]  # [tricks left][pos]: the cards of each trick in progress
    int trick_rank[14][4]
    int win_idx[14][4]     # index of the winning card after pos+1 cards
    uint16_t agg[14][4]  # cards in play at the start of the trick with tl tricks left
    # derived from the position, kept across the nodes of one search: the table's key and
    # owners at each trick start (index: tricks left); tkey_ok[t]: computed in this search
    uint64_t tshape[14]
    uint32_t tdist[14][4]
    int tlead[14]           # the leader at each trick start whose key was computed
    int tkey_ok[15]
    uint64_t nodes
    uint64_t probes
    uint64_t hits
    uint64_t qtcuts
    uint64_t trick_nodes    # trick starts reached by a card (DDS's 'nodes' count)
    uint64_t cut_at[4][4]   # [pos][index of the cutting move, 3 = later]
    uint64_t fails[4]       # nodes where every move failed, by pos
    uint64_t cut_tries      # nodes that tried a card from the cut-off cache first
    uint64_t cut_hits       # ... and that card cut off
    uint64_t lead_probes    # leads played to the next trick start by probe_lead
    int use_tt
    uint32_t* cut        # cut-off cache: 1 << CUT_BITS slots (see cut_key in _search.pyx)
    void* jump           # where a search interrupted by a signal handler returns to
    int cancel           # set by Engine.cancel (any thread): searches stop at the next check
    TT tt
