"""What the JSON and HTTP doors share: the board as JSON, player settings, the answers.

A *view object* is the JSON form of what one seat may see (the fields of
:meth:`ai.players.SeatView.to_dict`)::

    {"seat": "S", "hand": "AK2.QJ3.T54.8762", "dealer": "N", "vulnerability": "None",
     "scoring": "IMP", "auction": ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"],
     "played": [["E", "H2"], ["S", "H5"]], "dummy_hand": "AQ4.KJ5.Q963.KJ2"}

:func:`view_from_json` checks it with :func:`ai.players.seat_view` (the same checks as for
any computer player: hand sizes, cards held and played, turn, revokes, dummy faced after the
opening lead).  A *player object* names the computer's strength and seed
(:class:`PlayerSpec`).  The answer functions (:func:`answer_call`, :func:`answer_card`,
:func:`answer_explain`, :func:`answer_hint`, :func:`board_state`) turn a decision into a
JSON-ready dict; every problem is a :class:`ProtocolError` with a code from :data:`CODES`.

Decisions are those of :class:`ai.robot.ComputerPlayer`: with a seed they depend only on the
view and the seed, so the same view and seed give the same call or card through any door
(provided the time budget never cuts the layouts short: give ``min_samples`` at least
``samples`` and ``lead_samples`` for exact repeatability).
"""

from __future__ import annotations

import collections
import math
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from ai.players import SCORINGS, InvalidViewError, SeatView, seat_view
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.errors import (
    BridgeError,
    IllegalCallError,
    IllegalCardError,
    InvalidDealError,
    InvalidNotationError,
    ScoringError,
)
from ddsolver.play import trick_winner
from ddsolver.scoring import Contract, ns_score
from ddsolver.table import Seat

__all__ = ["CODES", "PROTOCOL_VERSION", "PlayerPool", "PlayerSpec", "ProtocolError",
           "answer_call", "answer_card", "answer_explain", "answer_hint", "board_state",
           "contract_text", "error_from_exception", "illegal_call_message",
           "view_from_json"]

#: The version of the JSON message schema (JSON lines and HTTP share it).  A change that
#: breaks an existing frontend increases it.
PROTOCOL_VERSION = 1

#: Every error code a JSON or HTTP answer may carry, with what it means.
CODES = {
    "bad_json": "the line or body is not valid JSON (or not UTF-8)",
    "bad_message": "the JSON is not an object of the documented shape: a field missing, "
                   "unknown or of the wrong type, a number out of range",
    "unknown_type": "the message type is not one of the documented types",
    "bad_notation": "a text names no seat, card, call, vulnerability, scoring or hand",
    "invalid_view": "the board is impossible: a hand of the wrong size, a card held twice "
                    "or played twice, a revoke, dummy shown before the opening lead...",
    "illegal_call": "the call is not legal after the auction so far",
    "illegal_card": "the card is not legal (not held, revoke, already played)",
    "out_of_turn": "the call or card is not due from that seat now, or the decision asked "
                   "for is not this seat's to make (auction over, dummy, play over)",
    "dummy_needed": "the opening lead is faced: dummy's hand must be given first",
    "no_board": "no board has been started (stateful JSON engine)",
    "too_large": "the line or body exceeds the size limit",
    "not_found": "no such endpoint or method (HTTP)",
    "timeout": "the decision took longer than the time limit",
    "busy": "too many decisions are running (or connections open, HTTP); try again",
    "request_timeout": "the request was not received whole in time (HTTP)",
    "bad_http": "the request is not HTTP the server can read (HTTP)",
    "internal": "an unexpected failure inside the engine (a bug: please report it)",
}

_VIEW_FIELDS = ("seat", "hand", "dealer", "vulnerability", "scoring", "auction", "played",
                "dummy_hand", "explanations")
_REQUIRED_VIEW_FIELDS = ("seat", "hand", "dealer")


class ProtocolError(Exception):
    """A request that cannot be answered, with a code from :data:`CODES` and a message
    naming the problem."""

    def __init__(self, code: str, message: str):
        if code not in CODES:  # pragma: no cover - programming error
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


