# The search's state: the position and everything kept across the nodes of one search.
#
# Card layout: a holding is a 16-bit mask with bit ``rank`` set (ranks 2..14, ace = 14).
# Seats 0..3 = N, E, S, W; suits 0..3 = C, D, H, S; trump 4 = notrump.

from libc.stdint cimport int8_t, int32_t, uint16_t, uint32_t, uint64_t

from ddsolver.search.transtable cimport TT

cdef enum:
    MAX_MOVES = 14

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
    # statistics: ``nodes`` (the signal check counts with it) and ``trick_nodes`` always;
    # the others only in a build with DD_STATS (search/build.h): ``if DD_STATS:`` before
    # each count, a constant the C compiler removes with the count when it is 0
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
    uint32_t* cut        # cut-off cache: 1 << CUT_BITS slots (see cut_key, search/moves.pxi)
    void* jump           # where a search interrupted by a signal handler returns to
    int cancel           # set by Engine.cancel (any thread): searches stop at the next check
    TT tt
