"""Running it as a service (issue 23 item 8): ``GET /healthz`` for the proxy and the
service manager, metrics in Prometheus's text format for the operator, and logs that never
hold a key.

- ``/healthz``: 200 ``{"status": "ok"}`` when the database answers one ``SELECT 1``, 503
  ``{"status": "unavailable"}`` when not. No key, no rate limit, no cookie; nothing else read.
- Metrics (``prometheus-client``, one registry per app, :func:`registry`): requests by
  route (the URL rule, ``/m/<match_id>/<key>``, never the path, which holds the key),
  method and status; a latency histogram by route; 429s by route; database errors (the
  503s of :mod:`scorer.web.db`); at each scrape, the live tables (matches with an action
  in the last :data:`LIVE_SECONDS`) and the match cache's size. The app never serves them:
  ``truco serve --metrics-port N`` serves them on 127.0.0.1 only (:func:`serve_metrics`).
- Logs: Flask's "Exception on PATH" line names the URL rule instead of the path, and a
  filter on the app's and waitress's loggers blanks every key in a path a message quotes
  (:func:`redact`).
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from flask import Blueprint, Flask, current_app, g, jsonify, request
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily

from scorer.app import health

bp = Blueprint("ops", __name__)

#: A table is live while its last action is at most this many seconds old (the metric's window).
LIVE_SECONDS = 600
#: Latency buckets, in seconds: a poll takes about a millisecond, a write a few.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
#: The key segment of every page path that carries one: ``/m/<id>/<key>``, ``/t/<id>/<key>``,
#: ``/t/<id>/team/<n>/<key>``; the key is replaced by ``<key>`` in logs.
KEY_IN_PATH = re.compile(r"(/(?:m|t)/[\w-]+/(?:team/\d+/)?)(?!team/)[\w-]{16,}")


@bp.get("/healthz")
def healthz():
    """200 when the database answers, 503 when it does not (for the proxy and the service manager)."""
    if not health.database_answers(current_app.config["DATABASE_URL"]):
        count_database_error()
        response = jsonify(status="unavailable")
        response.status_code = 503
    else:
        response = jsonify(status="ok")
    response.headers["Cache-Control"] = "no-store"
    return response


class Metrics:
    """The app's metrics (one :class:`CollectorRegistry` each, so apps in one process,
    as in the tests, never share counts)."""

    def __init__(self, app: Flask) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("truco_requests", "Requests answered, by route (URL rule), method and status",
                                ["route", "method", "status"], registry=self.registry)
        self.latency = Histogram("truco_request_seconds", "Time to answer a request, by route",
                                 ["route"], buckets=BUCKETS, registry=self.registry)
        self.limited = Counter("truco_rate_limited", "Requests refused with 429, by route", ["route"],
                               registry=self.registry)
        self.database_errors = Counter("truco_database_errors", "Requests the database's absence answered with 503",
                                       registry=self.registry)
        self.registry.register(_Gauges(app))


class _Gauges:
    """What is read at each scrape: live tables (one ``COUNT`` on the database) and the
    match cache's size."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self):
        service = self.app.extensions["truco_matches"]
        yield GaugeMetricFamily("truco_match_cache_matches", "Replayed matches kept in this process's cache",
                                value=len(service._cache))
        yield GaugeMetricFamily("truco_match_cache_actions", "Actions the cached matches hold together",
                                value=service.cached_actions)
        live = health.live_tables(self.app.config["DATABASE_URL"], LIVE_SECONDS)
        yield GaugeMetricFamily("truco_database_up", "1 when the database answered this scrape",
                                value=int(live is not None))
        if live is not None:
            yield GaugeMetricFamily("truco_live_tables", f"Matches with an action in the last {LIVE_SECONDS} s",
                                    value=live)


def registry(app: Flask) -> CollectorRegistry:
    """The app's metrics registry (what ``--metrics-port`` serves)."""
    return app.extensions["truco_metrics"].registry


def route() -> str:
    """The request's URL rule (``/m/<match_id>/<key>``), never its path; ``unmatched`` for a 404."""
    return request.url_rule.rule if request.url_rule is not None else "unmatched"


def count_database_error() -> None:
    """Count one request the database's absence answered (503)."""
    metrics = current_app.extensions.get("truco_metrics")
    if metrics is not None:
        metrics.database_errors.inc()


def _start() -> None:
    g.ops_started = time.perf_counter()


def _count(response):
    metrics = current_app.extensions["truco_metrics"]
    rule = route()
    metrics.requests.labels(rule, request.method, str(response.status_code)).inc()
    started = g.get("ops_started")
    if started is not None:
        metrics.latency.labels(rule).observe(time.perf_counter() - started)
    if response.status_code == 429:
        metrics.limited.labels(rule).inc()
    return response


def redact(text: str) -> str:
    """``text`` with every key in a match's or tournament's path replaced by ``<key>``."""
    return KEY_IN_PATH.sub(r"\1<key>", text)


class RedactKeys(logging.Filter):
    """Blanks the keys in a log record's message (its arguments formatted in first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def _log_exception(app: Flask):
    def log_exception(exc_info: Any) -> None:
        """Flask's own, with the URL rule where Flask puts the path (which holds the key)."""
        app.logger.error("Exception on %s [%s]", route(), request.method, exc_info=exc_info)

    return log_exception


def init_app(app: Flask) -> None:
    """Register ``/healthz``, the request metrics and the log filters."""
    app.register_blueprint(bp)
    app.extensions["truco_metrics"] = Metrics(app)
    app.before_request(_start)
    app.after_request(_count)
    app.log_exception = _log_exception(app)  # type: ignore[method-assign]  # replaced on this app only: the rule logged, not the path (it holds the key)
    keys_out = RedactKeys()
    for logger in (app.logger, logging.getLogger("waitress"), logging.getLogger("scorer")):
        if not any(isinstance(f, RedactKeys) for f in logger.filters):
            logger.addFilter(keys_out)


def serve_metrics(app: Flask, port: int) -> int:
    """Serve the app's metrics on 127.0.0.1:``port`` only (0: a free port), in a daemon
    thread; the port it listens on.

    :raise OSError: the port is taken.
    """
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr="127.0.0.1", registry=registry(app))
    return server.server_address[1]