def illegal_call_message(auction: Auction, call: Call) -> Optional[str]:
    """``"1C is not legal after 1NT: insufficient bid: ..."`` (the auction so far and the
    reason, :meth:`Auction.why_illegal`), or ``None`` when ``call`` is legal now: the
    message of ``illegal_call`` in the robot protocols and the web page alike."""
    why = auction.why_illegal(call)
    if why is None:
        return None
    return f"{call} is not legal after {' '.join(map(str, auction.calls)) or 'no calls'}: {why}"


def error_from_exception(exc: BaseException) -> ProtocolError:
    """The :class:`ProtocolError` for an exception raised while reading a request or
    deciding (the narrowest code that fits)."""
    if isinstance(exc, ProtocolError):
        return exc
    if isinstance(exc, IllegalCallError):
        return ProtocolError("illegal_call", str(exc))
    if isinstance(exc, IllegalCardError):
        return ProtocolError("illegal_card", str(exc))
    if isinstance(exc, InvalidNotationError):
        return ProtocolError("bad_notation", str(exc))
    if isinstance(exc, (InvalidViewError, InvalidDealError, ScoringError)):
        return ProtocolError("invalid_view", str(exc))
    if isinstance(exc, (TypeError, BridgeError, ValueError)):
        return ProtocolError("bad_message", str(exc))
    return ProtocolError("internal", f"{type(exc).__name__}: {exc}")


# -- reading the board ------------------------------------------------------------------------
def _need_str(obj: dict, name: str, *, optional: bool = False, max_len: int = 200):
    value = obj.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f"'{name}' must be text, got {_kind(value)}")
    if len(value) > max_len:
        raise ProtocolError("bad_message", f"'{name}' is longer than {max_len} characters")
    return value


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover


def check_fields(obj, allowed, what: str) -> None:
    """Refuse a non-object or an object with a field outside ``allowed``."""
    if not isinstance(obj, dict):
        raise ProtocolError("bad_message", f"{what} must be a JSON object, got {_kind(obj)}")
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise ProtocolError("bad_message", f"unknown field {unknown[0]!r} in {what} "
                            f"(known: {', '.join(allowed)})")


def _seat(text: str, what: str) -> Seat:
    try:
        return Seat.from_str(text)
    except InvalidNotationError:
        raise ProtocolError("bad_notation", f"{what} {text!r} is not a seat (N, E, S, W or "
                            f"North, East, South, West)") from None


def _card(text, what: str) -> Card:
    if not isinstance(text, str):
        raise ProtocolError("bad_message", f"{what} must be card text like \"SA\", got "
                            f"{_kind(text)}")
    try:
        return Card.from_str(text)
    except InvalidNotationError:
        raise ProtocolError("bad_notation", f"{what} {text!r} is not a card (suit then rank: "
                            f"\"SA\", \"HT\", \"C2\")") from None


def parse_call(text, what: str = "call") -> Call:
    """A call from its text (``"1NT"``, ``"Pass"``, ``"X"``, ``"XX"``).

    :raises ProtocolError: ``bad_message`` for a non-text, ``bad_notation`` for text that
        names no call.
    """
    if not isinstance(text, str):
        raise ProtocolError("bad_message", f"{what} must be call text like \"1NT\", got "
                            f"{_kind(text)}")
    if len(text) > 20:
        raise ProtocolError("bad_notation", f"{what} {text[:20]!r}... is not a call")
    try:
        return Call.from_str(text)
    except InvalidNotationError:
        raise ProtocolError("bad_notation", f"{what} {text!r} is not a call (\"1C\".."
                            f"\"7NT\", \"Pass\", \"X\", \"XX\")") from None


