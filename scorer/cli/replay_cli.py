"""``truco replay``: fold a file of JSON actions into the final match state."""

from __future__ import annotations

import json
from typing import Any

import click

from scorer.cli import cli_lang
from scorer.core.errors import N_, TrucoError
from scorer.core.match import Match
from scorer.core.schema import ACTION_TYPES, CALLS
from scorer.core.stats import match_stats
from scorer.cli.cards_cli import VariantChoice
from scorer.present.log_words import say_state


def _parse_option(raw: str, translate: Any) -> tuple[str, Any]:
    """``KEY=VALUE`` -> (key, value), VALUE read as JSON when it is JSON (``true``, ``40``).

    Raises:
        click.BadParameter: no ``=`` or no key; the message through ``translate``.
    """
    key, sep, value = raw.partition("=")
    if not sep or not key:
        message = translate(N_("{option} is not KEY=VALUE (for example target=40).")).format(option=repr(raw))
        raise click.BadParameter(message, param_hint="--option")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _fail(code: str, message: str, index: int | None) -> None:
    click.echo(json.dumps({"error": {"code": code, "message": message, "index": index}}, ensure_ascii=False))
    raise SystemExit(2)


@click.command(
    "replay",
    epilog=f"Action types: {', '.join(ACTION_TYPES)}. Calls: {', '.join(CALLS)} (scorer/core/schema.py).",
)
@click.option("--variant", "variant_id", required=True, type=VariantChoice(), help="Variant id.")
@click.option("--option", "raw_options", multiple=True, metavar="KEY=VALUE", help="A variant option; repeatable.")
@click.option("--mano", type=click.IntRange(0, 1), default=0, show_default=True, help="Side that is mano in hand 1.")
@click.option("--lang", type=click.Choice(sorted(cli_lang.LOCALES)), default=None,
              callback=lambda _ctx, _param, value: cli_lang.resolve(value),
              help="Language of the messages and the log (default: the locale's, else pt).")
@click.option("--stats", "stats", is_flag=True,
              help='Print both sides\' statistics instead ({"sides": [...]}, as GET /api/matches/<id>/stats).')
@click.argument("actions_file", type=click.File("rb"), default="-")
def replay_command(variant_id: str, raw_options: tuple[str, ...], mano: int, lang: str, actions_file: Any,
                   stats: bool = False) -> None:
    """Read one JSON action per line (stdin without FILE) and print the final state as JSON
    (with --stats: both sides' statistics, the API's ``{"sides": [...]}``).

    An illegal action exits with status 2 and prints {"error": {"code", "message", "index"}}
    (index: 0-based among the non-blank lines), the message in ``--lang``.
    """
    translate = cli_lang.translator(lang)
    names = (translate("Us"), translate("Them"))  # the pages' default side names
    options = dict(_parse_option(raw, translate) for raw in raw_options)
    try:
        match = Match(variant_id, options, mano)
    except TrucoError as error:
        _fail(error.code, error.render(translate, names), None)
    index = -1
    for raw in actions_file:
        if not raw.strip():
            continue
        index += 1
        try:
            line = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            _fail("bad_encoding", translate(N_("Line is not UTF-8 text.")), index)
        try:
            action = json.loads(line)
        except json.JSONDecodeError as error:
            _fail("bad_json", translate(N_("Line is not JSON: {reason}.")).format(reason=error.msg), index)
        except (ValueError, RecursionError):
            _fail("bad_json", translate(N_("Line is JSON too deep or with a number too long to read.")), index)
        try:
            match.apply(action)
        except TrucoError as error:
            _fail(error.code, error.render(translate, names), index)
    if stats:
        click.echo(json.dumps({"sides": [side.as_dict() for side in match_stats(match)]}, ensure_ascii=False, indent=2))
        return
    click.echo(json.dumps(say_state(match.state(names), translate), ensure_ascii=False, indent=2))
