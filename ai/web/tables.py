"""Matches held by the web server, one table per unguessable id.

A table is a :class:`~ai.chicago.ChicagoMatch` or :class:`~ai.daily.DailyBoards` (saved
after every call and card in the server's data directory, so a page reload or a server
restart resumes it) and the id of the page that plays it (``secrets.token_urlsafe``: 144
random bits).  The page sends one decision at a time; :meth:`WebTable.act` checks it
against the rules and the human's seats, then lets the computers play until the human is
due again (or the board is over) by running :func:`ai.game.play_board` from the saved
progress, with a stand-in for the human that hands over the checked decision once and
then stops the board (:class:`HumanTurn`).

What the page is told (:meth:`WebTable.state`) is what the human may see at the table:
South's cards; once the opening lead is faced, dummy's cards, and North's cards when
North-South declare (the human then plays both hands); every call with its explanation
and every card played; all four hands only when the board is over.  The computers are
:class:`ai.robot.ComputerPlayer` objects and receive only their own
:class:`~ai.players.SeatView` from :func:`ai.game.play_board`.

Tables not used for :attr:`MatchStore.ttl` seconds expire: they are dropped from memory
and their file is deleted.  The server holds at most :attr:`MatchStore.max_tables` tables in
memory; beyond that the least recently used one not in use is dropped from memory only (its
file stays and is read back by its next request).
"""

from __future__ import annotations

import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

from ai.chicago import BoardSeries, ChicagoMatch, SavedGameError, close_table, computer_table
from ai.daily import (
    DailyBoards,
    DuplicateEntryError,
    Leaderboard,
    LeaderboardError,
    _check_name,
    default_leaderboard_path,
    load_game,
    local_today,
)
from ai.game import BoardResult, TableEvent, view_of
from ai.players import SeatView
from ai.protocols.decisions import illegal_call_message
from ai.robot import LEVELS
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.errors import BridgeError
from ddsolver.play import Position
from ddsolver.table import Seat

from .meaning import Localizer

__all__ = ["HumanTurn", "MatchStore", "WebError", "WebTable"]

HUMAN = Seat.SOUTH
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
# the temporary file of a save (ddsolver._io.atomic_write_bytes) that a kill interrupted
_TMP_RE = re.compile(r"^\.[A-Za-z0-9_-]{16,64}\.json\..+\.tmp$")


class WebError(Exception):
    """A request the server refuses: answered ``{"error": {"code", "message"}}`` with
    :attr:`status`; the match is left unchanged."""

    def __init__(self, code: str, message: str, status: int = 422):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class HumanTurn(Exception):
    """Raised by the human's stand-in when the board needs a decision the page has not
    sent yet: the board stops there (its progress is saved)."""


class _WebHuman:
    """The human at South for :func:`ai.game.play_board`: gives the one checked decision
    it holds, then stops the board at the next question."""

    def __init__(self):
        self.pending = None

    def call(self, view: SeatView):
        if isinstance(self.pending, Call):
            call, self.pending = self.pending, None
            return call
        raise HumanTurn

    def card(self, view: SeatView):
        if isinstance(self.pending, Card):
            card, self.pending = self.pending, None
            return card
        raise HumanTurn


def _cards(hand) -> List[str]:
    return [str(c) for c in sorted(hand.cards, key=lambda c: (-int(c.suit), -int(c.rank)))]


def hide_paths(text: str, *paths) -> str:
    """``text`` (an error message for a web client) with each of ``paths`` (as given and
    made absolute) replaced by its file name: the client learns which file, not where the
    server keeps it."""
    for path in paths:
        if path is None:
            continue
        path = os.fspath(path)
        for form in sorted({path, os.path.abspath(path)}, key=len, reverse=True):
            if form and os.path.basename(form) != form:
                text = text.replace(form, os.path.basename(form))
    return text


@dataclass
class _Turn:
    """Where the board in progress stands."""

    phase: str                     # "auction", "play", "between" (board over), "over"
    auction: Optional[Auction] = None
    position: Optional[Position] = None
    to_act: Optional[Seat] = None      # the seat due (to call, or whose card is due)
    controller: Optional[Seat] = None  # who decides for to_act (declarer for dummy)
    human_turn: bool = False


