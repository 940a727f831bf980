"""README is the contract with users: the commands it shows must work as written."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def command_line_examples() -> list[str]:
    section = README.split("## Command line", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.startswith("truco ")]


def test_readme_has_command_line_examples():
    assert {line.split()[1] for line in command_line_examples()} >= {"replay", "envido", "manilha", "compare"}


@pytest.mark.parametrize("line", command_line_examples())
def test_readme_command_runs(line, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


def test_readme_test_command_is_what_ci_runs():
    """README's test command and .ci/run make the same venv, install the same extra, run pytest."""
    block = README.split("## Run the tests", 1)[1]
    command = re.search(r"```sh\n(.*?)\n```", block, re.S).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in ("python3 -m venv .venv", "install -e '.[test]'", ".venv/bin/python -m pytest"):
        assert step in command, step
        assert step in ci, step
