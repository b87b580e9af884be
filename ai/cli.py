"""The ``ddsolver-ai`` command (also ``python -m ai``): the computer players' jobs.

One click group; each job is a subcommand defined beside the code it runs and added here
with one line, so that ``ddsolver-ai --help`` lists them all.  Bad input exits with status 2
and a one-line message naming the problem (click's usage errors); Ctrl-C (SIGINT) in any
subcommand, or while the command starts, exits with status 130 (128 + SIGINT, as shells
report it) after printing "Interrupted." and no traceback; a broken pipe on standard output
or standard error (``ddsolver-ai simulate ... | head -1``) exits with status 141
(128 + SIGPIPE), silently, and one that cannot be written (a full disk) with status 2 and
one line, as ``ddsolver`` and ``ddsolver-play`` do (:class:`ddsolver.cli.StatusGroup`).
"""

from __future__ import annotations

import click

from ddsolver.cli import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, StatusGroup

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "main"]


@click.group(cls=StatusGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "-V", "--version", package_name="ddsolver")
def main() -> None:
    """Computer players of contract bridge built on the ddsolver double-dummy solver."""


# the jobs' subcommands, one line each
from ai.bidding.__main__ import bid_command  # noqa: E402
from ai.match import match_command  # noqa: E402
from ai.protocols.cli import bluechip, engine, http  # noqa: E402
from ai.sampling import simulate_command  # noqa: E402
from ai.web.cli import translations_command, web_command  # noqa: E402

main.add_command(bid_command)
main.add_command(match_command)
main.add_command(simulate_command)
main.add_command(web_command)
main.add_command(translations_command)
main.add_command(engine)
main.add_command(http)
main.add_command(bluechip)
