"""A table manager written out for the tests of the Blue Chip client.

:class:`ScriptedTM` knows the deals, plays the three other seats (calls from a script, the
lowest legal card: clubs first, then diamonds...), and speaks the variants real table
managers send: any case, missing spaces, ``Teams:`` without colons after the sides,
``Start of Board``, ``Dummy's cards`` written three ways, dummy's cards relayed as
``Dummy plays``, suit-first and lower-case cards, ``Alert.``/``Infos.`` after calls, the lead
prompt for dummy naming dummy's seat, ``Timing`` and ``Error`` lines, and a ``Start of
board`` in the middle of a board.  It checks that every line the client sends is exactly
the line a correct client must send at that moment (:meth:`ScriptedTM.expected`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from ai.protocols.bluechip import format_card, format_hand, format_seat
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.play import trick_winner
from ddsolver.table import Seat, Vulnerability

VUL_WORDS = {Vulnerability.NONE: "Neither", Vulnerability.NS: "N/S",
             Vulnerability.EW: "E/W", Vulnerability.BOTH: "Both"}


def lowest_legal(held: List[Card], trick: List[Card]) -> Card:
    """The test players' card: the lowest legal card of the lowest suit (clubs first)."""
    legal = held
    if trick:
        follow = [c for c in held if c.suit == trick[0].suit]
        legal = follow or held
    return min(legal, key=lambda c: (c.suit, c.rank))


class ScriptPlayer:
    """A computer for the tests: calls from a list, the lowest legal card.  Keeps every
    view it is given."""

    def __init__(self, calls):
        self.calls = [Call.from_str(c) for c in calls]
        self.views = []

    def call(self, view):
        self.views.append(view)
        return self.calls.pop(0)

    def card(self, view):
        self.views.append(view)
        return min(view.legal_cards, key=lambda c: (c.suit, c.rank))


@dataclass
class ScriptBoard:
    number: int
    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability
    auction: List[str]
    #: send "Start of board" instead of answering the client's n-th line of this board
    abort_after: Optional[int] = None
    calls: List[Call] = field(default_factory=list)
    played: list = field(default_factory=list)
    lines_in: int = 0