class WebTable:
    """One match played by one page.

    :param series: the :class:`ChicagoMatch` or :class:`DailyBoards`.
    :param table_id: the page's id.
    :param level: the computers' strength.
    :param computer_settings: overrides of the computers' settings (tests: tiny budgets).
    :param leaderboard: the leaderboard file for the boards of the day.

    :ivar unsaved: the last save of the leaderboard record's state failed (it is not
        refused, :meth:`_record_daily`): memory holds what the file lacks, so the table is
        not dropped from memory (:meth:`MatchStore._drop_unused`) until a save succeeds.
    """

    def __init__(self, series: BoardSeries, table_id: str, *, level: str,
                 computer_settings: Optional[dict] = None, leaderboard=None):
        self.series = series
        self.id = table_id
        self.level = level
        self.computer_settings = dict(computer_settings or {})
        self.leaderboard = leaderboard
        self.lock = threading.Lock()
        self.last_used = time.time()
        self.events: List[dict] = []
        self.unsaved = False

    # -- kind ---------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return "daily" if isinstance(self.series, DailyBoards) else "chicago"

    def _computers_seed(self):
        s = self.series
        return f"daily:{s.date}" if isinstance(s, DailyBoards) else s.seed

    # -- where the board stands ------------------------------------------------------------
    def _turn(self) -> _Turn:
        s = self.series
        if s.is_finished:
            return _Turn("over")
        if s.progress is None:
            return _Turn("between")
        deal = s.current_deal()
        progress = s.progress
        auction = Auction(s.dealer, progress.calls)
        if not auction.is_finished:
            seat = auction.to_act
            return _Turn("auction", auction, None, seat, seat, seat == HUMAN)
        contract = auction.contract
        pos = Position(deal, trump=contract.strain, leader=auction.declarer.lho)
        for seat, card in progress.play:
            pos.play(card, seat=seat)
        to_play = pos.to_move
        declarer = auction.declarer
        controller = declarer if to_play in (declarer, declarer.partner) else to_play
        ours = declarer.side == HUMAN.side
        human = controller == HUMAN or (ours and controller == declarer)
        return _Turn("play", auction, pos, to_play, controller, human)

    def _human_view(self, turn: _Turn) -> SeatView:
        """The view the human decides from now: South's, or declarer's when the human plays
        for North-South as declarer."""
        s = self.series
        seat = turn.controller if turn.phase == "play" and turn.human_turn else HUMAN
        return view_of(s.current_deal(), seat, dealer=s.dealer, vulnerability=s.vulnerability,
                       calls=s.progress.calls, explanations=None, played=s.progress.play)

    # -- acting -----------------------------------------------------------------------------
    def _players(self, human):
        settings = dict(self.computer_settings)
        return computer_table(human, level=self.level, seed=self._computers_seed(),
                              human=HUMAN, **settings)

    def _run(self, decision=None) -> None:
        """Play from the saved progress until the human is due or the board is over."""
        human = _WebHuman()
        human.pending = decision
        players = self._players(human)
        events: List[dict] = []

        def observe(event: TableEvent) -> None:
            events.append(_event(event))

        try:
            self.series.play(players, observer=observe)
        except HumanTurn:
            pass
        finally:
            close_table(players)
            self.events = events
        if self.series.is_finished and isinstance(self.series, DailyBoards):
            self._record_daily()

    def start(self) -> None:
        """Deal the next board (between boards) and let the computers call until the
        human is due.

        :raises WebError: when the board in progress is not over, or the match is.
        """
        turn = self._turn()
        if turn.phase == "over":
            raise WebError("match_over", "the match is over", 409)
        if turn.phase != "between":
            raise WebError("board_in_progress", "the board in progress is not over", 409)
        self.series.current_deal()
        self._run()

    def resume(self) -> None:
        """Let the computers act if they are due (after a restart mid-board); record the
        boards of the day finished but not yet recorded (a server killed between the last
        save and the leaderboard); save again what a failed save left in memory only
        (:attr:`unsaved`)."""
        if self.unsaved:
            self._save_quietly()
        turn = self._turn()
        if turn.phase in ("auction", "play") and not turn.human_turn:
            self._run()
        elif turn.phase == "over" and isinstance(self.series, DailyBoards):
            self._record_daily()

    def call(self, text) -> None:
        """The human's call (South's).

        :raises WebError: not the human's turn, not a call, or not legal now.
        """
        turn = self._turn()
        if turn.phase != "auction":
            raise WebError("not_auction", "the auction is not in progress", 409)
        if not turn.human_turn:
            raise WebError("out_of_turn", f"it is {turn.to_act.name.title()}'s turn to call, not "
                                          f"South's", 409)
        if not isinstance(text, str) or len(text) > 8:
            raise WebError("bad_call", "a call is text such as 1C, 3NT, Pass, X or XX")
        try:
            call = Call.from_str(text)
        except (BridgeError, ValueError):
            raise WebError("bad_call", f"not a call: {text!r}") from None
        message = illegal_call_message(turn.auction, call)
        if message is not None:
            raise WebError("illegal_call", message)
        self._run(call)

    def card(self, seat_text, card_text) -> None:
        """The human's card from ``seat``'s hand (South's, or North's when North-South
        declare).

        :raises WebError: not in the play, a seat the human does not control or that is
            not due, not a card, or not a legal card.
        """
        turn = self._turn()
        if turn.phase != "play":
            raise WebError("not_play", "no card is due: the play is not in progress", 409)
        if not isinstance(seat_text, str) or not isinstance(card_text, str) \
                or len(seat_text) > 8 or len(card_text) > 4:
            raise WebError("bad_card", "a card is sent as a seat (N, E, S, W) and a card "
                                       "such as SA, HT or C2")
        try:
            seat = Seat.from_str(seat_text)
            card = Card.from_str(card_text)
        except (BridgeError, ValueError):
            raise WebError("bad_card", f"not a seat and a card: {seat_text!r} "
                                       f"{card_text!r}") from None
        declarer = turn.auction.declarer
        mine = {HUMAN} | ({HUMAN.partner} if declarer.side == HUMAN.side else set())
        if seat not in mine:
            raise WebError("not_your_seat", f"you do not play {seat.name.title()}'s cards", 403)
        if not turn.human_turn or seat != turn.to_act:
            raise WebError("out_of_turn", f"it is {turn.to_act.name.title()}'s turn to play, not "
                                          f"{seat.name.title()}'s", 409)
        view = self._human_view(turn)
        if card not in view.legal_cards:
            held = _held_cards(self.series.current_deal(), self.series.progress, seat)
            why = ("you must follow suit" if card in held
                   else f"{seat.name.title()} does not hold {card}")
            raise WebError("illegal_card", f"{card} is not a legal card: {why} (legal: "
                                           f"{' '.join(map(str, view.legal_cards))})")
        self._run(card)

    def hint(self, lang: str) -> dict:
        """The easy level's suggestion for the human's decision now.

        :raises WebError: at another level, or when the human is not due.
        """
        if self.level != "easy":
            raise WebError("no_hint", "hints are given at the easy level only", 409)
        turn = self._turn()
        if turn.phase not in ("auction", "play") or not turn.human_turn:
            raise WebError("out_of_turn", "nothing is asked of you now", 409)
        view = self._human_view(turn)
        loc = Localizer(lang)
        if turn.phase == "auction":
            hint = self.series.system.hint(view.original_hand, view.auction, view.vulnerability)
            return {"call": str(hint.call), "call_text": loc.call(hint.call),
                    "explanation": loc.explanation(hint.explanation)}
        from ai.robot import ComputerPlayer
        helper = ComputerPlayer("easy", seed=f"hint:{self._computers_seed()}", threads=1,
                                **{k: v for k, v in self.computer_settings.items()
                                   if k != "threads"})
        try:
            choice = helper.hint(view)
        finally:
            helper.close()
        return {"seat": turn.to_act.letter, "card": str(choice.card)}

    # -- the daily record -----------------------------------------------------------------
    def _record_daily(self) -> None:
        s = self.series
        settings = s.settings
        # recorded, or refused for good (a leaderboard that failed is tried again at the
        # next request)
        if settings.get("practice") or (settings.get("recorded") is not None and
                                        settings.get("record_reason") != "leaderboard"):
            return
        name = settings.get("name")
        # an attempt that a kill stopped may have reached the leaderboard: its entry is
        # then this match's own (said in the file before the leaderboard is written)
        resumed = bool(settings.get("recording"))
        settings["recording"] = True
        self._save_quietly()
        try:
            with Leaderboard(self.leaderboard) as lb:
                lb.record(name, s.date, s.total, s.result_texts())
            settings["recorded"] = True
            settings.pop("record_reason", None)
            settings.pop("record_error", None)
        except DuplicateEntryError:
            if resumed and self._own_entry(name):
                # this match's result, recorded just before a kill left its file unsaid
                settings["recorded"] = True
                settings.pop("record_reason", None)
                settings.pop("record_error", None)
            else:
                # another match under the same name finished first today: one a day
                settings["recorded"] = False
                settings["record_reason"] = "already_played"
        except LeaderboardError as exc:
            settings["recorded"] = False
            settings["record_reason"] = "leaderboard"   # the page is told why
            settings["record_error"] = str(exc)[:200]
        self._save_quietly()

    def _save_quietly(self) -> None:
        """Save the match; a failure (a full disk) only noted in :attr:`unsaved`."""
        try:
            self.series.save()
        except OSError:
            self.unsaved = True
        else:
            self.unsaved = False

    def _own_entry(self, name) -> bool:
        """Whether ``name``'s entry of the day is this match's result (same score, same
        boards' results)."""
        s = self.series
        try:
            with Leaderboard(self.leaderboard) as lb:
                entry = lb.entry(name, s.date)
        except LeaderboardError:
            return False
        return entry is not None and entry.score == s.total and \
            list(entry.results) == s.result_texts()

    # -- what the page sees -----------------------------------------------------------------
    def state(self, lang: str) -> dict:
        """Everything the page shows, as the human may see it (see the module docstring);
        the explanations in ``lang``."""
        s = self.series
        loc = Localizer(lang)
        turn = self._turn()
        out = {"id": self.id, "mode": self.mode, "level": self.level, "phase": turn.phase,
               "boards": self._boards(loc), "score": self._score(),
               "events": self.events}
        if isinstance(s, DailyBoards):
            out["daily"] = {"date": s.date, "name": s.settings.get("name"),
                            "practice": bool(s.settings.get("practice")),
                            "recorded": s.settings.get("recorded"),
                            "reason": s.settings.get("record_reason")}
        if turn.phase in ("between", "over"):
            out["last"] = self._result(s.results[-1], loc, len(s.results)) if s.results \
                else None
            if turn.phase == "over":
                out["final"] = self._final()
            return out
        deal = s.current_deal()
        progress = s.progress
        board = {"number": s.board_number, "dealer": s.dealer.letter,
                 "vulnerability": s.vulnerability.pbn}
        exps = s.system.explain_all(turn.auction)
        auction = [{"seat": s.dealer.next(i).letter, "call": str(c),
                    "text": loc.call(c, short=True), "explanation": loc.explanation(e)}
                   for i, (c, e) in enumerate(zip(turn.auction.calls, exps))]
        out.update({"board": board, "auction": auction,
                    "to_act": None if turn.to_act is None else turn.to_act.letter,
                    "your_turn": turn.human_turn})
        hands = {HUMAN.letter: _cards(_held_cards(deal, progress, HUMAN))}
        if turn.phase == "auction":
            out["hands"] = hands
            if turn.human_turn:
                out["legal_calls"] = [str(c) for c in turn.auction.legal_calls()]
            return out
        declarer = turn.auction.declarer
        dummy = declarer.partner
        contract = turn.auction.contract
        faced = len(progress.play) > 0
        if faced:
            hands[dummy.letter] = _cards(_held_cards(deal, progress, dummy))
            if declarer.side == HUMAN.side:
                hands[declarer.letter] = _cards(_held_cards(deal, progress, declarer))
        played = progress.play
        n = len(played) % 4
        trick = played[len(played) - n:] if n else ()
        tricks = [played[i:i + 4] for i in range(0, len(played) - n, 4)]
        pos = turn.position
        out.update({
            "hands": hands,
            "contract": {"call": str(contract.with_declarer(None)),
                         "text": _contract_text(contract, loc),
                         "declarer": declarer.letter, "dummy": dummy.letter,
                         "leader": declarer.lho.letter},
            "opening_lead": None if not played else [played[0][0].letter, str(played[0][1])],
            "trick": [[seat.letter, str(c)] for seat, c in trick],
            "last_trick": None if not tricks else [[seat.letter, str(c)]
                                                   for seat, c in tricks[-1]],
            "tricks": {"NS": pos.tricks_won[HUMAN.side],
                       "EW": pos.tricks_won[HUMAN.lho.side]},
            "controls": sorted({HUMAN.letter} | ({HUMAN.partner.letter}
                                                 if declarer.side == HUMAN.side else set())),
        })
        if turn.human_turn:
            view = self._human_view(turn)
            out["legal_cards"] = [str(c) for c in view.legal_cards]
        return out

    def _boards(self, loc: Localizer) -> List[dict]:
        return [self._result(r, loc, i + 1) for i, r in enumerate(self.series.results)]

    def _result(self, r: BoardResult, loc: Localizer, index: int) -> dict:
        s = self.series
        out = {"index": index, "dealer": r.dealer.letter,
               "vulnerability": r.vulnerability.pbn, "passed_out": r.passed_out,
               "result": r.result_text, "score": r.score,
               "contract": None if r.contract is None else str(r.contract.with_declarer(None)),
               "contract_text": None if r.contract is None else _contract_text(r.contract, loc),
               "declarer": None if r.declarer is None else r.declarer.letter,
               "tricks": r.tricks,
               "hands": {seat.letter: _cards(r.deal[seat]) for seat in Seat},
               "auction": [{"seat": r.dealer.next(i).letter, "call": str(c),
                            "text": loc.call(c, short=True)} for i, c in enumerate(r.calls)]}
        if isinstance(s, ChicagoMatch):
            b = s.score.boards[index - 1]
            out["board"] = b.board
            out["points"] = {"NS": b.points[0], "EW": b.points[1]}
        else:
            out["board"] = index
        return out

    def _score(self) -> dict:
        s = self.series
        if isinstance(s, ChicagoMatch):
            ns, ew = s.totals
            pn, pe = s.score.part_scores
            return {"NS": ns, "EW": ew, "part_NS": pn, "part_EW": pe}
        return {"total": s.total}

    def _final(self) -> dict:
        s = self.series
        if isinstance(s, ChicagoMatch):
            ns, ew = s.totals
            return {"NS": ns, "EW": ew, "yours": s.final_score(HUMAN)}
        return {"total": s.total}


