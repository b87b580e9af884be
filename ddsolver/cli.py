"""The ``ddsolver`` command: double-dummy tables, par, file analysis and card values.

Subcommands (``ddsolver COMMAND --help`` for each):

``ddsolver table DEAL``
    the double-dummy table of one deal and its par for each vulnerability.
``ddsolver analyse FILE``
    adds ``DoubleDummyTricks``, ``OptimumResultTable``, ``OptimumScore`` and
    ``ParContract`` (PBN 2.1 section 5.7; the forms BridgeComposer writes) to every board
    of a PBN or LIN file with a complete deal, using all cores; ``--check`` compares them
    with those tags already in the file (another program's analysis).
``ddsolver solve HANDS --trump S --leader W``
    the value of every legal card of the player to move in a position.

Exit codes: 0 success, 1 ``analyse --check`` found a difference, 2 bad input or usage
(the message names the problem; no traceback, no output file written).

The same command runs as ``python -m ddsolver``.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import click

from . import __version__
from ._io import decode_text
from .cards import Card, Strain, Suit
from .deal import Deal
from .errors import BridgeError
from .table import Seat, Side, Vulnerability, board_dealer, board_vulnerability

__all__ = ["main"]

#: Strains in the order the table is printed (as hand records print them): NT, S, H, D, C.
_PRINT_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SYMBOLS = "♠♥♦♣"


#: exit code after Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130


class CLIError(click.ClickException):
    """Bad input or a file that cannot be read or written: message, exit code 2.  A message
    longer than 400 characters (one quoting a huge argument) keeps its start and end."""

    exit_code = 2

    def __init__(self, message: str):
        if len(message) > 400:
            message = (f"{message[:240]} ... [{len(message) - 340} characters left out] ... "
                       f"{message[-100:]}")
        super().__init__(message)


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


def _table_dict(table: Any) -> dict[str, dict[str, int]]:
    """``{"C": {"N": n, "E": n, "S": n, "W": n}, ..., "NT": {...}}``: tricks for
    declarer's side, strains C, D, H, S, NT."""
    return {strain.letter: {seat.letter: int(table[strain, seat]) for seat in _SEATS}
            for strain in Strain}


def format_dd_table(table: Any, symbols: bool = True) -> list[str]:
    """The table as text lines: one row per strain (NT, S, H, D, C), columns N E S W."""
    lines = ["        N   E   S   W"]
    for strain in _PRINT_STRAINS:
        cells = "".join(f"{int(table[strain, seat]):4d}" for seat in _SEATS)
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


def _par_record(result: Any) -> dict[str, Any]:
    """A par result as JSON: ``score`` for North-South, ``contracts`` in DDS text, and the
    ``OptimumScore``/``ParContract`` tag values."""
    from .pbn import par_tags

    optimum, contracts = par_tags(result)
    return {
        "score": int(result.score),
        "contracts": [str(c) for c in result.contracts],
        "optimum_score": optimum,
        "par_contract": contracts,
    }


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

class _Group(click.Group):
    """A group that also accepts the American spelling ``analyze``."""

    aliases: ClassVar[dict[str, str]] = {"analyze": "analyse"}

    def get_command(self, ctx: click.Context, cmd_name: str):
        return super().get_command(ctx, self.aliases.get(cmd_name, cmd_name))

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # not click's "Aborted!" with exit code 1, which means "--check found a difference"
            click.echo("\nInterrupted: nothing written.", err=True)
            ctx.exit(EXIT_INTERRUPTED)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="ddsolver")
