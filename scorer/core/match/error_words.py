"""How the engine's errors name calls and special hands: the variant's table words put in an
error's params (the error layer; the log is data, said by :mod:`scorer.present.log_words`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from scorer.core.errors import PageText, RuleError
from scorer.core.variants import VARIANTS, PageWord, TableWords


class _CallNames(Mapping[str, str]):
    """Call id -> its name at the first registered table that says it (built again whenever
    the registry's variants change, so a variant registered later is named too; a log line
    names calls through it, so it is not rebuilt on every lookup)."""

    def __init__(self) -> None:
        self._built: tuple[tuple[int, ...], dict[str, str]] = ((), {})

    def _names(self) -> dict[str, str]:
        stamp = tuple(map(id, VARIANTS.values()))
        built_for, names = self._built
        if built_for == stamp:
            return names
        names = {}
        for variant in VARIANTS.values():
            for call in variant.call_ids():
                names.setdefault(call, variant.words.calls.get(call, call))
        self._built = (stamp, names)  # one assignment: a thread reads the old pair or the new one
        return names

    def __getitem__(self, call: str) -> str:
        return self._names()[call]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


CALL_NAMES: Mapping[str, str] = _CallNames()
"""How a call is written where the variant's table has no word for it (a call of another
variant named in an error): the words of the first registered variant that has it. Display
only: which calls an action may carry is :func:`scorer.core.schema.call_ids`."""


def use_table_words(error: RuleError, words: TableWords) -> None:
    """Write call and special-hand ids in an error's params as the variant's table says
    them (``vale_cuatro`` -> ``Vale cuatro``, ``mao_de_onze`` -> ``Mão de onze``; Catalan
    truc's 11-point rule in the page's language, as a :class:`~scorer.core.errors.PageText`).
    Changes ``error.params`` in place."""
    for key in ("call", "pending", "expected"):
        if isinstance(error.params.get(key), str):
            error.params[key] = words.calls.get(error.params[key], CALL_NAMES.get(error.params[key], error.params[key]))
    special = error.params.get("special")
    if isinstance(special, str):
        word = words.specials.get(special, special)
        # Inside a sentence: "the mão de onze" (the board's label says "Mão de onze").
        error.params["special"] = PageText(word.msgid) if isinstance(word, PageWord) else word[:1].lower() + word[1:]
