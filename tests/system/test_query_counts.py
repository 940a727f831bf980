"""What a request costs the database (issue 12), on both backends: an unchanged poll is
one primary-key read, wherever the match was last changed; an action a bounded
number of statements, the same at action 3 and at action 60."""

from __future__ import annotations

import json

import pytest
from scorer.app import store
from scorer.web import create_app

HX = {"HX-Request": "true"}
ADJUST = {"type": "adjust", "side": 0, "delta": 1}
DOWN = {"type": "adjust", "side": 0, "delta": -1}


class Counter:
    """Statements sent to the database (BEGIN and COMMIT included)."""

    def __init__(self, url):
        self.statements: list[str] = []
        store.STATEMENT_LISTENERS.append(self.seen)

    def seen(self, _db, statement):
        self.statements.append(statement)

    def close(self):
        store.STATEMENT_LISTENERS.remove(self.seen)

    def during(self, call):
        self.statements.clear()
        result = call()
        return result, list(self.statements)


@pytest.fixture
def counted(db_url):
    app = create_app({"TESTING": True, "DATABASE": db_url})
    counter = Counter(app.config["DATABASE_URL"])
    yield app.test_client(), counter
    counter.close()


def act(client, path, action, version):
    return client.post(path + "/actions", data={"action": json.dumps(action), "version": str(version)}, headers=HX)


def test_an_unchanged_poll_is_one_indexed_read(counted):
    client, counter = counted
    path = client.post("/matches", data={"variant": "paulista"}).headers["Location"]
    act(client, path, ADJUST, 0)
    r, statements = counter.during(lambda: client.get(path + "/board?version=1&rematch=0", headers=HX))
    assert r.status_code == 204
    assert len(statements) == 1 and "FROM match WHERE id =" in statements[0]


def test_a_poll_after_another_servers_action_reads_only_what_is_new(counted, db_url):
    client, counter = counted
    path = client.post("/matches", data={"variant": "paulista"}).headers["Location"]
    match_id = path.split("/")[2]
    client.get(path + "/board?version=5&rematch=0", headers=HX)  # cached at version 0
    other = store.connect(db_url)  # "another server" appends
    store.append_action(other, match_id, 0, ADJUST, score=(1, 0), winner=None)
    other.close()
    r, statements = counter.during(lambda: client.get(path + "/board?version=0&rematch=0", headers=HX))
    assert r.status_code == 200 and 'data-version="1"' in r.get_data(as_text=True)
    assert sum("FROM action WHERE match_id = :id AND seq >= :since" in s for s in statements) == 1


def test_an_action_costs_the_same_at_any_length(counted):
    client, counter = counted
    path = client.post("/matches", data={"variant": "paulista"}).headers["Location"]
    costs = {}
    version = 0
    for target in (3, 60):
        while version < target:
            act(client, path, ADJUST if version % 2 == 0 else DOWN, version)
            version += 1
        r, statements = counter.during(lambda v=version: act(client, path, ADJUST if v % 2 == 0 else DOWN, v))
        assert r.status_code == 200
        costs[target] = len(statements)
        version += 1
    assert costs[3] == costs[60] <= 9
    print(f"\nstatements per action: {costs[3]}; per unchanged poll: 1")
