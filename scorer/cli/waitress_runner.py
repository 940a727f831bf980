"""How ``truco serve`` runs waitress (the laptop's server): its connection class, its worker
processes for ``--workers N`` on one listening socket, and the open-files limit a room of
phones needs. :mod:`scorer.cli.serve` reads the settings and starts it."""

from __future__ import annotations

import os
import signal
import socket
import time

import click

from scorer.app import store
from scorer.cli.metrics_port import start_metrics
from scorer.cli.worker_process import run_worker

#: Bytes of a request body waitress accepts: the app's own cap (64 KiB), so a larger
#: declared body gets 413 at once instead of being read (and spooled) first.
MAX_BODY = 64 * 1024
#: A worker that stops within this many seconds of starting, QUICK_DEATHS times in a row,
#: stops ``truco serve --workers`` instead of being started again and again.
QUICK_DEATH_S, QUICK_DEATHS = 5.0, 5
#: Open connections waitress accepts at once (four phones per table, hundreds of tables).
CONNECTION_LIMIT = 4096


def waitress_options(threads: int, behind_proxy: bool) -> dict:
    """waitress's settings for ``truco serve``: ``threads`` app threads, a room's connections,
    no server name, the app's body cap; ``behind_proxy`` (``--proxy`` given) keeps the proxy's
    ``X-Forwarded-*`` headers for the app's ProxyFix, which believes them from those peers only."""
    # A tournament keeps hundreds of phones connected (waitress's default limit is 100
    # connections); past 1,024 descriptors select() fails, so waitress must use poll().
    options = dict(
        threads=threads, connection_limit=CONNECTION_LIMIT, asyncore_use_poll=True,
        ident="",  # no "Server: waitress" on every response: bytes a phone has no use for
        max_request_body_size=MAX_BODY,
    )
    if behind_proxy:
        options["clear_untrusted_proxy_headers"] = False
    return options


def allow_open_files(wanted: int = CONNECTION_LIMIT + 256) -> int:
    """Raise this process's soft limit of open files to ``wanted`` (at most the hard
    limit) and return the new soft limit. Every phone keeps its connection open between
    polls, one descriptor each, and the usual soft limit (1,024, as systemd gives a
    service) would refuse connections long before waitress's ``connection_limit``; the
    extra 256 are for the database, the log and the listening socket."""
    try:
        import resource
    except ImportError:  # not on this platform
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def run_workers(workers: int, sock: socket.socket, serve_one) -> None:
    """Fork ``workers`` processes that each call ``serve_one(index)`` on the inherited
    socket; start a new one when one dies; on SIGTERM or Ctrl+C stop them all."""
    children: dict[int, int] = {}
    started: dict[int, float] = {}
    quick_deaths = 0
    stopping = False

    def spawn(index: int) -> None:
        started[index] = time.monotonic()
        pid = os.fork()
        if pid == 0:
            run_worker(serve_one, index)
        children[pid] = index

    def stop(_signum, _frame) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for index in range(workers):
        spawn(index)
    while children:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            break
        index = children.pop(pid, -1)  # -1: not a worker of ours
        if index < 0 or stopping:
            continue
        # A worker that dies at once keeps dying (a broken setting): stop rather than loop.
        quick_deaths = quick_deaths + 1 if time.monotonic() - started[index] < QUICK_DEATH_S else 0
        if quick_deaths >= QUICK_DEATHS:
            stop(None, None)
            for other in list(children):
                try:
                    os.waitpid(other, 0)
                except ChildProcessError:
                    pass
            raise click.ClickException(f"{QUICK_DEATHS} workers in a row stopped right after starting; see above.")
        click.echo(f"Worker {index} (pid {pid}) stopped; starting another.")
        spawn(index)


def serve_workers(workers: int, sock: socket.socket, config: dict, options: dict, prune, address: str) -> None:
    """Run ``workers`` waitress processes on the listening ``sock`` (see :func:`run_workers`);
    the first calls ``prune()`` (the idle matches' pruning) once started."""
    import waitress

    from scorer.web import create_app

    store.dispose_all()  # no pooled connection may cross the fork

    def serve_one(index: int) -> None:
        app = start_metrics(create_app(config), index)
        if index == 0:
            prune()
        worker = waitress.create_server(app, sockets=[sock], **options)
        if hasattr(worker, "channel_class"):
            worker.channel_class = waitress_channel()
        try:
            worker.run()
        finally:
            worker.close()

    click.echo(f"Listening on {address} with {workers} workers (Ctrl+C to stop)", nl=True)
    try:
        run_workers(workers, sock, serve_one)
    finally:
        sock.close()


def waitress_channel():
    """waitress's connection class with two changes of its request handling:

    - the errors waitress raises itself (431 for headers over its limit, 400 for a request
      it cannot parse...) are answered as the app's JSON error ``{"error": {"code",
      "message", "allowed"}}`` instead of plain text (issue 13 item 10): the request was
      refused before the app could read its path or language, so the message is the
      English reason waitress gives;
    - a response that cannot have a body (204, 304, 1xx) keeps an HTTP/1.1 connection
      open. waitress 3.0 closes the connection after every response without a
      ``Content-Length``, and it leaves that header out of exactly these responses (RFC
      9110 section 8.6 forbids it on a 204), so every unchanged scoreboard poll (204)
      closed its connection and the phone's next poll, two seconds later, opened a new one:
      a TCP handshake, an accept and a new waitress channel per poll, and with ``--workers``
      every worker woken by each new connection. Their length is known without the
      header (RFC 9112 section 6.3: they end at the header's blank line), so the
      connection stays open, HTTP/1.1's default; a client that sends ``Connection:
      close`` still gets it closed.
    """
    import json

    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask, WSGITask

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

    class BodilessKeepAliveTask(WSGITask):
        _keep_bodiless = False

        def build_response_header(self):
            self._keep_bodiless = (
                self.version == "1.1" and not self.has_body and not self.close_on_finish
                and self.request.headers.get("CONNECTION", "").lower() != "close"
            )
            try:
                return super().build_response_header()
            finally:
                self._keep_bodiless = False

        def set_close_on_finish(self) -> None:
            if not self._keep_bodiless:  # only waitress's "no Content-Length" close is skipped
                super().set_close_on_finish()

    class Channel(HTTPChannel):
        error_task_class = JSONErrorTask
        task_class = BodilessKeepAliveTask

    return Channel
