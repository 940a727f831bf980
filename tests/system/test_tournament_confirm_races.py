"""Confirmations and corrections racing on a real ``truco serve`` (issue 19, item 4), on
SQLite and PostgreSQL.

With "a result counts once both teams confirm", both teams of both semi-finals post their
confirmation at the same instant (a barrier), with and without the organizer confirming
too: every confirmation that got a success answer is in the audit exactly once, every
refusal (409) wrote nothing, no answer is a 500, both results end confirmed and the final
starts. Two organizer corrections decided on the same state race too: one wins, the other
gets a 409 that says why, and the state is the winner's.
"""

from __future__ import annotations

import re
import threading
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from live_server import Server

RACES = 20
SEMIS = ("main:1:1", "main:1:2")


@pytest.fixture
def url(db_url):
    srv = Server(db_url, threads=8, ghost_tap_ms=0)
    yield srv.url
    srv.stop()


def backend(db_url):
    return "PostgreSQL" if str(db_url).startswith("postgresql") else "SQLite"


def all_at_once(posts):
    """Run each ``post()`` in its own thread, released together; their answers in order
    (an exception stands for a request that got no answer)."""
    barrier = threading.Barrier(len(posts))
    answers: list = [None] * len(posts)

    def run(i, post):
        with requests.Session() as s:
            barrier.wait(timeout=30)
            try:
                answers[i] = post(s)
            except requests.RequestException as e:  # reported by the caller's check
                answers[i] = e

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(posts)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return answers


def matches(state):
    return {m["slot"]: m for stage in [{"rounds": state["rounds"]}] + state["stages"]
            for r in stage["rounds"] for m in r["matches"]}


def new_tournament(url, s, **settings):
    t = s.post(f"{url}/api/tournaments", json={"variant": "truco-15", "teams": ["Ana", "Bia", "Caio", "Duda"],
                                               **settings}).json()
    t["org"] = {"X-Organizer-Key": t["organizer_key"]}
    t["api"] = f"{url}/api/tournaments/{t['id']}"
    return t


def play(url, s, t, slot, side=0):
    """The table of ``slot`` plays its game to the end (``side`` wins)."""
    m = matches(s.get(t["api"], headers=t["org"]).json())[slot]
    key = m["edit_url"].rsplit("/", 1)[1]
    version = s.get(f"{url}/api/matches/{m['id']}").json()["version"]
    r = s.post(f"{url}/api/matches/{m['id']}/actions", headers={"X-Edit-Key": key},
               json={"action": {"type": "adjust", "side": side, "delta": 15}, "version": version})
    assert r.status_code == 200, r.text


def team_links(url, s, t):
    page = s.get(f"{url}/t/{t['id']}/{t['organizer_key']}").text
    return dict(re.findall(rf"/t/{t['id']}/team/(\d+)/([A-Za-z0-9_-]+)", page))


