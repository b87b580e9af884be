"""The protocol subcommands of ``ddsolver-ai``: ``engine`` (JSON lines on stdin/stdout),
``http`` (the HTTP robot API), ``bluechip client`` and ``bluechip tm`` (the Blue Chip
table-manager protocol).  Heavy imports (FastAPI, the players) happen inside the commands.
"""

from __future__ import annotations

import logging
import sys

import click

from ddsolver.cli import stream_closed

__all__ = ["bluechip", "engine", "http"]

_SEATS = ["N", "E", "S", "W", "North", "East", "South", "West", "ANYPL"]


def _player_defaults(threads):
    """The players' default settings from ``--threads``, checked as a player object's
    ``threads`` is (1..the number of cores): beyond it every request would be refused."""
    if threads is None:
        return {}
    import os
    cores = os.cpu_count() or 1
    if threads > cores:
        raise click.BadParameter(f"{threads} threads: at most {cores} (the number of cores, "
                                 f"as for a player object's 'threads')",
                                 param_hint="'--threads'")
    return {"threads": threads}


@click.command("engine")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per decision, at most the number of cores (default: "
                   "the level's; player objects may ask for fewer or more).")
@click.option("--max-line", type=click.IntRange(1024, 1 << 26), default=1 << 20,
              show_default=True, help="The longest line accepted, bytes.")
def engine(threads, max_line):
    """Run the JSON-lines engine on standard input and output (docs/protocol-json.md).

    One JSON object per line in, one per line out; ends on {"type": "quit"} or at the end
    of the input.
    """
    defaults = _player_defaults(threads)
    if stream_closed(sys.stdin) or stream_closed(sys.stdout):   # started with <&- or >&-
        raise click.UsageError("the engine reads and answers JSON lines on its standard "
                               "input and output: one of them is closed")
    from ai.protocols.jsonstdio import Engine, serve
    sys.exit(serve(engine=Engine(max_line=max_line, player_defaults=defaults)))


@click.command("http")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind (give 0.0.0.0 only to serve other machines on "
                   "purpose).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port, named in the log).")
@click.option("--max-body", type=click.IntRange(256, 1 << 26), default=64 * 1024,
              show_default=True, help="The largest request body, bytes (413 beyond).")
@click.option("--time-limit", type=click.FloatRange(0.01, 3600), default=10.0,
              show_default=True, help="The longest decision, seconds (504 beyond).")
@click.option("--max-concurrent", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Decisions computed at once (503 beyond).")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads per decision, at most the number of cores (default: "
                   "the level's).")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info",
                                                "debug"]), default="info",
              show_default=True)
def http(host, port, max_body, time_limit, max_concurrent, threads, log_level):
    """Serve the HTTP robot API (docs/protocol-http.md; schemas at /openapi.json)."""
    defaults = _player_defaults(threads)
    try:
        from ai.protocols.http import serve
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise click.ClickException(f"the HTTP API needs FastAPI and uvicorn: pip install "
                                   f"'ddsolver[server]' ({exc})")
    from ai.protocols.net import refuse_unbindable
    refuse_unbindable(host, port)
    serve(host, port, log_level=log_level, max_body=max_body, time_limit=time_limit,
          max_concurrent=max_concurrent, player_defaults=defaults)


@click.group("bluechip")
def bluechip():
    """The Blue Chip table-manager protocol, version 18 (docs/protocol-bluechip.md)."""


def _logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s",
                        stream=sys.stderr)


@bluechip.command("client")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The table manager's address.")
@click.option("--port", type=click.IntRange(1, 65535), default=2000, show_default=True,
              help="The table manager's port.")
@click.option("--seat", required=True, type=click.Choice(_SEATS, case_sensitive=False),
              help="The seat to ask for (ANYPL: wherever the table manager wants).")
@click.option("--team", default="ddsolver", show_default=True, help="The team name.")
@click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default="medium",
              show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="For repeatable decisions.")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads (default: the level's).")
@click.option("--scoring", type=click.Choice(["IMP", "MP"]), default="IMP",
              show_default=True, help="Unless the table manager announces it.")
@click.option("--alerts/--no-alerts", default=False, show_default=True,
              help="Send 'Alert. <explanation>' after the calls the system alerts.")
@click.option("--timeout", type=click.FloatRange(1, 86400), default=600.0,
              show_default=True, help="Seconds to wait for a line before giving up.")
@click.option("-v", "--verbose", is_flag=True,
              help="Log every line (once, on standard error, its control characters "
                   "escaped).")
def client(host, port, seat, team, level, seed, threads, scoring, alerts, timeout,
           verbose):
    """Seat a computer player at a table manager."""
    from ai.protocols.bluechip import check_team_name
    from ai.protocols.bluechip_client import BlueChipClient, run_client
    from ai.robot import ComputerPlayer

    _logging(verbose)
    try:
        check_team_name(team)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--team") from None
    overrides = {} if threads is None else {"threads": threads}
    player = ComputerPlayer(level, seed=seed, **overrides)
    c = BlueChipClient(player, None if seat.upper() == "ANYPL" else seat, team,
                       scoring=scoring, alerts=alerts)
    try:
        # with -v each line is logged once, by run_client (DEBUG: time, seat, escaped)
        run_client(host, port, c, timeout=timeout)
    except OSError as exc:
        raise click.ClickException(f"cannot connect to {host}:{port}: {exc}")
    finally:
        player.close()
    done = sum(1 for b in c.boards if b.finished)
    click.echo(f"{done} board(s) played, {len(c.boards) - done} abandoned; session "
               f"{'ended' if c.finished else 'interrupted'}", err=True)
    sys.exit(0 if c.finished else 1)


@bluechip.command("tm")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind (give another only to seat other machines).")
@click.option("--port", type=click.IntRange(0, 65535), default=2000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--boards", "count", type=click.IntRange(1, 10000), default=None,
              help="Deal this many boards from --seed.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="The seed of the deals.")
@click.option("--first", type=click.IntRange(1, 100000), default=1, show_default=True,
              help="The number of the first board dealt from --seed.")
@click.option("--pbn", "pbn_in", type=click.Path(dir_okay=False), default=None,
              help="Play the deals of this PBN file instead.")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False),
              help="Where to write the session as PBN (after each board).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write every line in and out to this file.")
