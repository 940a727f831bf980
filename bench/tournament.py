"""Tournament figures (issue 11): a 64-team knockout created and played to the end
through the JSON API against one ``truco serve`` on 127.0.0.1, in one run.

- **Advancing match**: each of the 63 matches is finished by its table's manual
  correction (``adjust`` +15 in the default variant, a game to 15) through ``POST /api/matches/<id>/actions``;
  that request also records the result, moves the winner on and creates the next match.
  Its time is compared with the same correction on a lone match (no tournament).
- **TV page**: size of ``/tv/<id>`` with 32 live tables (round 1, every table with a
  score), plain and Brotli-compressed.
- **TV poll with 32 live tables** against a single scoreboard poll: unchanged (204) and
  changed (200 with the fragment; with 32 tables scoring, most TV polls see a change).
  Target: a TV poll costs no more than 3x a scoreboard poll. Each figure is the median of
  sequential requests over one keep-alive connection (the server on its own core);
  server CPU per request from /proc as a second view.

``python -m bench.tournament`` prints the figures (JSON on the last line); ``python -m
bench --only tournament`` does the same.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from bench import server
from bench.client import Client
from bench.states import SHORT_MATCH

TEAMS = 64
POLLS = 300


def _json(client: Client, method: str, path: str, body: Any = None, headers: dict | None = None) -> tuple[int, Any, float]:
    data = None if body is None else json.dumps(body).encode()
    h = {"Content-Type": "application/json", **(headers or {})}
    status, raw, secs = client.request(method, path, data, h)
    return status, json.loads(raw) if raw[:1] in (b"{", b"[") else raw, secs


def _matches(state: dict) -> list[dict]:
    out = []
    for stage in [{"rounds": state["rounds"]}] + state["stages"]:
        for rnd in stage["rounds"]:
            out += rnd["matches"]
    return out


def _edit(m: dict) -> tuple[str, str]:
    path = m["edit_url"].split("://", 1)[1].split("/", 1)[1]
    _m, match_id, key = path.split("/")
    return match_id, key


def _act(client: Client, match_id: str, key: str, action: dict) -> float:
    status, state, _ = _json(client, "GET", f"/api/matches/{match_id}")
    status, body, secs = _json(client, "POST", f"/api/matches/{match_id}/actions",
                               {"action": action, "version": state["version"]}, {"X-Edit-Key": key})
    if status != 200:
        raise RuntimeError(f"action answered {status}: {body!r:.300}")
    return secs


def _timed(client: Client, path: str, n: int, headers: dict | None = None, pid: int | None = None) -> dict:
    times, statuses = [], set()
    cpu0 = server.cpu_seconds(pid) if pid else 0.0
    for _ in range(n):
        status, _raw, secs = client.request("GET", path, None, headers or {})
        statuses.add(status)
        times.append(secs)
    cpu = (server.cpu_seconds(pid) - cpu0) / n if pid else None
    return {"median_ms": statistics.median(times) * 1000, "p95_ms": sorted(times)[int(0.95 * (n - 1))] * 1000,
            "cpu_ms": None if cpu is None else cpu * 1000, "statuses": sorted(statuses)}


def play_to_the_champion(client: Client, tid: str, org: dict[str, str]) -> tuple[list[float], list[float]]:
    """Every ready match of tournament ``tid`` finished by its table's correction, round after
    round, to the champion; then, for reference, the same finishing correction on 20 lone
    matches. The seconds of each: ``(advancing, lone)``."""
    advancing: list[float] = []
    while True:
        state = _json(client, "GET", f"/api/tournaments/{tid}", headers=org)[1]
        ready = [m for m in _matches(state) if m["status"] == "ready"]
        if not ready:
            break
        for m in ready:
            advancing.append(_act(client, *_edit(m), {"type": "adjust", "side": 0, "delta": 15}))
    assert state["champion"] == 0, state["champion"]
    lone_finish = []
    for _ in range(20):
        _s, other, _ = _json(client, "POST", "/api/matches", {"variant": SHORT_MATCH, "names": ["A", "B"], "mano": 0})
        lone_finish.append(_act(client, other["id"], other["edit_key"], {"type": "adjust", "side": 0, "delta": 15}))
    return advancing, lone_finish


def run(base: str, pid: int | None = None) -> dict[str, Any]:
    """The figures against a running server at ``base`` (``pid``: its process, for CPU)."""
    client = Client(base)
    teams = [f"Dupla {i + 1:02d}" for i in range(TEAMS)]
    t0 = time.perf_counter()
    status, created, _ = _json(client, "POST", "/api/tournaments",
                               {"name": "Bench", "variant": SHORT_MATCH, "teams": teams, "format": "knockout"})
    create_s = time.perf_counter() - t0
    assert status == 201, created
    tid, okey = created["id"], created["organizer_key"]
    org = {"X-Organizer-Key": okey}

    # 32 live tables: each scores a point, so the TV shows 32 running scores.
    state = _json(client, "GET", f"/api/tournaments/{tid}", headers=org)[1]
    first = [m for m in _matches(state) if m["status"] == "ready"]
    assert len(first) == 32, len(first)
    for m in first:
        _act(client, *_edit(m), {"type": "adjust", "side": 1, "delta": 1})

    # A lone match (no tournament) as the reference scoreboard.
    status, lone, _ = _json(client, "POST", "/api/matches", {"variant": SHORT_MATCH, "names": ["A", "B"], "mano": 0})
    lone_board = f"/m/{lone['id']}/{lone['edit_key']}/board"
    _act(client, lone["id"], lone["edit_key"], {"type": "adjust", "side": 0, "delta": 1})
    status, page, _ = client.request("GET", f"/tv/{tid}")
    stamp = page.split(b'data-stamp="', 1)[1].split(b'"', 1)[0].decode()
    br = client.request("GET", f"/tv/{tid}", None, {"Accept-Encoding": "br"})[1]
    hx = {"HX-Request": "true"}
    polls = {
        "scoreboard_204": _timed(client, f"{lone_board}?version=1&rematch=0", POLLS, hx, pid),
        "tv_204": _timed(client, f"/tv/{tid}/live?stamp={stamp}", POLLS, hx, pid),
        "scoreboard_200": _timed(client, f"{lone_board}?version=0&rematch=0", POLLS, hx, pid),
        "tv_200": _timed(client, f"/tv/{tid}/live?stamp=old", POLLS, hx, pid),
    }
    fragment = client.request("GET", f"/tv/{tid}/live?stamp=old", None, hx)[1]

    advancing, lone_finish = play_to_the_champion(client, tid, org)
    client.close()
    adv = sorted(advancing)
    ratio_204 = polls["tv_204"]["median_ms"] / polls["scoreboard_204"]["median_ms"]
    ratio_200 = polls["tv_200"]["median_ms"] / polls["scoreboard_200"]["median_ms"]
    return {
        "teams": TEAMS,
        "create_s": round(create_s, 3),
        "matches_played": len(advancing),
        "advancing_match_ms": {"median": round(statistics.median(adv) * 1000, 2),
                               "p95": round(adv[int(0.95 * (len(adv) - 1))] * 1000, 2),
                               "max": round(adv[-1] * 1000, 2)},
        "lone_match_finish_ms": round(statistics.median(lone_finish) * 1000, 2),
        "tv_page_bytes": len(page), "tv_page_br_bytes": len(br), "tv_fragment_bytes": len(fragment),
        "polls": {k: {kk: (round(vv, 3) if isinstance(vv, float) else vv) for kk, vv in v.items()}
                  for k, v in polls.items()},
        "tv_vs_scoreboard_204": round(ratio_204, 2),
        "tv_vs_scoreboard_200": round(ratio_200, 2),
        "target": "TV poll <= 3x a scoreboard poll",
        "ok_204": ratio_204 <= 3, "ok_200": ratio_200 <= 3,
    }


def main() -> int:
    server_cores, client_cores = server.cores()
    import os

    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores)
    try:
        result = run(srv.base, srv.pid())
    finally:
        srv.stop()
    a = result["advancing_match_ms"]
    p = result["polls"]
    print(f"64-team knockout: created in {result['create_s']} s; {result['matches_played']} matches played")
    print(f"advancing match (finishing action): median {a['median']} ms, p95 {a['p95']} ms, max {a['max']} ms;"
          f" same action on a lone match {result['lone_match_finish_ms']} ms")
    print(f"TV page with 32 live tables: {result['tv_page_bytes']} bytes, {result['tv_page_br_bytes']} Brotli;"
          f" fragment {result['tv_fragment_bytes']} bytes")
    print(f"poll unchanged (204): TV {p['tv_204']['median_ms']} ms vs scoreboard {p['scoreboard_204']['median_ms']} ms"
          f" = {result['tv_vs_scoreboard_204']}x")
    print(f"poll changed (200):   TV {p['tv_200']['median_ms']} ms vs scoreboard {p['scoreboard_200']['median_ms']} ms"
          f" = {result['tv_vs_scoreboard_200']}x  (target <= 3x)")
    print("BENCH_TOURNAMENT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
