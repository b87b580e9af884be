"""The ``ddsolver`` command: double-dummy tables, par, file analysis and card values.

Subcommands (``ddsolver COMMAND --help`` for each):

``ddsolver table DEAL``
    the double-dummy table of one deal and its par for each vulnerability.
``ddsolver analyse FILE``
    adds ``DoubleDummyTricks``, ``OptimumResultTable``, ``OptimumScore`` and
    ``ParContract`` (PBN 2.1 section 5.7; the forms BridgeComposer writes) to every board
    of a PBN or LIN file with a complete deal, using all cores (or a Dask cluster:
    ``--scheduler ADDRESS``); ``--check`` compares them with those tags already in the
    file (another program's analysis).  The job itself is :mod:`ddsolver.analysis`; this
    command wraps it.
``ddsolver solve HANDS --trump S --leader W``
    the value of every legal card of the player to move in a position.

``analyse`` reads at most 256 MiB (:data:`ddsolver.analysis.MAX_INPUT_BYTES`): a larger
input, or an endless one (``yes | ddsolver analyse -``), is refused as bad input after
reading 256 MiB, a larger regular file before it is read; so is a PBN input of more than
1,000,000 games (:data:`ddsolver.analysis.MAX_INPUT_GAMES`).  A malformed ``--scheduler``
address is a usage error before anything is read; a scheduler that does not answer within
5 s (:data:`DASK_CONNECT_TIMEOUT`) is bad input.

Exit codes: 0 success, 1 ``analyse --check`` found a difference, 2 bad input or usage
(the message names the problem; no traceback, no output file written), 3 ``analyse``
skipped boards it could not read (each is reported; the other boards were analysed and the
output written, the skipped boards in it as they stand in the input; 1 wins over 3), 130
interrupted (Ctrl-C, also while the command is starting), 141 standard output or standard
error is a pipe whose reader has gone (``ddsolver analyse big.pbn | head -1``: what was
not read is lost; no message, no traceback; 141 wins over the others).  Standard output or
standard error that cannot be written (a full disk, ``> /dev/full``) is 2, with one line
("Error: cannot write the output: No space left on device"), no traceback; so is standard
input or output closed at the start (``<&-``, ``>&-``) once the command needs it ("Error:
standard input is closed").  The other
commands of the project (``ddsolver-ai``, ``ddsolver-play``) use 130, 141 and this 2 the
same way, through :class:`StatusCommand` and :class:`StatusGroup`.

The same command runs as ``python -m ddsolver``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
from typing import Any, ClassVar

import click

from . import __version__
from .cards import STRAINS_HIGH_FIRST, Card, Strain, Suit
from .deal import Deal
from .errors import BridgeError
from .table import Seat, Side, Vulnerability

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "ClosedStreamError", "StatusCommand",
           "StatusGroup", "check_distinct_files", "check_path", "main", "stream_closed"]

#: Strains in the order the table is printed (as hand records print them): NT, S, H, D, C.
_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SYMBOLS = "♠♥♦♣"


#: exit code when ``analyse --check`` found a difference
EXIT_DIFFERENCES = 1
#: exit code for bad input or usage
EXIT_BAD_INPUT = 2
#: exit code when ``analyse`` skipped boards it could not read (the others were analysed)
EXIT_SKIPPED = 3
#: exit code after Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130
#: exit code when standard output or standard error is a pipe whose reader has gone
#: (128 + SIGPIPE, as shells report a program the signal stopped); not 1, which
#: ``analyse --check`` gives to a difference
EXIT_BROKEN_PIPE = 141


def _is_broken_pipe(exc: BaseException) -> bool:
    """``exc`` is a broken pipe on standard output or standard error: EPIPE, and one of
    the two has lost its reader (not a socket or a worker's pipe that broke, which stays
    an error of its own)."""
    if not (isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError)
                                                 and exc.errno == errno.EPIPE)):
        return False
    try:
        import select
        poller = select.poll()
    except (ImportError, AttributeError):   # no poll (Windows): taken as standard output's
        return True
    fds = set()
    for stream in (sys.stdout, sys.stderr):
        try:
            fds.add(stream.fileno())
        except (AttributeError, OSError, ValueError):
            pass
    if not fds:             # a test's capture: nothing to ask
        return True
    for fd in fds:
        poller.register(fd, select.POLLOUT)
    try:
        # a pipe (or socket) without a reader reports an error or a hang-up at once
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))
    except OSError:
        return True


#: ``errno`` values of a write that failed for want of room (a full disk or quota, a file
#: too large, ``> /dev/full``); not EIO, which a read from a hung-up terminal gives too
_WRITE_FAILURES = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG")
                            if hasattr(errno, name))


def _is_failed_write(exc: BaseException) -> bool:
    """``exc`` is a write that failed on an unnamed stream (standard output or standard
    error on a full disk, ``> /dev/full``): a named file's error carries its name and is
    reported where it is written."""
    return (isinstance(exc, OSError) and exc.errno in _WRITE_FAILURES
            and exc.filename is None)


def _report_failed_write(exc: OSError) -> None:
    """Say on standard error that the output cannot be written (silently when standard
    error is the stream that fails), and leave no unwritten text to fail again at
    interpreter shutdown.  Raises nothing."""
    try:
        click.echo(f"Error: cannot write the output: {exc.strerror or exc}", err=True)
    except (OSError, ValueError):
        pass
    silence_broken_streams()


def silence_broken_streams() -> None:
    """After a broken pipe: point standard output and standard error, those of them that
    cannot be flushed (their reader has gone), at the null device, so that what they still
    hold goes nowhere instead of raising again at interpreter shutdown ("Exception ignored
    ... BrokenPipeError" and status 120); the advice of the Python documentation's note on
    SIGPIPE (:mod:`signal`).  A stream without a file descriptor (a test's capture) is left
    alone.  Raises nothing."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
            continue
        except (OSError, ValueError):
            pass
        try:
            fd = stream.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
        except (OSError, ValueError, AttributeError):
            continue
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
        finally:
            os.close(devnull)


class ClosedStreamError(OSError):
    """Standard input or output was closed when the command started (``<&-``, ``>&-``)
    and the command needed it."""


class _ClosedStream:
    """Stands for a standard stream that was closed when the command started (Python sets
    it to ``None``, which click's output skips silently and other code fails on with an
    AttributeError): any use raises :exc:`ClosedStreamError` naming it.  ``closed`` is
    true, so that nothing flushes it at interpreter shutdown."""

    closed = True

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str):
        raise ClosedStreamError(errno.EBADF, f"standard {self._name} is closed")


def stream_closed(stream) -> bool:
    """``stream`` (``sys.stdin`` or ``sys.stdout``) was closed when the command started."""
    return stream is None or isinstance(stream, _ClosedStream)


def _stand_in_for_closed_streams() -> None:
    """Put a :class:`_ClosedStream` where standard input or output is ``None``.  Standard
    error is left alone: nothing can be said on it, and click writes nothing there when it
    is ``None``."""
    if sys.stdin is None:
        sys.stdin = _ClosedStream("input")
    if sys.stdout is None:
        sys.stdout = _ClosedStream("output")


def _report_closed_stream(exc: ClosedStreamError) -> None:
    try:
        click.echo(f"Error: {exc.strerror}", err=True)
    except (OSError, ValueError):
        pass


def _stream_status(exc: BaseException) -> int | None:
    """The exit status of an error of the standard streams, once what it needs is said
    (one line on standard error) or done (the broken streams silenced): a closed stream
    :data:`EXIT_BAD_INPUT`, a broken pipe :data:`EXIT_BROKEN_PIPE`, a write without room
    :data:`EXIT_BAD_INPUT`; ``None`` for any other error (raised again by the caller)."""
    if isinstance(exc, ClosedStreamError):
        _report_closed_stream(exc)
        return EXIT_BAD_INPUT
    if isinstance(exc, OSError) and _is_broken_pipe(exc):
        silence_broken_streams()
        return EXIT_BROKEN_PIPE
    if _is_failed_write(exc):
        _report_failed_write(exc)  # type: ignore[arg-type]
        return EXIT_BAD_INPUT
    return None


class _StatusMixin:
    """The exit statuses every command of the project shares, whatever click does by
    default: Ctrl-C, also while the arguments are parsed, is :data:`EXIT_INTERRUPTED` with
    the class's :attr:`interrupted_message` (not click's "Aborted!" and status 1); a broken
    pipe on standard output or standard error (the reader of ``| head`` has gone), wherever
    it happens (the command's output, ``--help``, an error message, the last flush), is
    :data:`EXIT_BROKEN_PIPE`, silently (not click's status 1, which ``analyse --check``
    gives to a difference); a write there that fails for want of room (a full disk,
    ``> /dev/full``) is :data:`EXIT_BAD_INPUT` with one line on standard error, not a
    traceback and status 1."""

    #: printed on standard error after Ctrl-C (a blank line first, closing the ``^C``)
    interrupted_message = "Interrupted."

    def _interrupted(self):
        try:
            click.echo(f"\n{self.interrupted_message}", err=True)
        except (OSError, ValueError):   # standard error closed: the status still says it
            silence_broken_streams()
        raise click.exceptions.Exit(EXIT_INTERRUPTED)

    @contextlib.contextmanager
    def _exit_statuses(self):
        """Turn Ctrl-C into :data:`EXIT_INTERRUPTED` and a broken pipe on standard output
        or error into :data:`EXIT_BROKEN_PIPE` (both :exc:`click.exceptions.Exit`)."""
        try:
            yield
        except KeyboardInterrupt:
            self._interrupted()
        except OSError as exc:
            status = _stream_status(exc)
            if status is None:
                raise
            raise click.exceptions.Exit(status) from None

    def make_context(self, *args, **kwargs):
        """click's ``make_context`` (parsing the arguments, ``--help``, ``--version``).

        :raises click.exceptions.Exit: with :data:`EXIT_INTERRUPTED` after Ctrl-C, with
            :data:`EXIT_BROKEN_PIPE` after a broken pipe on standard output or error, with
            :data:`EXIT_BAD_INPUT` when they cannot be written (a full disk).
        """
        with self._exit_statuses():
            return super().make_context(*args, **kwargs)  # type: ignore[misc]

    def invoke(self, ctx: click.Context):
        """click's ``invoke`` (the command, or the group's subcommand).

        :raises click.exceptions.Exit: with :data:`EXIT_INTERRUPTED` after Ctrl-C, with
            :data:`EXIT_BROKEN_PIPE` after a broken pipe on standard output or error, with
            :data:`EXIT_BAD_INPUT` when they cannot be written (a full disk).
        """
        with self._exit_statuses():
            return super().invoke(ctx)  # type: ignore[misc]

    def main(self, *args, **kwargs):
        """click's ``main``; a broken pipe while click writes an error message, or when
        the output is flushed at the end, exits with :data:`EXIT_BROKEN_PIPE` too, and a
        write that fails there for want of room (a full disk) with :data:`EXIT_BAD_INPUT`.

        A standard input or output closed when the command started (``<&-``, ``>&-``) is
        :data:`EXIT_BAD_INPUT` with one line saying so, once the command uses it.

        :raises SystemExit: with the exit status (standalone mode, the default)."""
        _stand_in_for_closed_streams()
        try:
            return super().main(*args, **kwargs)  # type: ignore[misc]
        except OSError as exc:
            status = _stream_status(exc)
            if status is None:
                raise
            sys.exit(status)
        finally:
            # flushed here, where a broken pipe still gets its status, rather than at
            # interpreter shutdown (a stream closed from the start is nobody's concern
            # unless the command used it)
            for stream in (sys.stdout, sys.stderr):
                if stream_closed(stream):
                    continue
                try:
                    stream.flush()
                except (OSError, ValueError) as exc:
                    status = _stream_status(exc)
                    if status is not None:
                        sys.exit(status)


class StatusCommand(_StatusMixin, click.Command):
    """A click command with the project's exit statuses for Ctrl-C and broken pipes
    (:class:`_StatusMixin`)."""


class StatusGroup(_StatusMixin, click.Group):
    """A click group with the project's exit statuses for Ctrl-C and broken pipes, in the
    group and every subcommand (:class:`_StatusMixin`)."""


class CLIError(click.ClickException):
    """Bad input or a file that cannot be read or written: message, exit code 2.  A line of
    the message longer than 400 characters (one quoting a huge argument) keeps its start
    and end; every line is kept (a list of errors, one a line, stays whole)."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str):
        super().__init__("\n".join(_cut_line(line) for line in message.split("\n")))


def _cut_line(line: str) -> str:
    """``line``, or its first 240 and last 100 characters when it is longer than 400."""
    if len(line) <= 400:
        return line
    return f"{line[:240]} ... [{len(line) - 340} characters left out] ... {line[-100:]}"


def check_distinct_files(files) -> None:
    """Refuse, before any work, one file given for two jobs (a log appended to the deals, a
    saved game over the leaderboard).  ``files``: pairs ``(path or None, option)``.

    :raises click.BadParameter: naming the two options and the file (exit status 2).
    """
    from ._io import first_shared_file

    shared = first_shared_file(files)
    if shared is not None:
        option, other_option, other = shared
        raise click.BadParameter(f"{option} and {other_option} are the same file ({other}); "
                                 f"give them two names", param_hint=f"'{other_option}'")


def check_path(path: str | None, hint: str, kind: str = "output") -> None:
    """Refuse, before any work, a path option that cannot be used: the one check of every
    command of the project (``ddsolver``, ``ddsolver-ai``, ``ddsolver-play``).  ``None``
    (the option not given) passes.

    :param hint: the option as the message names it, e.g. ``"'-o' / '--output'"``.
    :param kind: ``"input"`` (a file to read: :func:`~ddsolver._io.input_file_problem`),
        ``"output"`` (a file to write: :func:`~ddsolver._io.output_file_problem`) or
        ``"folder"`` (a folder to write in, created when missing:
        :func:`~ddsolver._io.output_folder_problem`).
    :raises click.BadParameter: naming the option, the path and the reason (exit status 2).
    """
    from ._io import input_file_problem, output_file_problem, output_folder_problem

    if path is None:
        return
    check = {"input": input_file_problem, "output": output_file_problem,
             "folder": output_folder_problem}[kind]
    problem = check(path)
    if problem is not None:
        raise click.BadParameter(problem, param_hint=hint)


def _bridge_error(exc: BaseException, prefix: str = "") -> CLIError:
    return CLIError(f"{prefix}{exc}")


# ---------------------------------------------------------------------------------------
# Formatting helpers
# ---------------------------------------------------------------------------------------

def _symbols_ok(ascii_only: bool) -> bool:
    """Suit symbols are used unless ``--ascii`` is given or stdout cannot encode them."""
    if ascii_only:
        return False
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _strain_label(strain: Strain, symbols: bool) -> str:
    if strain == Strain.NOTRUMP:
        return "NT"
    return strain.symbol if symbols else strain.letter


def _card_label(card: Card, symbols: bool) -> str:
    suit = Strain(int(card.suit))
    return _strain_label(suit, symbols) + card.rank.letter


def format_dd_table(table: Any, symbols: bool = True) -> list[str]:
    """The table as text lines: one row per strain (NT, S, H, D, C), columns N E S W."""
    lines = ["        N   E   S   W"]
    for strain in STRAINS_HIGH_FIRST:
        cells = "".join(f"{int(table[strain, seat]):4d}" for seat in Seat)
        lines.append(f"  {_strain_label(strain, symbols):<3}{cells}")
    return lines


def _holding_text(deal: Deal, seat: Seat, suit: Suit) -> str:
    hand = deal[seat]
    if hand is None:
        return "?"
    text = hand.holding_str(suit)
    return text if text else "-"


def format_diagram(deal: Deal, symbols: bool = True) -> list[str]:
    """A hand diagram: North on top, West left, East right, South at the bottom; an
    unknown hand is shown as ``?``."""
    def suit_lines(seat: Seat) -> list[str]:
        return [f"{_strain_label(Strain(int(s)), symbols)} {_holding_text(deal, seat, s)}"
                for s in _PBN_SUITS]

    pad = " " * 12
    lines = [pad + x for x in suit_lines(Seat.NORTH)]
    for w, e in zip(suit_lines(Seat.WEST), suit_lines(Seat.EAST)):
        lines.append(f"{w:<24}{e}".rstrip())
    lines.extend(pad + x for x in suit_lines(Seat.SOUTH))
    return lines


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _parse_seat(value: str, what: str) -> Seat:
    try:
        return Seat.from_str(value)
    except (BridgeError, ValueError):
        raise click.BadParameter(f"{value!r} is not a seat (N, E, S or W)",
                                 param_hint=what) from None


def _parse_vulnerability(value: str) -> Vulnerability:
    try:
        return Vulnerability.from_str(value)
    except (BridgeError, ValueError):
        raise click.BadParameter(f"{value!r} is not a vulnerability (None, NS, EW, All)",
                                 param_hint="--vulnerability") from None


# ---------------------------------------------------------------------------------------
# The command group
# ---------------------------------------------------------------------------------------

class _Group(StatusGroup):
    """A group that also accepts the American spelling ``analyze``.  Ctrl-C is
    "Interrupted: nothing written." and status 130, not click's "Aborted!" with status 1,
    which means "--check found a difference"; a broken pipe is status 141."""

    aliases: ClassVar[dict[str, str]] = {"analyze": "analyse"}
    interrupted_message = "Interrupted: nothing written."

    def get_command(self, ctx: click.Context, cmd_name: str):
        return super().get_command(ctx, self.aliases.get(cmd_name, cmd_name))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="ddsolver")
def main() -> None:
    """Double-dummy analysis of bridge deals: DD tables, par, PBN/LIN files, card values.

    Exit codes: 0 success, 1 `analyse --check` found a difference, 2 bad input (or
    output that cannot be written: a full disk, a closed standard output), 3 `analyse`
    skipped boards it could not read (the others were analysed), 130
    interrupted (Ctrl-C), 141 the reader of standard output or standard error has gone
    (`| head`).
    """


# ---------------------------------------------------------------------------------------
# ddsolver table
# ---------------------------------------------------------------------------------------

@main.command("table")
@click.argument("deal")
@click.option("--dealer", "-d", default="N", show_default=True, metavar="SEAT",
              help="Dealer for par (N, E, S or W): who can bid a contract first.")
@click.option("--vulnerability", "--vul", default=None, metavar="VUL",
              help="Show par for this vulnerability only (None, NS, EW, All/Both). "
                   "Default: all four.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--ascii", "ascii_only", is_flag=True,
              help="Letters S H D C instead of suit symbols.")
def table_command(deal: str, dealer: str, vulnerability: str | None, as_json: bool,
                  ascii_only: bool) -> None:
    """The double-dummy table and par of one DEAL.

    DEAL is in PBN notation, quoted, first seat then the four hands clockwise, each
    spades.hearts.diamonds.clubs, e.g.

    \b
      ddsolver table "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"

    Each table entry is the number of tricks (0-13) won by declarer's side with declarer
    in that column (N E S W), the opening lead coming from declarer's left-hand opponent,
    and every card played double-dummy (all hands seen).  Par is the result of perfect
    bidding by both sides (DDS DealerPar rules), shown as OptimumScore and ParContract
    are in PBN hand records: "NS 420" / "NS 4S=", "EW -500" / "EW 5HX-3".

    With --json: {"deal", "dealer", "table": {"C": {"N": n, "E": n, "S": n, "W": n},
    "D": ..., "H": ..., "S": ..., "NT": ...}, "par": {"None"|"NS"|"EW"|"All": {"score":
    points for N-S, "contracts": [DDS text such as "4S-NS+1"], "optimum_score",
    "par_contract"}}}.
    """
    from .analysis import par_dict, table_dict
    from .par import par
    from .pbn import par_tags
    from .solver import dd_table

    dealer_seat = _parse_seat(dealer, "--dealer")
    vuls = list(Vulnerability) if vulnerability is None else [
        _parse_vulnerability(vulnerability)]
    try:
        parsed = Deal.from_pbn(deal)
    except BridgeError as exc:
        raise _bridge_error(exc, "bad deal: ") from None
    if not parsed.is_complete():
        raise CLIError(f"bad deal {deal!r}: a double-dummy table needs four hands of 13 "
                       f"cards (use 'ddsolver solve' for an ending)")
    table = dd_table(parsed)
    pars = {v: par(table, v, dealer_seat) for v in vuls}
    if as_json:
        _emit_json({
            "deal": parsed.to_pbn(),
            "dealer": dealer_seat.letter,
            "table": table_dict(table),
            "par": {v.pbn: par_dict(r) for v, r in pars.items()},
        })
        return
    symbols = _symbols_ok(ascii_only)
    out = [parsed.to_pbn(), ""]
    out.extend(format_diagram(parsed, symbols))
    out.append("")
    out.append("Tricks for declarer's side (declarer in the column, lead from declarer's LHO):")
    out.extend(format_dd_table(table, symbols))
    out.append("")
    out.append(f"Par, dealer {dealer_seat.letter}:")
    out.append("  vul   score      contracts")
    for v, r in pars.items():
        optimum, contracts = par_tags(r)
        out.append(f"  {v.pbn:<5} {optimum:<10} {contracts}")
    click.echo("\n".join(out))


# ---------------------------------------------------------------------------------------
# ddsolver solve
# ---------------------------------------------------------------------------------------

@main.command("solve")
@click.argument("hands")
@click.option("--trump", "-t", required=True, metavar="STRAIN",
              help="Trump strain: S, H, D, C or NT.")
@click.option("--leader", "-l", required=True, metavar="SEAT",
              help="The seat that led (or is to lead) to the current trick.")
@click.option("--trick", default="", metavar="CARDS",
              help='Cards already played to the current trick, the leader\'s first, '
                   'e.g. "S6 SA".')
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--ascii", "ascii_only", is_flag=True,
              help="Letters S H D C instead of suit symbols.")
def solve_command(hands: str, trump: str, leader: str, trick: str, as_json: bool,
                  ascii_only: bool) -> None:
    """The double-dummy value of every legal card of the player to move.

    HANDS are the cards each seat still holds, in PBN deal notation (hands may have
    different sizes; cards already played to the current trick are NOT in them), e.g.
    a three-card ending with West on lead in spades:

    \b
      ddsolver solve "N:AK2... QJ3... T54... 876..." --trump S --leader W

    Each value is the number of tricks won by THE SIDE OF THE PLAYER TO MOVE among the
    tricks not yet completed, the current trick included, if that card is played and
    then all four hands play double-dummy (the DDS convention).  Tricks already completed
    are not counted.  Cards are listed best first.

    With --json: {"to_move", "side", "trump", "tricks_left", "best", "cards": {"SA": n,
    ...}}.
    """
    from .play import Position
    from .solver import solve

    try:
        trump_strain = Strain.from_str(trump)
    except (BridgeError, ValueError):
        raise click.BadParameter(f"{trump!r} is not a strain (S, H, D, C or NT)",
                                 param_hint="--trump") from None
    leader_seat = _parse_seat(leader, "--leader")
    try:
        trick_cards = [Card.from_str(tok) for tok in re.split(r"[\s,]+", trick.strip())
                       if tok]
        position = Position.from_remaining(hands, trump_strain, leader_seat, trick_cards)
    except BridgeError as exc:
        raise _bridge_error(exc, "bad position: ") from None
    if position.is_finished:
        raise CLIError("bad position: no cards left to play")
    values = solve(position)
    ordered = sorted(values.items(),
                     key=lambda kv: (-kv[1], -int(kv[0].suit), -int(kv[0].rank)))
    mover = position.to_move
    side = mover.side
    side_text = "NS" if side == Side.NS else "EW"
    best = max(values.values())
    if as_json:
        _emit_json({
            "to_move": mover.letter,
            "side": side_text,
            "trump": trump_strain.letter,
            "tricks_left": position.tricks_left,
            "best": best,
            "cards": {str(c): v for c, v in ordered},
        })
        return
    symbols = _symbols_ok(ascii_only)
    on_table = ""
    if position.trick_cards:
        played = " ".join(_card_label(c, symbols) for c in position.trick_cards)
        on_table = f"; on the table: {played} (led by {leader_seat.name.title()})"
    trump_text = _strain_label(trump_strain, symbols)
    out = [
        (f"{mover.name.title()} to play, trump {trump_text}, {position.tricks_left} "
         f"trick(s) to go{on_table}."),
        (f"Tricks for {side_text} (the side to move) among the {position.tricks_left} "
         f"trick(s) not yet completed:"),
    ]
    for card, v in ordered:
        mark = "  best" if v == best else ""
        out.append(f"  {_card_label(card, symbols):<4}{v:3d}{mark}")
    click.echo("\n".join(out))


# ---------------------------------------------------------------------------------------
# ddsolver analyse
# ---------------------------------------------------------------------------------------

def _write_stdout(text: str) -> None:
    """Write ``text`` to standard output in full, through its file descriptor where it has
    one: a write the reader leaves half done (``| head -1`` closing its end in the middle
    of a large write) returns short without an error, and Python's own stream then lost
    the rest without a word (exit status 0); here the rest is written again, which meets
    the closed pipe: :exc:`BrokenPipeError` (status 141).

    The text is encoded as standard output's (the locale's) encoding, or in UTF-8 when
    that cannot hold it.

    :raises BrokenPipeError: when the reader has gone.
    :raises OSError: when the output cannot be written.
    """
    stream = sys.stdout
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):   # not a real file (a test's capture)
        click.echo(text, nl=False)
        return
    try:
        data = text.encode(getattr(stream, "encoding", None) or "utf-8",
                           getattr(stream, "errors", None) or "strict")
    except (UnicodeEncodeError, LookupError):
        # a character the locale's encoding cannot hold (a Chinese name in a Latin-1
        # locale): UTF-8, as a PBN file is written when Latin-1 cannot hold it
        data = text.encode("utf-8", "surrogateescape")
    stream.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_output(report: Any, output: str) -> None:
    from .pbn import dumps_pbn

    try:
        if output == "-":
            _write_stdout(dumps_pbn(report.games, newline="\n"))
            return
        report.write(output)
    except BrokenPipeError:
        raise   # standard output's reader has gone: status 141 (StatusGroup), no message
    except OSError as exc:
        raise CLIError(f"cannot write {output!r}: {exc.strerror or exc}") from None
    except BridgeError as exc:
        raise CLIError(f"cannot write {output}: {exc}") from None


#: Seconds to wait for a Dask scheduler to answer (``analyse --scheduler``).
DASK_CONNECT_TIMEOUT = 5


def _check_scheduler(ctx: click.Context, param: click.Parameter, value: str | None
                     ) -> str | None:
    """``--scheduler``: a malformed address is a usage error before anything is read or
    any Dask client created."""
    from ._dask import check_scheduler_address

    if value is None:
        return None
    try:
        return check_scheduler_address(value)
    except BridgeError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


@contextlib.contextmanager
def _dask_executor(address: str | None):
    """``None`` without an address; else a :class:`concurrent.futures.Executor` on the Dask
    cluster at ``address`` (``distributed.Client(...).get_executor()``), the client closed
    afterwards (which also cancels its unfinished tasks, e.g. after Ctrl-C)."""
    if address is None:
        yield None
        return
    from ._dask import connect_scheduler

    try:
        import distributed  # noqa: F401
    except ImportError:
        raise CLIError("--scheduler needs Dask's 'distributed' package: "
                       "pip install 'ddsolver[dask]'") from None
    try:
        client = connect_scheduler(address, timeout=DASK_CONNECT_TIMEOUT)
    except BridgeError as exc:
        raise CLIError(str(exc)) from None
    try:
        yield client.get_executor()
    finally:
        client.close()


def _default_output(path: str) -> str:
    root, _ = os.path.splitext(path)
    return root + ".analysed.pbn"


@main.command("analyse")
@click.argument("input_path", metavar="INPUT", type=click.Path(dir_okay=False,
                                                               allow_dash=True))
@click.option("-o", "--output", default=None, metavar="PATH",
              help="Output PBN file ('-' for stdout).  Default: INPUT's name with "
                   "'.analysed.pbn' (e.g. club.pbn -> club.analysed.pbn); with --check or "
                   "--json nothing is written unless -o is given.")
@click.option("--format", "fmt", type=click.Choice(["auto", "pbn", "lin"]), default="auto",
              show_default=True, help="Input format; auto goes by the file extension, "
                                      "then by the content.")
@click.option("--threads", "-j", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Solver threads, 1 to 64 (default: all CPUs).")
@click.option("--check", is_flag=True,
              help="Compare with the DoubleDummyTricks, OptimumResultTable, OptimumScore "
                   "and ParContract tags already in the file; list every difference and "
                   "exit with 1 if there is one.  When no board has such tags nothing is "
                   "compared: the summary line says so, also with -q, and the exit "
                   "status stays 0.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON summary on stdout: per board the table and par (and the "
                   "check result).")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar, no notes; problems, the reader's warnings and "
                   "differences are still shown.")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=_check_scheduler,
              help="Solve on a Dask cluster (e.g. tcp://host:8786) instead of local "
                   "threads, for very large files; needs 'pip install ddsolver[dask]'.  "
                   "The results are the same.  A scheduler that does not answer within "
                   "5 s is an error.  Not with --threads.")
def analyse_command(input_path: str, output: str | None, fmt: str, threads: int | None,
                    check: bool, as_json: bool, quiet: bool, scheduler: str | None) -> None:
    """Add double-dummy tables and par to every board of a PBN or LIN file.

    For each board with a complete deal, the tags DoubleDummyTricks, OptimumResultTable
    (tricks for declarer's side, declarers N S E W x strains NT S H D C), OptimumScore and
    ParContract (par for the board's dealer and vulnerability, BridgeComposer's form) are
    added or replaced; everything else in the file is kept.  Boards without a complete
    deal are reported and left as they are.  A PBN board that cannot be read (a malformed
    board) is reported with its error, skipped and written back as it stands, while the
    other boards are analysed; the exit status is then 3.  LIN input is written out as PBN.

    The output is written only when every board has been analysed, and atomically
    (a temporary file renamed over the target; through a symbolic link, its target is
    replaced), so a failure never leaves half a file, nor does Ctrl-C (exit status 130).
    An input larger than 256 MiB or of more than 1,000,000 games is refused (exit status
    2).  Example:

    \b
      ddsolver analyse examples/club_hand_record_36.pbn --check -o analysed.pbn

    The same job from Python: ddsolver.analysis.analyse_file.
    """
    from .analysis import analyse_games, read_games

    if as_json and output == "-":
        raise click.UsageError("--json prints to stdout: give -o a file name, not '-'")
    if scheduler is not None and threads is not None:
        # the cluster's workers solve; local threads would do nothing
        raise click.UsageError("--threads is for solving here; with --scheduler the Dask "
                               "cluster's workers solve (start more of them)")
    if input_path != "-":
        check_path(input_path, "'INPUT'", "input")
    if output is None and not (check or as_json):
        output = "-" if input_path == "-" else _default_output(input_path)
    if output != "-":
        # fail before the solving, not after it
        check_path(output, "'-o' / '--output'")
    try:
        if input_path == "-":
            # read in chunks, refused past MAX_INPUT_BYTES (`yes | ddsolver analyse -`)
            games, kind, newline = read_games(sys.stdin.buffer, format=fmt, name="<stdin>")
        else:
            games, kind, newline = read_games(input_path, format=fmt)
    except OSError as exc:
        raise CLIError(f"cannot read {input_path}: {exc.strerror or exc}") from None
    except BridgeError as exc:
        raise _bridge_error(exc) from None

    from tqdm import tqdm

    show_bar = not quiet and sys.stderr.isatty()
    with _dask_executor(scheduler) as executor, \
            tqdm(unit="deal", desc="DD tables", file=sys.stderr, disable=not show_bar,
                 leave=False) as bar:
        try:
            report = analyse_games(games, threads=threads, check=check,
                                   progress=lambda _t: bar.update(1), format=kind,
                                   source=games[0].source, newline=newline,
                                   executor=executor)
        except BridgeError as exc:
            raise _bridge_error(exc) from None

    for b in report.boards:
        # what the reader tolerated in the input (a repeated tag dropped, a game without
        # an empty line before it): shown also with -q
        for w in b.warnings:
            click.echo(f"{b.label}: warning: {w}", err=True)
        if b.skipped is not None:
            kind_of_skip = "skipped (cannot be read)" if b.malformed else "skipped"
            click.echo(f"{b.label}: {kind_of_skip}: {b.skipped}", err=True)
        elif not quiet:
            for note in b.notes:
                click.echo(f"{b.label}: {note}", err=True)
        for m in b.mismatches:
            click.echo(f"{b.label}: {m}", err=True)

    if output is not None:
        _write_output(report, output)

    mismatched = report.mismatched or 0
    checked = report.compared
    if not quiet or report.malformed or (check and (mismatched or checked == 0)):
        where = "" if output in (None, "-") else f" -> {output}"
        msg = (f"analysed {report.analysed} of {len(report.boards)} board(s) "
               f"({report.distinct_deals} distinct deal(s)) in {report.seconds:.1f} s{where}")
        if report.skipped:
            msg += f"; {report.skipped} skipped"
            if report.malformed:
                msg += f" ({report.malformed} could not be read)"
        click.echo(msg, err=True)
        if check:
            unchecked = report.unchecked
            text = (f"check: {checked} board(s) compared, {mismatched} with differences"
                    + (f", {unchecked} without analysis tags" if unchecked else ""))
            click.echo(text, err=True)

    if as_json:
        _emit_json({"input": input_path, "output": output, **report.to_json()})
    if check and mismatched:
        click.get_current_context().exit(EXIT_DIFFERENCES)
    if report.malformed:
        click.get_current_context().exit(EXIT_SKIPPED)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="ddsolver")
