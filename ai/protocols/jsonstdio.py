"""The JSON-lines engine: one JSON object per line in, one per line out (``ddsolver-ai
engine``), in the manner of UCI for chess engines.

The schema, every message with an example exchange, is in ``docs/protocol-json.md``; the
protocol version is :data:`ai.protocols.decisions.PROTOCOL_VERSION`.  Two ways to use it:

- **stateful**: ``new_board`` seats the engine at one seat with its hand; the frontend
  reports the other seats' calls and cards (``call``, ``card``), dummy's hand once the
  opening lead is faced (``dummy``), and asks for the engine's decisions (``get_call``,
  ``get_card``: declarer is also asked for dummy's cards), explanations (``explain``) and
  hints (``hint``).  Several boards in one process: each ``new_board`` starts afresh.
- **stateless**: any decision request carrying a ``view`` object (the whole board as the
  seat sees it, :func:`ai.protocols.decisions.view_from_json`) is answered from that view
  alone; the stored board is neither needed nor changed.

Every line read is answered by exactly one line (blank lines excepted); a bad line (not
JSON, an unknown type, a missing field, an illegal call or card, a message out of turn)
is answered by ``{"type": "error", "code": ..., "message": ...}`` and the engine keeps
serving.  Nothing read can stop it but ``quit`` or the end of the input.
"""

from __future__ import annotations

import json
import sys
from typing import BinaryIO, List, Optional, Tuple

from ai.players import SeatView, seat_view
from ai.protocols.decisions import (
    PROTOCOL_VERSION,
    PlayerPool,
    PlayerSpec,
    ProtocolError,
    answer_call,
    answer_card,
    answer_explain,
    answer_hint,
    board_state,
    check_fields,
    check_play_in_progress,
    error_from_exception,
    info,
    parse_call,
    view_from_json,
)
from ddsolver.auction import Call
from ddsolver.cards import Card
from ddsolver.deal import Hand
from ddsolver.errors import BridgeError
from ddsolver.table import Seat

__all__ = ["DEFAULT_MAX_LINE", "Engine", "serve"]

#: The longest line read (bytes); a longer line is answered with ``too_large``.
DEFAULT_MAX_LINE = 1 << 20

# message type -> the fields it may carry (besides "type" and "id")
_FIELDS = {
    "hello": ("protocol",),
    "new_board": ("seat", "hand", "dealer", "vulnerability", "scoring", "board", "player"),
    "call": ("seat", "call"),
    "card": ("seat", "card"),
    "dummy": ("hand",),
    "get_call": ("play", "view", "player"),
    "get_card": ("play", "view", "player"),
    "explain": ("index", "call", "view", "player"),
    "hint": ("view", "player"),
    "state": ("view",),
    "quit": (),
}


class _Board:
    """The stateful engine's board: what its seat has seen so far."""

    def __init__(self, seat: Seat, hand: Hand, dealer: Seat, vulnerability, scoring: str,
                 number: Optional[int], spec: PlayerSpec):
        self.seat = seat
        self.hand = hand
        self.dealer = dealer
        self.vulnerability = vulnerability
        self.scoring = scoring
        self.number = number
        self.spec = spec
        self.calls: List[Call] = []
        self.played: List[Tuple[Seat, Card]] = []
        self.dummy: Optional[Hand] = None

    def make_view(self, calls=None, played=None) -> SeatView:
        calls = self.calls if calls is None else calls
        played = self.played if played is None else played
        return seat_view(self.seat, self.hand, dealer=self.dealer,
                         vulnerability=self.vulnerability, auction=calls, played=played,
                         dummy_hand=self.dummy if played else None, scoring=self.scoring)

    @property
    def needs_dummy(self) -> bool:
        if not self.played or self.dummy is not None:
            return False
        return self.make_view(played=[]).dummy != self.seat

    def view(self) -> SeatView:
        """The current view; :raises ProtocolError: ``dummy_needed``."""
        if self.needs_dummy:
            raise ProtocolError("dummy_needed", "the opening lead is faced: send "
                                "{\"type\": \"dummy\", \"hand\": ...} with dummy's hand first")
        return self.make_view()

    def auction_view(self) -> SeatView:
        """A view with the whole auction, for answers that need only the calls (what a
        call meant): while dummy's hand is awaited, the view before the opening lead."""
        if self.needs_dummy:
            return self.make_view(played=[])
        return self.make_view()

    def state(self) -> dict:
        if self.needs_dummy:
            before = self.make_view(played=[])
            lead_seat, lead = self.played[0]
            out = board_state(before)
            out.update({"phase": "play", "to_play": lead_seat.lho.letter,
                        "your_turn": before.declarer == self.seat,
                        "trick": [[lead_seat.letter, str(lead)]], "legal_cards": []})
        else:
            out = board_state(self.make_view())
        out["needs_dummy"] = self.needs_dummy
        out["board"] = self.number
        return out


