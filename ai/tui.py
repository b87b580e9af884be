"""Terminal play: a Chicago match or the boards of the day against the computer.

The ``ddsolver-play`` command (also ``python -m ai.tui``).  The human sits South with a
computer partner North against two computer opponents, and plays North's cards too whenever
North-South win the contract (``docs/game.md``).  The screen fits an 80 x 24 terminal: the
board's header and running score, the hands the human may see, the auction, the contract,
the current trick and the tricks won; one prompt line takes calls, cards and commands.
Rendering uses `rich <https://rich.readthedocs.io>`_; input is line based, so the game runs
in any terminal, over ssh, and under tmux (the tests drive it there).

Commands (``?`` shows them): a call (``1NT``, ``2h``, ``p``, ``x``, ``xx``), a card (``SA``,
``h10``, ``Q`` when only one legal queen, Enter when only one legal card), ``e`` /
``e N`` / ``e 2C`` explain the last call / the N-th call / a call, ``auction`` the whole
auction with explanations, ``h`` a suggestion (easy level), ``claim`` / ``claim N`` claim
all / N of the remaining tricks, ``quit`` save and leave.  Ctrl-C or Ctrl-D also save and
leave; the next start offers to resume.  An illegal call or card, or anything unreadable,
gets a message and a new prompt.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import sys
import textwrap
import threading
import unicodedata
from typing import Callable, List, Optional

import click
from rich.cells import set_cell_size
from rich.console import Console
from rich.markup import escape

from ai.chicago import (
    BoardSeries,
    ChicagoMatch,
    ForeignFileError,
    SavedGameError,
    SavePathError,
    check_save_path,
    close_table,
    computer_table,
    lock_saved_game,
)
from ai.daily import (
    DailyBoards,
    DuplicateEntryError,
    Leaderboard,
    LeaderboardError,
    LeaderboardFileError,
    _check_name,
    _encodable,
    _same_name,
    check_leaderboard,
    default_data_dir,
    default_leaderboard_path,
    load_game,
    local_today,
)
from ai.game import BoardResult, TableEvent
from ai.players import Claim, SeatView
from ddsolver._io import atomic_write_bytes
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card, Strain, Suit
from ddsolver.cli import ClosedStreamError, StatusCommand, check_distinct_files, check_path
from ddsolver.deal import Hand
from ddsolver.errors import BridgeError
from ddsolver.pbn.writer import pbn_bytes
from ddsolver.table import Seat, Side

__all__ = ["HumanPlayer", "Resumed", "Screen", "TerminalGame", "main"]

LEVELS = ("easy", "medium", "hard")
WIDTH = 80

_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_UNICODE = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_ASCII = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}
_RANKS = "..23456789TJQKA"
_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
_VUL = {"None": "none vulnerable", "NS": "N-S vulnerable", "EW": "E-W vulnerable",
        "All": "both vulnerable"}

HELP = """\
Calls: 1C..7NT (1c, 1n, 3nt...), p = pass, x = double, xx = redouble.
Cards: SA, h10, DT, cq; a rank alone (Q) when it names one legal card; Enter
when only one card is legal.  e = explain the last call, e N = the N-th call,
e 2C = a call;  auction = every call explained;  h = a suggestion (easy level);
claim = claim all remaining tricks, claim N = N of them;
quit (or Ctrl-C) = save and leave."""


class QuitGame(Exception):
    """The human asked to leave (``quit``, Ctrl-D): save and stop."""


class Resumed(Exception):
    """Raised by :meth:`Screen.resumed` (the ``SIGCONT`` handler of :func:`main`) while
    a line is read: the program came back from Ctrl-Z (``fg``).  :meth:`Screen.ask` draws
    the screen again and asks again (the line typed before Ctrl-Z is gone: the terminal
    dropped it), with the terminal's modes set anew by readline."""


# --------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------

class _Console(Console):
    """rich's Console, but a broken pipe (the screen's reader gone: ``ddsolver-play |
    head``) is a :exc:`BrokenPipeError` for the game to save and the command to give
    status 141 (:class:`ddsolver.cli.StatusCommand`), not rich's own ``SystemExit(1)``
    ("the game cannot be saved")."""

    def on_broken_pipe(self) -> None:
        """:raises BrokenPipeError: always; nothing more is written to the screen."""
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


