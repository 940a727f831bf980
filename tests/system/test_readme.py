"""README and docs/ are the contract with users: the commands they show must work as written.
The install and test commands live in README.md itself; the command-line examples and the
variants table are found by their headings (tests/project_docs.py) wherever they live."""

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from project_docs import README, section
from scorer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


TRUCO = ".venv/bin/truco"


def command_line_lines() -> list[tuple[str, str]]:
    """``(command, comment)`` for every command of the documented command-line block."""
    block = re.search(r"```sh\n(.*?)```", section("Command line"), re.S).group(1)
    out = []
    for line in block.splitlines():
        command, _, comment = line.partition("  #")
        out.append((command.strip(), comment.strip()))
    return [(c, note) for c, note in out if c]


def command_line_examples() -> list[str]:
    return [command for command, _ in command_line_lines()]


def test_readme_has_command_line_examples():
    assert {line.split()[1] for line in command_line_examples()} >= {"replay", "envido", "manilha", "compare"}


def test_readme_commands_name_the_installed_command():
    """Issue 13 item 11: after the README's install, `truco` lives in .venv/bin/ (not on PATH)."""
    assert all(line.startswith(TRUCO + " ") for line in command_line_examples())


@pytest.mark.parametrize("line", command_line_examples())
def test_readme_command_runs(line, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


@pytest.mark.parametrize(("line", "comment"), command_line_lines())
def test_readme_command_runs_as_written(line, comment):
    """Each command as written, from the checkout, with the venv's own ``truco`` script (the
    venv running these tests stands for the README's fresh ``.venv``); where the README shows
    the output in a comment, the output says it."""
    script = Path(sys.executable).parent / "truco"
    assert script.exists(), script
    argv = [str(script), *shlex.split(line)[1:]]
    env = {**os.environ, "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8", "LANGUAGE": ""}
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    if comment.startswith("Envido:"):
        assert result.stdout.strip() == comment


def test_readme_test_command_is_what_ci_runs():
    """README's test command and .ci/run make the same venv, install the same extra, run pytest."""
    block = section("Run the tests", [README])
    command = re.search(r"```sh\n(.*?)\n```", block, re.S).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for step in ("python3 -m venv .venv", "install -e '.[test]'", ".venv/bin/python -m pytest"):
        assert step in command, step
        assert step in ci, step


# -- issue 13 item 11: the README's commands, as written, in a fresh venv --------------------

IGNORED = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.pyc", ".pytest_cache", "*.egg-info",
                                 "truco.sqlite3*", "test-results", ".hypothesis", "build", "dist")


def install_command() -> str:
    block = section("Install and run", [README])
    return re.search(r"```sh\n(.*?)\n```", block, re.S).group(1).strip()


@pytest.fixture(scope="module")
def fresh_checkout(tmp_path_factory):
    """A copy of the checkout with the README's install command run in it (a new .venv)."""
    root = tmp_path_factory.mktemp("fresh") / "truco-scorer"
    shutil.copytree(ROOT, root, ignore=IGNORED)
    command = install_command()
    install, serve = command.rsplit(" && ", 1)
    assert serve == f"{TRUCO} serve"
    done = subprocess.run(install, shell=True, cwd=root, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_install_command_gives_a_server_that_answers(fresh_checkout):
    """The install line as written, then its `.venv/bin/truco serve` (on a free loopback port
    instead of 8000, which another program may hold) answers, and its database is ignored by git."""
    port = free_port()
    server = subprocess.Popen([str(fresh_checkout / TRUCO), "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr"],
                              cwd=fresh_checkout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert server.poll() is None, "truco serve stopped"
                assert time.monotonic() < deadline, "truco serve did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (fresh_checkout / "truco.sqlite3").exists()
    ignored = (ROOT / ".gitignore").read_text().split()
    assert {"truco.sqlite3", "truco.sqlite3-wal", "truco.sqlite3-shm"} <= set(ignored)


@pytest.mark.parametrize(("line", "comment"), command_line_lines())
def test_readme_command_runs_as_written_in_a_fresh_venv(fresh_checkout, line, comment):
    env = {**os.environ, "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8", "LANGUAGE": ""}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(line, shell=True, cwd=fresh_checkout, capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    if comment.startswith("Envido:"):
        assert result.stdout.strip() == comment


def test_the_variants_table_lists_every_registered_variant():
    """The README's Variants table has one row per variant of the registry, in its order
    (issue 20: a new variant adds its row)."""
    from scorer.core.variants import VARIANTS

    table = section("Variants", [README])
    assert re.findall(r"^\| `([^`]+)` \|", table, flags=re.MULTILINE) == list(VARIANTS)
