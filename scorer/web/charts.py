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

import re
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
#: The longest side name two of which share the story's legend line (at its font size, half of 640).
STORY_LEGEND_CHARS = 14
#: The marks' look: bold, in their side's colour, centred on their point; where each stands is
#: worked out by :func:`place_marks` (above the first side's point, below the second's).
MARK_CSS = ("inline:.text-overlay text.label {transform: none !important; text-anchor: middle !important;"
            " font-weight: 700 !important} .text-overlay .serie-0 text.label {fill: #0d47a1 !important}"
            " .text-overlay .serie-1 text.label {fill: #b71c1c !important}")
#: A mark's font size (the style's ``value_label_font_size``... ``label_font_size``), its line height,
#: and the width of one of its characters in bold system-ui (an upper bound, in the same units).
MARK_SIZE, MARK_LINE, MARK_CHAR = 22, 27, 0.62 * 22
#: A line of marks' extent above and below its baseline (the font's ascent and descent, as Chromium
#: measures a text's box: 1.17 em in all).
MARK_ASCENT, MARK_DESCENT = 0.93 * MARK_SIZE, 0.24 * MARK_SIZE
#: The room kept between two marks (a text's box is measured by the font, not by these estimates).
MARK_GAP = 4
#: Where the mark's baseline goes from its point's y: the first side's above (plus ``ABOVE``), the
#: second's below (plus ``BELOW``); a mark is drawn where it is put, centred (no transform). pygal
#: draws a label ``LABEL_DX`` right of its point.
ABOVE, BELOW, LABEL_DX = -19, 33, 20
#: The legend's place in a pygal picture (its left edge: the plot's, moved to the picture's for a
#: tournament's teams, one a line: :func:`numbers_svg`).
LEGENDS = re.compile(r'(<g transform="translate\()\d+,(?= \d+\)" class="legends">)')
TOKEN = re.compile(r'<g class="series serie-(\d)[^"]*"|<rect x="0" y="0" width="([0-9.]+)" height="([0-9.]+)" '
                   r'class="background" />|<circle cx="([-0-9.]+)" cy="([-0-9.]+)"|'
                   r'<text x="([-0-9.]+)" y="[-0-9.]+" class="label">([^<]*)</text>')

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
                       legend_at_bottom=True, include_x_axis=True, truncate_legend=-1,
                       # the two names side by side while both fit half the picture, else one a line
                       legend_at_bottom_columns=2 if max(map(len, names)) <= STORY_LEGEND_CHARS else 1,
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
    return place_marks(chart.render(is_unicode=True))


def place_marks(svg: str) -> str:
    """The story's SVG with every mark moved where it overlaps no other mark and stays in the plot:
    the first side's above its point, the second's below, else on the other side, then a line
    further out on each in turn while it would cover one already placed: the nearest free place
    wins; with none free, the one it overlaps least. Marks are placed from left
    to right, in plot coordinates (a mark ``len(text) * MARK_CHAR`` wide, ``MARK_LINE`` tall), and
    never over a point."""
    dots: dict[tuple[int, float], float] = {}
    plot = [0.0, 0.0]
    serie = 0
    for found in TOKEN.finditer(svg):  # the plot's size and each side's points
        if found.group(1) is not None:
            serie = int(found.group(1))
        elif found.group(2) is not None:  # the picture's background, then the plot's (the one kept)
            plot[:] = [float(found.group(2)), float(found.group(3))]
        elif found.group(4) is not None:
            dots[(serie, round(float(found.group(4)), 1))] = float(found.group(5))
    placed = [(x - 8, y - 8, x + 8, y + 8) for (_s, x), y in dots.items()]  # a mark never hides a point

    def box(x: float, base: float, half: float) -> tuple[float, float, float, float]:
        x = min(max(x, half - 80), max(half - 80, plot[0] + 80 - half))  # inside the picture's margins
        return (x - half, base - MARK_ASCENT, x + half, base + MARK_DESCENT)

    def overlap(a, b) -> float:  # with a gap of MARK_GAP between marks
        w = min(a[2], b[2]) - max(a[0], b[0]) + MARK_GAP
        h = min(a[3], b[3]) - max(a[1], b[1]) + MARK_GAP
        return w * h if w > 0 and h > 0 else 0.0

    def move(found: re.Match) -> str:
        nonlocal serie
        if found.group(1) is not None:
            serie = int(found.group(1))
        if found.group(6) is None:
            return found.group(0)
        x, text = float(found.group(6)) - LABEL_DX, found.group(7)
        y = dots.get((serie, round(x, 1)), plot[1])
        half = len(text) * MARK_CHAR / 2
        above = [y + ABOVE - MARK_LINE * k for k in range(4)]
        below = [y + BELOW + MARK_LINE * k for k in range(4)]
        near, far = (above, below) if serie == 0 else (below, above)
        tries = [box(x, base, half) for pair in zip(near, far) for base in pair]  # the nearest lines first
        tries = [b for b in tries if b[1] >= -20 and b[3] <= plot[1] - 2] or tries  # under the title, above the axis
        best = min(tries, key=lambda b: (sum(overlap(b, o) for o in placed), tries.index(b)))
        placed.append(best)
        return f'<text x="{(best[0] + best[2]) / 2:.1f}" y="{best[1] + MARK_ASCENT:.1f}" class="label">{text}</text>'

    return TOKEN.sub(move, svg)


def numbers_svg(names: Sequence[str], stats: Sequence[SideStats], title: str) -> str:
    """The headline numbers (:data:`HEADLINES`), one bar per side or team and number: grouped by
    number, a colour per side or team; past :data:`COLOURS`' teams (a big tournament, whose
    colours would repeat), grouped by team, a colour per number (and pygal prepares 7 series
    instead of one per team: a 64-team round robin's picture in a third of the time, issue 31).
    Returns the SVG."""
    rows = HEADLINES[::-1]  # a horizontal bar chart draws its first label at the bottom
    # Two sides share the legend's line under the plot; a tournament's teams take a line each, from
    # the picture's left edge (:data:`LEGENDS`), so a long name is never drawn over its neighbour or
    # past the edge (it was, two a line under the plot only). A few whole tentos on the axis (pygal
    # cut "10" to "…" between ticks).
    many = len(names) > 2
    legend_lines = len(names) if len(names) <= len(COLOURS) else len(HEADLINES)  # a team, or a number, a line
    chart = pygal.HorizontalBar(js=[], style=STYLE, width=800, height=160 + len(rows) * (26 * len(names) + 34)
                                + (40 * legend_lines if many else 0),
                                title=title, print_values=True, legend_at_bottom=True, truncate_legend=-1,
                                legend_at_bottom_columns=1 if many else 2, margin_right=30,
                                max_scale=6, truncate_label=-1)
    data = [side.as_dict() for side in stats]
    if len(names) <= len(COLOURS):
        chart.x_labels = [str(label) for _, label in rows]
        for name, values in zip(names, data):
            chart.add(name, [values[key] for key, _ in rows])
    else:
        chart.x_labels = list(names)[::-1]
        for key, label in HEADLINES:
            chart.add(str(label), [values[key] for values in data[::-1]])
    svg = chart.render(is_unicode=True)
    return LEGENDS.sub(r"\g<1>20,", svg, count=1) if many else svg


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
