"""``ddsolver-ai web``: serve the page locally (and ``ddsolver-ai translations``)."""

from __future__ import annotations

import os

import click

from .i18n import translations_command

__all__ = ["translations_command", "web_command"]

#: Tiny computers for tests and demonstrations (``--fast``): two layouts a card.
FAST = {"samples": 2, "lead_samples": 2, "min_samples": 1, "time_budget": 0.05,
        "threads": 1}


@click.command("web")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind (give 0.0.0.0 only to serve other machines on "
                   "purpose).")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True,
              help="The port to listen on (0: any free port, named at the start).")
@click.option("--data-dir", type=click.Path(file_okay=False),
              help="Where matches in progress are saved, created when missing (default: "
                   "web/ in the user's data directory).")
@click.option("--leaderboard", type=click.Path(dir_okay=False),
              help="The leaderboard file (default: the terminal game's, in the user's data "
                   "directory).")
@click.option("--ttl", type=click.FloatRange(60, 3650 * 86400), default=24 * 3600.0,
              show_default=True, help="Seconds after which an unused match expires.")
@click.option("--max-tables", type=click.IntRange(1, 100_000), default=500,
              show_default=True,
              help="Matches held in memory at once; beyond it the least recently used one "
                   "not in use is dropped from memory (its file stays and is read back).")
@click.option("--max-saved", type=click.IntRange(1, 10_000_000), default=20_000,
              show_default=True,
              help="Matches saved in --data-dir at once (about 8 kB each); beyond it a new "
                   "match is refused (503 busy) until unused ones expire.")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per computer (default: the level's).")
@click.option("--fast", is_flag=True,
              help="Tiny computers (two layouts a card): for tests and demonstrations.")
@click.option("--deal-seed", default=None,
              help="Seed the Chicago deals (reproducible matches: tests, screenshots).")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info",
                                                "debug"]), default="info",
              show_default=True)
def web_command(host, port, data_dir, leaderboard, ttl, max_tables, max_saved, threads,
                fast, deal_seed, log_level):
    """Serve the web page: Chicago against the computer and the boards of the day, in
    English, German, Spanish or Vietnamese.  Open http://HOST:PORT/ in a browser.  The
    HTTP robot API is served beside it (/api/...)."""
    try:
        from .app import serve
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise click.ClickException(f"the page needs FastAPI and uvicorn: pip install "
                                   f"'ddsolver[server]' ({exc})")
    from ai.daily import default_data_dir
    from ddsolver.cli import check_path

    # refused before the server starts: '', a loop of symbolic links, a folder that is a
    # file or is not writable, a leaderboard in a folder that does not exist...
    check_path(data_dir, "'--data-dir'", "folder")
    check_path(leaderboard, "'--leaderboard'")
    settings = dict(FAST) if fast else {}
    if threads is not None:
        settings["threads"] = threads
    if data_dir is None:
        data_dir = os.path.join(default_data_dir(), "web")
    try:
        os.makedirs(os.path.join(data_dir, "matches"), exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(f"cannot create {data_dir}: {exc.strerror}",
                                 param_hint="'--data-dir'") from None
    from ai.daily import Leaderboard, LeaderboardError
    try:
        with Leaderboard(leaderboard):
            pass
    except LeaderboardError as exc:
        # the page still serves Chicago; the boards of the day are refused (503) until fixed
        click.echo(f"Warning: the leaderboard cannot be used ({exc}): the boards of the day "
                   f"will be refused until it is fixed or another --leaderboard is given",
                   err=True)
    from ai.protocols.net import refuse_unbindable
    refuse_unbindable(host, port)
    if port == 0:
        # the system chooses the port: the server's "Uvicorn running on" line names it
        click.echo(f"Serving the page on a free port of {host} (the line \"Uvicorn running "
                   f"on ...\" below names it; Ctrl-C stops)", err=True)
    else:
        shown = f"[{host}]" if ":" in host else host       # an IPv6 address in a URL
        click.echo(f"Serving the page on http://{shown}:{port}/ (Ctrl-C stops)", err=True)
    serve(host, port, log_level=log_level, data_dir=data_dir, leaderboard=leaderboard,
          ttl=ttl, max_tables=max_tables, max_saved=max_saved, computer_settings=settings,
          deal_seed=deal_seed)