class ScriptedTM:
    def __init__(self, seat: Seat, team: str, boards: List[ScriptBoard]):
        self.seat = seat
        self.team = team
        self.boards = boards
        self.index = -1
        self.stage = "connect"
        self.prompted = -1
        self.dummy_sent = False
        self.variant = 0
        self.sent_error = False
        self.log: List[tuple] = []

    # -- helpers ----------------------------------------------------------------------------
    @property
    def board(self) -> ScriptBoard:
        return self.boards[self.index]

    def _v(self, *choices):
        """The next spelling, in turn."""
        self.variant += 1
        return choices[self.variant % len(choices)]

    def _auction(self) -> Auction:
        return Auction(self.board.dealer, self.board.calls)

    def _held(self, seat: Seat) -> List[Card]:
        b = self.board
        gone = {c for s, c in b.played if s == seat}
        return [c for c in b.deal[seat] if c not in gone]

    def _trick(self) -> List[Card]:
        n = len(self.board.played) % 4
        return [c for _, c in self.board.played[len(self.board.played) - n:]] if n else []

    def _to_play(self) -> Seat:
        b = self.board
        auction = self._auction()
        leader = auction.declarer.lho
        trick = []
        for s, c in b.played:
            trick.append(c)
            if len(trick) == 4:
                leader = trick_winner(trick, leader, auction.contract.strain)
                trick = []
        return leader.next(len(trick))

    def _over(self) -> bool:
        a = self._auction()
        return a.is_finished and (a.contract is None or len(self.board.played) == 52)

    # -- what a correct client says next --------------------------------------------------------
    def expected(self) -> Optional[str]:
        me = self.seat
        name = format_seat(me)
        if self.stage != "board" or self._over():
            return None
        a = self._auction()
        if not a.is_finished:
            if a.to_act == me:
                call = Call.from_str(self.board.auction[len(self.board.calls)])
                if call.is_pass:
                    return f"{name} passes"
                if call.is_double:
                    return f"{name} doubles"
                if call.is_redouble:
                    return f"{name} redoubles"
                return f"{name} bids {call.level}{call.strain.letter}"
            return f"{name} ready for {format_seat(a.to_act)}'s bid"
        dummy = a.declarer.partner
        if self.board.played and me != dummy and not self.dummy_sent:
            return f"{name} ready for dummy"
        to_play = self._to_play()
        controller = a.declarer if to_play == dummy else to_play
        if controller == me and me != dummy:
            if not self._trick() and self.prompted != len(self.board.played):
                return None   # the client waits for the lead prompt
            card = lowest_legal(self._held(to_play), self._trick())
            return f"{format_seat(to_play)} plays {format_card(card)}"
        who = "dummy" if to_play == dummy else format_seat(to_play)
        return f"{name} ready for {who}'s card to trick {len(self.board.played) // 4 + 1}"

    # -- the conversation -------------------------------------------------------------------------
    def feed(self, line: str) -> List[str]:
        """The client's line; returns the table manager's answers."""
        self.log.append(("in", line))
        out = self._answer(line)
        self.log.extend(("out", x) for x in out)
        return out

    def _answer(self, line: str) -> List[str]:
        me, name = self.seat, format_seat(self.seat)
        if self.stage == "connect":
            assert line == f'Connecting "{self.team}" as {name} using protocol version 18'
            self.stage = "teams"
            return [self._v(f'{name.upper()} ("{self.team}") seated',
                            f'{name} ("{self.team}") seated')]
        if self.stage == "teams":
            assert line == f"{name} ready for teams"
            self.stage = "start"
            return ['Teams: N/S "scripted NS" E/W "scripted EW". Playing MP']
        if self.stage == "start":
            assert line == f"{name} ready to start"
            return self._next_board()
        if self.stage == "deal":
            assert line == f"{name} ready for deal", line
            self.stage = "cards"
            b = self.board
            return [self._v(f"Board number {b.number}. Dealer {format_seat(b.dealer)}. "
                            f"{VUL_WORDS[b.vulnerability]} vulnerable. ",
                            f"BOARD NUMBER {b.number}. DEALER {format_seat(b.dealer).upper()}"
                            f". {VUL_WORDS[b.vulnerability].upper()} VULNERABLE")]
        if self.stage == "cards":
            assert line == f"{name} ready for cards"
            self.stage = "board"
            hand = format_hand(self.board.deal[me])
            out = [self._v(f"{name}'s cards : {hand}", f"{name.lower()}'s cards:{hand} ")]
            return out + self._after_event()
        assert self.stage == "board", (self.stage, line)
        b = self.board
        b.lines_in += 1
        if b.abort_after is not None and b.lines_in >= b.abort_after:
            return self._next_board(prefix=["Start of Board"])
        want = self.expected()
        assert line == want, f"client sent {line!r}, a correct client sends {want!r}"
        a = self._auction()
        if not a.is_finished:
            call = Call.from_str(b.auction[len(b.calls)])
            who = a.to_act
            b.calls.append(call)
            if who == me:
                return self._after_event()
            return [self._call_line(who, call)] + self._after_event()
        if line.endswith("ready for dummy"):
            self.dummy_sent = True
            hand = format_hand(b.deal[a.declarer.partner])
            spelling = [f"DUMMY'S CARDS :{hand.replace(' ', '')}", f"dummy's cards:{hand}",
                        f"Dummy's cards : {hand}"][self.index % 3]
            return [spelling] + self._after_event(extra=False)
        to_play = self._to_play()
        card = lowest_legal(self._held(to_play), self._trick())
        b.played.append((to_play, card))
        if " plays " in line:
            return self._after_event()
        return [self._card_line(to_play, card, a.declarer.partner)] + self._after_event()

    def _call_line(self, seat: Seat, call: Call) -> str:
        name = format_seat(seat)
        if call.is_pass:
            return self._v(f"{name} passes", f"{name.upper()} PASSES", f"{name} Passes.")
        if call.is_double:
            return f"{name} doubles"
        if call.is_redouble:
            return f"{name} redoubles"
        bid = f"{call.level}{call.strain.letter}"
        return self._v(f"{name} bids {bid}", f"{name.lower()} bids {bid.lower()}",
                       f"{name} bids {bid} Alert. scripted meaning",
                       f"{name} bids {bid} Infos. scripted meaning")

    def _card_line(self, seat: Seat, card: Card, dummy: Seat) -> str:
        text = format_card(card)
        name = format_seat(seat)
        if seat == dummy:
            return self._v(f"{name} plays {text}", f"Dummy plays {text}")
        return self._v(f"{name} plays {text}", f"{name.upper()} PLAYS {text.lower()}",
                       f"{name} plays {text[1]}{text[0]}")

    def _after_event(self, extra: bool = True) -> List[str]:
        """The lead prompt when the client must lead; the end of the board."""
        out = []
        if extra and not self.sent_error and self.board.played:
            self.sent_error = True
            out.append("Error scripted complaint")
        if self._over():
            out.append("Timing - N/S : this board  [0:06],  total  [0:00:06].  "
                       "E/W : this board  [0:08],  total  [0:00:08].")
            return out + self._next_board()
        a = self._auction()
        if a.is_finished and not self._trick():
            to_play = self._to_play()
            dummy = a.declarer.partner
            controller = a.declarer if to_play == dummy else to_play
            if controller == self.seat and self.seat != dummy \
                    and self.prompted != len(self.board.played) \
                    and (not self.board.played or self.dummy_sent):
                self.prompted = len(self.board.played)
                if to_play == dummy:
                    out.append(self._v("Dummy to lead", f"{format_seat(dummy)} to lead"))
                else:
                    out.append(self._v(f"{format_seat(to_play)} to lead",
                                       f"{format_seat(to_play).upper()} TO LEAD"))
        return out

    def _next_board(self, prefix=()) -> List[str]:
        self.index += 1
        self.prompted = -1
        self.dummy_sent = False
        if self.index >= len(self.boards):
            self.stage = "over"
            return list(prefix) + ["End of session"]
        self.stage = "deal"
        return list(prefix) + ([] if prefix else [self._v("Start of board", "start of board",
                                                          "Start of Board")])


