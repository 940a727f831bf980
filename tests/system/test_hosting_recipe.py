"""The "Hosting many tables" recipe (docs/hosting.md), run as written (issue 12): its ``truco serve``
line, on a throwaway PostgreSQL instead of the recipe's, and a stand-in for the https
proxy on 127.0.0.1 that sends what the recipe tells the proxy to send."""

from __future__ import annotations

import re
import shlex

from live_server import Client, Server
from nginx_proxy import PUSH_PUBLISHER, SHIPPED, free_port
from project_docs import section


def recipe_serve_lines() -> list[tuple[dict[str, str], list[str]]]:
    """``(environment, arguments)`` of each of the recipe's ``truco serve`` lines (started in the
    background: the ``&`` is the shell's)."""
    block = re.search(r"```sh\n(.*?)```", section("Hosting many tables"), re.S).group(1)
    out = []
    for line in (ln for ln in block.splitlines() if " truco serve " in ln):
        words = shlex.split(line.removesuffix(" &"))
        out.append((dict(w.split("=", 1) for w in words[: words.index("truco")]), words[words.index("serve") + 1:]))
    return out


def recipe_serve_line() -> tuple[dict[str, str], list[str]]:
    """``(environment, arguments)`` of the recipe's first ``truco serve`` line; the others
    differ from it by their port only (a line each in the nginx file's upstream)."""
    first, *others = recipe_serve_lines()
    for env, args in others:
        port = args.index("--port") + 1
        assert env == first[0] and args[:port] + args[port + 1:] == first[1][:port] + first[1][port + 1:]
        assert args[port] != first[1][port]
    return first


def test_the_recipe_serves_behind_its_proxy(pg_url):
    env, args = recipe_serve_line()
    assert set(env) == {"TRUCO_DB"} and env["TRUCO_DB"].startswith("postgresql://")
    public = args[args.index("--public-url") + 1]
    host = public.split("://", 1)[1].rstrip("/")
    # Same options, but our database and any free port (the Server helper gives its own
    # --host 127.0.0.1 --port 0 --db).
    options, words = [], iter(args)
    for word in words:
        if word in ("--host", "--port"):
            next(words)
        elif word == "--push-publish":  # nginx's publisher, as the shipped file has it; here nobody's
            assert next(words) == f"http://{PUSH_PUBLISHER}/pub/"
            assert f"    listen {PUSH_PUBLISHER};" in SHIPPED.read_text(encoding="utf-8")
            options += [word, f"http://127.0.0.1:{free_port()}/pub/"]
        else:
            options.append(word)
    assert "--workers" in options and "--proxy" in options
    assert options[options.index("--server") + 1] == "granian"  # the hosted server (issue 23)
    server = Server(pg_url, args=options)
    proxy = {"Host": host, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.20"}
    try:
        c = Client(server.port)
        status, match, headers = c.request("POST", "/api/matches", {"variant": "paulista"}, proxy)
        assert status == 201 and match["edit_url"].startswith(public.rstrip("/") + "/m/")
        assert headers["Strict-Transport-Security"]
        status, page, headers = c.request("GET", f"/m/{match['id']}/{match['edit_key']}", headers=proxy)
        assert status == 200 and "Secure" in headers["Set-Cookie"]
        assert f"/push/m/{match['id']}" in page  # the board holds its stream (push on)
        status, _body, _ = c.request("GET", "/", headers={**proxy, "Host": "elsewhere.example"})
        assert status == 400  # only the public host is answered
        c.close()
    finally:
        server.stop()


def test_truco_db_names_the_database(tmp_path, waitress_stub):
    from click.testing import CliRunner

    from scorer.cli.main import cli

    seen = waitress_stub
    db = tmp_path / "from-env.sqlite3"
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-qr", "--retention-days", "0"],
                                env={"TRUCO_DB": f"sqlite:///{db}"})
    assert result.exit_code == 0, result.output
    assert seen["app"].config["DATABASE"] == str(db) and db.exists()
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-qr", "--db", "mysql://u@h/d"])
    assert result.exit_code == 2 and "postgresql://USER@HOST:PORT/DB" in result.output
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-qr", "--lang", "en", "--db",
                                      "postgresql://nobody@127.0.0.1:1/x"])
    assert result.exit_code == 1 and "Cannot reach the database postgresql://nobody@127.0.0.1:1/x" in result.output
