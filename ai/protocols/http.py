"""The HTTP robot API: one stateless request per decision (``ddsolver-ai http``).

Built on FastAPI (Starlette) and served by uvicorn.  Every endpoint takes the board as the
deciding seat sees it (a *view object*, :func:`ai.protocols.decisions.view_from_json`) and
optionally a *player object* (:class:`ai.protocols.decisions.PlayerSpec`), and answers JSON:

==========================  =========================================================
``GET  /api/info``          engine name, version, protocol version, levels, limits (also
                            ``HEAD``)
``POST /api/call``          the seat's call with its explanation
``POST /api/card``          the seat's card (declarer's view: dummy's card when due)
``POST /api/explain``       the meaning of a call made (``index``) or possible (``call``)
``POST /api/hint``          a suggested call or card, with the cards' evaluations
``POST /api/state``         where the board stands for the seat (no computer involved)
``GET  /openapi.json``      the JSON schemas of every request and answer (OpenAPI 3)
==========================  =========================================================

Errors answer ``{"error": {"code": ..., "message": ...}}`` with an HTTP status (400 bad
JSON or not HTTP, 413 body too large, 404 unknown path, 405 bad method, 408 request not
received in time, 409 not this seat's turn, 422 an invalid or impossible request, 503 busy,
504 time limit).  Limits: request bodies of at
most ``max_body`` bytes; each decision at most ``time_limit`` seconds (a decision that
overruns is answered 504 while the server keeps answering other requests; the computer is
given the limit as its hard :attr:`ai.cardplay.PlaySettings.time_limit`, so that its
computation stops soon after, in its worker thread, whose slot stays taken until then); a
player's ``time_budget`` at most :data:`BUDGET_SHARE` of the limit (the budget is a target
that a decision may overrun by a few layouts, besides dealing them); at most
``max_concurrent`` decisions at once (more are answered 503); under :func:`make_server`,
each request received whole within ``request_timeout`` seconds and at most
``max_connections`` connections (:func:`server_config`).  The server binds to
127.0.0.1 unless told otherwise.  Documented for frontend authors in
``docs/protocol-http.md``.

:func:`create_app` builds the application; the web page (a later part) mounts its own routes
and static files on the app it returns.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import List, Literal, Optional, Tuple, Union

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, SkipValidation, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from ai.protocols.decisions import (
    PlayerPool,
    PlayerSpec,
    ProtocolError,
    answer_call,
    answer_card,
    answer_explain,
    answer_hint,
    board_state,
    error_from_exception,
    info,
    view_from_json,
)

__all__ = ["BUDGET_SHARE", "DEFAULT_MAX_BODY", "DEFAULT_MAX_CONNECTIONS",
           "DEFAULT_REQUEST_TIMEOUT", "DEFAULT_TIME_LIMIT", "create_app", "make_server",
           "serve", "server_config"]

#: default largest request body, bytes
DEFAULT_MAX_BODY = 64 * 1024
#: default longest decision, seconds
DEFAULT_TIME_LIMIT = 10.0
#: the largest ``time_budget`` of a player object (and of a level), as a share of the time
#: limit: a budget as long as the limit would end past it (the budget is a target, not a
#: cap, and dealing the layouts and starting a new computer take time too)
BUDGET_SHARE = 0.5

STATUS = {
    "bad_json": 400, "bad_message": 422, "unknown_type": 422, "bad_notation": 422,
    "invalid_view": 422, "illegal_call": 422, "illegal_card": 422, "out_of_turn": 409,
    "dummy_needed": 409, "no_board": 409, "too_large": 413, "not_found": 404,
    "timeout": 504, "busy": 503, "internal": 500, "request_timeout": 408, "bad_http": 400,
}


# -- schemas (published as OpenAPI) -----------------------------------------------------------
class View(BaseModel):
    """What one seat sees: the board as that seat knows it."""

    model_config = ConfigDict(extra="forbid")
    seat: str = Field(description="The deciding seat: N, E, S, W (or North...).",
                      examples=["S"], max_length=10)
    hand: Union[str, List[str]] = Field(
        description="The seat's cards: its 13 original cards (or those it still holds) as "
                    "PBN hand text, spades first, or a list of cards.",
        examples=["JT97.A86.A87.T96"])
    dealer: str = Field(description="The dealer: N, E, S, W.", examples=["N"],
                        max_length=10)
    vulnerability: str = Field("None", description="None, NS, EW or All (also Both).",
                               max_length=10)
    scoring: Literal["IMP", "MP"] = Field("IMP", description="IMP (teams) or MP (pairs).")
    auction: Union[List[str], str] = Field(
        default_factory=list, description="The calls so far, dealer's first: 1C..7NT, "
                                          "Pass, X, XX.",
        examples=[["1NT", "Pass"]])
    played: Union[List[Tuple[str, str]], List[str]] = Field(
        default_factory=list,
        description="The cards played so far in order, as [seat, card] pairs or as plain "
                    "cards (seats then follow from the contract and the tricks). A card "
                    "is suit then rank: SA, HT, C2.",
        examples=[[["W", "S2"], ["N", "S4"]]])
    dummy_hand: Optional[Union[str, List[str]]] = Field(
        None, description="Dummy's cards, required once the opening lead is faced "
                          "(unless the seat is dummy), refused before it.")
    explanations: Optional[List[Optional[str]]] = Field(
        None, description="Accepted and ignored (the engine explains calls with its own "
                          "system), so that SeatView.to_dict() can be sent as it is.")


class Player(BaseModel):
    """Which computer decides: level, seed and setting overrides (all optional).

    The schema only documents the object: requests carry it unvalidated
    (:data:`PlayerObject`), and :meth:`ai.protocols.decisions.PlayerSpec.from_json` checks
    it exactly as the JSON engine does (no text or boolean for a number, no fraction for an
    integer, ``null`` only for ``seed``)."""

    model_config = ConfigDict(extra="forbid")
    level: Literal["easy", "medium", "hard"] = "medium"
    seed: Optional[Union[int, str]] = Field(
        None, description="For repeatable decisions: the same view and seed give the same "
                          "call or card.")
    samples: Optional[int] = Field(None, ge=1, le=500)
    lead_samples: Optional[int] = Field(None, ge=1, le=500)
    min_samples: Optional[int] = Field(None, ge=1, le=500)
    time_budget: Optional[float] = Field(None, gt=0, description="Seconds per card, at "
                                                                 "most max_time_budget "
                                                                 "(/api/info).")
    threads: Optional[int] = Field(None, ge=1, description="1..the number of cores.")


#: the player object of a request: published with the :class:`Player` schema, passed on as
#: it was sent, for :meth:`PlayerSpec.from_json` to check as the JSON engine does
PlayerObject = SkipValidation[Optional[Player]]


class DecisionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    view: View
    player: PlayerObject = None


class ExplainRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    view: View
    index: Optional[StrictInt] = Field(None, ge=0, description="Explain the auction's call "
                                                               "number index (0 = dealer's "
                                                               "first call).")
    call: Optional[str] = Field(None, max_length=20,
                                description="Or explain this call as made now.")
    player: PlayerObject = None


class StateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    view: View


class Explanation(BaseModel):
    call: str
    name: str
    text: str = Field(description="The whole meaning in one English sentence.")
    description: str
    forcing: str = Field(description="non-forcing, forcing or game forcing")
    artificial: bool
    alert: bool
    in_system: bool
    constraints: dict = Field(description="What the call shows: hcp [min, max], lengths "
                                          "per suit [min, max], balanced, stoppers, aces.")


class CallAnswer(BaseModel):
    seat: str
    call: str
    explanation: Explanation


class CardAnswer(BaseModel):
    seat: str = Field(description="The seat whose card it is (dummy's when declarer plays "
                                  "for dummy).")
    card: str


class ExplainAnswer(BaseModel):
    call: str
    index: Optional[int]
    explanation: Explanation


class CardEvaluation(BaseModel):
    card: str
    tricks: Optional[float] = Field(description="Mean tricks (whole deal) of the side to "
                                                "play with this card.")
    utility: Optional[float] = Field(description="Expected IMPs lost against the best card "
                                                 "of each layout (IMP), or mean tricks "
                                                 "(MP).")


class HintAnswer(BaseModel):
    phase: Literal["auction", "play"]
    seat: str
    call: Optional[str] = None
    explanation: Optional[Explanation] = None
    card: Optional[str] = None
    reason: Optional[str] = Field(None, description="How the card was chosen: forced, "
                                                    "equivalent, searched, early, budget, "
                                                    "no layout.")
    cards: Optional[List[CardEvaluation]] = None


class Tricks(BaseModel):
    declarer: int
    defenders: int


class Result(BaseModel):
    contract: Optional[str]
    declarer: Optional[str]
    tricks: Optional[int]
    score: int = Field(description="Duplicate score from North-South's point of view.")


class StateAnswer(BaseModel):
    seat: str
    phase: Literal["auction", "play", "over"]
    to_call: Optional[str]
    to_play: Optional[str]
    your_turn: bool
    contract: Optional[str]
    declarer: Optional[str]
    tricks: Tricks
    trick: List[Tuple[str, str]]
    legal_cards: List[str]
    result: Optional[Result] = None


class Limits(BaseModel):
    max_body: int = Field(description="The largest request body, bytes.")
    time_limit: float = Field(description="The longest decision, seconds.")
    max_time_budget: float = Field(description="The largest time_budget of a player "
                                               "object, seconds (half the time limit).")
    max_concurrent: int = Field(description="Decisions computed at once.")


class Info(BaseModel):
    engine: str
    version: str
    protocol: int
    levels: List[str]
    scorings: List[str]
    limits: Limits


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorAnswer(BaseModel):
    error: ErrorDetail


_ERRORS = {s: {"model": ErrorAnswer} for s in (400, 409, 413, 422, 503, 504)}


# -- limits -----------------------------------------------------------------------------------
#: The scope's key where :class:`BodyLimit` puts the number of bytes of the request's body.
_BODY_SIZE = "ddsolver.body_size"


class BodyLimit:
    """ASGI middleware: refuse a request body larger than ``max_body`` bytes with 413,
    whether it announces its length or streams it (the body is read, up to the limit,
    before the application sees it); then a JSON body that is not UTF-8 or names a key
    twice in one object with 400 ``bad_json`` (:func:`_body_problem`)."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = -1
                if length < 0 or length > self.max_body:
                    return await _send_error(send, ProtocolError(
                        "too_large", f"the body has {value.decode('latin-1')[:20]} bytes: at "
                        f"most {self.max_body}" if length >= 0 else "bad Content-Length"))
        messages = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_body:
                return await _send_error(send, ProtocolError(
                    "too_large", f"the body exceeds {self.max_body} bytes"))
            if not message.get("more_body", False):
                break
        scope[_BODY_SIZE] = size
        problem = _body_problem(scope, messages)
        if problem is not None:
            return await _send_error(send, problem)
        replay = iter(messages)

        async def replay_receive():
            try:
                return next(replay)
            except StopIteration:
                return await receive()

        await self.app(scope, replay_receive, send)


