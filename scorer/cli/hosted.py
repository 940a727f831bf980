"""``truco serve --server gunicorn``: the hosted recipe's server, gunicorn's ``gthread`` worker.

waitress (``truco serve``'s default, right for a laptop at the table) registers every open
connection again on each turn of its loop, so what one request costs grows with the phones
connected: an unchanged poll cost 0.75 ms of CPU with no other connection open and 5.1 ms
with 2,000 (issue 23). gunicorn's ``gthread`` worker waits on its connections with epoll
(``selectors``): an idle phone's connection costs nothing until it sends a request, so a
poll costs the same with 10 phones connected as with 2,000 (``python -m bench --only
phones``). It reads a request in a thread once the socket is readable, so run it behind a
proxy that buffers requests (nginx, the hosted recipe), not on the open Internet by itself.

The same app (:func:`scorer.web.create_app`), database, ``--public-url``, ``--proxy``,
``--workers`` and ``--threads`` as with waitress: ``--workers N`` is gunicorn's N worker
processes under its arbiter (which replaces a worker that dies), each with ``--threads``
threads; the first worker also prunes idle matches (``--retention-days``), as waitress's
worker 0 does. gunicorn believes ``X-Forwarded-Proto`` only from the ``--proxy`` addresses
(none by default, where gunicorn's own default would trust 127.0.0.1), and the app's
``ProxyFix`` reads ``X-Forwarded-For`` from them, so both trust the same peers.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

#: Seconds an idle keep-alive connection (a phone between two polls) stays open: as
#: waitress's ``channel_timeout``; gunicorn's default of 2 s would close it between polls.
KEEPALIVE_S = 120
#: Seconds a worker may go without reporting to the arbiter before it is replaced; and
#: seconds a stopping worker gets to finish the requests it has (Ctrl+C stops at once).
WORKER_TIMEOUT_S, GRACEFUL_TIMEOUT_S = 30, 10
#: gunicorn's exit status for a worker that could not start: its arbiter then stops altogether.
WORKER_BOOT_ERROR = 3


def gunicorn_options(host: str, port: int, workers: int, threads: int, connection_limit: int,
                     proxies: tuple[str, ...] | list[str]) -> dict:
    """gunicorn's settings for ``truco serve --server gunicorn`` (names as in its
    ``gunicorn.conf.py``): ``gthread`` workers on ``host:port``, ``connection_limit`` open
    connections per worker, keep-alive between polls, no access log (every edit key is in
    a URL path), ``forwarded_allow_ips`` the ``--proxy`` networks.

    :raise ValueError: a proxy that is not an address or network (``truco serve`` checks
        them first, in :func:`scorer.cli.serve.serve_config`).
    """
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return {
        "bind": [bind],
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "worker_connections": connection_limit,
        "keepalive": KEEPALIVE_S,
        "timeout": WORKER_TIMEOUT_S,
        "graceful_timeout": GRACEFUL_TIMEOUT_S,
        "backlog": 2048,
        "forwarded_allow_ips": ",".join(str(ipaddress.ip_network(p, strict=False)) for p in proxies),
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "truco-serve",
    }


def run(options: dict, app_config: dict, on_ready: Callable[[int], None],
        on_first_worker: Callable[[], None] | None = None) -> None:
    """Run gunicorn in this process (its arbiter) until SIGINT or SIGTERM.

    ``options``: :func:`gunicorn_options`; ``app_config``: what ``create_app`` takes, built in
    each worker after the fork (no pooled database connection crosses it); ``on_ready(port)``:
    called in the arbiter once the socket is bound (the port that ``--port 0`` got), before
    the workers start; ``on_first_worker()``: called in worker 0 (the first one started, and
    the one started in its place if it dies) once it is ready. With ``METRICS_PORT`` in
    ``app_config`` (``--metrics-port``), each worker serves its metrics on 127.0.0.1:PORT + its
    slot (:func:`scorer.cli.metrics_port.start_metrics`); a port that is taken stops the server
    with that message.
    """
    import sys

    import click
    from gunicorn.app.base import BaseApplication

    from scorer.app import store
    from scorer.cli.metrics_port import start_metrics

    def pre_fork(arbiter, worker) -> None:
        taken = {getattr(w, "truco_index", None) for w in arbiter.WORKERS.values()}
        worker.truco_index = next(i for i in range(len(taken) + 1) if i not in taken)
        store.dispose_all()  # the arbiter keeps no pooled connection a worker would share

    def post_worker_init(worker) -> None:
        index = getattr(worker, "truco_index", 0)
        try:
            start_metrics(worker.wsgi, index)  # --metrics-port: this worker's on PORT + its slot
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(WORKER_BOOT_ERROR)  # gunicorn's arbiter stops: the port is taken for good
        if index == 0 and on_first_worker is not None:
            on_first_worker()

    def when_ready(arbiter) -> None:
        on_ready(arbiter.LISTENERS[0].sock.getsockname()[1])

    class Hosted(BaseApplication):
        def load_config(self) -> None:
            for name, value in {**options, "pre_fork": pre_fork, "post_worker_init": post_worker_init,
                                "when_ready": when_ready}.items():
                self.cfg.set(name, value)

        def load(self):
            from scorer.web import create_app

            return create_app(app_config)

    store.dispose_all()
    Hosted().run()


def serve(host: str, port: int, workers: int, threads: int, config: dict, *, connection_limit: int,
          announce: Callable[[int], None], prune: Callable[[], None]) -> None:
    """``truco serve --server gunicorn``: once bound, ``announce(port)`` (``truco serve``
    prints the addresses and the QR code) and print the ``Listening on HOST:PORT`` line,
    then serve ``config``'s app (see :func:`run`; ``prune`` starts the daily pruning in
    the arbiter, ``connection_limit`` caps each worker's open connections). ``truco serve``
    passes its own helpers in, so this module never imports it back."""
    import click

    def ready(effective_port: int) -> None:
        announce(effective_port)
        click.echo(f"Listening on {host}:{effective_port} with {workers} gunicorn worker"
                   f"{'s' if workers > 1 else ''} (Ctrl+C to stop)", nl=True)

    options = gunicorn_options(host, port, workers, threads, connection_limit, config["PROXY_ADDRESSES"])
    run(options, config, ready, prune)