def main() -> None:
    """Double-dummy analysis of bridge deals: DD tables, par, PBN/LIN files, card values.

    Exit codes: 0 success, 1 `analyse --check` found a difference, 2 bad input,
    130 interrupted (Ctrl-C).
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
            "table": _table_dict(table),
            "par": {v.pbn: _par_record(r) for v, r in pars.items()},
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

@dataclass
class _BoardReport:
    """What happened to one game of the input."""

    game: Any
    label: str
    deal: Deal | None = None
    skipped: str | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    notes: list[str] = field(default_factory=list)
    table: Any = None
    par: Any = None
    check: str | None = None          # "ok", "mismatch", "unchecked" (None: not asked)
    mismatches: list[str] = field(default_factory=list)


def _label(game: Any) -> str:
    if game.board is not None:
        return f"board {game.board}"
    return f"game {game.index}"


def _detect_format(name: str, text: str, fmt: str) -> str:
    if fmt != "auto":
        return fmt
    lower = name.lower()
    if lower.endswith(".lin"):
        return "lin"
    if lower.endswith(".pbn"):
        return "pbn"
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] in ("[", "%", "{", ";"):
        return "pbn"
    if re.match(r"[A-Za-z]{2}\|", stripped):
        return "lin"
    return "pbn"


def _read_games(path: str, fmt: str) -> tuple[list[Any], str, str]:
    """Read the input; returns (games, format, newline of the output)."""
    from .lin import parse_lin
    from .pbn import parse_pbn

    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            source = "<stdin>"
        else:
            with open(path, "rb") as fh:
                data = fh.read()
            source = path
    except OSError as exc:
        raise CLIError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = decode_text(data)
    kind = _detect_format(source, text, fmt)
    try:
        games = parse_lin(text, source=source) if kind == "lin" else parse_pbn(
            text, source=source)
    except BridgeError as exc:
        raise _bridge_error(exc) from None
    if not games:
        raise CLIError(f"{source}: no boards found (is it a {kind.upper()} file?)")
    newline = "\r\n" if kind == "lin" or "\r\n" in text else "\n"
    return games, kind, newline


def _prepare(game: Any) -> _BoardReport:
    """Find the deal, dealer and vulnerability of a game, or why it is skipped."""
    report = _BoardReport(game, _label(game))
    try:
        deal = game.deal
        dealer = game.dealer
        vulnerability = game.vulnerability
    except BridgeError as exc:
        report.skipped = str(exc)
        return report
    if deal is None:
        report.skipped = "no deal"
        return report
    if not deal.is_complete():
        report.skipped = "the deal is not complete (a hand unknown or short of 13 cards)"
        return report
    board = game.board
    if dealer is None:
        dealer = board_dealer(board) if board is not None else Seat.NORTH
        report.notes.append(f"no dealer given: par computed with dealer {dealer.letter}"
                            f"{' (board number)' if board is not None else ''}")
    if vulnerability is None:
        vulnerability = (board_vulnerability(board) if board is not None
                         else Vulnerability.NONE)
        report.notes.append(f"no vulnerability given: par computed for {vulnerability.pbn}"
                            f"{' (board number)' if board is not None else ''}")
    report.deal, report.dealer, report.vulnerability = deal, dealer, vulnerability
    return report


def _check_board(report: _BoardReport) -> None:
    """Compare the analysis tags already in the game with ours; fill report.check and
    report.mismatches."""
    from .pbn.dd_tags import compare_analysis_tags

    mismatches = compare_analysis_tags(report.game, report.table, report.par)
    if mismatches is None:
        report.check = "unchecked"
    else:
        report.mismatches = mismatches
        report.check = "mismatch" if mismatches else "ok"


def _write_output(games: list[Any], output: str, newline: str) -> None:
    from .pbn import dumps_pbn, write_pbn

    try:
        if output == "-":
            click.echo(dumps_pbn(games, newline="\n"), nl=False)
            return
        try:
            mode = os.stat(output).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            # /dev/null, a FIFO...: cannot be replaced atomically, so write into it.
            with open(output, "wb") as fh:
                write_pbn(games, fh, newline=newline)
            return
        write_pbn(games, output, newline=newline)
    except OSError as exc:
        raise CLIError(f"cannot write {output}: {exc.strerror or exc}") from None
    except BridgeError as exc:
        raise CLIError(f"cannot write {output}: {exc}") from None


def _solve_all(deals: list[Deal], threads: int, progress) -> list[Any]:
    """DD tables of ``deals`` with :func:`ddsolver.solver.dd_tables` on ``threads``
    threads.  On Ctrl-C its running searches stop within about 50 ms and the deals not yet
    started are cancelled, so the command stops at once instead of after the whole file."""
    from .solver import dd_tables

    return dd_tables(deals, threads=max(1, min(threads, len(deals))), progress=progress)


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
@click.option("--threads", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Solver threads (default: all CPUs).")
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
def analyse_command(input_path: str, output: str | None, fmt: str, threads: int | None,
                    check: bool, as_json: bool, quiet: bool) -> None:
    """Add double-dummy tables and par to every board of a PBN or LIN file.

    For each board with a complete deal, the tags DoubleDummyTricks, OptimumResultTable
    (tricks for declarer's side, declarers N S E W x strains NT S H D C), OptimumScore and
    ParContract (par for the board's dealer and vulnerability, BridgeComposer's form) are
    added or replaced; everything else in the file is kept.  Boards without a complete
    deal are reported and left as they are.  LIN input is written out as PBN.

    The output is written only when every board has been analysed, and atomically
    (a temporary file renamed over the target), so a failure never leaves half a file.
    Example:

    \b
      ddsolver analyse examples/club_hand_record_36.pbn --check -o analysed.pbn
    """
    from .par import par

    if as_json and output == "-":
        raise click.UsageError("--json prints to stdout: give -o a file name, not '-'")
    if input_path != "-" and not os.path.exists(input_path):
        raise CLIError(f"cannot read {input_path}: no such file")
    if output is None and not (check or as_json):
        output = "-" if input_path == "-" else _default_output(input_path)
    if output not in (None, "-"):
        # fail before the solving, not after it
        folder = os.path.dirname(os.path.abspath(output))
        if os.path.isdir(output):
            raise CLIError(f"cannot write {output}: it is a directory")
        if not os.path.isdir(folder):
            raise CLIError(f"cannot write {output}: no such directory {folder}")
        if not os.access(folder, os.W_OK):
            raise CLIError(f"cannot write {output}: directory {folder} is not writable")
    games, kind, newline = _read_games(input_path, fmt)

    reports = [_prepare(g) for g in games]
    for r in reports:
        # what the reader tolerated in the input (a repeated tag dropped, a game without
        # an empty line before it): shown also with -q
        for w in r.game.warnings:
            click.echo(f"{r.label}: warning: {w}", err=True)
        if r.skipped is not None:
            click.echo(f"{r.label}: skipped: {r.skipped}", err=True)
        elif not quiet:
            for note in r.notes:
                click.echo(f"{r.label}: {note}", err=True)
    todo = [r for r in reports if r.skipped is None]

    unique: dict[str, Deal] = {}
    for r in todo:
        unique.setdefault(r.deal.to_pbn(), r.deal)
    show_bar = not quiet and sys.stderr.isatty()
    start = time.monotonic()
    if unique:
        from tqdm import tqdm

        with tqdm(total=len(unique), unit="deal", desc="DD tables", file=sys.stderr,
                  disable=not show_bar, leave=False) as bar:
            tables = _solve_all(list(unique.values()), threads or os.cpu_count() or 1,
                                lambda _t: bar.update(1))
        by_deal = dict(zip(unique.keys(), tables))
    else:
        by_deal = {}
    elapsed = time.monotonic() - start

    mismatched = 0
    for r in todo:
        r.table = by_deal[r.deal.to_pbn()]
        r.par = par(r.table, r.vulnerability, r.dealer)
        if check:
            _check_board(r)
            if r.check == "mismatch":
                mismatched += 1
                for m in r.mismatches:
                    click.echo(f"{r.label}: {m}", err=True)
        try:
            r.game.set_double_dummy(r.table)
            r.game.set_par(r.par)
        except BridgeError as exc:
            raise CLIError(f"{r.label}: cannot write the analysis: {exc}") from None

    if output is not None:
        _write_output(games, output, newline)

    skipped = len(reports) - len(todo)
    checked = sum(1 for r in todo if r.check in ("ok", "mismatch"))
    if not quiet or (check and (mismatched or checked == 0)):
        where = "" if output in (None, "-") else f" -> {output}"
        msg = (f"analysed {len(todo)} of {len(reports)} board(s) ({len(unique)} distinct "
               f"deal(s)) in {elapsed:.1f} s{where}")
        if skipped:
            msg += f"; {skipped} skipped"
        click.echo(msg, err=True)
        if check:
            unchecked = sum(1 for r in todo if r.check == "unchecked")
            text = (f"check: {checked} board(s) compared, {mismatched} with differences"
                    + (f", {unchecked} without analysis tags" if unchecked else ""))
            click.echo(text, err=True)

    if as_json:
        boards = []
        for r in reports:
            item: dict[str, Any] = {"board": r.game.board, "index": r.game.index}
            if r.skipped is not None:
                item["skipped"] = r.skipped
            else:
                item.update({
                    "deal": r.deal.to_pbn(),
                    "dealer": r.dealer.letter,
                    "vulnerability": r.vulnerability.pbn,
                    "table": _table_dict(r.table),
                    "par": _par_record(r.par),
                })
                if r.notes:
                    item["notes"] = list(r.notes)
                if r.check is not None:
                    item["check"] = r.check
                    item["mismatches"] = list(r.mismatches)
            boards.append(item)
        _emit_json({
            "input": input_path,
            "format": kind,
            "output": output,
            "analysed": len(todo),
            "skipped": skipped,
            "mismatched": mismatched if check else None,
            "boards": boards,
        })
    if check and mismatched:
        click.get_current_context().exit(1)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="ddsolver")