class _Twice(Exception):
    """A JSON object names a key twice (raised by the hook of :func:`_body_problem`)."""


def _no_repeated_keys(pairs) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise _Twice(key)
        out[key] = value
    return out


def _body_problem(scope, messages) -> Optional[ProtocolError]:
    """What makes a JSON body unreadable before the application parses it, else ``None``
    (also when the body is not JSON: the application says why):

    * bytes that are not UTF-8, or UTF-16 and UTF-32 text (NUL bytes, never in UTF-8 JSON):
      the documented encoding is UTF-8 (RFC 8259, 8.1), but :func:`json.loads` on bytes
      guesses UTF-16 and UTF-32 too, so such a body was answered;
    * an object that names a key twice: the JSON engine refuses it (``bad_json``); read
      with the last value winning, a program that checks requests on their way could read
      another value than the server.
    """
    kind = next((v for k, v in scope.get("headers", ()) if k == b"content-type"), b"")
    if b"json" not in kind.lower():
        return None
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ProtocolError("bad_json", f"the body is not UTF-8: {exc}"[:200])
    if "\x00" in text:
        return ProtocolError("bad_json", "the body is not UTF-8: it holds NUL bytes "
                                         "(UTF-16 or UTF-32 text?)")
    try:
        json.loads(text, object_pairs_hook=_no_repeated_keys)
    except _Twice as exc:
        return ProtocolError("bad_json", f"the body is not valid JSON: the key "
                                         f"{str(exc.args[0])[:40]!r} appears twice in one "
                                         f"object")
    except (ValueError, RecursionError):
        pass
    return None


