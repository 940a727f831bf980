"""``truco serve``: run the phone scoreboard on waitress and show phones where to go.

The addresses come from listing this machine's network interfaces (``ifaddr``); no
packet is sent anywhere to find them. The first one is also printed as a QR code, so
the other phones at the table scan the screen to open the app.

The database is a SQLite file by default, or any URL :func:`scorer.app.store.database_url` takes
(``--db`` or ``TRUCO_DB``), PostgreSQL for several app servers. ``--workers N`` runs N waitress
processes on one listening socket (the kernel spreads connections among them); the parent migrates
the database once, starts them, and starts a new one when one dies. Several ``truco serve`` on
different ports (or machines) behind a proxy, on one PostgreSQL, work the same way: every process
reads the stored version on each request, so they all show one scoreboard.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
from urllib.parse import urlsplit

import click

from scorer.app import addresses, store
from scorer.cli import cli_lang
from scorer.cli.limit_store import rate_limit_storage_setting
from scorer.cli.metrics_port import start_metrics
from scorer.cli.waitress_runner import (CONNECTION_LIMIT, allow_open_files, run_workers,  # noqa: F401 - run_workers: tests
                                        serve_workers, waitress_channel, waitress_options)
from scorer.core.errors import N_

#: Default database file, in the directory ``truco serve`` is started from.
DEFAULT_DB = store.DEFAULT_DB
#: Seconds between two prunes of idle matches (``--retention-days``).
PRUNE_EVERY = 24 * 3600


def urls_for(host: str, port: int, public_url: str | None = None) -> list[str]:
    """The URLs to print: ``public_url`` if given, else one per reachable address.

    A wildcard ``host`` (0.0.0.0, ::, empty) lists the LAN addresses (or 127.0.0.1 when
    there is none); a specific host is the only address.
    """
    if public_url:
        return [public_url.rstrip("/")]
    if host in ("0.0.0.0", "::", ""):
        hosts = addresses.lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{'[' + h + ']' if ':' in h else h}:{port}" for h in hosts]


def database_setting(value: str) -> str:
    """``--db`` as the app's ``DATABASE``: a SQLite path made absolute, a URL as given.

    :raise click.BadParameter: not a path nor a supported URL.
    """
    try:
        url = store.database_url(value)
    except store.DatabaseURLError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    return store.sqlite_path(url) or value


def rate_limits(values: tuple[str, ...]) -> dict[str, str]:
    """``--rate-limit KIND=LIMIT`` options as a dict (``KIND=off`` turns one off).

    :raise click.BadParameter: an unknown kind or a limit Flask-Limiter cannot read.
    """
    from limits import parse_many

    from scorer.web.hosting.security import RATE_LIMITS

    out: dict[str, str] = {}
    for value in values:
        kind, _, limit = value.partition("=")
        if kind not in RATE_LIMITS or not limit:
            raise click.BadParameter(
                f"{value!r}: give KIND=LIMIT, KIND one of {', '.join(RATE_LIMITS)}, e.g. create=30/minute",
                param_hint="--rate-limit",
            )
        if limit == "off":
            out[kind] = ""
            continue
        try:
            parse_many(limit)
        except ValueError:
            raise click.BadParameter(f"{limit!r} is not a limit such as 30/minute or 10/second;300/hour",
                                     param_hint="--rate-limit") from None
        out[kind] = limit
    return out


def start_pruning(database: str, retention_days: int) -> None:
    """Delete tournaments (whole) and matches idle for ``retention_days`` now and once a
    day after (a daemon thread of this process; 0 turns it off)."""
    if retention_days <= 0:
        return
    stop = threading.Event()

    def prune_forever() -> None:
        while True:
            try:
                conn = store.connect(database)
                try:
                    store.prune_tournaments(conn, retention_days * 86400)
                    store.prune(conn, retention_days * 86400)
                finally:
                    conn.close()
            except store.DBAPIError:
                pass  # the database is away: next time
            if stop.wait(PRUNE_EVERY):
                return

    threading.Thread(target=prune_forever, name="truco-prune", daemon=True).start()


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--db", "db_path", default=DEFAULT_DB, show_default=True, envvar="TRUCO_DB",
              help="SQLite file (PATH or sqlite:///PATH; created if missing) or postgresql://USER@HOST:PORT/DB "
                   "(password from the URL, PGPASSWORD or ~/.pgpass). Also TRUCO_DB.")
@click.option("--public-url", default=None,
              help="Base URL phones should open (e.g. behind a proxy); used in links and QR codes. "
                   "https:// also makes cookies Secure, sends HSTS and accepts only its host name.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Worker threads per process (waitress, gunicorn or granian).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the port (use PostgreSQL, or SQLite on one machine).")
@click.option("--proxy", "proxies", multiple=True, metavar="ADDRESS",
              help="Address (or network) of a reverse proxy whose X-Forwarded-For/-Proto/-Host are believed; repeatable.")
@click.option("--rate-limit", "limits", multiple=True, metavar="KIND=LIMIT",
              help="Change a limit, e.g. create=30/minute, or KIND=off (a wrong KIND lists the kinds).")
@click.option("--rate-limit-storage", default="memory://", show_default=True,
              help="Where the limits count (memory:// is per process; redis://HOST:PORT or memcached://HOST:PORT "
                   "shares them between servers).")
@click.option("--secret-file", default=None, envvar="TRUCO_SECRET_FILE", metavar="PATH",
              help="Instance secret the tournaments' team and table keys come from (made, mode 0600, if missing; "
                   "default: beside the SQLite file, or ./truco.secret). TRUCO_SECRET gives it as text instead.")
@click.option("--retention-days", default=180, show_default=True, type=click.IntRange(0, 36500),
              help="Delete matches (whole Revanche series) idle this many days, at start and daily (0: keep all).")
@click.option("--metrics-port", type=click.IntRange(0, 65535), metavar="PORT",
              help="Prometheus metrics on 127.0.0.1:PORT only (with --workers N, worker i on PORT+i).")
@click.option("--no-qr", is_flag=True, help="Do not draw the QR code in the terminal.")
@click.option("--ghost-tap-ms", default=350, show_default=True, type=click.IntRange(0, 5000),
              help="A tap on a board shown less than this long ago counts as a double tap (0: off).")
@click.option("--lang", type=click.Choice(sorted(cli_lang.LOCALES)), default=None,
              callback=lambda _ctx, _param, value: cli_lang.resolve(value),
              help="Language of the messages (default: the locale's, else pt).")
@click.option("--server", "server_name", type=click.Choice(["waitress", "gunicorn", "granian"]), default="waitress",
              show_default=True,
              help="HTTP server: waitress (a laptop at the table), or for a hosted instance behind nginx (a poll "
                   "costs the same however many phones are connected) gunicorn's gthread workers or granian's "
                   "(HTTP in Rust: about a third less CPU per request).")
@click.option("--poll-shortcut/--no-poll-shortcut", default=None,
              help="Answer a phone's unchanged-board poll (204) before Flask: about 0.2 ms less CPU per "
                   "poll (scorer/web/hosting/poll_shortcut.py). Default: on with gunicorn and granian, off with waitress.")
@click.option("--no-offline-engine", is_flag=True,
              help="Phones never fetch the rules engine that lets them play on with no connection (docs/offline.md).")
@click.option("--push-publish", default=None, metavar="URL",
              help="nginx's push publisher (http://127.0.0.1:8001/pub/ in docs/hosting/nginx.conf): changes are pushed "
                   "to the phones, which then poll only every ten minutes (docs/hosting.md, \"Push\").")
@click.option("--push-ping-seconds", default=20, show_default=True, type=click.IntRange(1, 300),
              help="nginx's nchan_eventsource_ping_interval: a phone trusts its stream while it hears something "
                   "at least every 2.5 of them.")
def serve_command(
    host: str, port: int, db_path: str, public_url: str | None, threads: int, workers: int,
    proxies: tuple[str, ...], limits: tuple[str, ...], rate_limit_storage: str, secret_file: str | None,
    retention_days: int, no_qr: bool, ghost_tap_ms: int, lang: str, metrics_port: int | None = None,
    server_name: str = "waitress", poll_shortcut: bool | None = None, no_offline_engine: bool = False,
    push_publish: str | None = None, push_ping_seconds: int = 20,
) -> None:
    """Run the phone scoreboard (waitress) and print the address and a QR code to join.

    Its messages follow ``--lang``; the last line, ``Listening on HOST:PORT``, stays as it
    is in every language: tools read the port from it.
    """
    import waitress

    from scorer.web import create_app

    _ = cli_lang.translator(lang)
    database = database_setting(db_path)
    config = serve_config(host, database, public_url, ghost_tap_ms, proxies, limits, rate_limit_storage_setting(rate_limit_storage, _))
    config.update(secret_setting(database, secret_file))
    config["METRICS_PORT"] = metrics_port  # scorer.cli.metrics_port serves them, per process
    config["POLL_SHORTCUT"] = server_name != "waitress" if poll_shortcut is None else poll_shortcut
    config.update(OFFLINE_ENGINE=not no_offline_engine, THREADS=threads)  # THREADS: scorer/web/hosting/read_cache.py
    config.update(push_setting(push_publish, push_ping_seconds))
    init_database(database, _)
    check_port(host, port, _)
    allow_open_files()  # workers inherit it
    if server_name != "waitress":  # the hosted recipe's servers (scorer/cli/hosted.py, granian_server.py)
        serve_hosted(server_name, host, port, workers, threads, config, public_url, no_qr, retention_days, _)
        return
    options = waitress_options(threads, bool(proxies))
    sock = server = None
    if workers == 1:
        server = waitress.create_server(start_metrics(create_app(config)), host=host, port=port, **options)
        if hasattr(server, "channel_class"):
            server.channel_class = waitress_channel()
        effective_port = server.effective_port
    else:
        sock = socket.create_server((host, port), backlog=2048)
        effective_port = sock.getsockname()[1]
    print_addresses(host, effective_port, public_url, database, no_qr, _)
    if sock is not None:
        serve_workers(workers, sock, config, options, lambda: start_pruning(database, retention_days),
                      f"{host}:{effective_port}")
        return
    assert server is not None  # one worker: waitress's own server, made above
    start_pruning(database, retention_days)
    click.echo(f"Listening on {host}:{effective_port} (Ctrl+C to stop)", nl=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def serve_hosted(server_name: str, host: str, port: int, workers: int, threads: int, config: dict,
                 public_url: str | None, no_qr: bool, retention_days: int, _) -> None:
    """``truco serve --server gunicorn|granian``: :func:`scorer.cli.hosted.serve` or
    :func:`scorer.cli.granian_server.serve` with this module's addresses, QR code and pruning
    (passed in: neither imports this module)."""
    from scorer.cli import granian_server, hosted

    chosen = granian_server if server_name == "granian" else hosted
    chosen.serve(host, port, workers, threads, config, connection_limit=CONNECTION_LIMIT,
                 announce=lambda bound: print_addresses(host, bound, public_url, config["DATABASE"], no_qr, _),
                 prune=lambda: start_pruning(config["DATABASE"], retention_days))


def serve_config(
    host: str, database: str, public_url: str | None, ghost_tap_ms: int, proxies: tuple[str, ...],
    limits: tuple[str, ...], rate_limit_storage: str,
) -> dict:
    """The app's settings for ``truco serve`` (see :func:`scorer.web.create_app`).

    :raise click.BadParameter: a ``--proxy`` that is not an address or network.
    """
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise click.BadParameter(f"{proxy!r} is not an address or network", param_hint="--proxy") from None
    config = {
        "DATABASE": database,
        "PUBLIC_URL": public_url,
        "GHOST_TAP_SECONDS": ghost_tap_ms / 1000,
        # Share links may name a LAN address only where the server listens on every interface.
        "SHARE_LAN": host in ("0.0.0.0", "::", ""),
        "RATE_LIMITS": rate_limits(limits),
        "RATELIMIT_STORAGE_URI": rate_limit_storage,
        "PROXY_ADDRESSES": list(proxies),
        "DATABASE_INIT": False,  # init_database() does it once, before any worker starts
    }
    hostname = urlsplit(public_url).hostname if public_url else None
    if hostname:
        config["TRUSTED_HOSTS"] = [hostname]
    return config


def push_setting(publish: str | None, ping_seconds: int) -> dict:
    """The app's push settings (:mod:`scorer.web.hosting.push`): nginx's publisher and its ping.

    :raise click.BadParameter: the publisher is not an ``http://`` address.
    """
    if publish and not publish.startswith("http://"):
        raise click.BadParameter(f"{publish!r} is not an http:// address", param_hint="--push-publish")
    return {"PUSH_PUBLISH_URL": publish, "PUSH_PING_SECONDS": ping_seconds}


def secret_setting(database: str, secret_file: str | None) -> dict:
    """The app's instance-secret settings: ``TRUCO_SECRET`` as text, else the file (made
    now, once, before any worker starts; see :mod:`scorer.app.tournament_keys`).

    :raise click.BadParameter: the secret is too short or its file unreadable.
    """
    from scorer.app import tournament_keys

    text = os.environ.get("TRUCO_SECRET") or None
    path = os.path.abspath(secret_file) if secret_file else str(tournament_keys.secret_file_for(database))
    try:
        tournament_keys.instance_secret(database, path=path, text=text)
    except tournament_keys.SecretError as e:
        raise click.BadParameter(e.reason, param_hint="--secret-file or TRUCO_SECRET") from None
    return {"INSTANCE_SECRET": text, "INSTANCE_SECRET_FILE": path}


def init_database(database: str, _) -> None:
    """Create or upgrade the tables once, with a clear message if the database is away.

    :raise click.ClickException: the database cannot be reached.
    """
    try:
        conn = store.connect(database)
        try:
            store.init_db(conn)
        finally:
            conn.close()
    except store.UNAVAILABLE as error:
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0] if str(error).strip() else ""
        raise click.ClickException(
            _(N_("Cannot reach the database {database}: {reason}")).format(
                database=store.describe(store.database_url(database)), reason=reason)
        ) from None


def check_port(host: str, port: int, _) -> None:
    """Try the address first: waitress leaves its socket open when binding fails.

    :raise click.ClickException: the address is taken or cannot be used.
    """
    if not port:
        return
    try:
        socket.create_server((host, port)).close()
    except OSError as error:
        raise click.ClickException(
            _(N_("Cannot listen on {host}:{port} ({reason}). Is another truco serve running? "
                 "Stop it or choose another --port.")).format(host=host, port=port, reason=error.strerror)
        ) from None


def print_addresses(host: str, port: int, public_url: str | None, database: str, no_qr: bool, _) -> None:
    """Print the database, the addresses to open on the phones and the first one's QR code."""
    from scorer.web.qr import terminal

    urls = urls_for(host, port, public_url)
    click.echo(_(N_("Database: {path}")).format(path=store.describe(store.database_url(database))))
    click.echo(_(N_("Open on the phones at the table:")))
    for url in urls:
        click.echo(f"  {url}/")
    if not no_qr:
        try:
            click.echo(terminal(urls[0] + "/"))
        except UnicodeEncodeError:
            click.echo(_(N_("(this terminal cannot draw the QR code)")))
