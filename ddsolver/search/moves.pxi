# Moves: making a card, generating the legal moves (one per group of equivalent cards)
# and ordering them, and the cut-off cache.
#
# Move ordering: the card that last cut off in a similar position (the "cut-off cache", a
# small hash table keyed by the hand and the state of the trick; an idea of H. Xue's bridge
# solver, our own keys) is tried first by the search, before the other cards are
# generated and ordered by weights (gen_moves; weights in search/moves.pxd); at the first
# tricks each lead is also played past the trick with the cached replies and the leads the
# table then shows succeeding go first (probe_lead, promote_probed).

from libc.stdint cimport uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from ddsolver.search.bits cimport dd_highest, dd_lowest, dd_pdep, dd_pext, dd_popcount
from ddsolver.search.build cimport DD_STATS
from ddsolver.search.context cimport MAX_MOVES, Ctx, Move
from ddsolver.search.moves cimport (CUT_BITS, CUT_CHECK, CUT_MASK, DISCARD_LEN_W,
                                    LEAD_LENGTH_NT_W, LEAD_PARTNER_TOP_NT_W, LEAD_RUFF_W,
                                    LEAD_SIZE_NT_W, LEAD_SIZE_W, LEAD_TENACE_W,
                                    LEAD_UNDER_W)


cdef inline int beats(int suit, int rank, int wsuit, int wrank, int trump) noexcept nogil:
    if suit == wsuit:
        return rank > wrank
    return suit == trump


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
        if DD_STATS:
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
