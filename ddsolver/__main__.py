"""``python -m ddsolver``: the same as the ``ddsolver`` command (see :mod:`ddsolver.cli`)."""

from .cli import main

if __name__ == "__main__":  # pragma: no cover
    main(prog_name="ddsolver")