def _calls(value) -> List[Call]:
    if value is None:
        return []
    if isinstance(value, str):
        if len(value) > 4000:
            raise ProtocolError("bad_message", "'auction' text is too long")
        return [parse_call(t, "auction call") for t in value.split()]
    if not isinstance(value, list):
        raise ProtocolError("bad_message", f"'auction' must be a list of calls, got "
                            f"{_kind(value)}")
    if len(value) > 400:
        raise ProtocolError("invalid_view", f"'auction' has {len(value)} calls: no auction "
                            f"is that long")
    return [parse_call(t, f"auction[{i}]") for i, t in enumerate(value)]


def assign_seats(cards: List[Card], dealer: Seat, calls: List[Call]) -> List[Tuple[Seat, Card]]:
    """The seat of each card of a play given as plain cards: the opening leader is
    declarer's left-hand opponent, each trick's winner leads the next (WBF Law 44).

    :raises ProtocolError: ``invalid_view`` when the auction has no declarer or a card is
        played twice.
    """
    if not cards:
        return []
    auction = Auction(dealer, calls)
    if not auction.is_finished or auction.is_passed_out:
        raise ProtocolError("invalid_view", "cards were played but the auction has no "
                            "contract")
    if len(cards) > 52:
        raise ProtocolError("invalid_view", f"{len(cards)} cards played: at most 52")
    if len(set(cards)) != len(cards):
        raise ProtocolError("invalid_view", "a card is played twice")
    trump = auction.contract.strain
    leader = auction.declarer.lho
    out = []
    trick: List[Card] = []
    for card in cards:
        out.append((leader.next(len(trick)), card))
        trick.append(card)
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
            trick = []
    return out