async def _send_error(send, err: ProtocolError, extra=()) -> None:
    body = json.dumps({"error": err.to_dict()}).encode()
    await send({"type": "http.response.start", "status": STATUS[err.code],
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *extra]})
    await send({"type": "http.response.body", "body": body})


def _unreadable_body(exc: StarletteHTTPException) -> str:
    """The message of FastAPI's 400 for a body its JSON decoder could not read: the
    reason is in the exception's cause (bytes that are not UTF-8, nesting too deep)."""
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not UTF-8: {cause}"[:200]
    if isinstance(cause, RecursionError):
        return "the body is not valid JSON: it is nested too deeply"
    return str(exc.detail)[:200]


def _error_response(err: ProtocolError) -> JSONResponse:
    headers = {"Retry-After": "1"} if err.code == "busy" else None
    return JSONResponse({"error": err.to_dict()}, status_code=STATUS[err.code],
                        headers=headers)


class _Decider:
    """Runs decisions in worker threads under a time limit and a concurrency cap."""

    def __init__(self, time_limit: float, max_concurrent: int, pool: PlayerPool,
                 player_defaults: dict):
        self.time_limit = time_limit
        self.max_concurrent = max_concurrent
        self.pool = pool
        self.player_defaults = player_defaults
        self.executor = ThreadPoolExecutor(max_concurrent, thread_name_prefix="decision")
        self._running = 0
        self._lock = threading.Lock()

    @property
    def max_time_budget(self) -> float:
        return self.time_limit * BUDGET_SHARE

    def spec(self, player) -> PlayerSpec:
        """The spec of a request's player object, as sent (unvalidated JSON, or ``None``).

        :raises ProtocolError: ``bad_message``, as for the JSON engine."""
        return PlayerSpec.from_json(player, max_time_budget=self.max_time_budget,
                                    defaults=self.player_defaults, time_limit=self.time_limit)

    async def run(self, fn, *args):
        with self._lock:
            if self._running >= self.max_concurrent:
                raise ProtocolError("busy", f"{self._running} decisions are running (at most "
                                    f"{self.max_concurrent}); try again")
            self._running += 1
        start = time.monotonic()
        ended = []

        def work():
            try:
                return fn(*args)
            finally:
                ended.append(time.monotonic())
                with self._lock:
                    self._running -= 1

        future = self.executor.submit(work)
        late = ProtocolError("timeout", f"the decision took longer than "
                             f"{self.time_limit:g} s")
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), self.time_limit)
        except asyncio.TimeoutError:
            raise late from None
        if ended and ended[0] - start > self.time_limit:
            # it ended past the limit (cut short by it), but reached the event loop before
            # the loop's clock did (a busy loop): still too late
            raise late
        return result

    def decide(self, answer, view, spec, **kwargs):
        with self.pool.player(spec) as player:
            return answer(player, view, **kwargs)

    def close(self) -> None:
        self.executor.shutdown(wait=False)
        self.pool.close()


