# The Python-facing engine: one search context, its table and cut-off cache; loads
# positions (every argument checked before anything is loaded), runs the driver without
# the GIL, and reports statistics.

import operator

from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from ddsolver.search.bits cimport dd_popcount, dd_popcount64
from ddsolver.search.build cimport DD_DEBUG, DD_STATS, DD_VARIANT, dd_cpu_runs_fast, dd_isa
from ddsolver.search.context cimport MAX_MOVES, Ctx, Move
from ddsolver.search.moves cimport CUT_BITS
from ddsolver.search.signals cimport dd_run_search, search_fn
from ddsolver.search.transtable cimport TT, TTBlock, TTKey


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


cdef enum:
    LAYOUT_OK = 0
    LAYOUT_BITS = 1       # a mask has bits outside the card ranks
    LAYOUT_SHARED = 2     # two seats hold the same card
    LAYOUT_TRICK = 3      # a card of the trick in progress is also held
    LAYOUT_REVOKE = 4     # a card of the trick revokes
    LAYOUT_SIZES = 5      # the hand sizes do not fit the trick (or no trick is left)

LAYOUT_ERRORS = {
    LAYOUT_BITS: "a hand mask has bits outside the card ranks (bit 16 * suit + rank, "
                 "rank 2..14)",
    LAYOUT_SHARED: "two seats hold the same card",
    LAYOUT_TRICK: "a card of the trick in progress is also held",
    LAYOUT_REVOKE: "a card of the trick in progress revokes (its seat still holds the "
                   "suit led)",
    LAYOUT_SIZES: "the hand sizes do not fit the trick in progress (the leader's count, "
                  "less one for each card already played, 1..13)",
}

_SEAT_NAMES = ("North", "East", "South", "West")
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _card_name(suit, rank):
    """``SK`` for (3, 13): the card's text as :class:`ddsolver.cards.Card` writes it."""
    return "CDHS"[suit] + "23456789TJQKA"[rank - 2]


def _bit_card(mask):
    """The name of the lowest card of a card mask (no bits outside the card ranks)."""
    low = (mask & -mask).bit_length() - 1
    return _card_name(low >> 4, low & 15)


def _layout_message(i, code, hands, leader, trick):
    """The error of layout ``i`` (``code`` from :func:`layout_error`), naming the seat and
    the card: ``layout 0: North and East both hold SA``."""
    hands = [int(x) for x in hands]
    what = LAYOUT_ERRORS[code]
    if code == LAYOUT_BITS:
        for h in range(4):
            bad = hands[h] & ~0x7FFC7FFC7FFC7FFC
            if bad:
                what = (f"{_SEAT_NAMES[h]}'s mask has bits outside the card ranks (bit "
                        f"{(bad & -bad).bit_length() - 1}; a card is bit 16 * suit + rank, "
                        f"rank 2..14)")
                break
    elif code == LAYOUT_SHARED:
        for h in range(4):
            for j in range(h + 1, 4):
                if hands[h] & hands[j]:
                    return (f"layout {i}: {_SEAT_NAMES[h]} and {_SEAT_NAMES[j]} both hold "
                            f"{_bit_card(hands[h] & hands[j])}")
    elif code == LAYOUT_TRICK:
        for t, (suit, rank) in enumerate(trick):
            for h in range(4):
                if hands[h] >> (16 * suit + rank) & 1:
                    return (f"layout {i}: {_SEAT_NAMES[h]} still holds "
                            f"{_card_name(suit, rank)}, played to the trick in progress by "
                            f"{_SEAT_NAMES[(leader + t) & 3]}")
    elif code == LAYOUT_REVOKE:
        for t in range(1, len(trick)):
            h = (leader + t) & 3
            if trick[t][0] != trick[0][0] and hands[h] >> (16 * trick[0][0]) & 0x7FFC:
                return (f"layout {i}: {_SEAT_NAMES[h]} played "
                        f"{_card_name(*trick[t])} to the trick in progress but still holds "
                        f"{_bit_card(hands[h] & (0x7FFC << (16 * trick[0][0])))} of the suit "
                        f"led ({_SUIT_NAMES[trick[0][0]]})")
    elif code == LAYOUT_SIZES:
        sizes = ", ".join(f"{_SEAT_NAMES[h]} {bin(hands[h]).count('1')}" for h in range(4))
        what = f"{what}; cards held: {sizes}"
    return f"layout {i}: {what}"