class Screen:
    """Writes whole screens to a :class:`rich.console.Console` and reads answers.

    :param console: where to draw (default: the terminal).
    :param reader: a function ``prompt -> line`` (default: the console's ``input``).
    :param ascii: write suits as ``S H D C`` (default: when the console cannot encode
        ``♠``).
    """

    def __init__(self, console: Optional[Console] = None,
                 reader: Optional[Callable[[str], str]] = None, ascii: Optional[bool] = None):
        self.console = console or _Console(highlight=False)
        self.reader = reader
        if ascii is None:
            try:
                "♠♥♦♣".encode(self.console.encoding or "ascii")
                ascii = False
            except (UnicodeEncodeError, LookupError):
                ascii = True
        self.suit = _ASCII if ascii else _UNICODE
        self._terminal = console is None and _is_terminal()
        self._height: Optional[int] = None
        #: what was written since the screen was last cleared (drawn again after fg)
        self._since_clear: List[tuple] = []
        self._cleared = False
        self._reading = False
        #: the signal of catch_resume whose handler does nothing: held back from when
        #: resumed() raises until ask() has caught it
        self._quiet: Optional[int] = None

    # -- text of things --------------------------------------------------------------------
    def card(self, card: Card) -> str:
        return f"{self.suit[card.suit]}{_RANKS[card.rank]}"

    def hand(self, hand: Optional[Hand]) -> str:
        if hand is None:
            return ""
        parts = []
        for s in _SUITS:
            ranks = "".join(_RANKS[c.rank] for c in sorted(
                (c for c in hand if c.suit == s), key=lambda c: -c.rank))
            parts.append(f"{self.suit[s]}{ranks or '-'}")
        return " ".join(parts)

    def strain(self, strain: Strain) -> str:
        return "NT" if strain == Strain.NOTRUMP else self.suit[Suit(int(strain))]

    def call(self, call) -> str:
        if call.is_bid:
            return f"{call.level}{self.strain(call.strain)}"
        return str(call)

    def contract(self, contract) -> str:
        if contract is None:
            return "passed out"
        x = {0: "", 1: " doubled", 2: " redoubled"}[contract.doubled]
        who = "" if contract.declarer is None else f" by {_NAMES[contract.declarer]}"
        return f"{contract.level}{self.strain(contract.strain)}{x}{who}"

    def text(self, s: str) -> str:
        """Suit symbols of explanations in this screen's alphabet."""
        if self.suit is _ASCII:
            for suit, sym in _UNICODE.items():
                s = s.replace(sym, _ASCII[suit])
        return s

    # -- drawing --------------------------------------------------------------------------
    def show(self, lines: List[str], clear: bool = True) -> None:
        if clear:
            self._since_clear, self._cleared = [], True
        self._since_clear.append(("show", list(lines)))
        self._show(lines, clear)

    def _show(self, lines: List[str], clear: bool) -> None:
        if clear:
            self.console.clear()
        for line in lines:
            out = escape(line)
            if self.suit is _UNICODE:
                out = out.replace("♥", "[red]♥[/red]").replace("♦", "[red]♦[/red]")
            self.console.print(out, soft_wrap=True)

    @property
    def height(self) -> Optional[int]:
        """The terminal's lines now (it may have been resized), or ``None`` when not
        drawing to a terminal; a value set overrides it (tests)."""
        if self._height is not None:
            return self._height
        if self._terminal:
            return shutil.get_terminal_size((80, 24)).lines
        return None

    @height.setter
    def height(self, value: Optional[int]) -> None:
        self._height = value

    def show_with(self, lines: List[str], messages: List[str]) -> None:
        """Show ``lines`` (a table) with ``messages`` below them; messages that would push
        the table off a terminal of :attr:`height` lines (the whole auction explained, the
        help) are shown on a screen of their own first, until Enter.

        :raises QuitGame: for ``quit`` or the end of the input at that pause.
        """
        if messages and self.height is not None \
                and len(lines) + len(messages) + 1 > self.height:
            self.show(messages)
            if self.ask("Press Enter to return to the table: ").strip().lower() == "quit":
                raise QuitGame
            messages = []
        self.show(lines + messages)

    def say(self, text: str) -> None:
        """Print a message as it is (no markup; long lines wrap in the terminal)."""
        self._since_clear.append(("say", text))
        self._say(text)

    def _say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    def redraw(self) -> None:
        """Write again what was written since the screen was last cleared (after Ctrl-Z
        and ``fg`` the shell's lines are below it): the screen cleared first if it was."""
        if self._cleared:
            self.console.clear()
        else:
            self.console.print()
        for what, arg in self._since_clear:
            if what == "show":
                self._show(arg, False)
            else:
                self._say(arg)

    def catch_resume(self) -> None:
        """Draw the screen again when the program comes back from Ctrl-Z (``fg``).

        ``SIGCONT`` may be taken by any of the process's threads (numpy's, the solver's),
        and then it does not interrupt the main thread's read: a thread started here
        learns of it through the signals' wake-up file (:func:`signal.set_wakeup_fd`) and,
        while a line is read, sends ``SIGUSR1`` to the main thread, which wakes it: the
        handler :meth:`resumed` interrupts the read.

        Python runs the handlers of the signals that arrived in the order of their numbers
        and stops at the first that raises; Python 3.9 and 3.10 run those left, or one that
        arrives next, inside input() with its exception set: a ``SystemError``.  So
        :meth:`resumed` is the handler of the later of the two (``SIGCONT`` on Linux,
        ``SIGUSR1`` on macOS), the other's does nothing, and the other is blocked from when
        :meth:`resumed` raises until :meth:`ask` has caught it."""
        r, w = os.pipe()
        os.set_blocking(w, False)
        first, last = sorted([signal.SIGCONT, signal.SIGUSR1])
        signal.signal(first, lambda signum, frame: None)   # SIGCONT: heard by the file
        signal.signal(last, self.resumed)
        self._quiet = first
        signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        main = threading.main_thread().ident

        def forward() -> None:
            while True:
                if signal.SIGCONT in os.read(r, 64) and self._reading:
                    signal.pthread_kill(main, signal.SIGUSR1)

        threading.Thread(target=forward, name="ddsolver-play fg", daemon=True).start()

    def resumed(self, signum=None, frame=None) -> None:
        """The signal handler of :meth:`catch_resume`: :exc:`Resumed` while a line is read,
        so that :meth:`ask` draws the screen again; nothing otherwise (the computers
        thinking go on).

        :raises Resumed: while :meth:`ask` waits for a line.
        """
        if self._reading:
            if self._quiet is not None:
                signal.pthread_sigmask(signal.SIG_BLOCK, [self._quiet])
            raise Resumed

    def ask(self, prompt: str) -> str:
        """The line typed after ``prompt``; a line that is not text in the terminal's
        encoding (read with ``surrogateescape``: see :func:`main`) is asked again.

        :raises QuitGame: at the end of the input (Ctrl-D).
        """
        while True:
            try:
                self._reading = True
                if self.reader is not None:
                    line = self.reader(prompt)
                elif self.console.file is sys.stdout:
                    if self._terminal:
                        _discard_typeahead()
                    # the prompt given to input(): readline (line editing) then knows it
                    # is there and does not draw the line over it
                    self.console.file.flush()
                    line = input(prompt)
                else:
                    line = self.console.input(escape(prompt))
            except EOFError:
                raise QuitGame from None
            except Resumed:
                self._reading = False
                if self._quiet is not None:
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, [self._quiet])
                self.redraw()
                continue
            finally:
                self._reading = False
            if _encodable(line):
                return line
            encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
            self.say(f"That line is not text in the terminal's encoding ({encoding}): "
                     f"type it again.")

    @staticmethod
    def wrap(text: str, indent: str = "") -> List[str]:
        return textwrap.wrap(text, WIDTH - 1, subsequent_indent=indent) or [""]


