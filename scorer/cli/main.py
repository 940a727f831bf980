"""The ``truco`` command line: one click group, one sub-command per module, each module
imported only when its command runs (``truco envido`` does not load the web server)."""

import importlib
import sys

import click

from scorer.cli import cli_lang

#: Each sub-command's name and where it lives (``module:attribute``); see click's "lazily
#: loading subcommands" pattern. A new sub-command adds one line here.
COMMANDS = {
    "replay": "scorer.cli.replay_cli:replay_command",
    "envido": "scorer.cli.cards_cli:envido_command",
    "manilha": "scorer.cli.cards_cli:manilha_command",
    "compare": "scorer.cli.cards_cli:compare_command",
    "serve": "scorer.cli.serve:serve_command",
    "db": "scorer.cli.db_cli:db_group",
    "i18n": "scorer.cli.i18n_cli:i18n_command",
}


class LocalizedGroup(click.Group):
    """The ``truco`` group: click's own messages (usage errors, help headings) follow
    ``--lang``, else the locale, else pt, like ours (issue 13 item 7). Its sub-commands are
    :data:`COMMANDS`, each imported the first time it is asked for."""

    def main(self, args=None, *rest, **kwargs):
        argv = list(sys.argv[1:] if args is None else args)
        lang = cli_lang.lang_from_args(argv) or cli_lang.lang_from_environment()
        with cli_lang.click_language(lang):
            return super().main(argv, *rest, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attribute = COMMANDS[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LocalizedGroup)
def cli() -> None:
    """Truco scorekeeper: rules engine, card helpers and the phone scoreboard."""
