"""Issue 13 item 7: every CLI message follows --lang (default: the locale's, else pt)."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli import cli
from scorer.cli_lang import lang_from_environment


@pytest.mark.parametrize(
    ("env", "lang"),
    [({}, "pt"), ({"LANG": "C.UTF-8"}, "pt"), ({"LANG": "es_AR.UTF-8"}, "es"), ({"LC_ALL": "en_US.UTF-8"}, "en"),
     ({"LC_ALL": "C", "LANG": "es_UY.UTF-8"}, "es"), ({"LANG": "de_DE.UTF-8"}, "pt"),
     ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, "pt"), ({"LANGUAGE": "en_GB:en"}, "en")],
)
def test_language_from_the_environment(env, lang):
    assert lang_from_environment(env) == lang


CLEAN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "LANGUAGE": ""}


@pytest.mark.parametrize(
    ("args", "env", "start"),
    [
        (["envido", "xx", "--lang", "es"], {}, 'Error: No entiendo "xx" como carta.'),  # the example
        (["envido", "xx", "--lang", "en"], {}, 'Error: Cannot read "xx" as a card.'),
        (["envido", "xx"], {}, "Erro: "),  # no locale: pt
        (["envido", "xx"], {"LANG": "es_AR.UTF-8"}, 'Error: No entiendo "xx" como carta.'),
        (["manilha", "9", "--lang", "es"], {}, "Error: "),
    ],
)
def test_card_command_errors_follow_the_language(args, env, start):
    result = CliRunner().invoke(cli, args, env={**CLEAN, **env})
    assert result.exit_code == 2
    assert result.stderr.startswith(start), result.stderr
    if "--lang" in args and args[-1] == "es":
        assert "Cannot" not in result.stderr and "Expected" not in result.stderr


def test_json_errors_follow_the_language():
    result = CliRunner().invoke(cli, ["envido", "xx", "--lang", "es", "--json"], env=CLEAN)
    assert json.loads(result.output)["error"]["message"].startswith('No entiendo "xx"')


def test_replay_messages_and_log_follow_the_language():
    actions = '{"type":"call","side":0,"call":"truco"}\n{"type":"quiero","side":0}\n'
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--lang", "es"], input=actions, env=CLEAN)
    assert result.exit_code == 2
    message = json.loads(result.output)["error"]["message"]
    assert message == "Truco de Nosotros: la respuesta le toca a Ellos."
    bad = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--lang", "pt"], input="{x\n", env=CLEAN)
    assert json.loads(bad.output)["error"]["message"].startswith("A linha não é JSON")
