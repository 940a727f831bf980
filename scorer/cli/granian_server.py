"""``truco serve --server granian``: the hosted recipe's server, granian's WSGI workers.

granian reads and writes HTTP in Rust (hyper, on tokio's epoll loop) and calls the app in a
pool of Python threads, so per request it does in compiled code what gunicorn's ``gthread``
worker does in Python: parsing the request, handing it from the loop to a thread and back,
writing the answer. Under the bench's table model (1,600 phones on keep-alive connections,
nine requests in ten an unchanged poll) the hosted worker spends about a third less CPU per
request on granian than on gunicorn (docs/hosting.md "Phones and tables per core"). An idle
phone's connection costs nothing until it sends a request, as on gunicorn.

The same app (:func:`scorer.web.create_app`), database, ``--public-url``, ``--proxy``,
``--workers``, ``--threads`` and ``--metrics-port`` as with the other servers: ``--workers N``
is granian's N worker processes (one that dies is started again), each calling the app from
``--threads`` threads. The app's own ``ProxyFix`` believes ``X-Forwarded-*`` from the
``--proxy`` addresses only (granian passes the headers through and reads none of them).
Each worker takes the lowest free slot number (0, 1...), which says its metrics port
(``--metrics-port`` + slot) and which worker prunes idle matches (``--retention-days``):
slot 0, as gunicorn's and waitress's worker 0. No access log (every edit key is in a URL
path). Run it behind a proxy (nginx, the hosted recipe), as gunicorn.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

#: Milliseconds a client gets to send a request's headers once it starts one.
HEADER_READ_TIMEOUT_MS = 30_000
#: Seconds the workers get to start answering before ``truco serve`` stops waiting to say so.
READY_TIMEOUT_S = 60.0


def granian_options(host: str, port: int, workers: int, threads: int, backlog: int = 2048) -> dict:
    """granian's settings for ``truco serve --server granian`` (``granian.Granian``'s
    keyword arguments): WSGI on ``host:port``, ``workers`` processes started again when one
    dies, ``threads`` app threads each, HTTP/1.1 keep-alive (a phone polls on one
    connection), no access log, no granian metrics (the app has its own)."""
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings

    return {
        "address": host,
        "port": port,
        "interface": Interfaces.WSGI,
        "workers": workers,
        "blocking_threads": threads,
        "backlog": backlog,
        "http": HTTPModes.http1,
        "http1_settings": HTTP1Settings(header_read_timeout=HEADER_READ_TIMEOUT_MS, keep_alive=True),
        "websockets": False,
        "log_access": False,
        "log_level": "error",  # not its warning that 8 threads outnumber 2 cores: the app waits on the database
        "respawn_failed_workers": True,
    }


class Slots:
    """Worker slot numbers shared by the processes forked after it is made: :meth:`take`
    gives a worker the lowest slot no living worker holds (a worker started in place of one
    that died takes its slot)."""

    def __init__(self, size: int) -> None:
        import multiprocessing

        self.pids = multiprocessing.get_context("fork").Array("q", size)

    def take(self, pid: int) -> int:
        """The slot of process ``pid`` (the caller), taken now."""
        with self.pids.get_lock():
            for index in range(len(self.pids)):
                holder = self.pids[index]
                if holder == 0 or not _alive(holder):
                    self.pids[index] = pid
                    return index
        raise RuntimeError("more granian workers than slots")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (Linux's /proc; elsewhere assumed so)."""
    return Path(f"/proc/{pid}").exists() if os.path.isdir("/proc") else True


def worker_app(config: dict, slots: Slots, prune: Callable[[], None]):
    """The loader each forked worker calls: its app (with its metrics port), pruning in
    slot 0's worker."""

    def load():
        from scorer.app import store
        from scorer.cli.metrics_port import start_metrics
        from scorer.web import create_app

        from scorer.cli.worker_process import _die_with_parent

        _die_with_parent()  # a main process killed outright (SIGKILL) leaves no worker behind
        store.dispose_all()  # nothing pooled crossed the fork; the arbiter keeps none
        slot = slots.take(os.getpid())
        app = start_metrics(create_app(config), slot)
        if slot == 0:
            prune()
        return app

    return load


def reserve_port(host: str, port: int) -> socket.socket | None:
    """For ``--port 0`` (any free port): a socket bound, not listening, to a free port of
    ``host`` with ``SO_REUSEPORT``, held while granian's workers bind the same port (each
    worker binds its own socket, with ``SO_REUSEPORT``) so no other program takes it in
    between; None for a given port."""
    if port:
        return None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, 0))
    return sock


def accepting(host: str, port: int, timeout: float = READY_TIMEOUT_S) -> bool:
    """Whether ``host:port`` accepts a connection within ``timeout`` seconds (tried every
    50 ms; a wildcard ``host`` is tried on loopback)."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((target, port), timeout=1.0).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def serve(host: str, port: int, workers: int, threads: int, config: dict, *, connection_limit: int,
          announce: Callable[[int], None], prune: Callable[[], None]) -> None:
    """``truco serve --server granian``: once bound, ``announce(port)`` and print the
    ``Listening on HOST:PORT`` line, then serve ``config``'s app until SIGINT or SIGTERM
    (``prune`` starts the daily pruning, in the worker of slot 0; ``connection_limit``
    caps the requests each worker handles at once, the rest wait)."""
    import click
    from granian.server import Server

    from scorer.app import store

    store.dispose_all()  # no pooled connection may cross the fork
    reserved = reserve_port(host, port)
    effective = reserved.getsockname()[1] if reserved else port
    # The target is only a label here: each worker loads the app through worker_app().
    server = Server("scorer.web:create_app", backpressure=connection_limit,
                    **granian_options(host, effective, workers, threads))

    def ready() -> None:
        if accepting(host, effective):
            click.echo(f"Listening on {host}:{effective} with {workers} granian worker"
                       f"{'s' if workers > 1 else ''} (Ctrl+C to stop)", nl=True)

    def started() -> None:
        announce(effective)
        # Each worker binds the port once it has started: the line is printed when one answers.
        # The workers are forked while this thread runs, so it imports nothing (a lock it held
        # at the fork would stay held in the worker): encodings.idna, what connecting to a
        # named host imports first, is imported now.
        import encodings.idna  # noqa: F401

        threading.Thread(target=ready, name="truco-ready", daemon=True).start()

    server.on_startup(started)

    try:
        server.serve(target_loader=worker_app(config, Slots(max(64, workers * 2)), prune), wrap_loader=False)
    finally:
        if reserved is not None:
            reserved.close()
