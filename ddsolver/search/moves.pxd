# Move generation and ordering: weights and the cut-off cache's size (code in
# search/moves.pxi).

from libc.stdint cimport uint32_t

cdef enum:
    # weight per card the opponents may choose from when a suit is led (see gen_moves)
    LEAD_SIZE_W = 16
    # notrump leads: the same per card (a little more), low to partner's top card, and per
    # card of our side's length in the suit (benchmarks/NOTES.md: -6 % nodes on held-out
    # deals, no change in suit contracts)
    LEAD_SIZE_NT_W = 20
    LEAD_PARTNER_TOP_NT_W = 40
    LEAD_LENGTH_NT_W = 5
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

cdef extern from *:
    """
    #define CUT_CHECK 0xFFFFFF00u
    """
    const uint32_t CUT_CHECK
