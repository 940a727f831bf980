"""``truco serve --metrics-port PORT``: the app's Prometheus metrics (:mod:`scorer.web.hosting.ops`)
on 127.0.0.1 only, never on the address the phones and the proxy use; with ``--workers N``,
worker ``i`` serves its own on ``PORT + i`` (0: each a free port, printed)."""

from __future__ import annotations

import click
from flask import Flask

from scorer.web.hosting import ops


def start_metrics(app: Flask, index: int = 0) -> Flask:
    """Serve ``app``'s metrics on 127.0.0.1:``METRICS_PORT + index`` (its config; None:
    not at all), print where, and return ``app``.

    :raise click.ClickException: the port is taken.
    """
    port = app.config.get("METRICS_PORT")
    if port is None:
        return app
    wanted = port + index if port else 0
    try:
        bound = ops.serve_metrics(app, wanted)
    except OSError as e:
        raise click.ClickException(f"--metrics-port: cannot listen on 127.0.0.1:{wanted}: {e.strerror}") from None
    click.echo(f"Metrics on http://127.0.0.1:{bound}/metrics")
    return app
