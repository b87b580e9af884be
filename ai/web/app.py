"""The page's server: routes and static files on the HTTP robot API's application.

:func:`create_web_app` takes the FastAPI application of :func:`ai.protocols.http.create_app`
(the robot API stays at ``/api/...``) and adds the page (``/`` and ``/static/...``) and the
page's API under ``/web/api/`` (documented in ``docs/web.md``):

==========================================  ===============================================
``GET  /web/api/i18n?lang=``                the language (from ``Accept-Language`` when
                                            ``lang`` is absent), the languages, the page's
                                            messages translated
``GET  /web/api/rules?lang=``               the rules-and-scoring page
``POST /web/api/matches``                   a new match: ``{"mode": "chicago", "level"}``
                                            or ``{"mode": "daily", "name"}``
``GET  /web/api/matches/{id}?lang=``        the match as the human sees it
``POST /web/api/matches/{id}/call``         ``{"call": "1NT"}``
``POST /web/api/matches/{id}/card``         ``{"seat": "S", "card": "HQ"}``
``POST /web/api/matches/{id}/next``         deal the next board
``POST /web/api/matches/{id}/hint``         the easy level's suggestion
``GET  /web/api/leaderboard?date=``         the day's results (default today)
==========================================  ===============================================

Every refusal answers ``{"error": {"code": ..., "message": ...}}`` with an HTTP status and
changes nothing; bodies larger than the app's ``max_body`` are refused (413) before they are
read.
"""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Literal, Optional

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.concurrency import run_in_threadpool
from starlette.staticfiles import StaticFiles

from .content import rules_in
from .i18n import available_languages, language_names, negotiate, translations
from .tables import MatchStore, WebError, WebTable, hide_paths, storage_error

