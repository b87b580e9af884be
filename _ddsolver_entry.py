"""The entry points of the commands ``ddsolver``, ``ddsolver-ai`` and ``ddsolver-play``.

A module of its own, outside the packages ``ddsolver`` and ``ai``, that imports nothing but
the standard library's ``sys``: importing a command's module (``ddsolver.cli``, ``ai.cli``,
``ai.tui``) first runs its package's ``__init__``, which brings in numpy, the solver and,
for ``ai``, the computer players: some 0.3 to 0.5 s in which Ctrl-C would print a
``KeyboardInterrupt`` traceback if the command's script imported it, as a script generated
for ``package.module:function`` does before calling anything.  Here the import happens
inside the entry point, so Ctrl-C then exits as it does once the command runs: a line on
standard error and status 130 (128 + SIGINT), no traceback.

What remains uncovered is the interpreter's own start (``site``, a few tens of
milliseconds) and ``python -m ddsolver`` / ``python -m ai`` / ``python -m ai.tui``, which
import the package before any code of the project can run.
"""

from __future__ import annotations

import sys

__all__ = ["EXIT_INTERRUPTED", "Entry", "ddsolver", "ddsolver_ai", "ddsolver_play"]

#: exit status after Ctrl-C (128 + SIGINT), as :data:`ddsolver.cli.EXIT_INTERRUPTED`
EXIT_INTERRUPTED = 130


class Entry:
    """One command's entry point: calling it imports the click command ``module:name``
    and runs it (standalone: it ends with :exc:`SystemExit`).

    :param message: printed on standard error, after a blank line closing the terminal's
        ``^C``, when Ctrl-C stops the import.
    """

    def __init__(self, module: str, name: str, message: str = "Interrupted.") -> None:
        self.module = module
        self.name = name
        self.message = message

    def __repr__(self) -> str:
        return f"Entry({self.module!r}, {self.name!r})"

    def load(self):
        """The click command (importing its module and package).

        :raises KeyboardInterrupt: when Ctrl-C comes during the import.
        """
        __import__(self.module)
        return getattr(sys.modules[self.module], self.name)

    def __call__(self) -> int:
        """Run the command; its exit status is the :exc:`SystemExit` it raises.  Ctrl-C
        while its modules are imported returns :data:`EXIT_INTERRUPTED` (the script
        exits with it) after printing the message.

        :raises SystemExit: the command's exit status, once it has run.
        """
        try:
            command = self.load()
        except KeyboardInterrupt:
            try:
                sys.stderr.write(f"\n{self.message}\n")
                sys.stderr.flush()
            except (AttributeError, OSError, ValueError):
                _drop_stderr()  # standard error closed: the status still says it
            return EXIT_INTERRUPTED
        return command.main()


def _drop_stderr() -> None:
    """Point standard error at the null device, so that what it still holds does not fail
    again at interpreter shutdown (status 120)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stderr.fileno())
        finally:
            os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


#: ``ddsolver`` (:mod:`ddsolver.cli`)
ddsolver = Entry("ddsolver.cli", "main", "Interrupted: nothing written.")
#: ``ddsolver-ai`` (:mod:`ai.cli`)
ddsolver_ai = Entry("ai.cli", "main")
#: ``ddsolver-play`` (:mod:`ai.tui`)
ddsolver_play = Entry("ai.tui", "main")
