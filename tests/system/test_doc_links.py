"""Every relative link of README.md and docs/*.md leads somewhere (issue 21): the file exists in
the repository and, where the link names an ``#anchor``, that file has a heading with it."""

import re
from pathlib import Path

import pytest

from project_docs import DOCUMENTS, ROOT, anchors, headings, slug

#: ``[text](target)`` and ``![alt](target)``; the target up to a space or the closing parenthesis.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def links(path: Path) -> list[str]:
    """The link targets of ``path`` outside fenced code blocks and inline code."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            out += LINK.findall(re.sub(r"`[^`]*`", "", line))
    return out


def broken(path: Path) -> list[str]:
    """The relative links of ``path`` whose file or anchor does not exist."""
    bad = []
    for target in links(path):
        if re.match(r"[a-z]+:", target):  # https:, mailto: -- not ours to check here
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists() or ROOT not in (dest, *dest.parents):
            bad.append(f"{target} (no such file)")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            bad.append(f"{target} (no such heading)")
    return bad


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_exists(path):
    assert broken(path) == []


def test_the_readme_links_to_every_document_under_docs():
    """A newcomer reading only README.md finds every document (docs/ is not a drawer)."""
    readme = set(links(ROOT / "README.md"))
    missing = [p.name for p in DOCUMENTS[1:] if not any(t.split("#")[0] == f"docs/{p.name}" for t in readme)]
    assert missing == []


@pytest.mark.parametrize(
    ("title", "anchor"),
    [
        ("Run the tests (fresh machine)", "run-the-tests-fresh-machine"),
        ("Truco venezolano", "truco-venezolano"),
        ("Phones and tables per core", "phones-and-tables-per-core"),
        ("Where a change goes: adding a variant", "where-a-change-goes-adding-a-variant"),
        ("Mão de onze / mão de ferro", "mão-de-onze--mão-de-ferro"),
    ],
)
def test_anchors_are_made_as_github_makes_them(title, anchor):
    assert slug(title) == anchor


def test_a_broken_link_and_a_missing_heading_are_found(tmp_path, monkeypatch):
    """The check can fail: a link to a missing file, and one to a heading that is not there."""
    import test_doc_links as me

    monkeypatch.setattr(me, "ROOT", tmp_path)
    (tmp_path / "b.md").write_text("# Here\n\n```sh\n# not a heading\n```\n", encoding="utf-8")
    doc = tmp_path / "a.md"
    doc.write_text("[ok](b.md#here) [gone](c.md) [no](b.md#not-a-heading) `[code](d.md)`\n", encoding="utf-8")
    assert broken(doc) == ["c.md (no such file)", "b.md#not-a-heading (no such heading)"]
    assert [h[2] for h in headings((tmp_path / "b.md").read_text())] == ["Here"]