def auction_lines(screen: Screen, dealer: Seat, calls, to_act: Optional[Seat]) -> List[str]:
    """The auction as a table with columns West North East South."""
    order = [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
    cells = [""] * order.index(dealer) + [screen.call(c) for c in calls]
    if to_act is not None:
        cells.append("?")
    lines = ["  " + "".join(f"{_NAMES[s]:<8}" for s in order)]
    for i in range(0, max(len(cells), 1), 4):
        lines.append("  " + "".join(f"{c:<8}" for c in cells[i:i + 4]).rstrip())
    return lines


def _pad(line: str, col: int, text: str) -> str:
    if len(line) < col:
        line += " " * (col - len(line))
    return line[:col] + text + line[col + len(text):]


# --------------------------------------------------------------------------------------
# The human
# --------------------------------------------------------------------------------------

class HumanPlayer:
    """The human at the table (a :class:`~ai.players.Player`): draws the view it is given
    and asks for a call or a card until it gets a legal one.

    :param screen: the :class:`Screen`.
    :param header: a function giving the lines above the table (board, running score).
    :param system: the bidding system (explanations, suggestions).
    :param level: the computers' strength; ``"easy"`` shows suggestions.
    """

    def __init__(self, screen: Screen, header: Callable[[], List[str]], system,
                 level: str = "medium"):
        self.screen = screen
        self.header = header
        self.system = system
        self.level = level
        self.messages: List[str] = []
        self._card_hinter = None
        self._refused_at: Optional[int] = None
        self.last_trick: Optional[str] = None

    # -- the table tells us things (public information only) ------------------------------
    def observe(self, event: TableEvent) -> None:
        s = self.screen
        if event.kind == "card" and event.trick_winner is not None:
            trick = event.progress.play[-4:]
            self.last_trick = (", ".join(f"{s.card(c)} {seat.letter}" for seat, c in trick)
                               + f" - {_NAMES[event.trick_winner]} won")
        elif event.kind == "claim_refused":
            self._refused_at = len(event.progress.play)
            self.messages.append(f"{_NAMES[event.seat]}'s claim of {event.tricks} trick(s) "
                                 f"does not hold against every defence: play goes on.")
        elif event.kind == "claim":
            self.messages.append(f"{_NAMES[event.seat]} claimed {event.tricks} of the "
                                 f"remaining tricks: accepted.")

    def new_board(self) -> None:
        self.messages = []
        self.last_trick = None
        self._refused_at = None

    # -- explanations ------------------------------------------------------------------------
    def _explain(self, view: SeatView, arg: str) -> List[str]:
        calls, exps = view.calls, view.explanations or ()
        s = self.screen
        if not calls and not arg:
            return ["No call has been made yet."]
        if not arg:
            i = len(calls) - 1
        elif arg.isascii() and arg.isdigit():
            i = (_small_number(arg) or 10 ** 4) - 1
            if not 0 <= i < len(calls):
                shown = arg if len(arg) <= 20 else arg[:20] + "..."
                return [f"There is no call number {shown}: the auction has {len(calls)}."]
        else:
            try:
                call = Call.from_str(arg)
            except BridgeError:
                return [f"'{_quoted(arg)}' is neither a call nor a call number."]
            found = [k for k, c in enumerate(calls) if c == call]
            if found:
                i = found[-1]
            elif not view.auction_finished:
                try:
                    exp = self.system.explain(view.auction, call)
                except BridgeError as exc:
                    return [f"{s.call(call)} is not legal now: {exc}."]
                return s.wrap(f"If you bid {s.call(call)} now: {s.text(exp.text)}", "  ")
            else:
                return [f"{s.call(call)} was not called in this auction."]
        seat = view.dealer.next(i)
        text = s.text(exps[i].text) if i < len(exps) else "(no explanation)"
        return s.wrap(f"Call {i + 1}: {_NAMES[seat]} {s.call(calls[i])} - {text}", "  ")

    def _whole_auction(self, view: SeatView) -> List[str]:
        s = self.screen
        out = []
        exps = view.explanations or ()
        start = max(0, len(view.calls) - 12)
        for i in range(start, len(view.calls)):
            text = s.text(exps[i].text) if i < len(exps) else ""
            line = f"{i + 1:>2} {_NAMES[view.dealer.next(i)]:<5} {s.call(view.calls[i]):<5} {text}"
            out.append(line[:WIDTH - 1])
        return out or ["No call has been made yet."]

    # -- the auction --------------------------------------------------------------------------
    def call(self, view: SeatView) -> Call:
        s = self.screen
        hint = None
        if self.level == "easy":
            hint = self.system.hint(view.original_hand, view.auction, view.vulnerability)
        while True:
            lines = self.header() + [""]
            lines.append(f"Your hand (South): {s.hand(view.original_hand)}   "
                         f"({view.original_hand.hcp} HCP)")
            lines.append("")
            lines += auction_lines(s, view.dealer, view.calls, view.seat)
            lines.append("")
            if view.calls:
                lines += self._explain(view, "")
            if hint is not None:
                lines += s.wrap(f"Suggested: {s.call(hint.call)} - "
                                f"{s.text(hint.explanation.text)}", "  ")
            messages, self.messages = self.messages, []
            s.show_with(lines, messages)
            answer = s.ask("Your call (? for help): ").strip()
            word, _, arg = answer.partition(" ")
            low = word.lower()
            if self._common_command(low, arg, view):
                continue
            if low in ("h", "hint"):
                if hint is None:
                    self.messages = ["Suggestions are given at the easy level only."]
            elif not answer:
                self.messages = ["Type a call (1C..7NT, p, x, xx) or ? for help."]
            else:
                try:
                    call = Call.from_str(answer)
                except BridgeError:
                    self.messages = [f"'{_quoted(answer)}' is not a call. Type ? for help."]
                    continue
                if not view.auction.is_legal(call):
                    self.messages = [f"{s.call(call)} is not legal now"
                                     f"{self._why_illegal(view.auction, call)}."]
                    continue
                return call

    def _common_command(self, low: str, arg: str, view: SeatView) -> bool:
        """Carry out a command the auction and the play share (``?``/``help``, ``quit``,
        ``e``/``explain`` [call], ``auction``) given its lower-cased word ``low`` and the
        rest of the line ``arg``; True when it was one of them.  Raises
        :class:`QuitGame` on ``quit``."""
        if low in ("?", "help"):
            self.messages = HELP.splitlines()
        elif low == "quit":
            raise QuitGame
        elif low in ("e", "explain"):
            self.messages = self._explain(view, arg.strip())
        elif low == "auction":
            self.messages = self._whole_auction(view)
        else:
            return False
        return True

    def _why_illegal(self, auction: Auction, call: Call) -> str:
        why = auction.why_illegal(call)
        if why is None:
            return ""
        # the bids it names in the screen's notation (1♠, not 1S)
        return ": " + re.sub(r"\b[1-7](?:NT|[CDHS])\b",
                             lambda b: self.screen.call(Call.from_str(b.group(0))), why)

    # -- the play -----------------------------------------------------------------------------
    def _table_lines(self, view: SeatView) -> List[str]:
        s = self.screen
        declarer, dummy = view.declarer, view.dummy
        mine = view.seat
        lines = [""] * 8

        def label(seat: Seat) -> str:
            role = ""
            if seat == declarer:
                role = " (declarer)"
            elif seat == dummy:
                role = " (dummy)"
            you = " - you" if seat == Seat.SOUTH else ""
            return f"{_NAMES[seat]}{role}{you}"

        def cards(seat: Seat) -> str:
            if seat == mine:
                return s.hand(view.hand)
            if seat == dummy and view.dummy_hand is not None:
                return s.hand(view.dummy_hand)
            n = view.cards_held(seat)
            return f"({n} card{'' if n == 1 else 's'})"

        lines[0] = _pad(lines[0], 24, label(Seat.NORTH))
        lines[1] = _pad(lines[1], 24, cards(Seat.NORTH))
        lines[3] = _pad(lines[3], 0, label(Seat.WEST))
        lines[3] = _pad(lines[3], 52, label(Seat.EAST))
        lines[4] = _pad(lines[4], 0, cards(Seat.WEST))
        lines[4] = _pad(lines[4], 52, cards(Seat.EAST))
        lines[6] = _pad(lines[6], 24, label(Seat.SOUTH))
        lines[7] = _pad(lines[7], 24, cards(Seat.SOUTH))
        where = {Seat.NORTH: (2, 31), Seat.WEST: (3, 27), Seat.EAST: (3, 35),
                 Seat.SOUTH: (5, 31)}
        for seat, c in view.current_trick:
            row, col = where[seat]
            lines[row] = _pad(lines[row], col, s.card(c))
        return [ln.rstrip() for ln in lines]

    def play_lines(self, view: SeatView) -> List[str]:
        s = self.screen
        c = view.contract
        side = "N-S" if c.declarer.side == Side.NS else "E-W"
        ns = sum(1 for w in view.trick_winners if w.side == Side.NS)
        ew = len(view.trick_winners) - ns
        lines = self.header()
        lines.append(f"Contract {s.contract(c)}: {side} need {c.tricks_needed} tricks.  "
                     f"Tricks N-S {ns}, E-W {ew}")
        lines.append("")
        lines += self._table_lines(view)
        lines.append("")
        calls = " ".join(s.call(x) for x in view.calls)
        lines += s.wrap(f"Auction ({_NAMES[view.dealer]} dealt): {calls}", "  ")[:2]
        if self.last_trick:
            lines.append(f"Last trick: {self.last_trick}")
        return lines

    def card(self, view: SeatView):
        s = self.screen
        to_play = view.to_play
        who = _NAMES[to_play] + (" (dummy)" if to_play == view.dummy else "")
        legal = view.legal_cards
        while True:
            messages, self.messages = self.messages, []
            s.show_with(self.play_lines(view), messages)
            legal_text = " ".join(p for p in s.hand(Hand(legal)).split()
                                  if not p.endswith("-"))
            answer = s.ask(f"Card from {who} [{legal_text}] (? help): ").strip()
            word, _, arg = answer.partition(" ")
            low = word.lower()
            if self._common_command(low, arg, view):
                continue
            if low in ("h", "hint"):
                self.messages = self._card_hint(view)
            elif low == "claim":
                left = 13 - len(view.played) // 4
                if self._refused_at == len(view.played):
                    self.messages = ["Your claim was just refused: play a card (you may "
                                     "claim again after it)."]
                    continue
                if not arg.strip():
                    return Claim(left)
                tricks = _small_number(arg.strip())
                if tricks is None or tricks > left:
                    self.messages = [f"Claim how many of the {left} remaining tricks? "
                                     f"(claim, or claim 0..{left})"]
                    continue
                return Claim(tricks)
            elif not answer:
                if len(legal) == 1:
                    return legal[0]
                self.messages = ["Type a card (SA, h10, Q...) or ? for help."]
            else:
                card = self._read_card(answer, legal, view)
                if isinstance(card, Card):
                    return card
                self.messages = [card]

    def _read_card(self, text: str, legal, view: Optional[SeatView] = None
                   ) -> "Card | str":
        """The card ``text`` names among ``legal``, or the message saying why it cannot be
        played (not a card, played already, not in the hand to play, not following
        suit); ``view`` gives the hand to play and the cards played."""
        s = self.screen
        t = text.strip().upper().replace("10", "T")
        if len(t) == 1 and t in _RANKS[2:]:
            matches = [c for c in legal if _RANKS[c.rank] == t]
            if len(matches) == 1:
                return matches[0]
            if not matches:
                return f"You have no legal card of rank {t}."
            return f"Which {t}? Give the suit too (e.g. {s.card(matches[0])})."
        try:
            card = Card.from_str(text.strip().replace("10", "T"))
        except BridgeError:
            return f"'{_quoted(text)}' is not a card. Type ? for help."
        if card in legal:
            return card
        if view is not None:
            if any(c == card for _, c in view.played):
                return f"{s.card(card)} has been played already."
            to_play = view.to_play
            hand = view.dummy_hand if to_play == view.dummy else view.hand
            if hand is not None and card not in hand:
                who = "You do" if to_play == view.seat else f"{_NAMES[to_play]} does"
                return f"{who} not hold {s.card(card)}."
        held = {c.suit for c in legal}
        if len(held) == 1 and card.suit not in held:
            suit = next(iter(held))
            return f"You must follow suit: play a {s.suit[suit]}."
        return f"{s.card(card)} is not yours to play here."

    def _card_hint(self, view: SeatView) -> List[str]:
        if self.level != "easy":
            return ["Suggestions are given at the easy level only."]
        if self._card_hinter is None:
            from ai.robot import ComputerPlayer
            self._card_hinter = ComputerPlayer("easy", threads=1)
        choice = self._card_hinter.hint(view)
        return [f"Suggested: {self.screen.card(choice.card)}"]

    def close(self) -> None:
        if self._card_hinter is not None:
            self._card_hinter.close()


# --------------------------------------------------------------------------------------
# The game around it
# --------------------------------------------------------------------------------------

class TerminalGame:
    """One session at the terminal: plays ``game`` (a Chicago match or the boards of the
    day) to its end or until the human leaves; the game is saved after every call and card.

    :param game: the :class:`~ai.chicago.ChicagoMatch` or :class:`~ai.daily.DailyBoards`.
    :param screen: the :class:`Screen`.
    :param level: the computers' strength.
    :param seed: seeds the computers (reproducible games), or ``None``.
    :param leaderboard: the leaderboard file for the boards of the day (``None``: the
        default one).
    :param computer_settings: overrides of the computers' settings (e.g. ``threads=1``).
    """

    def __init__(self, game: BoardSeries, screen: Screen, *, level: str = "medium",
                 seed=None, leaderboard=None, pbn: Optional[str] = None,
                 computer_settings: Optional[dict] = None):
        self.game = game
        self.screen = screen
        self.level = level
        self.seed = seed
        self.leaderboard = leaderboard
        self.pbn = pbn
        self.computer_settings = dict(computer_settings or {})
        self.human = HumanPlayer(screen, self.header, game.system, level)
        #: what the leaderboard said of the day's result (recorded as the last board ends)
        self._recorded: Optional[List[str]] = None
        #: the day's result could not be written to the leaderboard (see record_daily)
        self.unrecorded = False

    # -- text -------------------------------------------------------------------------------
    def title(self) -> str:
        g = self.game
        if isinstance(g, DailyBoards):
            return f"Boards of the day {g.date}"
        return "Chicago"

    def header(self) -> List[str]:
        g = self.game
        if g.is_finished:
            return [self.title()]
        vul = _VUL[g.vulnerability.pbn]
        lines = [f"{self.title()} - board {g.board_number} of 4 - {_NAMES[g.dealer]} "
                 f"deals - {vul}"]
        lines.append(self.score_line())
        return lines

    def score_line(self) -> str:
        g = self.game
        if isinstance(g, ChicagoMatch):
            ns, ew = g.totals
            pn, pe = g.score.part_scores
            return f"Score N-S {ns}, E-W {ew}; part-scores N-S {pn}, E-W {pe}"
        return f"Your total so far: {g.total:+d}" if g.results else "Your total so far: 0"

    def board_summary(self, r: BoardResult) -> List[str]:
        s = self.screen
        g = self.game
        number = g.score.boards[-1].board if isinstance(g, ChicagoMatch) else len(g.results)
        lines = [f"{self.title()} - board {number} of 4 is over", ""]
        if r.passed_out:
            lines.append("All four players passed: the board is passed out.")
            if isinstance(g, ChicagoMatch):
                lines.append("The same dealer deals again.")
        else:
            lines.append(f"{s.contract(r.contract)}: declarer's side took {r.tricks} "
                         f"tricks ({r.result_text}).")
            if r.claim is not None:
                lines.append(f"{_NAMES[r.claim[0]]} claimed {r.claim[1]} of the remaining "
                             f"tricks.")
            if isinstance(g, ChicagoMatch):
                ns, ew = g.board_points()[-1]
                lines.append(f"Chicago points: N-S {ns}, E-W {ew}.")
            else:
                lines.append(f"Score for N-S: {r.score:+d}.")
        lines.append("")
        lines.append(f"{'':>22}North  {s.hand(r.deal[Seat.NORTH])}")
        lines.append(f"West  {s.hand(r.deal[Seat.WEST]):<32} East  "
                     f"{s.hand(r.deal[Seat.EAST])}")
        lines.append(f"{'':>22}South  {s.hand(r.deal[Seat.SOUTH])}")
        lines.append("")
        calls = " ".join(s.call(x) for x in r.calls)
        lines += s.wrap(f"Auction ({_NAMES[r.dealer]} dealt): {calls}", "  ")[:3]
        lines.append("")
        lines.append(self.score_line())
        return lines

    def final_lines(self) -> List[str]:
        g = self.game
        s = self.screen
        lines = [f"{self.title()} - finished", ""]
        for i, r in enumerate(g.results):
            if isinstance(g, ChicagoMatch):
                ns, ew = g.board_points()[i]
                pts = f"N-S {ns:>4}  E-W {ew:>4}"
                number = g.score.boards[i].board
            else:
                pts = f"N-S {r.score:+5d}"
                number = i + 1
            what = "passed out" if r.passed_out else \
                f"{s.contract(r.contract):<22} {r.result_text}"
            lines.append(f"  Board {number}: {what:<34} {pts}")
        lines.append("")
        if isinstance(g, ChicagoMatch):
            ns, ew = g.totals
            lines.append(f"Totals: N-S {ns}, E-W {ew}.")
            lines.append(f"Your final score: {g.final_score()} "
                         f"(your side's points minus theirs, never below zero).")
        else:
            lines.append(f"Your score today: {g.total:+d}")
        return lines

    # -- running ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end.  Returns the exit status: 0 finished or left with ``quit``,
        130 after Ctrl-C (the game saved either way), 1 if the game cannot be saved.

        :raises BrokenPipeError: when the screen's reader has gone (the game saved first).
        :raises ddsolver.cli.ClosedStreamError: when standard input or output was closed at
            the start (the game saved first).
        """
        players = None
        try:
            players = computer_table(self.human, level=self.level, seed=self.seed,
                                     **self.computer_settings)
            while not self.game.is_finished:
                self.human.new_board()
                result = self.game.play(players, observer=self.human.observe)
                self.screen.show(self.board_summary(result) + self.human.messages)
                if not self.game.is_finished:
                    answer = self.screen.ask("Press Enter for the next board "
                                             "(quit to stop; the match is saved): ")
                    if answer.strip().lower() == "quit":
                        raise QuitGame
                else:
                    if isinstance(self.game, DailyBoards):
                        # recorded now: leaving at the next question (every hand seen)
                        # must not leave the day open for another try
                        self._recorded = self.record_daily()
                        while self.unrecorded:
                            # (and if the human leaves, the next start records it)
                            for line in self._recorded:
                                self.screen.say(line)
                            answer = self.screen.ask(
                                "Press Enter to try again (quit: recorded at the next "
                                "ddsolver-play --daily): ")
                            if answer.strip().lower() == "quit":
                                raise QuitGame
                            self._recorded = self.record_daily()
                    self.screen.ask("Press Enter to see the final score: ")
            self.finish()
            return 0
        except QuitGame:
            self.game.save()
            if self.unrecorded:
                self.screen.say(f"\nSaved to {self.game.path}: the result goes on the "
                                f"leaderboard at the next ddsolver-play --daily.")
            else:
                self.screen.say(f"\nSaved to {self.game.path}. Run the same command "
                                f"again to resume.")
            return 0
        except KeyboardInterrupt:
            self.game.save()
            self.screen.say(f"\nInterrupted. Saved to {self.game.path}. Run the "
                                      f"same command again to resume.")
            return 130
        except BrokenPipeError:
            # the screen's reader has gone: saved as after Ctrl-C; the command's status
            # is then 141 (ddsolver.cli.StatusCommand)
            self.game.save()
            raise
        except ClosedStreamError:
            # started with standard input or output closed: saved, then status 2 with
            # one line saying which (ddsolver.cli.StatusCommand)
            self.game.save()
            raise
        except OSError as exc:
            self.screen.say(f"\nThe game cannot be saved to {self.game.path}: "
                                      f"{exc}")
            return 1
        finally:
            if players is not None:
                close_table(players)
            self.human.close()

    def finish(self) -> None:
        lines = self.final_lines()
        g = self.game
        if self.pbn:
            try:
                # as ddsolver.write_pbn: atomically (the old file intact on failure)
                atomic_write_bytes(self.pbn, pbn_bytes(g.to_pbn()))
                lines.append(f"The boards are in {self.pbn} (PBN).")
            except OSError as exc:
                lines.append(f"Could not write {self.pbn}: {exc}")
        if isinstance(g, DailyBoards):
            lines.append("")
            lines += self._recorded if self._recorded is not None else self.record_daily()
        self.screen.show(lines)

    def record_daily(self) -> List[str]:
        """Put the day's result on the leaderboard; the lines saying so, the place and
        the first six.  :attr:`unrecorded` is then true if the result could not be
        written (the leaderboard busy beyond its timeout, or not writable)."""
        g = self.game
        name = g.settings.get("name")
        self.unrecorded = False
        if g.settings.get("practice") or not name:
            return ["Practice: the result is not on the leaderboard."]
        out = []
        recorded = False
        try:
            with Leaderboard(self.leaderboard) as lb:
                try:
                    lb.record(name, g.date, g.total, g.result_texts())
                    out.append(f"Leaderboard entry: {name}, {g.date}, {g.total:+d}.")
                except DuplicateEntryError:
                    out.append(f"{name} already has an entry for {g.date}; this game is "
                               f"not recorded.")
                recorded = True
                entries = lb.day(g.date)
                rank = lb.rank(name, g.date)
        except LeaderboardError as exc:
            self.unrecorded = not recorded
            return [f"The leaderboard cannot be used: {exc}"]
        out.append(f"Your place: {rank} of {len(entries)}.")
        for i, e in enumerate(entries[:6]):
            # 20 columns, not characters: a Chinese name or an emoji takes two a
            # character, a combining accent none
            out.append(f"  {i + 1}. {set_cell_size(e.name, 20)} {e.score:+6d}")
        return out


# --------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------

def _quoted(text: str, limit: int = 30) -> str:
    """What the human typed, as a message quotes it: at most ``limit`` characters (then
    ``...``), control and format characters written as ``\\x1b``, ``\\u202e``: an arrow
    key's escape sequence, a screen-clearing one or a right-to-left override sent back to
    the terminal would move the cursor, clear the screen or reverse the line."""
    short = text[:limit]
    out = "".join(c.encode("unicode_escape").decode("ascii")
                  if unicodedata.category(c) in ("Cc", "Cf") else c for c in short)
    return out + ("..." if len(text) > limit else "")


def _small_number(text: str) -> Optional[int]:
    """``text`` as a number of at most four ASCII digits, else ``None`` (``str.isdigit``
    also takes ``²`` and ``٣``, which ``int`` refuses, and thousands of digits are beyond
    ``int``'s limit)."""
    if text.isascii() and text.isdigit() and len(text) <= 4:
        return int(text)
    return None


#: The terminal the screens are drawn for (columns, lines): the table, the auction and a
#: prompt fit in it.
MIN_TERMINAL = (80, 24)


def _too_small(size) -> Optional[str]:
    """What to tell the human of a terminal of ``size`` (columns, lines) smaller than
    :data:`MIN_TERMINAL`, or ``None``: lines would wrap and the table scroll away."""
    columns, lines = size
    if columns >= MIN_TERMINAL[0] and lines >= MIN_TERMINAL[1]:
        return None
    return (f"This terminal is {columns} x {lines}; the game is drawn for "
            f"{MIN_TERMINAL[0]} x {MIN_TERMINAL[1]} or larger (lines would wrap and the "
            f"table scroll away): enlarge the window, or play on.")


def _discard_typeahead() -> None:
    """Drop the keys typed before the question was asked (while the computers thought):
    a stray Enter would otherwise play a forced card or skip to the next board unseen.
    Only in a terminal (a piped file's lines are answers, read in turn)."""
    try:
        import termios
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, AttributeError, OSError, ValueError):
        pass    # no termios (Windows), or standard input closed or not a terminal


def _is_terminal() -> bool:
    """Standard input and output are a terminal (not a pipe, a file or closed)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def _forgiving_streams() -> None:
    """Standard input read with ``surrogateescape`` (a line in another encoding than the
    terminal's, e.g. Latin-1 bytes in a UTF-8 locale, is then refused by
    :meth:`Screen.ask` instead of a :exc:`UnicodeDecodeError`), standard output written
    with ``replace`` (a character the terminal's encoding cannot show, a CJK name on the
    leaderboard in a Latin-1 locale or a file name that is not UTF-8, is a ``?`` instead
    of a :exc:`UnicodeEncodeError`); in a terminal, line editing (:mod:`readline`)."""
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "replace")):
        try:
            stream.reconfigure(errors=errors)
        except (AttributeError, OSError, ValueError):   # not a text file (a test's), closed
            pass
    if _is_terminal():
        # line editing (the arrow keys move in the line instead of typing their escape
        # sequences; Up brings back the last line) and the prompt drawn again after
        # Ctrl-Z and fg: the builtin input() uses readline once it is imported
        try:
            import readline  # noqa: F401
        except ImportError:     # pragma: no cover - a Python built without it
            pass


def _ask_yes(screen: Screen, question: str, default: bool) -> bool:
    while True:
        answer = screen.ask(question + (" [Y/n] " if default else " [y/N] ")).strip().lower()
        if not answer:
            return default
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False


def _ask_name(screen: Screen) -> Optional[str]:
    """The name typed for the leaderboard; ``None`` for ``quit`` (the human leaves)."""
    while True:
        answer = screen.ask("Your name for the leaderboard (quit to leave): ")
        if answer.strip().lower() == "quit":
            return None
        try:
            return _check_name(answer)
        except LeaderboardError as exc:
            screen.say(str(exc))


def _record_late(game: DailyBoards, leaderboard, screen: Screen) -> None:
    """Put on the leaderboard a finished day that is not there: it could not be written
    as its last board ended (busy beyond the timeout, not writable) or the program was
    stopped in between.  Nothing for practice, or a day already recorded.

    :raises LeaderboardFileError: if it cannot be written now either.
    """
    name = game.settings.get("name")
    if game.settings.get("practice") or not isinstance(name, str) or not name:
        return
    try:
        with Leaderboard(leaderboard) as lb:
            if lb.entry(name, game.date) is not None:
                return
            lb.record(name, game.date, game.total, game.result_texts())
    except DuplicateEntryError:
        return
    except LeaderboardFileError as exc:
        raise LeaderboardFileError(
            f"{name}'s boards of the day {game.date} are finished but not on the "
            f"leaderboard yet, and it cannot be written now ({exc}): try again later"
        ) from None
    except LeaderboardError:    # a name or results the leaderboard refuses (a damaged save)
        return
    screen.say(f"{name}'s boards of the day {game.date} were not on the leaderboard: "
               f"recorded now ({game.total:+d}).")


def open_game(*, daily: bool, level: str, seed, save: str, name: Optional[str],
              new: bool, screen: Screen, leaderboard=None, date=None,
              keep_foreign: bool = False, given=()) -> Optional[BoardSeries]:
    """The game to play: the saved one when the human wants to resume it, else a new one
    (saved to ``save``).  ``None`` when the human declines to play.

    :raises LeaderboardError: for a ``name`` that is not 1 to 40 printable characters
        (checked first, before anything is read or asked); :class:`LeaderboardFileError`
        when ``daily`` and ``save`` holds finished boards of the day that are not on the
        leaderboard (it could not be written as they ended) and still cannot be: they
        are recorded before anything else.
    :param given: the options among ``"level"`` and ``"seed"`` that the human gave: when
        a saved Chicago match is offered for resuming and differs from them, the question
        says so (they apply to a new match only; the saved one keeps its own).
    :param keep_foreign: refuse (rather than replace) a ``save`` file that is not a
        ddsolver saved game, even with ``new``: for a file the human named (``--save``),
        which may be a hand record or anything else.
    :raises SavedGameError: if ``save`` holds an unfinished game of the other kind (a
        Chicago match when ``daily``, the boards of the day otherwise), or today's
        unfinished boards of the day under another ``name``, and ``new`` is false: it is
        not replaced without being asked to; with ``keep_foreign``, if it
        is not a ddsolver saved game; if it cannot be read; :class:`SavePathError` (before
        anything is read or asked) if it cannot be written, e.g. in a folder that does not
        exist: the folder is not created, as ``ddsolver-play --save`` refuses it.
    """
    if name is not None:
        name = _check_name(name)
    check_save_path(save)
    saved = finished = None
    if os.path.exists(save) and (keep_foreign or not new):
        try:
            saved = load_game(save)
        except SavePathError:
            raise  # a device, FIFO or huge file: never replaced, never read
        except ForeignFileError as exc:
            if keep_foreign:
                raise SavedGameError(
                    f"{save} exists and is not a ddsolver saved game ({exc.reason}): it is "
                    f"left untouched (a saved game would overwrite it); give the name of a "
                    f"new file or of a ddsolver saved game") from None
            screen.say(f"The saved game cannot be used ({exc}); starting a new one.")
        except SavedGameError as exc:
            if not new:
                screen.say(f"The saved game cannot be used ({exc}); starting a new one.")
        except OSError as exc:
            raise SavedGameError(f"{save} cannot be read ({exc.strerror or exc})") from None
        if saved is not None and (new or saved.is_finished):
            finished = saved if saved.is_finished else None
            saved = None
    other = ChicagoMatch if daily else DailyBoards
    if isinstance(saved, other):
        what = "an unfinished Chicago match" if daily else "unfinished boards of the day"
        raise SavedGameError(
            f"{save} holds {what}: resume it "
            f"{'without' if daily else 'with'} --daily, or give --new to replace it")
    if daily:
        today = (date or local_today()).isoformat()
        if isinstance(finished, DailyBoards):
            _record_late(finished, leaderboard, screen)
        owner = str(saved.settings.get("name")) if isinstance(saved, DailyBoards) else None
        if (isinstance(saved, DailyBoards) and saved.date == today and name is not None
                and not _same_name(owner, name)):
            raise SavedGameError(
                f"{save} holds {owner}'s unfinished boards of the day: give --new to "
                f"replace them, or --save another file")
        if isinstance(saved, DailyBoards) and saved.date == today and (
                name is None or _same_name(owner, name)):
            if _ask_yes(screen, f"Resume today's boards ({len(saved.results)} of 4 "
                                f"played)?", True):
                return saved
        name = name or _ask_name(screen)
        if name is None:
            return None
        practice = False
        try:
            with Leaderboard(leaderboard) as lb:
                mine = lb.entry(name, today)
        except LeaderboardError as exc:
            screen.say(f"The leaderboard cannot be used: {exc}")
            mine = None
        if mine is not None:
            screen.say(f"{name} has played today's boards already "
                                 f"(score {mine.score:+d}).")
            if not _ask_yes(screen, "Play them again for practice (not recorded)?", False):
                return None
            practice = True
        return DailyBoards(today, settings={"name": name, "practice": practice,
                                            "level": "medium"}, path=save)
    if isinstance(saved, ChicagoMatch):
        ns, ew = saved.totals
        saved_level = saved.settings.get("level")
        saved_level = saved_level if saved_level in LEVELS else "medium"
        unused = []
        if "level" in given and level != saved_level:
            unused.append(f"--level {level}")
        if "seed" in given and seed != saved.seed:
            unused.append(f"--seed {seed}")
        if unused:
            screen.say(f"The saved match is played against {saved_level} computers"
                       f"{'' if 'seed' not in given else f' with seed {saved.seed}'}: "
                       f"{' and '.join(unused)} apply to a new match (answer n, or give "
                       f"--new).")
        if _ask_yes(screen, f"Resume the saved Chicago match (board {saved.board_number} "
                            f"of 4, N-S {ns}, E-W {ew}, {saved_level} computers)?", True):
            return saved
    return ChicagoMatch(seed, settings={"level": level}, path=save)


@click.command(cls=StatusCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--daily", is_flag=True,
              help="Play the boards of the day (medium computers, leaderboard).")
@click.option("--level", type=click.Choice(LEVELS), default="medium", show_default=True,
              help="The computers' strength in a Chicago match (easy shows suggestions).")
@click.option("--name", help="Your name on the leaderboard, 1 to 40 printable characters "
                             "(asked when missing).")
@click.option("--seed", type=click.IntRange(min=0),
              help="Seed for the deals and the computers (a reproducible match).")
@click.option("--save", "save", type=click.Path(dir_okay=False),
              help="The saved-game file (default: in the user's data directory).")
@click.option("--leaderboard", type=click.Path(dir_okay=False),
              help="The leaderboard file (default: in the user's data directory).")
@click.option("--pbn", type=click.Path(dir_okay=False),
              help="Write the boards played to this PBN file at the end.")
@click.option("--new", is_flag=True, help="Start a new game even if one is saved.")
@click.option("--ascii", "ascii_", is_flag=True, help="Suits as S H D C.")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per computer (default: all cores).")
@click.version_option(None, "-V", "--version", package_name="ddsolver")
def main(daily, level, name, seed, save, leaderboard, pbn, new, ascii_, threads):
    """Play contract bridge against the computer: a four-board Chicago match, or the
    boards of the day for the leaderboard.  You sit South; when your side wins the
    contract you play North's cards too.  Type ? during play for help; Ctrl-C saves.

    Exit status: 0 finished or left (quit, Ctrl-D, Ctrl-C at the first questions), 1 the
    game cannot be saved (or a finished day recorded), 2 bad input, 130 Ctrl-C during
    the game (saved) or while the command starts, 141 the reader of standard output or
    standard error has gone (the game saved).
    """
    _forgiving_streams()
    # options the game would ignore: the boards of the day are medium computers on the
    # date's deals, and only they have a leaderboard name
    ctx = click.get_current_context()
    if daily and level != "medium" and \
            ctx.get_parameter_source("level") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--level: the boards of the day are played against medium "
                               "computers")
    if daily and seed is not None:
        raise click.UsageError("--seed: the boards of the day are dealt from the date (the "
                               "seed is for a Chicago match)")
    if not daily and name is not None:
        raise click.UsageError("--name: the name goes on the leaderboard of the boards of "
                               "the day (with --daily)")
    if name is not None:
        try:
            name = _check_name(name)
        except LeaderboardError as exc:
            raise click.BadParameter(str(exc), param_hint="'--name'") from None
    # before the game starts (the folder was created, or the file failed at the end of the
    # match): '', a loop of symbolic links, a folder that does not exist or is not writable
    for path, hint in ((save, "'--save'"), (pbn, "'--pbn'"),
                       (leaderboard, "'--leaderboard'")):
        check_path(path, hint)
    if daily:
        # refused now, not after the four boards when the result is recorded
        try:
            check_leaderboard(leaderboard)
        except LeaderboardError as exc:
            raise click.BadParameter(str(exc), param_hint="'--leaderboard'") from None
    screen = Screen(ascii=True if ascii_ else None)
    if _is_terminal() and hasattr(signal, "SIGCONT") and hasattr(signal, "pthread_kill"):
        # back from Ctrl-Z (fg): the screen drawn again and the prompt with it
        screen.catch_resume()
    if _is_terminal():
        small = _too_small(shutil.get_terminal_size((80, 24)))
        if small:
            # every screen would scroll the table away: said once, before anything else
            screen.say(small)
            try:
                if screen.ask("Press Enter to play anyway (quit: leave): ").strip().lower() \
                        == "quit":
                    raise QuitGame
            except (QuitGame, KeyboardInterrupt):
                screen.say("\nBye.")
                sys.exit(0)
    named = save is not None
    if save is None:
        save = os.path.join(default_data_dir(), "daily.json" if daily else "chicago.json")
    # one file for two jobs: the saved game would take the leaderboard's place (the day
    # played, then not recorded), the PBN file everybody's entries or the saved game
    files = [(save, "--save"), (pbn, "--pbn")]
    if daily:
        files.append((leaderboard or default_leaderboard_path(), "--leaderboard"))
    check_distinct_files(files)
    if not named:
        # the default file's folder, only, is created when missing
        try:
            os.makedirs(os.path.dirname(save), exist_ok=True)
        except OSError as exc:
            raise click.ClickException(f"cannot create the folder {os.path.dirname(save)}: "
                                       f"{exc.strerror or exc}") from None
    given = [option for option in ("level", "seed")
             if ctx.get_parameter_source(option) is not click.core.ParameterSource.DEFAULT]
    try:
        # held while the game is played: two games on one file would overwrite each other
        lock = lock_saved_game(save)
        if lock is not None:
            ctx.call_on_close(lock.close)
        game = open_game(daily=daily, level=level, seed=seed, save=save, name=name,
                         new=new, screen=screen, leaderboard=leaderboard, keep_foreign=named,
                         given=given)
    except SavedGameError as exc:
        if named:
            raise click.BadParameter(str(exc), param_hint="'--save'") from None
        # the default file (no --save given): not named as the option's fault
        message = str(exc) if "--save" in str(exc) else f"{exc} (--save names another file)"
        error = click.ClickException(message)
        error.exit_code = 2                  # bad input, as with --save
        raise error from None
    except LeaderboardFileError as exc:     # the finished day not recorded yet: kept
        raise click.ClickException(str(exc)) from None
    except (QuitGame, KeyboardInterrupt):
        screen.say("\nBye.")
        sys.exit(0)
    if game is None:
        sys.exit(0)
    try:
        game.save()
    except OSError as exc:
        raise click.ClickException(f"cannot save the game to {save}: {exc}") from None
    if isinstance(game, DailyBoards):
        level = "medium"
    else:
        level = game.settings.get("level", level)
        if level not in LEVELS:
            level = "medium"
    settings = {} if threads is None else {"threads": threads}
    computers_seed = f"daily:{game.date}" if isinstance(game, DailyBoards) else game.seed
    code = TerminalGame(game, screen, level=level, seed=computers_seed,
                        leaderboard=leaderboard, pbn=pbn,
                        computer_settings=settings).run()
    sys.exit(code)


if __name__ == "__main__":
    main(prog_name="ddsolver-play")
