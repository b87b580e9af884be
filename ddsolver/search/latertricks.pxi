# Later tricks: the tricks the side *not* on lead surely wins (the "later tricks" of DDS,
# B. Haglund and S. Hein; our own counting), from its trumps or top cards: a bound from
# the other side at a trick start.

from libc.stdint cimport uint16_t

from ddsolver.search.bits cimport dd_highest, dd_popcount
from ddsolver.search.context cimport Ctx


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