def create_app(*, max_body: int = DEFAULT_MAX_BODY, time_limit: float = DEFAULT_TIME_LIMIT,
               max_concurrent: int = 2, player_defaults: Optional[dict] = None,
               pool_size: int = 4, make_player=None) -> FastAPI:
    """The FastAPI application of the robot API.

    :param max_body: the largest request body, bytes (413 beyond).
    :param time_limit: the longest decision, seconds (504 beyond; also the computer's hard
        time limit, and :data:`BUDGET_SHARE` of it the largest ``time_budget`` a player
        object may ask for).
    :param max_concurrent: decisions computed at once (503 beyond).
    :param player_defaults: settings every player object starts from (e.g.
        ``{"threads": 1}``).
    :param pool_size: idle computer players kept between requests.
    :param make_player: ``make_player(spec) -> player`` for a
        :class:`~ai.protocols.decisions.PlayerSpec` (default: a
        :class:`ai.robot.ComputerPlayer` with the spec's settings); any object with the
        :class:`ai.players.Player` methods and ``explain``, ``hint`` and ``system``.
    :returns: the app; add routes or mounts to it (``app.mount("/", StaticFiles(...))``)
        to serve a page beside the API.  ``app.state.decider`` holds the worker threads;
        they are released at the app's shutdown.
    :raises ValueError: for a limit that is not positive.
    """
    if not max_body > 0 or not time_limit > 0 or not max_concurrent >= 1:
        raise ValueError("max_body, time_limit and max_concurrent must be positive")
    decider = _Decider(time_limit, max_concurrent, PlayerPool(pool_size, make_player),
                       dict(player_defaults or {}))

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
        yield
        decider.close()

    app = FastAPI(title="ddsolver robot API",
                  description="Stateless decisions of ddsolver's computer bridge players: "
                              "one request per call or card. See docs/protocol-http.md.",
                  version=info()["version"], lifespan=lifespan)
    app.router.redirect_slashes = False   # an unknown path is a 404, never a redirect
    app.state.decider = decider
    app.add_middleware(BodyLimit, max_body=max_body)
    limits = {"max_body": max_body, "time_limit": time_limit,
              "max_time_budget": decider.max_time_budget, "max_concurrent": max_concurrent}

    @app.exception_handler(ProtocolError)
    async def _protocol_error(request: Request, exc: ProtocolError):
        return _error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        loc = tuple(first.get("loc", ()))
        if first.get("type") == "json_invalid":
            # the decoder's reason and where it stopped (FastAPI puts the character
            # offset after "body" in loc), e.g. "Expecting ',' delimiter at character 19"
            why = str((first.get("ctx") or {}).get("error") or first.get("msg", ""))
            at = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
            where = "" if at is None else f" at character {at}"
            return _error_response(ProtocolError("bad_json", "the body is not valid JSON: "
                                                 + f"{why}{where}"[:200]))
        if loc == ("body",):
            # no body, or one not read as JSON (another Content-Type): bytes.  (A JSON
            # null is "missing" too with FastAPI 0.128, which pip installs on Python 3.9.)
            if first.get("type") == "missing" and not request.scope.get(_BODY_SIZE) \
                    or isinstance(first.get("input"), bytes):
                return _error_response(ProtocolError(
                    "bad_json", "the body must be a JSON object (Content-Type: "
                    "application/json)"))
            # JSON, but not an object: text, a number, a list, true, null
            what = "" if request.url.path.startswith("/web/") else " with a 'view'"
            return _error_response(ProtocolError("bad_message", "the body must be a JSON "
                                                 f"object{what}"))
        where = ".".join(str(x) for x in loc if x != "body")
        msg = str(first.get("msg", "invalid request"))[:300]
        return _error_response(ProtocolError("bad_message",
                                             f"{where}: {msg}" if where else msg))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            err = ProtocolError("not_found", f"no endpoint {request.url.path[:100]}")
        elif exc.status_code == 405:
            err = ProtocolError("not_found", f"{request.method} is not allowed on "
                                f"{request.url.path[:100]}")
            return JSONResponse({"error": err.to_dict()}, status_code=405)
        elif exc.status_code == 400:
            err = ProtocolError("bad_json", _unreadable_body(exc))
        else:
            return JSONResponse({"error": {"code": "bad_message",
                                           "message": str(exc.detail)[:200]}},
                                status_code=exc.status_code)
        return _error_response(err)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception):  # pragma: no cover - a bug
        return _error_response(error_from_exception(exc))

    def _view(model: View):
        return view_from_json(model.model_dump(exclude_unset=True))

    @app.get("/api/info", response_model=Info, summary="What the engine is")
    async def get_info():
        out = info()
        out["limits"] = limits
        return out

    # HEAD where GET is: the same answer, whose body the server does not send
    app.add_api_route("/api/info", get_info, methods=["HEAD"], response_model=Info,
                      include_in_schema=False)

    @app.post("/api/call", response_model=CallAnswer, responses=_ERRORS,
              summary="The seat's call, with its explanation")
    async def post_call(body: DecisionRequest):
        view, spec = _view(body.view), decider.spec(body.player)
        return await decider.run(decider.decide, answer_call, view, spec)

    @app.post("/api/card", response_model=CardAnswer, responses=_ERRORS,
              summary="The seat's card (or dummy's, when the seat is declarer)")
    async def post_card(body: DecisionRequest):
        view, spec = _view(body.view), decider.spec(body.player)
        return await decider.run(decider.decide, answer_card, view, spec)

    @app.post("/api/explain", response_model=ExplainAnswer, responses=_ERRORS,
              summary="What a call means in the computer's system")
    async def post_explain(body: ExplainRequest):
        view, spec = _view(body.view), decider.spec(body.player)
        return await decider.run(lambda: decider.decide(answer_explain, view, spec,
                                                        index=body.index, call=body.call))

    @app.post("/api/hint", response_model=HintAnswer, responses=_ERRORS,
              response_model_exclude_none=True,
              summary="A suggested call or card for the seat")
    async def post_hint(body: DecisionRequest):
        view, spec = _view(body.view), decider.spec(body.player)
        return await decider.run(decider.decide, answer_hint, view, spec)

    @app.post("/api/state", response_model=StateAnswer, responses=_ERRORS,
              summary="Where the board stands for the seat")
    async def post_state(body: StateRequest):
        return board_state(_view(body.view))

    return app


