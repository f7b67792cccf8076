"""The ``ginrummy`` command. Each subcommand lives in its own module under
:mod:`ginrummy.cli`; this file only lists them."""

from __future__ import annotations

import click

from .. import __version__
from .db import db
from .learn import learn
from .play import play
from .replay import replay
from .rules import rules
from .serve import serve
from .simulate import simulate
from .strategy import strategy
from .tournament import tournament
from .verify import verify


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ginrummy")
def main() -> None:
    """Gin rummy: play it, study it, check it."""


main.add_command(replay)
main.add_command(rules)
main.add_command(simulate)
main.add_command(tournament)
main.add_command(play)
main.add_command(verify)
main.add_command(serve)
main.add_command(learn)
main.add_command(strategy)
main.add_command(db)


if __name__ == "__main__":  # pragma: no cover
    main()