@click.option("--timeout", type=click.FloatRange(1, 86400), default=120.0,
              show_default=True, help="Seconds without progress before a board is "
                                      "recorded unfinished.")
@click.option("--seat-timeout", type=click.FloatRange(1, 86400), default=600.0,
              show_default=True, help="Seconds to wait for four ready clients.")
@click.option("--ns-team", default=None, help="Require this N/S team name.")
@click.option("--ew-team", default=None, help="Require this E/W team name.")
@click.option("--scoring", type=click.Choice(["IMP", "MP"]), default="IMP",
              show_default=True)
@click.option("--announce-scoring", is_flag=True,
              help="Append 'Playing IMP|MP' to the Teams line.")
@click.option("--relay-alerts", is_flag=True,
              help="Relay alerts and explanations to the caller's opponents.")
@click.option("--event", default="ddsolver table manager", show_default=True,
              help="The PBN Event tag.")
@click.option("-v", "--verbose", is_flag=True, help="Log every line.")
def tm(host, port, count, seed, first, pbn_in, out, log_path, timeout, seat_timeout,
       ns_team, ew_team, scoring, announce_scoring, relay_alerts, event, verbose):
    """Run a table manager for four clients; the session is written to --out as PBN."""
    import asyncio

    from ai.protocols.bluechip import check_team_name
    from ai.protocols.bluechip_tm import (
        TableManager,
        TableManagerServer,
        boards_from_pbn,
        boards_from_seed,
    )
    from ddsolver.cli import check_distinct_files, check_path
    from ddsolver.errors import BridgeError

    _logging(verbose)
    check_path(pbn_in, "'--pbn'", "input")
    check_path(out, "'-o' / '--out'")
    check_path(log_path, "'--log'")
    # one file for two jobs: the log appended to the deals, the session written over the
    # deals (the boards not yet played lost) or over the log
    check_distinct_files([(pbn_in, "--pbn"), (out, "-o"), (log_path, "--log")])
    for team, hint in ((ns_team, "--ns-team"), (ew_team, "--ew-team")):
        if team is not None:
            try:
                check_team_name(team)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint=hint) from None
    if (pbn_in is None) == (count is None and seed is None):
        raise click.UsageError("give either --pbn FILE or --boards N --seed S")
    if pbn_in is None and (count is None or seed is None):
        raise click.UsageError("--boards and --seed go together")
    if pbn_in is not None and click.get_current_context().get_parameter_source("first") \
            is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--first numbers the boards dealt from --seed: the boards "
                               "of --pbn keep their own numbers")
    try:
        boards = boards_from_pbn(pbn_in) if pbn_in else boards_from_seed(seed, count, first)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {pbn_in}: {exc.strerror or exc}",
                                 param_hint="'--pbn'") from None
    except BridgeError as exc:
        raise click.BadParameter(str(exc), param_hint="'--pbn'" if pbn_in else
                                 "'--boards' / '--seed'") from None
    from ai.protocols.net import refuse_unbindable
    refuse_unbindable(host, port)
    manager = TableManager(boards, ns_team=ns_team, ew_team=ew_team, scoring=scoring,
                           announce_scoring=announce_scoring, relay_alerts=relay_alerts,
                           timeout=timeout, seat_timeout=seat_timeout)
    try:
        log_file = open(log_path, "a", encoding="utf-8") if log_path else None
    except OSError as exc:
        raise click.BadParameter(f"cannot write {log_path}: {exc.strerror}",
                                 param_hint="'--log'") from None
    interrupted = False
    try:
        server = TableManagerServer(manager, host, port, pbn_path=out, event=event,
                                    log_file=log_file)
        click.echo(f"{len(boards)} board(s), writing {out}", err=True)
        try:
            asyncio.run(server.serve())
        except KeyboardInterrupt:
            interrupted = True
        except OSError as exc:
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc}")
    finally:
        if log_file is not None:
            try:
                log_file.close()
            except OSError:  # what was left in its buffer: the server said why already
                pass
    for r in manager.records:
        if not r.finished:
            click.echo(f"board {r.spec.number}: unfinished ({r.reason})")
        elif r.contract is None:
            click.echo(f"board {r.spec.number}: passed out")
        else:
            click.echo(f"board {r.spec.number}: {r.contract.level}{r.contract.strain.letter}"
                       f"{'X' * r.contract.doubled} by {r.contract.declarer.name.title()}, "
                       f"{r.tricks} tricks, N-S {r.score:+d}")
    done = sum(1 for r in manager.records if r.finished)
    click.echo(f"{done} board(s) finished, {len(manager.records) - done} unfinished: "
               f"{'interrupted' if interrupted else manager.end_reason}", err=True)
    if interrupted:
        # after the boards' summary: Interrupted. and status 130, as every subcommand
        raise KeyboardInterrupt
    if server.log_error is not None:
        click.echo(f"Error: the log {log_path} is incomplete ({server.log_error})", err=True)
    if server.write_error is not None:
        click.echo(f"Error: the session was not written to {out} ({server.write_error})",
                   err=True)
    if server.write_error is not None or server.log_error is not None:
        sys.exit(1)