__all__ = ["STATIC_DIR", "create_web_app", "serve"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")

_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


class NewMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["chicago", "daily"] = "chicago"
    level: Optional[Literal["easy", "medium", "hard"]] = None
    name: Optional[str] = Field(None, max_length=200)
    practice: StrictBool = False


class CallBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    call: str = Field(max_length=8)


class CardBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: str = Field(max_length=8)
    card: str = Field(max_length=4)


@functools.lru_cache(maxsize=1)
def _page_msgids() -> tuple:
    """The msgids used by the page's JavaScript (``t("...")``)."""
    from babel.messages.extract import extract
    out = []
    for name in sorted(os.listdir(STATIC_DIR)):
        if name.endswith(".js"):
            with open(os.path.join(STATIC_DIR, name), "rb") as fh:
                for _, message, _, _ in extract("javascript", fh, keywords={"t": None}):
                    if isinstance(message, str) and message not in out:
                        out.append(message)
    return tuple(out)


def create_web_app(app: Optional[FastAPI] = None, *, data_dir=None, leaderboard=None,
                   ttl: float = 24 * 3600, max_tables: int = 500, max_saved: int = 20_000,
                   max_steps: int = 2,
                   computer_settings: Optional[dict] = None, deal_seed=None,
                   **api_options) -> FastAPI:
    """The page's routes and files mounted on ``app`` (default: a new
    :func:`ai.protocols.http.create_app` with ``api_options``).

    :param data_dir: where matches are saved (``<data_dir>/matches/<id>.json``), or
        ``None`` to keep them in memory only.
    :param leaderboard: the boards-of-the-day leaderboard file (default
        :func:`ai.daily.default_leaderboard_path`, the terminal game's).
    :param ttl: seconds after which an unused match expires.
    :param max_tables: matches held in memory at once (at least 1).  Beyond it, with a
        ``data_dir``, the least recently used match not in use is dropped from memory (its
        file stays and is read back by its next request); in memory only a new match is
        refused (503 ``busy``).
    :param max_saved: matches saved in ``data_dir`` at once (``<id>.json`` files; at least
        1).  Beyond it a new match is refused (503 ``busy``) until matches expire.
    :param max_steps: matches whose computers think at once (others wait their turn).
    :param computer_settings: overrides of every computer's settings (e.g. ``threads=1``;
        the tests give tiny budgets).
    :param deal_seed: seeds the Chicago deals (reproducible pages for tests and
        screenshots), or ``None``.
    :returns: the app.
    :raises ValueError: for ``max_tables`` or ``max_saved`` below 1.
    """
    if app is None:
        from ai.protocols.http import create_app
        app = create_app(**api_options)
    store = MatchStore(None if data_dir is None else os.path.join(os.fspath(data_dir),
                                                                   "matches"),
                       ttl=ttl, max_tables=max_tables, max_saved=max_saved,
                       computer_settings=computer_settings,
                       leaderboard=leaderboard, deal_seed=deal_seed)
    app.state.web_store = store
    # The semaphore of the matches whose computers think, made in the server's event loop
    # when first needed: on Python 3.9 a semaphore takes the loop current when it is made,
    # and here (no loop running) get_event_loop() raises RuntimeError.
    steps: list[asyncio.Semaphore] = []

    def _steps() -> asyncio.Semaphore:
        if not steps:
            steps.append(asyncio.Semaphore(max_steps))
        return steps[0]

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError):
        return JSONResponse({"error": exc.to_dict()}, status_code=exc.status)

    @app.middleware("http")
    async def _headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if not request.url.path.startswith("/api/"):
            response.headers.setdefault("Content-Security-Policy", _CSP)
            response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.url.path.startswith("/web/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    def _lang(request: Request, lang: Optional[str]) -> str:
        langs = available_languages()
        if lang in langs:
            return lang
        return negotiate(request.headers.get("accept-language"), langs)

    async def _hold(table: WebTable) -> WebTable:
        """Take the lock of the match ``table`` is (the table the store holds for its id):
        a table dropped from memory (:meth:`MatchStore._drop_unused`), expired or forgotten
        between :meth:`MatchStore.get` and the lock is left alone, and the match asked
        again (read back from its file), so that every change lands on one table.

        :returns: the table locked.
        :raises WebError: ``busy`` (409) when another request holds the table; as
            :meth:`MatchStore.get` (``unknown_match``, 404: it expired meanwhile); ``busy``
            (503) when the match keeps being dropped from memory (the server is swamped).
        """
        for _ in range(4):
            if not table.lock.acquire(blocking=False):
                raise WebError("busy", "the match is busy with the previous request", 409)
            if store.holds(table):
                return table
            table.lock.release()
            table = await run_in_threadpool(store.get, table.id)
        raise WebError("busy", "the server is too busy to hold the match now; try again "
                               "later", 503)

    async def _step(table: WebTable, fn, *args, lang: Optional[str] = None):
        """Run ``fn(table, *args)`` (a change of the table) in a worker thread, one at a
        time per match (:func:`_hold`); with ``lang``, then read the table's state in that
        language, still under the table's lock (so that no other request changes it
        meanwhile), and return it.

        :raises WebError: as :func:`_hold`; ``storage`` (503) when the change cannot be
            saved.
        """
        table = await _hold(table)
        try:
            async with _steps():
                try:
                    await run_in_threadpool(fn, table, *args)
                except OSError as exc:
                    # the match could not be saved (a full disk): what it holds in memory
                    # is dropped, so that the next request reads the match last saved
                    store.forget(table.id)
                    raise storage_error(exc) from None
            if lang is not None:
                return await run_in_threadpool(table.state, lang)
        finally:
            table.lock.release()

    # -- the page ------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(os.path.join(STATIC_DIR, "index.html"),
                            media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # -- languages -------------------------------------------------------------------------
    @app.get("/web/api/i18n", summary="The page's language and its messages")
    async def get_i18n(request: Request, lang: Optional[str] = Query(None, max_length=10)):
        lang = _lang(request, lang)
        tr = translations(lang)
        langs = tuple(available_languages())
        names = language_names(langs)
        return {"lang": lang,
                "languages": [{"code": x, "name": names[x]} for x in langs],
                "messages": {m: tr.gettext(m) for m in _page_msgids()}}

    @app.get("/web/api/rules", summary="The rules-and-scoring page")
    async def get_rules(request: Request, lang: Optional[str] = Query(None, max_length=10)):
        lang = _lang(request, lang)
        return {"lang": lang, "sections": rules_in(lang)}

    # -- matches -----------------------------------------------------------------------------
    @app.post("/web/api/matches", summary="Start a match")
    async def new_match(request: Request, body: NewMatch,
                        lang: Optional[str] = Query(None, max_length=10)):
        lang = _lang(request, lang)
        if body.mode == "daily":
            if body.level not in (None, "medium"):
                raise WebError("bad_message", "the boards of the day are played against "
                               "medium computers: 'level' cannot be chosen", 422)
            table = await run_in_threadpool(store.new_daily, body.name, body.practice)
        else:
            given = sorted({"name", "practice"} & body.model_fields_set)
            if given:
                raise WebError("bad_message", f"{' and '.join(map(repr, given))} "
                               f"{'belongs' if len(given) == 1 else 'belong'} to "
                               "the boards of the day (mode 'daily'), not to a Chicago "
                               "match", 422)
            table = await run_in_threadpool(store.new_chicago, body.level or "medium")
        return await _step(table, WebTable.start, lang=lang)

    @app.get("/web/api/matches/{table_id}", summary="The match as the human sees it")
    async def get_match(request: Request, table_id: str,
                        lang: Optional[str] = Query(None, max_length=10)):
        table = await run_in_threadpool(store.get, table_id)

        def resume(table: WebTable):
            table.events = []
            table.resume()

        return await _step(table, resume, lang=_lang(request, lang))

    @app.post("/web/api/matches/{table_id}/call", summary="The human's call")
    async def post_call(request: Request, table_id: str, body: CallBody,
                        lang: Optional[str] = Query(None, max_length=10)):
        table = await run_in_threadpool(store.get, table_id)
        return await _step(table, WebTable.call, body.call, lang=_lang(request, lang))

    @app.post("/web/api/matches/{table_id}/card", summary="The human's card")
    async def post_card(request: Request, table_id: str, body: CardBody,
                        lang: Optional[str] = Query(None, max_length=10)):
        table = await run_in_threadpool(store.get, table_id)
        return await _step(table, WebTable.card, body.seat, body.card,
                           lang=_lang(request, lang))

    @app.post("/web/api/matches/{table_id}/next", summary="Deal the next board")
    async def post_next(request: Request, table_id: str,
                        lang: Optional[str] = Query(None, max_length=10)):
        table = await run_in_threadpool(store.get, table_id)
        return await _step(table, WebTable.start, lang=_lang(request, lang))

    @app.post("/web/api/matches/{table_id}/hint", summary="A suggestion (easy level)")
    async def post_hint(request: Request, table_id: str,
                        lang: Optional[str] = Query(None, max_length=10)):
        table = await run_in_threadpool(store.get, table_id)
        lang = _lang(request, lang)
        out = {}

        def work(table: WebTable):
            out.update(table.hint(lang))

        await _step(table, work)
        return out

    @app.get("/web/api/leaderboard", summary="The day's results")
    async def get_leaderboard(date: Optional[str] = Query(None, max_length=10)):
        from ai.daily import (
            Leaderboard,
            LeaderboardError,
            default_leaderboard_path,
            local_today,
            parse_day,
        )
        if date is None:
            date = local_today().isoformat()
        try:
            day = parse_day(date)
        except ValueError as exc:
            raise WebError("bad_date", str(exc)) from None

        def read():
            try:
                with Leaderboard(leaderboard) as lb:
                    return lb.day(day)
            except LeaderboardError as exc:
                raise WebError("leaderboard", "the leaderboard cannot be used: "
                               f"{hide_paths(str(exc), leaderboard or default_leaderboard_path())}",
                               503) from None

        entries = await run_in_threadpool(read)
        return {"date": day,
                "entries": [{"rank": i + 1, "name": e.name, "score": e.score,
                             "results": list(e.results)} for i, e in enumerate(entries)]}

    return app


def serve(host: str = "127.0.0.1", port: int = 8080, *, log_level: str = "info",
          **options) -> None:
    """Serve the page under uvicorn until interrupted (``options``: :func:`create_web_app`'s
    and :func:`ai.protocols.http.create_app`'s)."""
    import uvicorn

    from ai.protocols.http import server_config
    app = create_web_app(**options)
    uvicorn.Server(server_config(app, host, port, log_level=log_level)).run()
