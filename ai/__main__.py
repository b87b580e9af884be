"""``python -m ai``: the same as the ``ddsolver-ai`` command (:mod:`ai.cli`)."""

from ai.cli import main

if __name__ == "__main__":
    main(prog_name="ddsolver-ai")
