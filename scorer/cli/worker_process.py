"""One forked worker of ``truco serve --workers N`` (:func:`scorer.cli.serve.run_workers`
forks them): default signals, dies with its parent, serves, and exits with a status the
parent reads (1 after an error, so it starts another)."""

from __future__ import annotations

import os
import signal


def _die_with_parent() -> None:
    """Ask Linux to send SIGTERM to this worker when its parent dies (even by kill -9)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_worker(serve_one, index: int) -> None:
    """In a forked child: default signals, die with the parent, ``serve_one(index)``, then
    exit (status 1 after printing the error, so the parent starts another)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _die_with_parent()
    code = 0
    try:
        serve_one(index)
    except KeyboardInterrupt:
        pass
    except BaseException:  # noqa: BLE001 (reported, then the parent starts another)
        import traceback

        traceback.print_exc()
        code = 1
    os._exit(code)