cdef int layout_error(const uint64_t* hands, int leader, int k, const int* tsuit,
                      const int* trank) noexcept nogil:
    """LAYOUT_OK when four masks N, E, S, W of the cards still held and the ``k`` cards of
    the trick in progress (led by ``leader``; each card checked by the caller: suit 0..3,
    rank 2..14, no card twice) make a position; else the first LAYOUT_* error found, in
    the order of :meth:`Engine.set_position`'s checks."""
    cdef int h, i, n, want = -1
    for h in range(4):
        if hands[h] & ~(<uint64_t>0x7FFC7FFC7FFC7FFC):
            return LAYOUT_BITS
    for h in range(4):
        for i in range(h + 1, 4):
            if hands[h] & hands[i]:
                return LAYOUT_SHARED
    for i in range(k):
        for h in range(4):
            if (hands[h] >> (16 * tsuit[i] + trank[i])) & 1:
                return LAYOUT_TRICK
    for i in range(1, k):
        h = (leader + i) & 3
        if tsuit[i] != tsuit[0] and (hands[h] >> (16 * tsuit[0])) & 0x7FFC:
            return LAYOUT_REVOKE
    for i in range(4):
        h = (leader + i) & 3
        n = dd_popcount64(hands[h]) + (1 if i < k else 0)
        if want < 0:
            want = n
        if n != want or n > 13:
            return LAYOUT_SIZES
    if want < 1:
        return LAYOUT_SIZES
    return LAYOUT_OK


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
        """Counters since the engine was made, a dict.

        Always: ``nodes`` (as :attr:`nodes`), ``trick_nodes`` (trick starts reached by a
        card, DDS's ``nodes``), and the table's ``entries``, ``keys``, ``blocks`` and
        ``resets`` (times it was emptied when full).  In a build with the detailed counters
        (``BUILD_INFO["stats"]``; ``DDSOLVER_STATS=1`` or ``DDSOLVER_DEBUG=1`` at build time,
        see setup.py) also: table ``probes`` and ``hits``, sure-trick cutoffs (``qtcuts``),
        ``cut_at[pos][i]`` (cutoffs at position ``pos`` of the trick by the ``i``-th move
        tried, 3 = later), ``fails[pos]`` (nodes where every move failed), the cut-off
        cache's ``cut_tries`` (nodes that tried its card first) and ``cut_hits`` (that card
        cut off), and ``lead_probes`` (leads played to the next trick start)."""
        out = {"nodes": self.ctx.nodes, "trick_nodes": self.ctx.trick_nodes,
               "entries": self.ctx.tt.nentries, "keys": self.ctx.tt.nkeys,
               "blocks": self.ctx.tt.nblocks, "resets": self.ctx.tt.resets}
        if DD_STATS:
            out.update({
                "probes": self.ctx.probes, "hits": self.ctx.hits, "qtcuts": self.ctx.qtcuts,
                "cut_at": [[self.ctx.cut_at[p][i] for i in range(4)] for p in range(4)],
                "fails": [self.ctx.fails[p] for p in range(4)],
                "cut_tries": self.ctx.cut_tries, "cut_hits": self.ctx.cut_hits,
                "lead_probes": self.ctx.lead_probes})
        return out

    @property
    def cut_cache_used(self):
        """Slots of the cut-off cache holding a card (of ``1 << CUT_BITS``)."""
        cdef int i, n = 0
        for i in range(1 << CUT_BITS):
            n += (self.ctx.cut[i] & 0xFF) != 0
        return n

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
        cdef uint64_t c_hands[4]
        cdef int c_suit[3]
        cdef int c_rank[3]
        for h in range(4):
            c_hands[h] = <uint64_t>hands[h]
        for i in range(k):
            c_suit[i] = trick[i][0]
            c_rank[i] = trick[i][1]
        # idle checked here, after every conversion: an argument's __index__ or __iter__ is
        # Python code, during which another thread could start a search on this engine
        self._check_idle()
        self._load(c_hands, trump, leader, k, c_suit, c_rank)

    cdef void _load(self, const uint64_t* hands, int trump, int leader, int k,
                    const int* tsuit, const int* trank) noexcept nogil:
        """Load a position already checked (:meth:`set_position`, :func:`layout_error`):
        four masks N, E, S, W of the cards still held, the trump, the trick's leader and
        the ``k`` cards of the trick in progress; empties the table and the cut-off cache
        as :meth:`set_position` says."""
        cdef int h, s, i, idx, n
        cdef uint64_t m
        cdef uint64_t seat_cards[4]
        cdef int related = 1, moved = 0, total = 0
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
        for h in range(4):
            seat_cards[h] = hands[h]
        for i in range(k):
            seat_cards[(leader + i) & 3] |= <uint64_t>1 << (16 * tsuit[i] + trank[i])
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
        self.pos = k
        n = 0
        for s in range(4):
            n += dd_popcount(self.ctx.hold[leader][s])
        self.ctx.tl = n + (1 if self.pos > 0 else 0)    # 1..13: checked above
        for i in range(self.pos):
            self.ctx.trick_suit[self.ctx.tl][i] = tsuit[i]
            self.ctx.trick_rank[self.ctx.tl][i] = trank[i]
            if i == 0:
                self.ctx.win_idx[self.ctx.tl][0] = 0
            else:
                idx = self.ctx.win_idx[self.ctx.tl][i - 1]
                if beats(tsuit[i], trank[i], self.ctx.trick_suit[self.ctx.tl][idx],
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

    cdef void _restore(self, Ctx* saved) noexcept nogil:
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


    cdef int _value_after(self, Ctx* saved, int pos, int suit, int rank, int guess,
                          int* aborted) noexcept nogil:
        """N-S tricks among the tricks left after the player to move plays ``(suit,
        rank)`` (``guess``: the driver's first target for N-S, -1 for an estimate), the
        position ``saved`` restored afterwards; ``aborted`` set when a signal or a cancel
        left the search (as :meth:`ns_tricks_after`, without the GIL)."""
        cdef int won, v, newpos = play_card(&self.ctx, pos, suit, rank)
        won = self.ctx.ns_won
        self.ctx.ns_won = 0
        if self.ctx.tl == 0:
            v = won
        else:
            v = dd_run_search(<void*>&self.ctx, &self.ctx.jump, ns_value_v, newpos,
                              estimate_ns(&self.ctx, newpos) if guess < 0 else guess - won,
                              aborted) + won
        self._restore(saved)
        return v

    cdef uint64_t* _batch_args(self, const uint64_t[:, ::1] hands, trump_arg, leader_arg,
                               trick, int* trump, int* leader, int* k, int* tsuit,
                               int* trank) except NULL:
        """Check the arguments shared by :meth:`values_batch` and :meth:`losses_batch`
        (every layout included) before anything is loaded; return a private copy of the
        layouts (malloc'd, the caller frees it), checked and then searched: another thread
        changing the caller's array while the GIL is released cannot reach the search."""
        cdef Py_ssize_t i, n = hands.shape[0]
        cdef int code
        cdef uint64_t* copy
        if hands.shape[1] != 4:
            raise ValueError(f"layouts need 4 masks each (N, E, S, W), got {hands.shape[1]}")
        trump_arg = _int_arg(trump_arg, "trump")
        leader_arg = _int_arg(leader_arg, "leader")
        if not (0 <= trump_arg <= 4) or not (0 <= leader_arg <= 3):
            raise ValueError("invalid trump or leader")
        trump[0] = trump_arg
        leader[0] = leader_arg
        trick = [tuple(t) for t in trick]
        if len(trick) > 3:
            raise ValueError(f"a current trick holds at most 3 cards, got {len(trick)}")
        for t in trick:
            if len(t) != 2:
                raise ValueError(f"invalid trick card {t!r}: need (suit 0..3, rank 2..14)")
        trick = [(_int_arg(t[0], "a trick card's suit"), _int_arg(t[1], "a trick card's rank"))
                 for t in trick]
        for t in trick:
            if not (0 <= t[0] <= 3) or not (2 <= t[1] <= 14):
                raise ValueError(f"invalid trick card {t!r}: need (suit 0..3, rank 2..14)")
        if len(set(trick)) != len(trick):
            raise ValueError("a card appears twice in the current trick")
        k[0] = len(trick)
        for i in range(k[0]):
            tsuit[i] = trick[i][0]
            trank[i] = trick[i][1]
        copy = <uint64_t*>malloc(sizeof(uint64_t) * 4 * (n if n > 0 else 1))
        if copy == NULL:
            raise MemoryError(f"cannot copy {n} layouts")
        if n > 0:
            memcpy(copy, &hands[0, 0], sizeof(uint64_t) * 4 * n)
        for i in range(n):
            code = layout_error(&copy[4 * i], leader[0], k[0], tsuit, trank)
            if code != LAYOUT_OK:
                row = [copy[4 * i + j] for j in range(4)]
                free(copy)
                raise ValueError(_layout_message(i, code, row, leader[0], trick))
        return copy

    def values_batch(self, const uint64_t[:, ::1] hands not None,
                     signed char[:, ::1] out not None, trump_arg, leader_arg, trick=()):
        """Solve many layouts of one position: for each row ``i`` of ``hands`` (masks N, E,
        S, W of the cards still held), write in ``out[i, 13 * suit + rank - 2]`` the tricks
        **the side to move** wins among the tricks left (current one included) after the
        player to move plays that card, for each of its legal cards; other entries are set
        to -1.  The same
        answers as :meth:`groups` and :meth:`ns_tricks_after` layout by layout (each group
        of equivalent cards searched once, the last value as the next guess), in one call
        that holds the GIL only to check its arguments.

        :param hands: a C-contiguous ``(n, 4)`` uint64 array.
        :param out: a C-contiguous ``(n, 52)`` int8 array, written.
        :returns: the number of card values found (one per group of equivalent cards and
            layout).
        :raises TypeError: if the trump, the leader or a trick card's suit or rank is not an
            integer.
        :raises TypeError, ValueError: (Cython's buffer checks) if an array is not of the
            type, the order or the writability above.
        :raises ValueError: for a bad trump, leader or trick card, ``out`` of the wrong
            shape, or a layout that is not a position (its row named; nothing is loaded).
        :raises RuntimeError: if another thread is searching on this engine.
        :raises KeyboardInterrupt: (or whatever a Python signal handler raises) when a
            signal arrives during the search; ``out`` is then partly written."""
        cdef int trump, leader, k, j, c, v, seat, aborted = 0, mover_ns
        cdef int nm, multi, tl, pos, guess
        cdef int tsuit[3]
        cdef int trank[3]
        cdef Py_ssize_t i, n = hands.shape[0]
        cdef int64_t searches = 0
        cdef uint16_t grp
        cdef Move moves[MAX_MOVES]
        cdef Ctx saved
        cdef uint64_t* h
        if out.shape[0] != n or out.shape[1] != 52:
            raise ValueError(f"out must have shape ({n}, 52), got ({out.shape[0]}, "
                             f"{out.shape[1]})")
        h = self._batch_args(hands, trump_arg, leader_arg, trick, &trump, &leader, &k, tsuit,
                             trank)
        if self.ctx.cancel or self.busy:
            free(h)
            self._check_idle()
            raise KeyboardInterrupt("search cancelled (Engine.cancel)")
        # no Python code between the idle check and the claim: another thread cannot
        # start a search on this engine in between
        self.busy = 1
        try:
            with nogil:
                for i in range(n):
                    for j in range(52):
                        out[i, j] = -1
                    self._load(&h[4 * i], trump, leader, k, tsuit, trank)
                    pos = self.pos
                    seat = (leader + pos) & 3
                    mover_ns = (seat & 1) == 0
                    tl = self.ctx.tl
                    memcpy(&saved, &self.ctx, sizeof(Ctx) - sizeof(TT))
                    multi = 0
                    nm = gen_moves(&self.ctx, pos, seat, moves, &multi)
                    guess = -1
                    for j in range(nm):
                        v = self._value_after(&saved, pos, moves[j].suit, moves[j].rank,
                                              guess, &aborted)
                        searches += 1
                        if aborted:
                            break
                        guess = v
                        grp = moves[j].group
                        c = 13 * moves[j].suit - 2
                        while grp:
                            out[i, c + dd_lowest(grp)] = v if mover_ns else tl - v
                            grp &= grp - 1
                    if aborted:
                        break
        finally:
            self.busy = 0
            free(h)
        if n > 0:
            self.has_position = 1
        if aborted:
            propagate_signal()
        return searches

    def losses_batch(self, const uint64_t[:, ::1] hands not None, signed char[::1] out not None,
                     trump_arg, leader_arg, trick, suit_arg, rank_arg):
        """Tricks a card loses in many layouts of one position: for each row ``i`` of
        ``hands`` (masks N, E, S, W of the cards still held), write in ``out[i]`` how many
        fewer tricks (among the tricks left, for the side to move) the player to move wins
        double dummy by playing ``(suit, rank)`` than by its best card: 0 when the card is
        as good as any.  Equal to the best of :meth:`groups`' values less the card's, but
        searched as the card's value and then one zero-window search whether a better card
        exists (a third, exact search only when one does); no search at all when every
        legal card is equivalent.

        :param hands: a C-contiguous ``(n, 4)`` uint64 array; the player to move must hold
            the card in every layout, and may play it.
        :param out: a C-contiguous ``(n,)`` int8 array, written.
        :returns: the number of layouts that needed a search.
        :raises TypeError, ValueError, RuntimeError, KeyboardInterrupt: as
            :meth:`values_batch`; ValueError also for a card the player to move does not
            hold or may not play in some layout."""
        cdef int trump, leader, k, v, best, seat, aborted = 0, mover_ns, suit, rank
        cdef int nm, multi, tl, pos, found, j, target
        cdef int tsuit[3]
        cdef int trank[3]
        cdef Py_ssize_t i, n = hands.shape[0]
        cdef int64_t searched = 0
        cdef Move moves[MAX_MOVES]
        cdef Ctx saved
        cdef uint64_t* h
        suit_arg = _int_arg(suit_arg, "suit")
        rank_arg = _int_arg(rank_arg, "rank")
        if not (0 <= suit_arg <= 3) or not (2 <= rank_arg <= 14):
            raise ValueError(f"invalid card (suit {suit_arg}, rank {rank_arg})")
        suit = suit_arg
        rank = rank_arg
        if out.shape[0] != n:
            raise ValueError(f"out must have shape ({n},), got ({out.shape[0]},)")
        h = self._batch_args(hands, trump_arg, leader_arg, trick, &trump, &leader, &k, tsuit,
                             trank)
        seat = (leader + k) & 3
        try:
            for i in range(n):
                if not (h[4 * i + seat] >> (16 * suit + rank)) & 1:
                    raise ValueError(f"layout {i}: {_SEAT_NAMES[seat]} does not hold "
                                     f"{_card_name(suit, rank)}")
                if k > 0 and suit != tsuit[0] and (h[4 * i + seat] >> (16 * tsuit[0])) & 0x7FFC:
                    raise ValueError(f"layout {i}: {_SEAT_NAMES[seat]} must follow suit "
                                     f"({_SUIT_NAMES[tsuit[0]]} led) and may not play "
                                     f"{_card_name(suit, rank)}")
            self._check_idle()
            if self.ctx.cancel:
                raise KeyboardInterrupt("search cancelled (Engine.cancel)")
        except BaseException:
            free(h)
            raise
        mover_ns = (seat & 1) == 0
        # no Python code between the idle check and the claim (see values_batch)
        self.busy = 1
        try:
            with nogil:
                for i in range(n):
                    out[i] = 0
                    self._load(&h[4 * i], trump, leader, k, tsuit, trank)
                    pos = self.pos
                    tl = self.ctx.tl
                    memcpy(&saved, &self.ctx, sizeof(Ctx) - sizeof(TT))
                    multi = 0
                    nm = gen_moves(&self.ctx, pos, seat, moves, &multi)
                    if nm <= 1:
                        continue
                    searched += 1
                    # the card's value (N-S tricks)
                    v = self._value_after(&saved, pos, suit, rank, -1, &aborted)
                    if aborted:
                        break
                    # a better card: N-S reach v + 1 (N-S to move), or E-W hold N-S to
                    # v - 1 (E-W to move)
                    target = v + 1 if mover_ns else v
                    if target > tl:
                        found = 0
                    elif target <= 0:
                        found = 1
                    else:
                        found = dd_run_search(<void*>&self.ctx, &self.ctx.jump, ns_reach_v,
                                              pos, target, &aborted)
                        self._restore(&saved)
                        if aborted:
                            break
                    if mover_ns != found:
                        continue              # N-S cannot beat v / E-W cannot hold below v
                    best = dd_run_search(<void*>&self.ctx, &self.ctx.jump, ns_value_v, pos,
                                         v + 1 if mover_ns else v - 1, &aborted)
                    self._restore(&saved)
                    if aborted:
                        break
                    out[i] = best - v if mover_ns else v - best
        finally:
            self.busy = 0
            free(h)
        if n > 0:
            self.has_position = 1
        if aborted:
            propagate_signal()
        return searched

    def groups(self):
        """Legal moves of the player to move as ``(suit, rank, group_mask)``, one per group
        of equivalent cards (``group_mask`` holds every card of the group)."""
        cdef Move moves[MAX_MOVES]
        cdef int n, i, multi = 0
        cdef int seat = (self.ctx.leader + self.pos) & 3
        self._check_loaded()
        n = gen_moves(&self.ctx, self.pos, seat, moves, &multi)
        return [(moves[i].suit, moves[i].rank, moves[i].group) for i in range(n)]


def cpu_runs_fast():
    """Whether the CPU running this process has every instruction set of the fast build
    (POPCNT, BMI1, BMI2, LZCNT, AVX2) and its operating system saves the AVX registers:
    asked with cpuid and xgetbv (``ddsolver/search/build.h``).  False on other
    architectures."""
    return dd_cpu_runs_fast() != 0


#: this build of the search: ``variant`` "fast" or "portable" (search/build.h), ``isa``
#: the instruction sets beyond the architecture's baseline the compiler was allowed to use,
#: ``stats`` the detailed statistics counters are compiled in, ``debug`` a debug build
BUILD_INFO = {"variant": DD_VARIANT.decode("ascii"), "isa": dd_isa().decode("ascii").split(),
              "stats": DD_STATS != 0, "debug": DD_DEBUG != 0}