def _played(value, dealer: Seat, calls: List[Call]) -> List[Tuple[Seat, Card]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProtocolError("bad_message", f"'played' must be a list, got {_kind(value)}")
    if len(value) > 52:
        raise ProtocolError("invalid_view", f"'played' has {len(value)} cards: at most 52")
    if all(isinstance(x, str) for x in value):
        return assign_seats([_card(x, f"played[{i}]") for i, x in enumerate(value)],
                            dealer, calls)
    out = []
    for i, item in enumerate(value):
        if not (isinstance(item, (list, tuple)) and len(item) == 2
                and isinstance(item[0], str)):
            raise ProtocolError("bad_message", f"played[{i}] must be a [seat, card] pair "
                                f"like [\"E\", \"H2\"] (or give every card as plain text)")
        out.append((_seat(item[0], f"played[{i}] seat"), _card(item[1], f"played[{i}] card")))
    return out


def _hand(value, what: str):
    if isinstance(value, str):
        if len(value) > 100:
            raise ProtocolError("bad_notation", f"{what} is not a hand (too long)")
        return value
    if isinstance(value, list) and len(value) <= 13:
        return [_card(c, f"{what}[{i}]") for i, c in enumerate(value)]
    raise ProtocolError("bad_message", f"{what} must be PBN hand text like "
                        f"\"AK2.QJ3.T54.8762\" or a list of at most 13 cards, got "
                        f"{_kind(value)}")


def view_from_json(obj) -> SeatView:
    """Build and check a :class:`SeatView` from a view object (see the module docstring).

    ``seat``, ``hand`` and ``dealer`` are required; ``vulnerability`` defaults to
    ``"None"``, ``scoring`` to ``"IMP"``, ``auction`` and ``played`` to empty and
    ``dummy_hand`` to none.  ``played`` is a list of ``[seat, card]`` pairs or of plain cards
    (their seats follow from the contract and the tricks).  ``explanations`` (what
    :meth:`SeatView.to_dict` writes) is accepted and ignored: the engine explains calls with
    its own system.

    :raises ProtocolError: ``bad_message``, ``bad_notation``, ``invalid_view``,
        ``illegal_call`` (see :data:`CODES`), the message naming the field.
    """
    check_fields(obj, _VIEW_FIELDS, "the view")
    for name in _REQUIRED_VIEW_FIELDS:
        if name not in obj:
            raise ProtocolError("bad_message", f"the view needs '{name}'")
    seat = _seat(_need_str(obj, "seat"), "seat")
    dealer = _seat(_need_str(obj, "dealer"), "dealer")
    vul = _need_str(obj, "vulnerability", optional=True)
    if vul is not None and not vul.strip():
        raise ProtocolError("bad_notation", "'vulnerability' is empty: give None, NS, EW or "
                            "All")
    scoring = _need_str(obj, "scoring", optional=True) or "IMP"
    if scoring not in SCORINGS:
        raise ProtocolError("bad_notation", f"scoring {scoring!r} is not one of "
                            f"{', '.join(SCORINGS)}")
    hand = _hand(obj["hand"], "'hand'")
    dummy = obj.get("dummy_hand")
    dummy = None if dummy is None else _hand(dummy, "'dummy_hand'")
    calls = _calls(obj.get("auction"))
    exps = obj.get("explanations")
    if exps is not None and not (isinstance(exps, list) and len(exps) <= 400 and all(
            e is None or isinstance(e, str) for e in exps)):
        raise ProtocolError("bad_message", "'explanations' must be null or a list of texts "
                            "(they are ignored: the engine explains with its own system)")
    try:
        played = _played(obj.get("played"), dealer, calls)
        return seat_view(seat, hand, dealer=dealer,
                         vulnerability="None" if vul is None else vul,
                         auction=calls, played=played, dummy_hand=dummy, scoring=scoring)
    except ProtocolError:
        raise
    except (BridgeError, TypeError) as exc:
        raise error_from_exception(exc) from None


# -- players --------------------------------------------------------------------------------
_INT_SETTINGS = {"samples": 500, "lead_samples": 500, "min_samples": 500}
_PLAYER_FIELDS = ("level", "seed", "samples", "lead_samples", "min_samples", "time_budget",
                  "threads")
LEVEL_NAMES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class PlayerSpec:
    """Which computer player decides: its level, seed and setting overrides.

    The JSON form (a *player object*), every field optional::

        {"level": "easy", "seed": 7, "samples": 3, "lead_samples": 3, "min_samples": 3,
         "time_budget": 0.5, "threads": 1}

    ``level`` is ``"easy"``, ``"medium"`` (the default) or ``"hard"``
    (:data:`ai.robot.LEVELS`); ``seed`` an integer or text for repeatable decisions (no seed:
    fresh random numbers each decision); the others override the level's
    :class:`ai.cardplay.PlaySettings` (``samples``/``lead_samples``/``min_samples`` 1..500,
    ``time_budget`` in seconds, ``threads`` 1..the number of cores).
    """

    level: str = "medium"
    seed: object = None
    overrides: Tuple[Tuple[str, object], ...] = ()

    @classmethod
    def from_json(cls, obj, *, max_time_budget: float = 60.0,
                  defaults: Optional[dict] = None,
                  time_limit: Optional[float] = None) -> "PlayerSpec":
        """Read a player object (``None`` for the defaults).

        :param max_time_budget: the largest ``time_budget`` allowed (seconds); the level's
            own budget is also capped to it.
        :param defaults: settings used where the object gives none (e.g. a server's
            ``{"threads": 1}``).
        :param time_limit: a hard limit per decision (seconds) given to the computer
            (:attr:`ai.cardplay.PlaySettings.time_limit`: past it no more layouts are
            solved, ``min_samples`` or not); ``None``: none.
        :raises ProtocolError: ``bad_message`` naming the field.
        """
        obj = {} if obj is None else obj
        check_fields(obj, _PLAYER_FIELDS, "the player")
        merged = dict(defaults or {})
        merged.update(obj)
        level = merged.pop("level", "medium")
        if level not in LEVEL_NAMES:
            raise ProtocolError("bad_message", f"'level' must be one of "
                                f"{', '.join(LEVEL_NAMES)}, got {level!r}")
        seed = merged.pop("seed", None)
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, str)):
                raise ProtocolError("bad_message", f"'seed' must be an integer or text, got "
                                    f"{_kind(seed)}")
            if isinstance(seed, str) and len(seed) > 200:
                raise ProtocolError("bad_message", "'seed' text is longer than 200 characters")
            if isinstance(seed, int) and abs(seed) >= 2 ** 63:
                raise ProtocolError("bad_message", "'seed' must be below 2**63 in size")
        overrides = {}
        for name, value in merged.items():
            if name in _INT_SETTINGS:
                if isinstance(value, bool) or not isinstance(value, int) \
                        or not 1 <= value <= _INT_SETTINGS[name]:
                    raise ProtocolError("bad_message", f"'{name}' must be an integer 1.."
                                        f"{_INT_SETTINGS[name]}, got {value!r}")
            elif name == "threads":
                top = os.cpu_count() or 1
                if isinstance(value, bool) or not isinstance(value, int) \
                        or not 1 <= value <= top:
                    raise ProtocolError("bad_message", f"'threads' must be an integer "
                                        f"1..{top}, got {value!r}")
            elif name == "time_budget":
                if isinstance(value, bool) or not isinstance(value, (int, float)) \
                        or not math.isfinite(value) or not 0 < value <= max_time_budget:
                    raise ProtocolError("bad_message", f"'time_budget' must be a number of "
                                        f"seconds in (0, {max_time_budget:g}], got {value!r}")
                value = float(value)
            overrides[name] = value
        from ai.robot import LEVELS
        base = LEVELS[level]
        if "time_budget" not in overrides and base.time_budget > max_time_budget:
            overrides["time_budget"] = float(max_time_budget)
        lead_budget = getattr(base, "lead_time_budget", None)
        if lead_budget is not None and lead_budget > max_time_budget:
            overrides["lead_time_budget"] = float(max_time_budget)
        if time_limit is not None:
            overrides["time_limit"] = float(time_limit)
        return cls(level, seed, tuple(sorted(overrides.items())))

    def make(self):
        """A new :class:`ai.robot.ComputerPlayer` with these settings."""
        from ai.robot import ComputerPlayer
        return ComputerPlayer(self.level, seed=self.seed, **dict(self.overrides))

    def to_dict(self) -> dict:
        out = {"level": self.level, "seed": self.seed}
        out.update(dict(self.overrides))
        return out


