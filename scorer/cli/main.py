"""The ``truco`` command line: one click group, one sub-command per module."""

import sys

import click

from scorer.cli import cli_lang


class LocalizedGroup(click.Group):
    """The ``truco`` group: click's own messages (usage errors, help headings) follow
    ``--lang``, else the locale, else pt, like ours (issue 13 item 7)."""

    def main(self, args=None, *rest, **kwargs):  # type: ignore[override]
        argv = list(sys.argv[1:] if args is None else args)
        lang = cli_lang.lang_from_args(argv) or cli_lang.lang_from_environment()
        with cli_lang.click_language(lang):
            return super().main(argv, *rest, **kwargs)


@click.group(cls=LocalizedGroup)
def cli() -> None:
    """Truco scorekeeper: rules engine, card helpers and the phone scoreboard."""


# Sub-commands are registered below, one line per module.
from scorer.cli.replay_cli import replay_command  # noqa: E402

cli.add_command(replay_command)
from scorer.cli.cards_cli import compare_command, envido_command, manilha_command  # noqa: E402

cli.add_command(envido_command)
cli.add_command(manilha_command)
cli.add_command(compare_command)
from scorer.cli.serve import serve_command  # noqa: E402

cli.add_command(serve_command)
from scorer.cli.db_cli import db_group  # noqa: E402

cli.add_command(db_group)
from scorer.cli.i18n_cli import i18n_command  # noqa: E402

cli.add_command(i18n_command)
