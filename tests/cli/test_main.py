from click.testing import CliRunner

from scorer.cli.main import cli


def test_cli_help_lists_the_group():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "Truco scorekeeper" in result.output
