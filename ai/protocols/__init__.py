"""Engine protocols for frontends: three doors to the same computer players.

- :mod:`ai.protocols.jsonstdio`: JSON lines over stdin/stdout (``ddsolver-ai engine``),
  stateful (the engine keeps the board) or stateless (each request carries the board);
  documented in ``docs/protocol-json.md``.
- :mod:`ai.protocols.http`: the HTTP robot API on FastAPI/uvicorn (``ddsolver-ai http``),
  stateless, one request per decision; documented in ``docs/protocol-http.md``.
- :mod:`ai.protocols.bluechip` (the messages), :mod:`ai.protocols.bluechip_client` and
  :mod:`ai.protocols.bluechip_tm`: the Blue Chip table-manager protocol, version 18
  (``ddsolver-ai bluechip client|tm``); documented in ``docs/protocol-bluechip.md``.

The JSON and HTTP doors share :mod:`ai.protocols.decisions` (the board as JSON, the player
settings, the answers), so the same view and seed give the same call or card through either.
Every computer player behind any door is given a :class:`ai.players.SeatView` built by
:func:`ai.players.seat_view` from what its seat may see, nothing else.
"""
