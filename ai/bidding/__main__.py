"""The ``ddsolver-ai bid`` command (:func:`bid_command`), also ``python -m ai.bidding
"N:<deal>" --dealer N --vulnerability None [--json]``.

Four computer players bid the deal with :class:`ai.bidding.StandardAmerican`; every call is
printed with its explanation.  Exit status 2 for bad input (the message names it), 141 when
the reader of standard output has gone (``| head -1``), as every command of the project.
"""

from __future__ import annotations

import json
import sys

import click

from ddsolver.cli import StatusCommand
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError
from ddsolver.table import Seat

from . import StandardAmerican, bid_deal, check_vulnerability


def run(deal_text: str, dealer="N", vulnerability="None", as_json: bool = False) -> str:
    """The output of the command for one deal (text or JSON).

    :param dealer: a Seat or its letter or name.
    :param vulnerability: a Vulnerability or its text (``"None"``, ``"NS"``, ``"EW"``,
        ``"All"``, ``"Both"``, ...).
    :raises BridgeError: for a bad deal, dealer or vulnerability.
    :raises TypeError: for a dealer or vulnerability of a type neither can have.
    """
    deal = Deal.from_pbn(deal_text)
    if not deal.is_complete():
        from ddsolver.errors import InvalidDealError
        raise InvalidDealError(f"deal {deal_text!r} is not a complete deal of 4 x 13 cards")
    seat = Seat.coerce(dealer)
    vul = check_vulnerability(vulnerability)
    system = StandardAmerican()
    auction = bid_deal(deal, seat, vul, system)
    exps = system.explain_all(auction)
    contract = auction.contract
    if as_json:
        return json.dumps({
            "deal": str(deal),
            "dealer": seat.letter,
            "vulnerability": vul.pbn,
            "calls": [dict(seat=auction.seat_of(i).letter, **e.to_dict())
                      for i, e in enumerate(exps)],
            "contract": None if contract is None else str(contract),
        }, indent=2, ensure_ascii=False)
    lines = [f"Deal {deal}  dealer {seat.letter}  vulnerable {vul.pbn}"]
    for i, e in enumerate(exps):
        lines.append(f"{auction.seat_of(i).letter}  {e.call.symbol:<5} {e.text}")
    lines.append("Contract: " + ("passed out" if contract is None else str(contract)))
    return "\n".join(lines)


@click.command("bid", cls=StatusCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("deal")
@click.option("--dealer", default="N", show_default=True, metavar="SEAT",
              help="The dealer: N, E, S or W.")
@click.option("--vulnerability", "--vul", default="None", show_default=True, metavar="VUL",
              help="None, NS, EW or All (also Both, Love, N-S, E-W).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def bid_command(deal: str, dealer: str, vulnerability: str, as_json: bool) -> int:
    """Bid a deal with four Standard American robots and explain every call.

    DEAL is in PBN notation, quoted.  Example:

    \b
      ddsolver-ai bid "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"

    Exit status 2 for bad input (the message names it), 141 when the reader of the
    output has gone (`| head -1`).
    """
    # each option's value read first, so that a bad one is named (as ddsolver's commands
    # name theirs)
    for value, read, hint in ((dealer, Seat.coerce, "'--dealer'"),
                              (vulnerability, check_vulnerability, "'--vulnerability'")):
        try:
            read(value)
        except BridgeError as exc:
            raise click.BadParameter(str(exc), param_hint=hint) from None
    try:
        text = run(deal, dealer, vulnerability, as_json)
    except BridgeError as exc:
        click.echo(f"Error: {exc}", err=True)
        click.get_current_context().exit(2)
    _emit(text)     # a broken pipe: status 141, silently (ddsolver.cli.StatusCommand)
    return 0


def main(argv=None) -> int:
    """Run the command on ``argv`` (default ``sys.argv[1:]``) and return its exit status:
    0, 2 for bad input or usage (the message on stderr), 130 after Ctrl-C, 141 when the
    reader of standard output has gone."""
    try:
        status = bid_command.main(args=argv, prog_name="python -m ai.bidding",
                                  standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted!", err=True)
        return 1
    return 0 if status is None else int(status)


_SUIT_LETTERS = str.maketrans({"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"})


def _emit(text: str) -> None:
    """Print ``text``; on a console that cannot show suit symbols (e.g. cp1252) they become
    the letters S H D C."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        text = text.translate(_SUIT_LETTERS).encode(encoding, "replace").decode(encoding)
    print(text)
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
