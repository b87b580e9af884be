# Alpha-beta search and its driver.
#
# Zero-window alpha-beta over the cards of each trick (``ab``: can N-S reach a target?),
# driven MTD(f)-style to the exact value (``ns_value``: repeated zero-window searches
# from a first guess, ``estimate_ns``).  At a trick start, before any move: the target
# already reached or out of reach, the trump length, the table's bounds
# (search/transtable.pxi), then the sure tricks of either side (search/quicktricks.pxi,
# search/latertricks.pxi); partway through a trick, the second hand's sure tricks.  Then
# the moves (search/moves.pxi): the cut-off cache's card first, then the generated moves
# in order.  Each result carries the cards it relied on, per suit (``wr``), for the
# table's partition: a trick's winner is relied on when it won by rank (two or more cards
# of its suit in the trick); when a move stands for equivalent cards that were not
# searched and the node fails for the side to move, the skipped cards are relied on as
# well.  Moves of one hand whose answers relied on no card of their suit below some rank
# are skipped below it (rank irrelevance).

from libc.stdint cimport uint16_t, uint32_t, uint64_t

from ddsolver.search.bits cimport dd_highest, dd_lowest, dd_popcount, dd_prefetch
from ddsolver.search.build cimport DD_STATS
from ddsolver.search.context cimport MAX_MOVES, Ctx, Move
from ddsolver.search.moves cimport CUT_CHECK, CUT_MASK, PROBE_TRICKS_LEFT
from ddsolver.search.signals cimport SIGNAL_CHECK_MASK, dd_leave, dd_signal_raised


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
            if DD_STATS:
                c.qtcuts += 1
            wr[0] = 0; wr[1] = 0; wr[2] = 0; wr[3] = 0
            return r
        # the table before the sure tricks: it answers two thirds of its probes, and costs
        # less than the sure-trick count (see benchmarks/NOTES.md)
        if c.use_tt:
            trick_key(c)
            lengths = c.tshape[c.tl]
            dist = c.tdist[c.tl]
            if DD_STATS:
                c.probes += 1
            r = tt_lookup(c, lengths, dist, need, wr)
            if r >= 0:
                if DD_STATS:
                    c.hits += 1
                return r
        # the cut-off cache's slot starts loading while the sure tricks are counted
        ck = cut_key(c, 0, c.leader, need)
        dd_prefetch(&c.cut[ck & CUT_MASK])
        r = sure_cutoff(c, need, wr)
        if r >= 0:
            if DD_STATS:
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
                    if DD_STATS:
                        c.qtcuts += 1
                    return 1
            elif second_hand_sure(c, seat, c.tl - (target - c.ns_won) + 1, wr):
                if DD_STATS:
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
        if DD_STATS:
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
            if DD_STATS:
                c.cut_at[pos][i if i < 3 else 3] += 1
            if lazy:
                if DD_STATS:
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
    if DD_STATS:
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