class PlayerPool:
    """Computer players kept between requests, one request at a time each.

    Making a player costs its solvers' memory; a pool keeps up to ``size`` idle players
    (the least recently used go first) and hands each to one caller at a time, so that
    threads never share one.  Reusing a player never changes its decisions: they depend on
    the view and the seed only.
    """

    def __init__(self, size: int = 4, make=None):
        self.size = max(1, int(size))
        #: ``make(spec) -> player``: how a player is made (default :meth:`PlayerSpec.make`)
        self.make = make if make is not None else PlayerSpec.make
        self._idle: "collections.OrderedDict[PlayerSpec, list]" = collections.OrderedDict()
        self._lock = threading.Lock()

    @contextmanager
    def player(self, spec: PlayerSpec) -> Iterator:
        """A player for ``spec`` (made if none is idle), given back afterwards."""
        with self._lock:
            stack = self._idle.get(spec)
            p = stack.pop() if stack else None
            if stack is not None and not stack:
                del self._idle[spec]
        if p is None:
            p = self.make(spec)
        try:
            yield p
        finally:
            dropped = []
            with self._lock:
                self._idle.setdefault(spec, []).append(p)
                self._idle.move_to_end(spec)
                while sum(len(v) for v in self._idle.values()) > self.size:
                    key = next(iter(self._idle))
                    dropped.append(self._idle[key].pop(0))
                    if not self._idle[key]:
                        del self._idle[key]
            for old in dropped:
                close = getattr(old, "close", None)
                if close is not None:
                    close()

    def close(self) -> None:
        """Release every idle player's threads."""
        with self._lock:
            players = [p for v in self._idle.values() for p in v]
            self._idle.clear()
        for p in players:
            close = getattr(p, "close", None)
            if close is not None:
                close()


# -- answers --------------------------------------------------------------------------------
def contract_text(contract: Optional[Contract]) -> Optional[str]:
    """``"3NT"``, ``"4SX"``, ``"2HXX"`` (no declarer), or ``None``."""
    if contract is None:
        return None
    return str(Contract(contract.level, contract.strain, contract.doubled))


