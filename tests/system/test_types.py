"""The type checker in the suite (issue 35 item 3): mypy, configured in pyproject.toml
(``[tool.mypy]``: strict on ``scorer/core`` and ``scorer/present``, its default checks on the rest
of ``scorer/``), finds nothing. A record that drifts from the record it is derived from, a
``None`` passed where a value is needed, fails here rather than at the table.

Its cache is kept in ``.mypy_cache`` at the top of the checkout (mypy's own default, ignored by
git): a first run takes about fifteen seconds on one core, a run after a small change a few.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: An ignore comment: its error code in brackets, then its reason as a comment of its own.
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z-]+(?:,\s*[a-z-]+)*\])?(?P<rest>.*)$")


def test_mypy_finds_nothing_in_scorer():
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache"), "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert run.stdout.strip() == "" and run.returncode == 0, run.stdout + run.stderr


def test_the_configuration_is_strict_on_the_core_and_its_presentation():
    """The strict modules are the pure ones (tests/system/test_layers.py keeps them pure); the
    whole package is checked, and an ignore no longer needed is an error everywhere."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["packages"] == ["scorer"] and mypy["warn_unused_ignores"] is True
    strict = [o for o in mypy["overrides"] if o.get("disallow_untyped_defs")]
    assert len(strict) == 1 and set(strict[0]["module"]) == {"scorer.core.*", "scorer.present.*"}
    flags = ("disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls", "disallow_any_generics",
             "check_untyped_defs", "warn_return_any", "no_implicit_reexport", "strict_equality")
    assert [flag for flag in flags if strict[0].get(flag) is not True] == []


@pytest.mark.parametrize("line, fits", [
    ("x = f()  # type: ignore[attr-defined]  # set by the extension at run time", True),
    ("x = f()  # type: ignore[attr-defined, arg-type]  # the library's types say less", True),
    ("x = f()  # type: ignore[attr-defined]", False),  # no reason
    ("x = f()  # type: ignore  # the library's types say less", False),  # no code
    ("x = f()  # type: ignore", False),
])
def test_an_ignore_fits_when_it_names_its_code_and_reason(line, fits):
    assert _fits(IGNORE.search(line)) is fits


def test_every_ignore_in_scorer_names_its_code_and_reason():
    """Ignores only where unavoidable, each saying which error (``# type: ignore[code]``) and
    why, in a comment after it."""
    bare = [f"{path.relative_to(ROOT)}:{number}"
            for path in sorted((ROOT / "scorer").rglob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if (found := IGNORE.search(line)) and not _fits(found)]
    assert bare == []


def _fits(found: re.Match[str] | None) -> bool:
    return found is not None and found["code"] is not None and re.match(r"\s+#\s*\S", found["rest"]) is not None
