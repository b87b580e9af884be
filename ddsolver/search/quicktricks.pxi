# Quick tricks: the tricks the side on lead surely wins from the top, counted at a trick
# start before any move is searched (the idea of DDS's QuickTricks, B. Haglund and
# S. Hein; our own counting): the leader's cashable winners, a low lead to partner's
# winners, a suit played out with both hands' winners, top trumps in one hand, and
# crossruffs.  Each count also gives the cards it relied on (for the table's partition).
# ``second_hand_sure`` does the same for the second hand's side partway through a trick
# (the idea of DDS's QuickTricksSecondHand).

from libc.stdint cimport uint16_t, uint32_t

from ddsolver.search.bits cimport dd_highest, dd_lowest, dd_pdep, dd_popcount, dd_top_bits
from ddsolver.search.context cimport Ctx

cdef enum:
    # crossruffs are counted for the side on lead when it needs at most this many tricks
    RUFF_WANT_MAX = 2


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
