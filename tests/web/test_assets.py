"""Our own scripts and style sheets are served minified (scorer.web.assets.minified, issue
#14's first-open weight): the same code without comments, the same bytes whatever the
encoding, revalidated by ETag under a bare URL and cached a year under the versioned one."""

from __future__ import annotations

import hashlib
import re

import brotli
import pytest
from flask import url_for

from scorer.web.assets import BUNDLES, asset_dir, source_text

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
OURS = ["js/table.js", "css/app.css", "css/tournament.css"]


def versioned(client, name: str) -> str:
    """The URL a page gives for static file ``name`` (with its ``?v=`` hash)."""
    with client.application.test_request_context():
        return url_for("static", filename=name)


@pytest.mark.parametrize("name", OURS)
def test_our_files_are_served_without_comments_and_smaller(client, name):
    source = source_text(asset_dir("static"), name)
    assert "/*" in source  # the file (or the parts of a bundle) in the repository keeps its comments
    r = client.get(versioned(client, name), headers={"Accept-Encoding": "identity"})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "/*" not in body and len(body) < 0.85 * len(source)
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.mimetype == ("text/javascript" if name.endswith(".js") else "text/css")


@pytest.mark.parametrize("name", OURS)
def test_compressed_and_plain_answers_are_the_same_minified_file(client, name):
    url = versioned(client, name)
    plain = client.get(url, headers={"Accept-Encoding": "identity"}).data
    packed = client.get(url, headers=BROWSER)
    assert packed.headers["Content-Encoding"] == "br"
    assert brotli.decompress(packed.data) == plain


def test_a_bare_url_is_revalidated_by_etag(client):
    r = client.get("/static/js/table.js")
    assert r.status_code == 200 and "no-cache" in r.headers["Cache-Control"] and r.headers.get("ETag")
    again = client.get("/static/js/table.js", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304


def test_the_hash_in_the_url_is_the_served_content_and_vendored_files_are_untouched(client):
    v = re.search(r"\?v=(\w+)", versioned(client, "js/table.js")).group(1)
    served = client.get("/static/js/table.js", headers={"Accept-Encoding": "identity"}).data
    assert hashlib.sha256(served).hexdigest()[:12] == v
    htmx = [p for p in (asset_dir("static") / "vendor").glob("htmx-*.min.js")][0]
    r = client.get("/static/vendor/" + htmx.name, headers={"Accept-Encoding": "identity"})
    assert r.data == htmx.read_bytes()
    r.close()


def test_the_boards_script_is_its_parts_in_order_in_one_closure_and_they_are_not_served_one_by_one(client):
    """static/js/table/'s parts are served as js/table.js, one request on the first open: each
    part's code is in it, the pending store's before the tap machine's, and a part asked for by
    itself is not a script of its own (no version, never minified alone)."""
    from scorer.web.assets import minified_script

    static = asset_dir("static")
    parts = BUNDLES["js/table.js"]
    assert parts[0] == "js/table/pending.js" and len(parts) == len(set(parts)) >= 2
    assert sorted(p.relative_to(static).as_posix() for p in (static / "js" / "table").glob("*.js")) == sorted(parts)
    served = client.get(versioned(client, "js/table.js"), headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    assert served == minified_script(source_text(static, "js/table.js"))
    assert served.index("truco:pending:") < served.index("tapsPosted") < served.index("pending-list")
    with client.application.test_request_context():
        assert "?v=" not in url_for("static", filename="js/table/taps.js")


def test_a_static_file_changed_in_the_same_process_gets_a_new_version(tmp_path):
    """The versions are read once per process (the tests make hundreds of apps), but a file
    whose content changed is read again: its URL changes, and an unchanged file's does not."""
    import os

    from scorer.web.assets import static_contents

    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("var a = 1; // one\n")
    (tmp_path / "b.txt").write_bytes(b"bee")
    before, served = static_contents(tmp_path)
    assert served == {"js/a.js": b"var a=1;"}
    assert before["b.txt"] == hashlib.sha256(b"bee").hexdigest()[:12]
    (tmp_path / "js" / "a.js").write_text("var a = 2; // two\n")
    os.utime(tmp_path / "js" / "a.js", ns=(1, 1))  # a new time even on a coarse clock
    after, served = static_contents(tmp_path)
    assert served == {"js/a.js": b"var a=2;"}
    assert after["js/a.js"] != before["js/a.js"] and after["b.txt"] == before["b.txt"]


def test_a_minified_script_is_kept_in_the_users_own_folder_and_read_back_the_same(tmp_path, monkeypatch):
    """calmjs.parse takes about a second on table.js: each process reads it kept, by the hash of
    the script, from a folder only this user can open; what is read back is what was minified."""
    from scorer.web import assets

    monkeypatch.setattr(assets.tempfile, "tempdir", str(tmp_path))
    text = "function f(longName) { var another = longName + 1; return another; }"
    first = assets.minified_script(text)
    assert "longName" not in first and "function f(" in first  # local names shortened, globals kept
    folder = assets._minified_folder()
    assert folder is not None and folder.parent == tmp_path and folder.stat().st_mode & 0o777 == 0o700
    (kept,) = folder.glob("*.js")
    kept.write_text("/* read from the folder */", encoding="utf-8")
    assert assets.minified_script(text) == "/* read from the folder */"
    folder.chmod(0o755)  # opened to others: not trusted, minified again
    assert assets.minified_script(text) == first