def confirm_race(url, with_organizer):
    """One race; the list of what went wrong (empty: every answer truthful, nothing lost)."""
    wrong: list[str] = []
    with requests.Session() as s:
        t = new_tournament(url, s, confirm=True)
        for slot in SEMIS:
            play(url, s, t, slot)
        links = team_links(url, s, t)
        teams = {slot: m["teams"] for slot, m in matches(s.get(t["api"]).json()).items() if slot in SEMIS}
        names = s.get(t["api"]).json()["teams"]
        posts, who = [], []
        for slot in SEMIS:
            for team in teams[slot]:
                path = f"{url}/t/{t['id']}/team/{team}/{links[str(team)]}/confirm"
                posts.append(lambda c, p=path, sl=slot: c.post(p, data={"slot": sl}, allow_redirects=False))
                who.append((f"team {names[team]}", slot))
            if with_organizer:
                path = f"{url}/t/{t['id']}/{t['organizer_key']}/corrections"
                posts.append(lambda c, p=path, sl=slot: c.post(p, data={"kind": "confirm", "slot": sl, "side": "2"},
                                                               allow_redirects=False))
                who.append(("organizer", slot))
        answers = all_at_once(posts)
        audit = s.get(f"{t['api']}/export").json()["audit"]
        state = s.get(t["api"], headers=t["org"]).json()
    for (actor, slot), r in zip(who, answers):
        if not isinstance(r, requests.Response) or r.status_code not in (303, 409):
            wrong.append(f"{actor} on {slot}: {r if not isinstance(r, requests.Response) else r.status_code}")
            continue
        refused = r.status_code == 409 or "msg" in parse_qs(urlsplit(r.headers.get("Location", "")).query)
        if refused and not r.text.strip() and r.status_code == 409:
            wrong.append(f"{actor} on {slot}: a 409 without a message")
        stored = [a for a in audit if a["kind"] == "confirm" and a["who"] == actor and a["slot"] == slot]
        if len(stored) != (0 if refused else 1):
            wrong.append(f"{actor} on {slot}: answered {'refused' if refused else 'done'}, {len(stored)} in the audit")
    m = matches(state)
    for slot in SEMIS:
        if m[slot]["result"] is None or sorted(m[slot]["result"]["confirmed"]) != [0, 1]:
            wrong.append(f"{slot} not confirmed by both: {m[slot]['result']}")
    if m["main:2:1"]["status"] != "ready" or not m["main:2:1"]["edit_url"]:
        wrong.append(f"the final did not start: {m['main:2:1']['status']}")
    return wrong


@pytest.mark.parametrize("with_organizer", [False, True], ids=["teams", "teams-and-organizer"])
def test_confirmations_at_the_same_instant_all_count_once(url, db_url, with_organizer):
    disagreements = [(n, w) for n in range(RACES) for w in confirm_race(url, with_organizer)]
    kinds = {k: sum(k in w for _n, w in disagreements) for k in (": 500", "not confirmed", "did not start")}
    print(f"\nconfirm races on {backend(db_url)}: {RACES} races, {4 + 2 * with_organizer} posts at once each; "
          f"disagreements: {len(disagreements)} (server errors {kinds[': 500']}, results left unconfirmed "
          f"{kinds['not confirmed']}, finals not started {kinds['did not start']})")
    assert disagreements == []


def correction_race(url, n):
    """Two organizer corrections decided on the same state, posted at once (three kinds of
    pair, by ``n``); what went wrong."""
    with requests.Session() as s:
        t = new_tournament(url, s)
        if n % 3 == 1:  # the semi-finals are played and the final is on: related slots
            for slot in SEMIS:
                play(url, s, t, slot)
        version = s.get(t["api"]).json()["version"]
        pair = [
            ({"kind": "walkover", "slot": "main:1:1", "absent": 0, "version": version},
             {"kind": "walkover", "slot": "main:1:1", "absent": 1, "version": version}),
            ({"kind": "reopen", "slot": "main:1:1", "confirmed": True, "version": version},
             {"kind": "walkover", "slot": "main:2:1", "absent": 0, "confirmed": True, "version": version}),
            ({"kind": "abandonment", "slot": "main:1:2", "abandoned": 1},  # a double submission
             {"kind": "abandonment", "slot": "main:1:2", "abandoned": 1}),
        ][n % 3]
        answers = all_at_once([lambda c, d=d: c.post(f"{t['api']}/corrections", json=d, headers=t["org"])
                               for d in pair])
        audit = s.get(f"{t['api']}/export").json()["audit"]
        m = matches(s.get(t["api"]).json())
    codes = [a.status_code if isinstance(a, requests.Response) else repr(a) for a in answers]
    if sorted(codes) != [200, 409]:
        return [f"pair {n % 3}: answers {codes}"]
    won, lost = (0, 1) if codes[0] == 200 else (1, 0)
    error = answers[lost].json()["error"]
    wrong = [] if error["message"] and error["code"] in ("changed_meanwhile", "already_done") else [f"409 {error}"]
    winner = pair[won]
    done = [a for a in audit if a["kind"] in ("walkover", "abandonment", "reopen")]
    if len(done) != 1 or done[0]["kind"] != winner["kind"] or done[0]["slot"] != winner["slot"]:
        wrong.append(f"pair {n % 3}: audit {[(a['kind'], a['slot']) for a in done]}, winner {winner}")
    result = m[winner["slot"]]["result"]
    if winner["kind"] == "reopen":
        if result is not None or m["main:2:1"]["id"] is not None:
            wrong.append(f"reopened, yet {result} and the final {m['main:2:1']['id']}")
    elif result is None or result["kind"] != winner["kind"] or m[winner["slot"]]["winner"] is None:
        wrong.append(f"pair {n % 3}: {winner['slot']} has {result}")
    return wrong


