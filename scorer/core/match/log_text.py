"""The match log in words: a log line (an English template and its params) written with the
players' names and the variant's table words, in the page's language."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorer.core.errors import PageText, RuleError
from scorer.core.variants import TABLE_WORDS, PageWord, TableWord, TableWords
from scorer.core.match.hand import CALL_NAMES, SIDES, LogLine


def table_word(word: TableWord, translate: Callable[[str], str] | None = None) -> str:
    """A table word as written: a ``str`` as it is, a :class:`PageWord` in the page's
    language (``translate``; English without it)."""
    if isinstance(word, PageWord):
        return translate(word.msgid) if translate else word.msgid
    return word


def _use_table_words(error: RuleError, words: TableWords) -> None:
    """Write call and special-hand ids in an error's params as the variant's table says
    them (``vale_cuatro`` -> ``Vale cuatro``, ``mao_de_onze`` -> ``Mão de onze``; Catalan
    truc's 11-point rule in the page's language)."""
    for key in ("call", "pending", "expected"):
        if isinstance(error.params.get(key), str):
            error.params[key] = words.calls.get(error.params[key], CALL_NAMES.get(error.params[key], error.params[key]))
    special = error.params.get("special")
    if isinstance(special, str):
        word = words.specials.get(special, special)
        # Inside a sentence: "the mão de onze" (the board's label says "Mão de onze").
        error.params["special"] = PageText(word.msgid) if isinstance(word, PageWord) else word[:1].lower() + word[1:]


# ------------------------------------------------------------------ log text


def render_lines(
    lines: Sequence[LogLine],
    names: Sequence[str],
    translate: Callable[[str], str] | None = None,
    words: TableWords | None = None,
) -> str:
    """Write a log entry's sentences in words, with the sides' names and the table's words.

    Args:
        lines: ``(template, params)`` pairs from :meth:`Match.apply`.
        names: the two sides' names.
        translate: gettext-like callable applied to each template (English without it).
        words: the variant's table words (:attr:`scorer.core.variants.Variant.words`); the
            Rioplatense ones without it. Params: ``call``/``chain`` (call ids, their bare
            names), ``shout`` (a call id, its shout), ``answer`` (``mazo``...), ``said``
            (``accepted``, ``refused`` or ``tie``), ``special`` (a special hand's id).
    """
    words = words or TABLE_WORDS["rio"]
    out = []
    for template, params in lines:
        values = {}
        for key, value in params.items():
            if key == "side" or key.endswith("_side") or key == "other":
                values[key] = names[value] if value in SIDES else "?"
            elif key in ("call", "chain"):
                calls = value if isinstance(value, list) else [value]
                values[key] = ", ".join(words.calls.get(c, CALL_NAMES.get(c, c)) for c in calls)
            elif key == "shout":
                values[key] = words.shouts.get(value, CALL_NAMES.get(value, value) + "!")
            elif key == "answer":
                values[key] = words.answers.get(value, value)
            elif key == "said":
                values[key] = table_word(getattr(words, value), translate)
            elif key == "special":
                values[key] = table_word(words.specials.get(value, value), translate)
            else:
                values[key] = value
        out.append((translate(template) if translate else template).format(**values))
    return " ".join(out)