def explanation_json(exp) -> Optional[dict]:
    """An explanation as JSON (:meth:`ai.bidding.explanation.Explanation.to_dict`)."""
    if exp is None:
        return None
    to_dict = getattr(exp, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return {"text": str(exp)}


def board_state(view: SeatView) -> dict:
    """Where the board stands for the view's seat, as JSON.

    ``phase`` is ``"auction"``, ``"play"`` or ``"over"``; ``to_call`` / ``to_play`` the
    seat due (``null`` outside its phase); ``your_turn`` whether the view's seat must decide
    now (its call, its card, or dummy's card when it is declarer); ``legal_cards`` the cards
    it may play then; ``tricks`` the completed tricks of each side; ``result`` (when over)
    the contract, declarer, declarer's tricks and the score from North-South's view.
    """
    auction = view.auction
    over = auction.is_finished and (view.contract is None or len(view.played) == 52)
    phase = "over" if over else ("auction" if not auction.is_finished else "play")
    to_call = view.to_call
    controller = None
    if view.to_play is not None:
        controller = view.declarer if view.to_play == view.dummy else view.to_play
    your_turn = (to_call == view.seat) if phase == "auction" else (
        phase == "play" and controller == view.seat)
    out = {
        "seat": view.seat.letter,
        "phase": phase,
        "to_call": None if to_call is None else to_call.letter,
        "to_play": None if view.to_play is None else view.to_play.letter,
        "your_turn": your_turn,
        "contract": contract_text(view.contract),
        "declarer": None if view.declarer is None else view.declarer.letter,
        "tricks": {"declarer": view.declarer_tricks, "defenders": view.defender_tricks},
        "trick": [[s.letter, str(c)] for s, c in view.current_trick],
        "legal_cards": [str(c) for c in view.legal_cards],
    }
    if over:
        tricks = view.declarer_tricks
        out["result"] = {
            "contract": contract_text(view.contract),
            "declarer": out["declarer"],
            "tricks": tricks if view.contract is not None else None,
            "score": ns_score(view.contract, tricks, view.vulnerability),
        }
    return out


def answer_call(player, view: SeatView) -> dict:
    """The call of ``view.seat``, with its explanation in the player's system.

    :returns: ``{"seat", "call", "explanation"}``.
    :raises ProtocolError: ``out_of_turn`` when the auction is over or another seat is to
        call.
    """
    if view.auction_finished:
        raise ProtocolError("out_of_turn", "the auction is over: ask for a card")
    if view.to_call != view.seat:
        raise ProtocolError("out_of_turn", f"{view.to_call.name.title()} is to call, not "
                            f"{view.seat.name.title()}")
    call = player.call(view)
    exp = player.explain(view, call)
    return {"seat": view.seat.letter, "call": str(call), "explanation": explanation_json(exp)}


def check_play_in_progress(view: SeatView) -> None:
    """Refuse a card when no card is due: the auction is not over, the board was passed
    out, or the play is over.

    :raises ProtocolError: ``out_of_turn``, naming which.
    """
    if not view.auction_finished:
        raise ProtocolError("out_of_turn", f"the auction is not over "
                            f"({view.to_call.name.title()} is to call): ask for a call")
    if view.contract is None:
        raise ProtocolError("out_of_turn", "the board was passed out: no card is played")
    if view.to_play is None:
        raise ProtocolError("out_of_turn", "the play is over")


def _check_card_turn(view: SeatView) -> None:
    check_play_in_progress(view)
    if not view.legal_cards:
        if view.seat == view.dummy:
            raise ProtocolError("out_of_turn", f"{view.seat.name.title()} is dummy: declarer "
                                f"{view.declarer.name.title()} plays dummy's cards")
        raise ProtocolError("out_of_turn", f"{view.to_play.name.title()} is to play, not "
                            f"{view.seat.name.title()}")


def answer_card(player, view: SeatView) -> dict:
    """The card for ``view.to_play`` (the view's own seat, or dummy when it is declarer).

    :returns: ``{"seat": the seat whose card it is, "card"}``.
    :raises ProtocolError: ``out_of_turn`` when no card of this seat is due.
    """
    _check_card_turn(view)
    card = player.card(view)
    return {"seat": view.to_play.letter, "card": str(card)}


def answer_explain(player, view: SeatView, index=None, call=None) -> dict:
    """The meaning of a call in the player's bidding system.

    Give ``index`` (0-based) to explain a call already made (``view.calls[index]``, as
    made after the calls before it), or ``call`` to explain what that call would mean if
    made now by the seat to act.

    :returns: ``{"call", "index", "explanation"}`` (``index`` is ``null`` for a call not
        yet made).
    :raises ProtocolError: ``bad_message`` for both or neither, a bad index;
        ``bad_notation``, ``illegal_call`` for a call; ``out_of_turn`` for a call once the
        auction is over.
    """
    if (index is None) == (call is None):
        raise ProtocolError("bad_message", "give either 'index' (a call of the auction) or "
                            "'call' (a call that could be made now)")
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int):
            raise ProtocolError("bad_message", f"'index' must be an integer, got "
                                f"{_kind(index)}")
        if not 0 <= index < len(view.calls):
            raise ProtocolError("bad_message", f"'index' {index} is not a call of the "
                                f"auction (0..{len(view.calls) - 1})" if view.calls else
                                f"'index' {index}: no call has been made")
        c = view.calls[index]
        exp = player.system.explain(Auction(view.dealer, view.calls[:index]), c)
        return {"call": str(c), "index": index, "explanation": explanation_json(exp)}
    c = parse_call(call)
    if view.auction_finished:
        raise ProtocolError("out_of_turn", "the auction is over: no call can be made")
    message = illegal_call_message(view.auction, c)
    if message is not None:
        raise ProtocolError("illegal_call", message)
    exp = player.explain(view, c)
    return {"call": str(c), "index": None, "explanation": explanation_json(exp)}