def test_two_corrections_at_once_one_wins_the_other_is_told(url, db_url):
    disagreements = [w for n in range(RACES) for w in correction_race(url, n)]
    print(f"\ncorrection races on {backend(db_url)}: {RACES} races of two corrections at once; disagreements: {len(disagreements)}")
    assert disagreements == []


LANGS = {
    "pt": ({"Accept-Language": "pt-BR,pt;q=0.9"}, "já estava confirmado", "já tem este resultado", "mudou enquanto isso"),
    "es": ({"Accept-Language": "es-AR,es;q=0.9"}, "ya estaba confirmado", "ya tiene este resultado", "cambió mientras"),
    "en": ({"Accept-Language": "en-US,en;q=0.9"}, "already confirmed", "already has this result", "changed meanwhile"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_what_came_first_is_said_in_the_users_language(client, lang):
    """The answers a racing loser gets, one at a time: 409, nothing written, and why."""
    headers, confirmed, has, changed = LANGS[lang]
    t = client.post("/api/tournaments",
                    json={"variant": "truco-15", "teams": ["Ana", "Bia"], "confirm": True}).get_json()
    org = {"X-Organizer-Key": t["organizer_key"], **headers}
    api = f"/api/tournaments/{t['id']}"
    m = matches(client.get(api, headers=org).get_json())["main:1:1"]
    key = m["edit_url"].rsplit("/", 1)[1]
    client.post(f"/api/matches/{m['id']}/actions", headers={"X-Edit-Key": key},
                json={"action": {"type": "adjust", "side": 0, "delta": 15}, "version": 0})
    version = client.get(api).get_json()["version"]
    assert client.post(f"{api}/corrections", json={"kind": "confirm", "slot": "main:1:1", "side": 2},
                       headers=org).status_code == 200
    audit = client.get(f"{api}/export").get_json()["audit"]
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}").get_data(as_text=True)
    team, team_key = re.findall(rf"/t/{t['id']}/team/(\d+)/([A-Za-z0-9_-]+)", page)[0]
    r = client.post(f"/t/{t['id']}/team/{team}/{team_key}/confirm", data={"slot": "main:1:1"}, headers=headers)
    assert r.status_code == 409 and confirmed in r.get_data(as_text=True)
    r = client.post(f"{api}/corrections", json={"kind": "confirm", "slot": "main:1:1", "side": 2}, headers=org)
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "already_confirmed"
    assert confirmed in r.get_json()["error"]["message"]
    r = client.post(f"{api}/corrections", headers=org,
                    json={"kind": "walkover", "slot": "main:1:1", "absent": 0, "version": version})
    assert r.status_code == 409 and changed in r.get_json()["error"]["message"]  # decided on an older state
    assert client.get(f"{api}/export").get_json()["audit"] == audit  # nothing written by any of them
    for _ in range(2):  # a walkover sent twice: the second changes nothing and says so
        r = client.post(f"{api}/corrections", json={"kind": "walkover", "slot": "main:1:1", "absent": 1}, headers=org)
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "already_done"
    assert has in r.get_json()["error"]["message"]
    r = client.post(f"{api}/corrections", json={"kind": "reopen", "slot": "main:1:1", "version": "7"}, headers=org)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "bad_correction"
