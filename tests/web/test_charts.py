"""The score's story chart (scorer/web/charts.py): every hand label it writes is readable."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from scorer.core.stats import StoryPoint
from scorer.web import create_app
from scorer.web.charts import story_svg


@pytest.mark.parametrize("hands", [5, 12, 19, 40])
def test_the_story_chart_writes_whole_hand_numbers_never_an_ellipsis(tmp_path, hands):
    # Found by hand: a 19-hand match drew "0 1 ... 9" then "…" for every hand from 10 on (pygal's
    # automatic label truncation), on the phone and on the TV alike.
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "c.sqlite3"})
    story = [StoryPoint(hand, (hand, hand // 2)) for hand in range(hands)]
    with app.test_request_context(headers={"Accept-Language": "en"}):
        svg = story_svg("argentino-30", ["Us", "Them"], story, "Us 18 x 9 Them")
    axes = [g for g in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g")
            if g.get("class", "").split()[:2] == ["axis", "x"]]
    assert len(axes) == 1, "no x axis in the chart"
    hand_labels = [t.text for t in axes[0].iter("{http://www.w3.org/2000/svg}text") if t.text and t.text.strip()]
    assert hand_labels and "…" not in "".join(hand_labels), hand_labels
    assert all(label.isdigit() and int(label) < hands for label in hand_labels), hand_labels
    assert str(hands - 1 - (hands - 1) % max(1, -(-hands // 10))) in hand_labels  # the last labelled hand
    assert len(hand_labels) <= 11, hand_labels  # few enough to read at 360 px
