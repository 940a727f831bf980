"""The pictures of the evening (issue 22 item 2), drawn as SVG by pygal (server side: no
script on the page, nothing on the playing board's first open).

- :func:`story_svg`: both scores hand by hand, the calls that decided each hand written at
  the point of the side they favoured or that made them (:func:`scorer.core.stats.score_story`).
- :func:`numbers_svg`: the headline numbers of a series or a tournament, one bar per side or
  team and number.

Every text is in the request's language; sizes are in SVG units of a 640-wide picture
(readable scaled to a 360 px phone, and on a TV).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pygal
from flask_babel import gettext, lazy_gettext
from pygal.style import Style

from scorer.core.stats import SideStats, StoryPoint
from scorer.present.board_buttons import call_name
from scorer.web.stat_words import STAT_ROWS

# pygal puts a finder for its map plugins (pygal.maps.*, unused here) on sys.meta_path that has
# only the old find_module: every later import then warns (ImportWarning, an error under the
# tests' filterwarnings) or, from Python 3.12, fails. Take it off again.
sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__module__ != "pygal"]

#: The two sides' colours (the board's), then more for a tournament's teams.
COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#455a64")
STYLE = Style(background="#ffffff", plot_background="#ffffff", foreground="#222222", foreground_strong="#111111",
              foreground_subtle="#666666", colors=COLOURS, font_family="system-ui, sans-serif",
              label_font_size=22, major_label_font_size=22, value_font_size=20, value_label_font_size=22,
              legend_font_size=26, title_font_size=30, tooltip_font_size=18, stroke_width=4, stroke_width_hover=4,
              guide_stroke_dasharray="2,6", major_guide_stroke_dasharray="2,6")
#: The marks above the first side's line and below the second's, so both can be read.
MARK_CSS = ("inline:.text-overlay .serie-0 text.label {transform: translate(-20px, -46px) !important;"
            " text-anchor: middle !important; font-weight: 700 !important; fill: #0d47a1 !important}"
            " .text-overlay .serie-1 text.label {transform: translate(-20px, 6px) !important;"
            " text-anchor: middle !important; font-weight: 700 !important; fill: #b71c1c !important}"
            # every other mark one line further out, so marks of neighbouring hands do not overlap
            " .text-overlay .serie-0 text.label:nth-of-type(even) {transform: translate(-20px, -70px) !important}"
            " .text-overlay .serie-1 text.label:nth-of-type(even) {transform: translate(-20px, 30px) !important}")
#: SVG responses: the picture's own inline style, nothing else (no script, no fetch).
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"
#: The marks that are not calls, in the table's words.
MARKS = {"mazo": lazy_gettext("mazo"), "no_quiero": lazy_gettext("no quiero"), "run": lazy_gettext("ran")}
#: The headline numbers of a night summary (keys of SideStats), in order, with the
#: statistics table's own labels (:data:`scorer.web.stat_words.STAT_ROWS`).
HEADLINES = tuple((key, dict(STAT_ROWS)[key]) for key in (
    "matches_won", "hands_won", "truco_called", "truco_refused", "envido_won", "envido_bluffs", "folds"))


def mark_word(variant: str, call: str) -> str:
    """A mark's words: the call's name at this variant's table, or the fold, refusal, run."""
    return str(MARKS[call]) if call in MARKS else call_name(variant, call)


def story_svg(variant: str, names: Sequence[str], story: Sequence[StoryPoint], title: str) -> str:
    """Both scores hand by hand (x: the hand, 0 the start; y: tentos), the deciding calls
    written at their points. Returns the SVG document."""
    chart = pygal.Line(js=[], style=STYLE, width=640, height=480, print_labels=True, show_minor_x_labels=False,
                       x_title=gettext("Hand"), y_title=gettext("Tentos"), title=title, dots_size=7,
                       margin_right=90, margin_left=10, show_minor_y_labels=False, css=("file://style.css", "file://graph.css", MARK_CSS),
                       legend_at_bottom=True, legend_at_bottom_columns=2, include_x_axis=True, truncate_legend=-1,
                       # at most ~10 hand numbers, whole (pygal's automatic truncation drew "…" from hand 10)
                       x_labels_major_every=max(1, -(-len(story) // 10)), truncate_label=-1)
    chart.x_labels = [str(point.hand) for point in story]
    top = max(max(point.score) for point in story)
    chart.range = (min(0, *(min(point.score) for point in story)), max(top + 2, round(top * 1.3)))  # room for the marks
    for side in (0, 1):
        values = []
        for point in story:
            words = [mark_word(variant, call) for who, call in point.marks if who == side]
            values.append({"value": point.score[side], "label": ", ".join(words)} if words else point.score[side])
        chart.add(names[side], values)
    return chart.render(is_unicode=True)


def numbers_svg(names: Sequence[str], stats: Sequence[SideStats], title: str) -> str:
    """The headline numbers (:data:`HEADLINES`), one bar per side or team. Returns the SVG."""
    rows = HEADLINES[::-1]  # a horizontal bar chart draws its first label at the bottom
    chart = pygal.HorizontalBar(js=[], style=STYLE, width=800, height=160 + len(rows) * (26 * len(names) + 34),
                                title=title, print_values=True, legend_at_bottom=True, truncate_legend=-1,
                                legend_at_bottom_columns=2, margin_right=30)
    chart.x_labels = [str(label) for _, label in rows]
    for name, side in zip(names, stats):
        data = side.as_dict()
        chart.add(name, [data[key] for key, _ in rows])
    return chart.render(is_unicode=True)


def rating_svg(nights: Sequence[tuple[str, float, float]], title: str) -> str:
    """A player's rating over the nights (docs/club.md "A player's page"): ``nights`` as
    ``(night, ordinal, mu)`` oldest first; two lines, the rating the table orders by and the
    skill the model believes (the gap between them is three times its uncertainty). Returns the SVG."""
    chart = pygal.Line(js=[], style=STYLE, width=640, height=420, title=title, dots_size=6, legend_at_bottom=True,
                       legend_at_bottom_columns=2, truncate_legend=-1, x_label_rotation=30, truncate_label=-1,
                       show_minor_x_labels=False, x_labels_major_every=max(1, -(-len(nights) // 8)),
                       margin_right=30, include_x_axis=False, y_labels_major_count=6, show_minor_y_labels=False)
    chart.x_labels = [night for night, _, _ in nights]
    chart.add(gettext("Rating"), [round(o, 1) for _, o, _ in nights])
    chart.add(gettext("Skill (mu)"), [round(m, 1) for _, _, m in nights])
    return chart.render(is_unicode=True)
