"""The protocol subcommands of ``ddsolver-ai``: ``engine`` (JSON lines on stdin/stdout),
``http`` (the HTTP robot API).  Heavy imports (FastAPI, the players) happen inside the commands.
"""

from __future__ import annotations

import sys

import click

__all__ = ["engine", "http"]

def _player_defaults(threads):
    return {} if threads is None else {"threads": threads}


@click.command("engine")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per decision (default: the level's; player objects "
                   "may ask for fewer or more).")
@click.option("--max-line", type=click.IntRange(1024, 1 << 26), default=1 << 20,
              show_default=True, help="The longest line accepted, bytes.")
def engine(threads, max_line):
    """Run the JSON-lines engine on standard input and output (docs/protocol-json.md).

    One JSON object per line in, one per line out; ends on {"type": "quit"} or at the end
    of the input.
    """
    from ai.protocols.jsonstdio import Engine, serve
    sys.exit(serve(engine=Engine(max_line=max_line,
                                 player_defaults=_player_defaults(threads))))


@click.command("http")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind (give 0.0.0.0 only to serve other machines on "
                   "purpose).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--max-body", type=click.IntRange(256, 1 << 26), default=64 * 1024,
              show_default=True, help="The largest request body, bytes (413 beyond).")
@click.option("--time-limit", type=click.FloatRange(0.01, 3600), default=10.0,
              show_default=True, help="The longest decision, seconds (504 beyond).")
@click.option("--max-concurrent", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Decisions computed at once (503 beyond).")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per decision (default: the level's).")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info",
                                                "debug"]), default="info",
              show_default=True)
def http(host, port, max_body, time_limit, max_concurrent, threads, log_level):
    """Serve the HTTP robot API (docs/protocol-http.md; schemas at /openapi.json)."""
    try:
        from ai.protocols.http import serve
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise click.ClickException(f"the HTTP API needs FastAPI and uvicorn: pip install "
                                   f"'ddsolver[server]' ({exc})")
    serve(host, port, log_level=log_level, max_body=max_body, time_limit=time_limit,
          max_concurrent=max_concurrent, player_defaults=_player_defaults(threads))
