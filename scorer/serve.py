"""``truco serve``: run the phone scoreboard on waitress and show phones where to go.

The addresses come from listing this machine's network interfaces (``ifaddr``); no
packet is sent anywhere to find them. The first one is also printed as a QR code, so
the other phones at the table scan the screen to open the app.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import click

from scorer import cli_lang
from scorer.errors import N_

#: Default database file, in the directory ``truco serve`` is started from.
DEFAULT_DB = "truco.sqlite3"
#: Open connections waitress accepts at once (four phones per table, hundreds of tables).
CONNECTION_LIMIT = 4096


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones could reach (no loopback, no link-local),
    from the interface list; private (LAN) addresses first."""
    import ifaddr

    found: list[ipaddress.IPv4Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 entries are tuples
            try:
                addr = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if addr.is_loopback or addr.is_link_local or addr.is_unspecified or addr in found:
                continue
            found.append(addr)
    return [str(a) for a in sorted(found, key=lambda a: (not a.is_private, a))]


def urls_for(host: str, port: int, public_url: str | None = None) -> list[str]:
    """The URLs to print: ``public_url`` if given, else one per reachable address.

    A wildcard ``host`` (0.0.0.0, ::, empty) lists the LAN addresses (or 127.0.0.1 when
    there is none); a specific host is the only address.
    """
    if public_url:
        return [public_url.rstrip("/")]
    if host in ("0.0.0.0", "::", ""):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{'[' + h + ']' if ':' in h else h}:{port}" for h in hosts]


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--db", "db_path", default=DEFAULT_DB, show_default=True,
              type=click.Path(dir_okay=False), help="SQLite file; created if missing.")
@click.option("--public-url", default=None,
              help="Base URL phones should open (e.g. behind a proxy); used in links and QR codes.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Waitress worker threads.")
@click.option("--no-qr", is_flag=True, help="Do not draw the QR code in the terminal.")
@click.option("--ghost-tap-ms", default=350, show_default=True, type=click.IntRange(0, 5000),
              help="A tap on a board shown less than this long ago counts as a double tap (0: off).")
@click.option("--lang", type=click.Choice(sorted(cli_lang.LOCALES)), default=None,
              callback=lambda _ctx, _param, value: cli_lang.resolve(value),
              help="Language of the messages (default: the locale's, else pt).")
def serve_command(
    host: str, port: int, db_path: str, public_url: str | None, threads: int, no_qr: bool, ghost_tap_ms: int,
    lang: str,
) -> None:
    """Run the phone scoreboard (waitress) and print the address and a QR code to join.

    Its messages follow ``--lang``; the last line, ``Listening on HOST:PORT``, stays as it
    is in every language: tools read the port from it.
    """
    import waitress

    _ = cli_lang.translator(lang)

    from scorer.web import create_app
    from scorer.web.qr import terminal

    db = Path(db_path).expanduser().resolve()
    # Share links may name a LAN address only where the server listens on every interface.
    app = create_app({"DATABASE": str(db), "PUBLIC_URL": public_url, "GHOST_TAP_SECONDS": ghost_tap_ms / 1000,
                      "SHARE_LAN": host in ("0.0.0.0", "::", "")})
    if port:
        # Try the address first: waitress leaves its socket open when binding fails.
        try:
            socket.create_server((host, port)).close()
        except OSError as error:
            raise click.ClickException(
                _(N_("Cannot listen on {host}:{port} ({reason}). Is another truco serve running? "
                     "Stop it or choose another --port.")).format(host=host, port=port, reason=error.strerror)
            ) from None
    # A tournament keeps hundreds of phones connected (waitress's default limit is 100
    # connections); past 1,024 descriptors select() fails, so waitress must use poll().
    server = waitress.create_server(
        app, host=host, port=port, threads=threads,
        connection_limit=CONNECTION_LIMIT, asyncore_use_poll=True,
        ident="",  # no "Server: waitress" on every response: bytes a phone has no use for
    )
    if hasattr(server, "channel_class"):
        server.channel_class = json_error_channel()
    urls = urls_for(host, server.effective_port, public_url)
    click.echo(_(N_("Database: {path}")).format(path=db))
    click.echo(_(N_("Open on the phones at the table:")))
    for url in urls:
        click.echo(f"  {url}/")
    if not no_qr:
        try:
            click.echo(terminal(urls[0] + "/"))
        except UnicodeEncodeError:
            click.echo(_(N_("(this terminal cannot draw the QR code)")))
    click.echo(f"Listening on {host}:{server.effective_port} (Ctrl+C to stop)", nl=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def json_error_channel():
    """waitress's connection class, answering the errors waitress raises itself (431 for
    headers over its limit, 400 for a request it cannot parse...) as the app's JSON error
    ``{"error": {"code", "message", "allowed"}}`` instead of plain text (issue 13 item 10):
    the request was refused before the app could read its path or language, so the
    message is the English reason waitress gives."""
    import json

    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask

    class JSONErrorTask(ErrorTask):
        def execute(self):
            error = self.request.error
            code = error.code
            body = json.dumps(
                {"error": {"code": "too_large" if code in (413, 431) else "bad_request",
                           "message": f"{error.reason}: {error.body}.", "allowed": []}}
            ).encode()
            self.status = f"{code} {error.reason}"
            self.response_headers.extend([("Content-Type", "application/json"), ("Connection", "close")])
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class JSONErrorChannel(HTTPChannel):
        error_task_class = JSONErrorTask

    return JSONErrorChannel