class SystemPlayer:
    """A fast computer for the table-manager tests: the bidding system's calls, the lowest
    legal card."""

    def __init__(self):
        from ai.bidding import StandardAmerican
        self.system = StandardAmerican()
        self.views = []

    def call(self, view):
        self.views.append(view)
        return self.system.choose(view.original_hand, view.auction, view.vulnerability)

    def card(self, view):
        self.views.append(view)
        return min(view.legal_cards, key=lambda c: (c.suit, c.rank))


class Table:
    """Four (or fewer) sans-IO clients wired to a sans-IO table manager, in memory."""

    def __init__(self, tm):
        self.tm = tm
        self.clients = {}
        self.queue = []          # (cid, line) from clients to the table manager
        self.received = {}       # cid -> lines the table manager sent
        self.dropped = set()     # cids whose lines are not delivered (stalled clients)
        self.closed = set()
        self.log = {}            # cid -> [(">" sent by the client | "<" received, line)]

    def add(self, cid, client):
        self.clients[cid] = client
        self.received[cid] = []
        self._apply(self.tm.connect(cid, now=self.tm.clock()))
        self.queue.extend((cid, line) for line in client.start())

    def _apply(self, actions):
        for action in actions:
            if action[0] == "send":
                _, cid, line = action
                self.received.setdefault(cid, []).append(line)
                self.log.setdefault(cid, []).append(("<", line))
                client = self.clients.get(cid)
                if client is not None and cid not in self.closed:
                    self.queue.extend((cid, out) for out in client.receive(line))
            else:
                self.closed.add(action[1])

    def send(self, cid, line):
        """One line from ``cid``; returns the actions."""
        self.log.setdefault(cid, []).append((">", line))
        actions = self.tm.receive(cid, line, now=self.tm.clock())
        self._apply(actions)
        return actions

    def run(self, until=None, limit=100000):
        """Deliver queued lines until none is left (or ``until()`` holds)."""
        for _ in range(limit):
            if until is not None and until():
                return True
            if not self.queue:
                return until is None
            cid, line = self.queue.pop(0)
            if cid in self.dropped or cid in self.closed:
                continue
            self.send(cid, line)
        raise AssertionError("the table did not settle")