def _held_cards(deal, progress, seat):
    """``seat``'s cards not yet played."""
    from ddsolver.deal import Hand
    gone = {c for s, c in progress.play if s == seat}
    return Hand([c for c in deal[seat].cards if c not in gone])


def _contract_text(contract, loc: Localizer) -> str:
    call = Call.bid(contract.level, contract.strain)
    text = loc.call(call)
    if contract.doubled == 1:
        text += " " + loc.call(Call.from_str("X"), short=True)
    elif contract.doubled == 2:
        text += " " + loc.call(Call.from_str("XX"), short=True)
    return text


def _event(event: TableEvent) -> dict:
    out = {"kind": event.kind, "seat": event.seat.letter}
    if event.call is not None:
        out["call"] = str(event.call)
    if event.card is not None:
        out["card"] = str(event.card)
        if event.trick_winner is not None:
            out["trick_winner"] = event.trick_winner.letter
    return out


class MatchStore:
    """The tables of one server, keyed by id, saved under ``directory``.

    With a directory every match is in its file (``<id>.json``, written when the match is
    created and after every call, card and board), so the store holds in memory at most
    ``max_tables`` tables: a new match, or a match read back from its file, beyond that
    drops from memory the least recently used table that no request is using (its
    :attr:`WebTable.lock` free).  Its file stays, and the next request on it reads it back
    (:meth:`get`) as after a restart: nothing played is lost.  A store in memory only
    (``directory`` ``None``) cannot drop a match without losing it: it refuses a new match
    beyond ``max_tables`` instead.

    The files are bounded too: a store with a directory keeps at most ``max_saved`` saved
    matches (``<id>.json``); beyond it a new match is refused (:class:`WebError` ``busy``,
    503) until matches expire.  The files are counted as they are made and deleted, and
    recounted by every sweep of the directory (:meth:`sweep`), which lists it at most once
    every ``scan_interval`` seconds before a new match (not at every request: the directory
    may hold ``max_saved`` files).

    A request that changes a table takes its lock, then checks :meth:`holds` (the table may
    have been dropped from memory between :meth:`get` and the lock; it then asks
    :meth:`get` again, which reads the match back).

    :param directory: where each table's game is saved (``<id>.json``), or ``None`` to keep
        them in memory only.
    :param ttl: seconds after which an unused table expires (from memory, and its file).
    :param max_tables: tables held in memory at once (at least 1).  Beyond it, a store with
        a directory drops the least recently used table not in use from memory; a store in
        memory only refuses a new match (:class:`WebError` ``busy``, 503).
    :param max_saved: saved matches (``<id>.json`` files in ``directory``) kept at once
        (at least 1; default 20,000: a whole four-board match is under 10 kB, so some
        200 MB on disk at most).  Beyond it a new match is refused (:class:`WebError`
        ``busy``, 503), after a sweep of the expired ones when one is due.  Ignored in
        memory only.
    :param scan_interval: seconds between two sweeps of the directory's files before a
        new match (default 60; 0: before every new match).  Expired tables held in memory
        are swept before every new match.
    :param computer_settings: overrides of every computer's settings.
    :param leaderboard: the leaderboard file.
    :param deal_seed: seeds the Chicago deals (tests, screenshots): the n-th match gets
        ``f"{deal_seed}:{n}"``; ``None`` draws fresh ones.
    :raises ValueError: for ``max_tables`` or ``max_saved`` below 1.
    """

    def __init__(self, directory=None, *, ttl: float = 24 * 3600, max_tables: int = 500,
                 max_saved: int = 20_000, scan_interval: float = 60.0,
                 computer_settings: Optional[dict] = None, leaderboard=None,
                 deal_seed=None):
        self.directory = None if directory is None else os.fspath(directory)
        if self.directory is not None:
            os.makedirs(self.directory, exist_ok=True)
        self.ttl = float(ttl)
        self.max_tables = int(max_tables)
        if self.max_tables < 1:
            raise ValueError(f"max_tables must be at least 1, not {max_tables!r}")
        self.max_saved = int(max_saved)
        if self.max_saved < 1:
            raise ValueError(f"max_saved must be at least 1, not {max_saved!r}")
        self.scan_interval = float(scan_interval)
        self.computer_settings = dict(computer_settings or {})
        self.leaderboard = leaderboard
        self.deal_seed = deal_seed
        self._tables: Dict[str, WebTable] = {}
        self._lock = threading.Lock()
        self._count = 0
        # the <id>.json files in the directory: counted by the first sweep of the
        # directory (before the first new match), then kept as files are made and deleted
        self._saved = 0
        self._made = 0                       # files made (a sweep adds those made meanwhile)
        self._scanned = float("-inf")        # when the directory was last swept

    def _path(self, table_id: str) -> Optional[str]:
        if self.directory is None:
            return None
        return os.path.join(self.directory, f"{table_id}.json")

    def _new_id(self) -> str:
        return secrets.token_urlsafe(18)

    def _add(self, series: BoardSeries, table_id: str, level: str, *,
             hold: bool = False) -> WebTable:
        """Hold a table for ``series``; if a table with that id was added meanwhile (two
        requests reading back one saved match at once), that one is kept and returned, so
        that every request on an id shares one table and its lock.  Beyond
        :attr:`max_tables`, a store with a directory drops the least recently used tables
        not in use from memory (:meth:`_drop_unused`).  With ``hold`` the table is added
        with its lock taken (a new match, until its file is written).

        A new match (``hold``) in a store with a directory is counted as a saved match (its
        file is written next: :meth:`_create`).

        :raises WebError: ``busy`` (503) for a store in memory only that holds
            :attr:`max_tables` tables, or a new match when the directory holds
            :attr:`max_saved` matches.
        """
        table = WebTable(series, table_id, level=level,
                         computer_settings=self.computer_settings,
                         leaderboard=self.leaderboard)
        if hold:
            table.lock.acquire()
        with self._lock:
            have = self._tables.get(table_id)
            if have is not None:
                if hold:         # a new match's id taken: never (144 random bits)
                    table.lock.release()
                    raise RuntimeError(f"match id {table_id} is taken")
                return have
            if self.directory is None:
                self._check_room()
            else:
                if hold:
                    self._check_saved()
                    self._saved += 1
                    self._made += 1
                self._drop_unused(self.max_tables - 1)
            self._tables[table_id] = table
            return table

    def _check_room(self) -> None:
        """Refuse a new table in a full store in memory only (called with the store's
        lock held).

        :raises WebError: ``busy`` (503).
        """
        if len(self._tables) >= self.max_tables:
            raise WebError("busy", f"the server holds {len(self._tables)} matches (at "
                                   f"most {self.max_tables}); try again later", 503)

    def _check_saved(self) -> None:
        """Refuse a new match when the directory holds :attr:`max_saved` matches (called
        with the store's lock held).

        :raises WebError: ``busy`` (503).
        """
        if self._saved >= self.max_saved:
            raise WebError("busy", f"the server keeps {self._saved} saved matches (at most "
                                   f"{self.max_saved}); try again later, when unused ones "
                                   f"have expired", 503)

    def _drop_unused(self, keep: int) -> None:
        """Drop from memory the least recently used tables whose lock is free until at
        most ``keep`` remain (fewer are dropped when the others are in use).  Called with
        the store's lock held, for a store with a directory: a table is dropped only when
        its file is there (and that file's time is brought up to the table's last use, so
        that it expires when the table would have); its next request reads it back."""
        excess = len(self._tables) - keep
        if excess <= 0:
            return
        for table in sorted(self._tables.values(), key=lambda t: t.last_used):
            if excess <= 0:
                break
            if table.lock.locked() or table.unsaved:
                continue
            path = self._path(table.id)
            try:
                if os.stat(path).st_mtime < table.last_used:
                    os.utime(path, (table.last_used, table.last_used))
            except OSError:
                continue          # no file to read it back from: kept
            del self._tables[table.id]
            excess -= 1

    def holds(self, table: WebTable) -> bool:
        """Whether ``table`` is still the table held for its id.  A request that changes a
        table checks this once it has the table's lock: a table dropped from memory,
        expired or forgotten (:meth:`forget`) meanwhile must not be changed (the match
        would fork); the request asks :meth:`get` again."""
        with self._lock:
            return self._tables.get(table.id) is table

    def _room(self) -> None:
        """Sweep the expired tables (and the directory's files when a sweep of them is due:
        :attr:`scan_interval`); refuse a new match in a full store.

        :raises WebError: ``busy`` (503) for a store in memory only holding
            :attr:`max_tables` tables, or a directory holding :attr:`max_saved` matches.
        """
        self.sweep(files=time.time() - self._scanned >= self.scan_interval)
        with self._lock:
            if self.directory is None:
                self._check_room()
            else:
                self._check_saved()

    def _create(self, series: BoardSeries, table_id: str, level: str) -> WebTable:
        """Hold the new match ``series`` and write its file (a store with a directory), so
        that it can be dropped from memory and read back from its first request on.

        :raises WebError: ``storage`` (503) when the file cannot be written (nothing is
            kept); ``busy`` (503) as :meth:`_add`.
        """
        if self.directory is None:
            return self._add(series, table_id, level)
        table = self._add(series, table_id, level, hold=True)
        try:
            series.save()
        except OSError as exc:
            with self._lock:
                if self._tables.get(table_id) is table:
                    del self._tables[table_id]
                self._saved -= 1
                self._made -= 1
            _unlink(self._path(table_id))
            raise storage_error(exc) from None
        finally:
            table.lock.release()
        return table

    def new_chicago(self, level: str) -> WebTable:
        """A new Chicago match against computers of ``level`` (its file written).

        :raises WebError: ``bad_level`` (422) for an unknown level; ``busy`` (503) when
            the store is full (:attr:`max_tables` in memory only, :attr:`max_saved` with a
            directory); ``storage`` (503) when the match cannot be saved.
        """
        if level not in LEVELS:
            raise WebError("bad_level", f"unknown level {str(level)[:20]!r}: one of "
                                        f"{', '.join(LEVELS)}")
        self._room()
        table_id = self._new_id()
        seed = None
        if self.deal_seed is not None:
            with self._lock:
                seed = f"{self.deal_seed}:{self._count}"
                self._count += 1
        series = ChicagoMatch(seed, settings={"level": level, "web": True},
                              path=self._path(table_id))
        return self._create(series, table_id, level)

    def new_daily(self, name, practice: bool = False) -> WebTable:
        """Today's boards for ``name`` against medium computers (the file written).

        :raises WebError: ``bad_name`` (422) for a bad name, ``already_played`` (409) for
            a name with an entry today (unless ``practice``), ``leaderboard`` (503) for an
            unusable leaderboard, ``busy`` (503) when the store is full (as
            :meth:`new_chicago`), ``storage`` (503) when the match cannot be saved.
        """
        try:
            name = _check_name(name)
        except LeaderboardError as exc:
            raise WebError("bad_name", str(exc)) from None
        today = local_today().isoformat()
        try:
            with Leaderboard(self.leaderboard) as lb:
                mine = lb.entry(name, today)
        except LeaderboardError as exc:
            where = self.leaderboard or default_leaderboard_path()
            raise WebError("leaderboard", "the leaderboard cannot be used: "
                           f"{hide_paths(str(exc), where)}", 503) from None
        if mine is not None and not practice:
            raise WebError("already_played", f"{name} has played today's boards already "
                                             f"(score {mine.score:+d})", 409)
        self._room()
        table_id = self._new_id()
        series = DailyBoards(today, settings={"name": name, "practice": bool(practice),
                                              "level": "medium", "web": True},
                             path=self._path(table_id))
        return self._create(series, table_id, "medium")

    def get(self, table_id) -> WebTable:
        """The table with ``table_id`` (read back from its file after a restart, or after
        it was dropped from memory to make room: :meth:`_add`).

        :raises WebError: ``unknown_match`` (404) for an id that is malformed, unknown or
            expired, or whose file cannot be read.
        """
        if not isinstance(table_id, str) or not _ID_RE.match(table_id):
            raise WebError("unknown_match", "no such match (a match id is 16 to 64 "
                                            "letters, digits, - or _)", 404)
        expired = False
        with self._lock:
            table = self._tables.get(table_id)
            if table is not None and time.time() - table.last_used > self.ttl \
                    and not table.lock.locked():
                del self._tables[table_id]      # unused for the ttl: gone, as after a sweep
                expired = True
        if expired:
            path = self._path(table_id)
            if path:
                self._delete(path)
            raise WebError("unknown_match", "no such match (expired)", 404)
        if table is None:
            path = self._path(table_id)
            if path is None or not os.path.isfile(path):
                raise WebError("unknown_match", "no such match (unknown or expired)", 404)
            if time.time() - os.path.getmtime(path) > self.ttl:
                self._delete(path)
                raise WebError("unknown_match", "no such match (expired)", 404)
            try:
                series = load_game(path)
            except (SavedGameError, OSError) as exc:
                raise WebError("unknown_match", f"the saved match cannot be read: "
                                                f"{hide_paths(str(exc), path)[:200]}",
                               404) from None
            level = series.settings.get("level", "medium")
            if level not in LEVELS:
                level = "medium"
            table = self._add(series, table_id, level)
        table.last_used = time.time()
        return table

    def forget(self, table_id: str) -> None:
        """Drop the table ``table_id`` from memory (its file stays): the next request
        reads the match as last saved."""
        with self._lock:
            self._tables.pop(table_id, None)

    def _delete(self, path: str) -> None:
        """Delete the match file ``path`` (expired), counting it."""
        if _unlink(path):
            with self._lock:
                self._saved = max(0, self._saved - 1)

    def sweep(self, *, files: bool = True) -> int:
        """Drop the tables unused for :attr:`ttl` seconds and delete their files; with
        ``files`` (and a directory), also list the directory: delete the matches' files
        unused for :attr:`ttl` seconds (by their time) and the temporary files of saves
        interrupted by a kill, as old, and count the saved matches left (:attr:`max_saved`).

        :returns: how many matches were dropped.
        """
        now = time.time()
        dropped = 0
        with self._lock:
            for table_id, table in list(self._tables.items()):
                if now - table.last_used > self.ttl and not table.lock.locked():
                    del self._tables[table_id]
                    path = self._path(table_id)
                    if path and _unlink(path):
                        self._saved = max(0, self._saved - 1)
                    dropped += 1
            made = self._made
        if self.directory is None or not files:
            return dropped
        kept = 0
        for name in os.listdir(self.directory):
            path = os.path.join(self.directory, name)
            table_id = name[:-5] if name.endswith(".json") else None
            if _TMP_RE.match(name):       # left by a kill during a save
                try:
                    if now - os.path.getmtime(path) > self.ttl:
                        _unlink(path)
                except OSError:
                    pass
            elif table_id and _ID_RE.match(table_id):
                if table_id not in self._tables:
                    try:
                        expired = now - os.path.getmtime(path) > self.ttl
                    except OSError:
                        continue          # deleted meanwhile
                    if expired and _unlink(path):
                        dropped += 1
                        continue
                kept += 1
        with self._lock:
            # the files made while the directory was listed may be missing from the list
            self._saved = kept + self._made - made
            self._scanned = now
        return dropped


def storage_error(exc: OSError) -> WebError:
    """The refusal of a change that cannot be saved (``storage``, 503): the reason only
    (``strerror``), never the server's paths."""
    return WebError("storage", f"the match cannot be saved now "
                               f"({exc.strerror or 'the server cannot write it'}); try "
                               f"again later", 503)


def _unlink(path: str) -> bool:
    """Delete ``path``; whether it was deleted here."""
    try:
        os.unlink(path)
    except OSError:
        return False
    return True

