"""truco-scorer's benchmark: ``python -m bench`` (not part of the test suite).

Starts ``truco serve`` on 127.0.0.1 with a fresh database as a real subprocess, loads it
from 127.0.0.1 only (``wrk`` from Debian, and an asyncio client in its own process),
opens scoreboards in Debian's Chromium, times the pure engine, and prints a table of
targets beside measured values (also written to ``bench/results.json``). Each figure is
the median of several runs; the whole run stays under three minutes.

Modules: :mod:`bench.server` (start/stop the server, pin it to a core), :mod:`bench.wrk`
(install and run wrk with ``lua/paths.lua``), :mod:`bench.client` (HTTP helpers: the JSON
API and the htmx form posts), :mod:`bench.loadgen` (the asyncio phone simulator used for
capacity), :mod:`bench.browser` (page weight and tap to screen), :mod:`bench.engine`
(card parsing, Envido, replay) and :mod:`bench.report` (table and JSON).
"""
