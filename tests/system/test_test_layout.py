"""The suite's own layout. Test folders are not packages: pytest imports each test file and each
``conftest.py`` by its bare name, so two files of one name collide, and the browser tests import
their helpers with ``from conftest import ...``. A ``conftest.py`` added in another folder once took
that name in a worker that collected it later (the browser tests then failed to import)."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_file_has_a_name_of_its_own():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [name for name, n in names.items() if n > 1] == []


def test_conftest_files_are_the_roots_and_the_browser_tests_only():
    found = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("conftest.py"))
    assert found == ["browser/conftest.py", "conftest.py"]