class Engine:
    """The engine behind the JSON lines: :meth:`handle_line` answers one line,
    :meth:`handle` one parsed message; :func:`serve` runs it on byte streams.

    :param max_line: the longest line accepted, in bytes.
    :param player_defaults: settings every player object starts from (e.g.
        ``{"threads": 1}``).
    :param max_time_budget: the largest ``time_budget`` a player object may ask for.
    """

    def __init__(self, *, max_line: int = DEFAULT_MAX_LINE,
                 player_defaults: Optional[dict] = None, max_time_budget: float = 60.0,
                 pool_size: int = 4):
        self.max_line = max_line
        self.player_defaults = dict(player_defaults or {})
        self.max_time_budget = max_time_budget
        self.pool = PlayerPool(pool_size)
        self.board: Optional[_Board] = None
        #: set by ``quit``: the serving loop stops after answering
        self.finished = False

    def close(self) -> None:
        """Release the players' threads."""
        self.pool.close()

    # -- lines ------------------------------------------------------------------------------
    def handle_line(self, line) -> Optional[str]:
        """The answer (one line of JSON, without the line end) to one line of input, or
        ``None`` for a blank line.  Never raises."""
        try:
            if isinstance(line, bytes):
                if len(line) > self.max_line:
                    return _dump(_error(ProtocolError(
                        "too_large", f"the line has {len(line)} bytes: at most "
                        f"{self.max_line}")))
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as exc:
                    return _dump(_error(ProtocolError("bad_json", f"the line is not UTF-8: "
                                                                  f"{exc}")))
            if not line.strip():
                return None
            try:
                msg = json.loads(line, object_pairs_hook=_unique_keys)
            except (ValueError, RecursionError) as exc:
                return _dump(_error(ProtocolError("bad_json", f"the line is not JSON: "
                                                              f"{exc}")))
            return _dump(self.handle(msg))
        except Exception as exc:  # pragma: no cover - a bug; keep serving
            return _dump(_error(ProtocolError("internal", f"{type(exc).__name__}: {exc}")))

    def handle(self, msg) -> dict:
        """The answer to one message (a parsed JSON value).  Never raises: problems are
        answered with an error object."""
        mid = None
        try:
            if not isinstance(msg, dict):
                raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
            mid = msg.get("id")
            if mid is not None and (isinstance(mid, bool) or not isinstance(mid, (int, str))
                                    or (isinstance(mid, str) and len(mid) > 200)):
                mid = None
                raise ProtocolError("bad_message", "'id' must be an integer or text of at "
                                    "most 200 characters")
            kind = msg.get("type")
            if not isinstance(kind, str):
                raise ProtocolError("bad_message", "a message needs a 'type' (text)")
            if kind not in _FIELDS:
                raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r} "
                                    f"(known: {', '.join(_FIELDS)})")
            check_fields(msg, ("type", "id") + _FIELDS[kind], f"a '{kind}' message")
            out = getattr(self, "_on_" + kind)(msg)
        except Exception as exc:
            out = _error(error_from_exception(exc))
        if mid is not None:
            out["id"] = mid
        return out

    # -- messages ---------------------------------------------------------------------------
    def _on_hello(self, msg) -> dict:
        wanted = msg.get("protocol")
        if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
            raise ProtocolError("bad_message", "'protocol' must be an integer")
        if wanted is not None and wanted != PROTOCOL_VERSION:
            raise ProtocolError("bad_message", f"this engine speaks protocol "
                                f"{PROTOCOL_VERSION}, not {wanted}")
        out = {"type": "hello"}
        out.update(info())
        return out

    def _on_quit(self, msg) -> dict:
        self.finished = True
        return {"type": "bye"}

    def _spec(self, obj) -> PlayerSpec:
        return PlayerSpec.from_json(obj, max_time_budget=self.max_time_budget,
                                    defaults=self.player_defaults)

    def _on_new_board(self, msg) -> dict:
        for name in ("seat", "hand", "dealer"):
            if name not in msg:
                raise ProtocolError("bad_message", f"'new_board' needs '{name}'")
        number = msg.get("board")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or not 1 <= number <= 10 ** 6):
            raise ProtocolError("bad_message", "'board' must be an integer 1..1000000")
        spec = self._spec(msg.get("player"))
        # the view checks seat, hand (13 cards), dealer, vulnerability and scoring
        view = view_from_json({k: msg[k] for k in ("seat", "hand", "dealer",
                                                   "vulnerability", "scoring") if k in msg})
        if len(view.original_hand) != 13:
            raise ProtocolError("invalid_view", f"a new board needs the seat's 13 cards, "
                                f"got {len(view.original_hand)}")
        self.board = _Board(view.seat, view.original_hand, view.dealer, view.vulnerability,
                            view.scoring, number, spec)
        return {"type": "state", **self.board.state()}

    def _need_board(self) -> _Board:
        if self.board is None:
            raise ProtocolError("no_board", "no board: send 'new_board' first")
        return self.board

    def _on_call(self, msg) -> dict:
        board = self._need_board()
        seat, call = self._seat_field(msg), parse_call(msg.get("call"), "'call'")
        self._record_call(board, seat, call)
        return {"type": "state", **board.state()}

    def _record_call(self, board: _Board, seat: Seat, call: Call) -> None:
        view = board.view()
        if view.auction_finished:
            raise ProtocolError("out_of_turn", "the auction is over")
        if seat != view.to_call:
            raise ProtocolError("out_of_turn", f"{view.to_call.name.title()} is to call, not "
                                f"{seat.name.title()}")
        if not view.auction.is_legal(call):
            raise ProtocolError("illegal_call", f"{call} by {seat.name.title()} is not legal after "
                                f"{' '.join(map(str, view.calls)) or 'no calls'}")
        board.calls.append(call)

    def _on_card(self, msg) -> dict:
        board = self._need_board()
        seat = self._seat_field(msg)
        card = msg.get("card")
        if not isinstance(card, str):
            raise ProtocolError("bad_message", "'card' must be card text like \"SA\"")
        try:
            card = Card.from_str(card)
        except BridgeError:
            raise ProtocolError("bad_notation", f"{card[:20]!r} is not a card (suit then "
                                f"rank: \"SA\", \"HT\", \"C2\")") from None
        self._record_card(board, seat, card)
        return {"type": "state", **board.state()}

    def _record_card(self, board: _Board, seat: Seat, card: Card) -> None:
        view = board.view()
        check_play_in_progress(view)
        if seat != view.to_play:
            raise ProtocolError("out_of_turn", f"{view.to_play.name.title()} is to play, not "
                                f"{seat.name.title()}")
        if view.legal_cards and card not in view.legal_cards:
            raise ProtocolError("illegal_card", f"{card} is not a legal card for "
                                f"{seat.name.title()}: {' '.join(map(str, view.legal_cards))}")
        played = board.played + [(seat, card)]
        if board.dummy is not None or view.seat == view.dummy:
            try:
                board.make_view(played=played)
            except BridgeError as exc:
                raise ProtocolError("illegal_card", str(exc)) from None
        else:  # the opening lead: dummy is not known yet
            if seat != view.seat and card in view.original_hand:
                raise ProtocolError("illegal_card", f"{card} is in {view.seat.name.title()}'s hand")
        board.played = played

    def _on_dummy(self, msg) -> dict:
        board = self._need_board()
        if "hand" not in msg:
            raise ProtocolError("bad_message", "'dummy' needs 'hand'")
        value = msg["hand"]
        if not isinstance(value, (str, list)):
            raise ProtocolError("bad_message", "'hand' must be PBN hand text or a list of "
                                "cards")
        if not board.played:
            raise ProtocolError("out_of_turn", "dummy's hand is faced after the opening lead")
        view_before = board.make_view(played=[])
        if board.dummy is not None or view_before.dummy == board.seat:
            raise ProtocolError("out_of_turn", "dummy's hand is already known")
        try:
            dummy = view_from_json({"seat": view_before.dummy.letter, "hand": value,
                                    "dealer": "N"}).original_hand
        except ProtocolError as exc:
            raise ProtocolError(exc.code, f"dummy's hand: {exc.message}") from None
        board.dummy = dummy
        try:
            board.make_view()
        except BridgeError as exc:
            board.dummy = None
            raise ProtocolError("invalid_view", f"dummy's hand: {exc}") from None
        return {"type": "state", **board.state()}

    def _seat_field(self, msg) -> Seat:
        value = msg.get("seat")
        if not isinstance(value, str):
            raise ProtocolError("bad_message", "'seat' must be a seat: \"N\", \"E\", \"S\" "
                                "or \"W\"")
        try:
            return Seat.from_str(value)
        except BridgeError:
            raise ProtocolError("bad_notation", f"{value[:20]!r} is not a seat") from None

    def _view_and_spec(self, msg, auction_only: bool = False):
        """(view, spec, board or None) for a decision request; ``auction_only``: the
        request needs only the calls, so a board awaiting dummy's hand answers it."""
        if "view" in msg:
            if "play" in msg:
                raise ProtocolError("bad_message", "'play' has no meaning with a 'view' "
                                    "(stateless requests change nothing)")
            return view_from_json(msg["view"]), self._spec(msg.get("player")), None
        if "player" in msg:
            raise ProtocolError("bad_message", "'player' goes with 'new_board' (or with a "
                                "'view' in a stateless request)")
        board = self._need_board()
        return (board.auction_view() if auction_only else board.view()), board.spec, board

    def _play_flag(self, msg) -> bool:
        play = msg.get("play", True)
        if not isinstance(play, bool):
            raise ProtocolError("bad_message", "'play' must be true or false")
        return play

    def _on_get_call(self, msg) -> dict:
        play = self._play_flag(msg)
        view, spec, board = self._view_and_spec(msg)
        with self.pool.player(spec) as player:
            out = answer_call(player, view)
        if board is not None and play:
            self._record_call(board, view.seat, Call.from_str(out["call"]))
        result = {"type": "call", **out}
        if board is not None:
            result["state"] = board.state()
        return result

    def _on_get_card(self, msg) -> dict:
        play = self._play_flag(msg)
        view, spec, board = self._view_and_spec(msg)
        with self.pool.player(spec) as player:
            out = answer_card(player, view)
        if board is not None and play:
            self._record_card(board, Seat.from_str(out["seat"]), Card.from_str(out["card"]))
        result = {"type": "card", **out}
        if board is not None:
            result["state"] = board.state()
        return result

    def _on_explain(self, msg) -> dict:
        view, spec, _ = self._view_and_spec(msg, auction_only=True)
        with self.pool.player(spec) as player:
            out = answer_explain(player, view, index=msg.get("index"), call=msg.get("call"))
        return {"type": "explanation", **out}

    def _on_hint(self, msg) -> dict:
        view, spec, _ = self._view_and_spec(msg)
        with self.pool.player(spec) as player:
            out = answer_hint(player, view)
        return {"type": "hint", **out}

    def _on_state(self, msg) -> dict:
        if "view" in msg:
            return {"type": "state", **board_state(view_from_json(msg["view"]))}
        return {"type": "state", **self._need_board().state()}


