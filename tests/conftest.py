"""Fixtures shared by the Flask test-client tests: an app on a temporary SQLite file."""

import pytest

from scorer.web import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "web.sqlite3"})


@pytest.fixture
def client(app):
    return app.test_client()
