"""The ``truco`` command line: one click group, one sub-command per module."""

import click


@click.group()
def cli() -> None:
    """Truco scorekeeper: rules engine, card helpers and the phone scoreboard."""


# Sub-commands are registered below, one line per module.
from scorer.replay_cli import replay_command  # noqa: E402

cli.add_command(replay_command)
from scorer.cards_cli import compare_command, envido_command, manilha_command  # noqa: E402

cli.add_command(envido_command)
cli.add_command(manilha_command)
cli.add_command(compare_command)
from scorer.serve import serve_command  # noqa: E402

cli.add_command(serve_command)
from scorer.db_cli import db_group  # noqa: E402

cli.add_command(db_group)
