"""No button ever loses its words or its points, in ca (the checks: tests/browser/button_labels.py)."""

from button_labels import boards, check_every_button  # noqa: F401 - boards is this file's fixture


def test_every_button_keeps_its_words_and_points(chromium, boards):  # noqa: F811
    check_every_button(chromium, boards, "ca")