def answer_hint(player, view: SeatView) -> dict:
    """A suggestion for the view's seat when it is to decide.

    During the auction: ``{"phase": "auction", "seat", "call", "explanation"}``.  During
    the play: ``{"phase": "play", "seat", "card", "cards": [{"card", "tricks", "utility"},
    ...]}`` where each legal card's ``tricks`` is the mean number of tricks (whole deal) of
    the side to play over the layouts sampled and ``utility`` the expected IMPs lost
    against the best card of each layout (<= 0) at IMPs, or the mean tricks at MP; both are
    ``null`` when the card was forced.

    :raises ProtocolError: ``out_of_turn`` when the seat has nothing to decide.
    """
    if not view.auction_finished:
        if view.to_call != view.seat:
            raise ProtocolError("out_of_turn", f"{view.to_call.name.title()} is to call, not "
                                f"{view.seat.name.title()}")
        hint = player.hint(view)
        return {"phase": "auction", "seat": view.seat.letter, "call": str(hint.call),
                "explanation": explanation_json(hint.explanation)}
    _check_card_turn(view)
    choice = player.hint(view)
    mover_decl = view.to_play.side == view.declarer.side
    cards = []
    total = sum(choice.weights) or 1.0
    for j, c in enumerate(choice.cards):
        if choice.tricks:
            mean = sum(w * row[j] for w, row in zip(choice.weights, choice.tricks)) / total
            tricks = round(mean if mover_decl else 13 - mean, 4)
            utility = round(choice.utility[j], 4)
        else:
            tricks = utility = None
        cards.append({"card": str(c), "tricks": tricks, "utility": utility})
    return {"phase": "play", "seat": view.to_play.letter, "card": str(choice.card),
            "reason": getattr(choice, "reason", "searched"), "cards": cards}


def info() -> Dict[str, object]:
    """What the engine is: name, package version, protocol version, levels, scorings."""
    import ddsolver
    return {"engine": "ddsolver", "version": ddsolver.__version__, "protocol": PROTOCOL_VERSION,
            "levels": list(LEVEL_NAMES), "scorings": list(SCORINGS)}