def _error(err: ProtocolError) -> dict:
    return {"type": "error", **err.to_dict()}


def _unique_keys(pairs) -> dict:
    """``json.loads``'s object hook: an object naming a key twice is refused (ValueError),
    not read with the last value winning (RFC 8259 section 4: names SHOULD be unique;
    ``{"type": "hello", "type": "quit"}`` would otherwise quit)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key[:40]!r} appears twice in one object")
        out[key] = value
    return out


def _dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"))


def _read_line(stream: BinaryIO, limit: int):
    """One line (bytes, end of line included) or ``b""`` at the end; a line longer than
    ``limit`` is consumed whole and returned as ``None``."""
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    while True:  # skip the rest of the over-long line
        more = stream.readline(1 << 16)
        if not more or more.endswith(b"\n"):
            return None


def serve(infile: BinaryIO = None, outfile: BinaryIO = None, engine: Engine = None) -> int:
    """Answer lines from ``infile`` on ``outfile`` until ``quit`` or the end of the input.

    :param infile: a binary stream (default standard input); :param outfile: a binary
        stream (default standard output), flushed after every answer.
    :returns: 0.
    """
    infile = infile if infile is not None else sys.stdin.buffer
    outfile = outfile if outfile is not None else sys.stdout.buffer
    engine = engine if engine is not None else Engine()
    try:
        while not engine.finished:
            raw = _read_line(infile, engine.max_line)
            if raw is None:
                answer = _dump(_error(ProtocolError(
                    "too_large", f"the line exceeds {engine.max_line} bytes")))
            elif not raw:
                break
            else:
                answer = engine.handle_line(raw.rstrip(b"\r\n"))
            if answer is not None:
                outfile.write(answer.encode("ascii") + b"\n")
                outfile.flush()
    finally:
        engine.close()
    return 0