def _raw_response(status: int, reason: str, err: ProtocolError, extra=()) -> bytes:
    body = json.dumps({"error": err.to_dict()}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


async def _refuse_busy(scope, receive, send) -> None:
    """The ASGI app of a connection over the server's limit: 503 ``busy``."""
    await _send_error(send, ProtocolError(
        "busy", "the server has as many connections as it serves; try again"),
        extra=[(b"retry-after", b"1")])


def _protocol_class(request_timeout: float, max_connections: int):
    """uvicorn's h11 protocol, which answers every refusal in JSON and cuts off slow
    clients:

    - a client must send each request whole (headers and body) within ``request_timeout``
      seconds of connecting or of the previous answer: past it, the connection is closed,
      after a 408 ``request_timeout`` answer if part of a request came (uvicorn alone
      waits for ever, so idle or slow connections could take every slot);
    - a connection beyond ``max_connections`` gets 503 ``busy`` (with ``Retry-After``) to
      its request, in JSON (uvicorn's ``limit_concurrency`` answers plain text, and every
      connection while more than the limit are open);
    - a request that is not HTTP gets 400 ``bad_http`` in JSON (uvicorn's is plain text).
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        _deadline = None
        _got_bytes = False

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                self.app = _refuse_busy
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._got_bytes = False
            self._deadline = self.loop.call_later(request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def data_received(self, data: bytes) -> None:
            self._got_bytes = True
            super().data_received(data)
            if self.conn.their_state is h11.DONE:
                self._disarm()      # the whole request is in: the decision may take long

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.conn.their_state is h11.DONE:
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                if cycle.response_started:
                    return
                cycle.disconnected = True      # the application's answer is dropped
                cycle.message_event.set()
            if self._got_bytes:
                self.transport.write(_raw_response(408, "Request Timeout", ProtocolError(
                    "request_timeout", f"the request was not received whole within "
                    f"{request_timeout:g} s")))
            self.transport.close()

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_raw_response(400, "Bad Request", ProtocolError(
                "bad_http", f"not an HTTP request the server can read: {msg}")))
            self.transport.close()

    return Protocol


#: seconds a client has to send a whole request, from its connection or the previous answer
DEFAULT_REQUEST_TIMEOUT = 10.0
#: connections served at once; more are answered 503 busy
DEFAULT_MAX_CONNECTIONS = 64


def server_config(app, host: str = "127.0.0.1", port: int = 8000, *,
                  log_level: str = "info", request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
                  max_connections: int = DEFAULT_MAX_CONNECTIONS):
    """The :class:`uvicorn.Config` of a server of ``app`` (the API's or the web page's):
    requests read within ``request_timeout`` seconds, at most ``max_connections``
    connections, keep-alive 5 s, headers at most 16 KiB, every refusal in JSON."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level=log_level,
                          http=_protocol_class(request_timeout, max_connections),
                          timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024)


def make_server(host: str = "127.0.0.1", port: int = 8000, *, log_level: str = "info",
                request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
                max_connections: int = DEFAULT_MAX_CONNECTIONS, **app_options):
    """A :class:`uvicorn.Server` for the API (not yet running: ``server.run()``, or
    ``await server.serve()``).

    :param host: the address to bind (loopback by default: give ``0.0.0.0`` only to serve
        other machines on purpose).
    :param port: the port (0: any free port).
    :param request_timeout: seconds a client has to send a whole request (408 beyond).
    :param max_connections: connections served at once (503 ``busy`` beyond).
    :param app_options: passed to :func:`create_app`.
    """
    import uvicorn

    return uvicorn.Server(server_config(create_app(**app_options), host, port,
                                        log_level=log_level, request_timeout=request_timeout,
                                        max_connections=max_connections))


def serve(host: str = "127.0.0.1", port: int = 8000, *, log_level: str = "info",
          **app_options) -> None:
    """Run the API under uvicorn until interrupted (see :func:`make_server`)."""
    make_server(host, port, log_level=log_level, **app_options).run()
