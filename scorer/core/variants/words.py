"""The words each family of variants uses at the table (:data:`TABLE_WORDS`: shouts, calls,
answers, per language) and the labels of option choices (:func:`choice_label`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorer.core.errors import N_, PageText


@dataclass(frozen=True)
class PageWord:
    """A word the table has none of its own for (Catalan truc's "11-point rule", a tie):
    written in the page's language. ``msgid`` is English, marked with ``N_``."""

    msgid: str


TableWord = str | PageWord
"""A table word: a ``str`` is said as written on every page (with its own language's
punctuation: "¡Truco!" at a Rioplatense table, "Seis!" at a Paulista one); a
:class:`PageWord` is said in the page's language."""


@dataclass(frozen=True)
class TableWords:
    """What a table of one variant family says: the one source for buttons, the pending
    line, the log, the spoken text and the errors (docs/rules.md §Table words).

    Attributes:
        shouts: call id -> the shout on its button ("¡Quiero retruco!", "Seis!").
        calls: call id -> the call's bare name, for the log and messages ("Retruco").
        answers: ``quiero``/``no_quiero``/``mazo``/``no_flor`` -> the answer as said.
        flor_answers: ``quiero``/``no_quiero`` while a Flor (or Contraflor) is pending.
        accepted / refused: the log's word for an accepted / refused call ("querido",
            "no querido"; "aceito", "correram").
        feminine: the calls whose noun is feminine (Flor, Falta envido) -> the accepted /
            refused words that agree with them: ``{"accepted": "querida", "refused": "no
            querida"}`` ("Flor querida", never "Flor querido"); empty where the words do not
            change.
        tie: a parda / empate.
        specials: special-hand id -> its name ("Mão de onze"; Catalan: a page word).
        decisions: special-hand decision (``play``/``run``) -> the words, ``{special}``
            standing for the special hand's name in lower case.
        raise_shouts: call id -> the shout of that call made over the same call, where the
            table has words of its own for it (Venezuelan "¡Quiero y envido!", Valencian
            "Torne!" for a second Envido); else the call's own shout.
        open_raise: how the table says an open Envido raise, ``{n}`` standing for the number
            of tentos ("{n} más": "tres más"); ``""`` where the table has none ("+3").
        open_raise_shout: the same as shouted on its button and in the log ("¡{n} más!": "¡Tres más!").
        numbers: the table's words for 1, 2, 3... (a larger number is written in digits).
    """

    shouts: Mapping[str, str]
    calls: Mapping[str, str]
    answers: Mapping[str, str]
    flor_answers: Mapping[str, str]
    accepted: TableWord
    refused: TableWord
    tie: TableWord
    specials: Mapping[str, TableWord] = field(default_factory=dict)
    decisions: Mapping[str, str] = field(default_factory=dict)
    feminine_calls: frozenset[str] = frozenset()
    feminine: Mapping[str, TableWord] = field(default_factory=dict)
    raise_shouts: Mapping[str, str] = field(default_factory=dict)
    open_raise: str = ""
    open_raise_shout: str = ""
    numbers: tuple[str, ...] = ()

    def raise_by(self, amount: int, *, shout: bool = False, longest: int | None = None) -> str:
        """An open Envido raise of ``amount`` tentos as the table says it ("tres más"), or as
        shouted (``shout``: "¡Tres más!"); "+3" (shouted "+3!") where the table has no words for it.
        ``longest``: a number word longer than that many letters is written in digits ("¡19 más!"),
        for a button's narrow place."""
        number = self.numbers[amount - 1] if 1 <= amount <= len(self.numbers) else str(amount)
        if longest is not None and len(number) > longest:
            number = str(amount)
        if shout:
            return (self.open_raise_shout or "+{n}!").format(n=number[:1].upper() + number[1:])
        return (self.open_raise or "+{n}").format(n=number)

    def said(self, how: str, call: str | None = None) -> TableWord:
        """``accepted``, ``refused`` or ``tie`` as the table says it of ``call`` (the last call
        of a chain; None: any), agreeing with the call's gender ("Falta envido no querida")."""
        if call in self.feminine_calls and how in self.feminine:
            return self.feminine[how]
        word: TableWord = getattr(self, how)
        return word


_GLOSS_ANSWERS = {"quiero": "accept", "no_quiero": "refuse", "mazo": "fold", "no_flor": "no Flor",
                  "flor_quiero": "accept", "flor_no_quiero": "concede", "play": "play", "run": "run"}
"""English glosses of the table's answers (docs/rules.md §Table words): one word each, so the
button keeps every word whole in its place (issue 19); the table word beside it says what is
accepted or played."""

_FEMININE_RIO = frozenset({"flor", "contraflor", "contraflor_al_resto", "falta_envido"})
"""The feminine calls of the Rioplatense and gaúcho tables: la flor, la contraflor, la falta envido
(docs/rules.md §Table words: "falta envido no querida")."""

_SPANISH_NUMBERS = (
    "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce", "trece",
    "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiuno", "veintidós",
    "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho", "veintinueve", "treinta",
)
"""1 to 30 as a Spanish-speaking table says them ("dos más", "veintidós más")."""

TABLE_WORDS: Mapping[str, TableWords] = MappingProxyType(
    {
        # Rioplatense: truco-15, argentino-30, uruguaio (docs/rules.md §Argentine ladder, §Envido chains, §Flor values).
        "rio": TableWords(
            shouts={"truco": "¡Truco!", "retruco": "¡Quiero retruco!", "vale_cuatro": "¡Quiero vale cuatro!",
                    "envido": "¡Envido!", "real_envido": "¡Real envido!", "falta_envido": "¡Falta envido!",
                    "flor": "¡Flor!", "contraflor": "¡Contraflor!", "contraflor_al_resto": "¡Contraflor al resto!"},
            calls={"truco": "Truco", "retruco": "Retruco", "vale_cuatro": "Vale cuatro", "envido": "Envido",
                   "real_envido": "Real envido", "falta_envido": "Falta envido", "flor": "Flor",
                   "contraflor": "Contraflor", "contraflor_al_resto": "Contraflor al resto"},
            answers={"quiero": "Quiero", "no_quiero": "No quiero", "mazo": "Me voy al mazo", "no_flor": "No tengo flor"},
            flor_answers={"quiero": "Con flor quiero", "no_quiero": "Con flor me achico"},
            accepted="querido",
            refused="no querido",
            tie="parda",
            feminine_calls=_FEMININE_RIO,
            feminine={"accepted": "querida", "refused": "no querida"},
        ),
        # Venezuelan truco (docs/rules.md §Truco venezolano): Spanish words on every page, as the
        # Rioplatense table's; "quiero y envido" is the second Envido.
        "ve": TableWords(
            shouts={"truco": "¡Truco!", "retruco": "¡Quiero retruco!", "vale_nueve": "¡Vale nueve!",
                    "vale_juego": "¡Vale juego!", "envido": "¡Envido!", "envido_mas": "¡N más!",
                    "falta_envido": "¡Falta envido!", "flor": "¡Flor!", "flor_envida": "¡Mi flor envida!"},
            calls={"truco": "Truco", "retruco": "Retruco", "vale_nueve": "Vale nueve", "vale_juego": "Vale juego",
                   "envido": "Envido", "envido_mas": "N más", "falta_envido": "Falta envido", "flor": "Flor",
                   "flor_envida": "Mi flor envida"},
            answers={"quiero": "Quiero", "no_quiero": "No quiero", "mazo": "Me voy al mazo", "no_flor": "No tengo flor"},
            flor_answers={"quiero": "Con flor quiero", "no_quiero": "Con flor me achico"},
            accepted="querido",
            refused="no querido",
            tie="parda",
            feminine_calls=_FEMININE_RIO,
            feminine={"accepted": "querida", "refused": "no querida"},
            # The second Envido is said "quiero y envido" (STEEMIT-VE, BUENASTAREAS-VE); an open
            # raise, "dos más", "cinco más" (BUENASTAREAS-VE, GH-GIAMPIGA: docs/rules.md §Open Envido raises).
            raise_shouts={"envido": "¡Quiero y envido!"},
            open_raise="{n} más",
            open_raise_shout="¡{n} más!",
            numbers=_SPANISH_NUMBERS,
        ),
        # Gaúcho / gaudério ("ir ao baralho", "fugir", "Contra-flor e o resto": docs/rules.md §Flor values).
        "gaucho": TableWords(
            shouts={"truco": "Truco!", "retruco": "Retruco!", "vale_cuatro": "Vale quatro!",
                    "envido": "Envido!", "real_envido": "Real envido!", "falta_envido": "Falta envido!",
                    "flor": "Flor!", "contraflor": "Contraflor!", "contraflor_al_resto": "Contraflor e o resto!"},
            calls={"truco": "Truco", "retruco": "Retruco", "vale_cuatro": "Vale quatro", "envido": "Envido",
                   "real_envido": "Real envido", "falta_envido": "Falta envido", "flor": "Flor",
                   "contraflor": "Contraflor", "contraflor_al_resto": "Contraflor e o resto"},
            answers={"quiero": "Quero", "no_quiero": "Não quero", "mazo": "Vou pro baralho", "no_flor": "Não tenho flor"},
            flor_answers={"quiero": "Com flor quero", "no_quiero": "Fujo"},
            accepted="aceito",
            refused="recusado",
            tie="parda",
            feminine_calls=_FEMININE_RIO,
            feminine={"accepted": "aceita", "refused": "recusada"},
        ),
        # Paulista and Mineiro ("correr", "empate", mão de onze / ferro: docs/rules.md §Mão de onze).
        "br": TableWords(
            shouts={"truco": "Truco!", "seis": "Seis!", "nove": "Nove!", "dez": "Dez!", "doze": "Doze!"},
            calls={"truco": "Truco", "seis": "Seis", "nove": "Nove", "dez": "Dez", "doze": "Doze"},
            answers={"quiero": "Quero", "no_quiero": "Não quero", "mazo": "Corremos da mão", "no_flor": "Não tenho flor"},
            flor_answers={},
            accepted="aceito",
            refused="correram",
            tie="empate",
            specials={"mao_de_onze": "Mão de onze", "mao_de_dez": "Mão de dez", "mao_de_ferro": "Mão de ferro"},
            decisions={"play": "Jogamos a {special}", "run": "Corremos"},
        ),
        # Catalan truc (docs/rules.md §Catalan ladder): its own calls and answers; the rest in the page's language.
        "cat": TableWords(
            shouts={"truc": "Truc!", "retruc": "Retruc!"},
            calls={"truc": "Truc", "retruc": "Retruc"},
            answers={"quiero": "Vull", "no_quiero": "No vull", "mazo": "Me'n vaig", "no_flor": "No tinc flor"},
            flor_answers={},
            accepted=PageWord(N_("accepted")),
            refused=PageWord(N_("refused")),
            tie=PageWord(N_("tie")),
            specials={"mao_de_onze": PageWord(N_("11-point rule")), "mao_de_ferro": PageWord(N_("Both on 11: no betting"))},
            decisions={"play": "Juguem", "run": "Ens n'anem"},
        ),
        # Valencian truc (docs/rules.md §Valencian truc; its words: MURAL-UV "Trucar, retrucar, quatre
        # val i joc fora", "L'envit, el torne i la falta"; docs/rules.md §Catalan words): its own calls
        # and answers; the rest in the page's language, as the Catalan table's.
        "val": TableWords(
            shouts={"truc": "Truc!", "retruc": "Retruc!", "quatre_val": "Quatre val!", "joc_fora": "Joc fora!",
                    "envido": "Envide!", "falta_envido": "La falta!"},
            calls={"truc": "Truc", "retruc": "Retruc", "quatre_val": "Quatre val", "joc_fora": "Joc fora",
                   "envido": "Envit", "falta_envido": "Falta"},
            answers={"quiero": "Vull", "no_quiero": "No vull", "mazo": "Me'n vaig", "no_flor": "No tinc flor"},
            flor_answers={},
            accepted=PageWord(N_("accepted")),
            refused=PageWord(N_("refused")),
            tie=PageWord(N_("tie")),
            # The second envit is the torne (MURAL-UV "L'envit, el torne i la falta").
            raise_shouts={"envido": "Torne!"},
        ),
    }
)
"""Table words of each variant family (:attr:`Variant.family`), docs/rules.md §Table words."""

GLOSSES = MappingProxyType(_GLOSS_ANSWERS)


CHOICE_LABELS: Mapping[Any, str] = MappingProxyType(
    {
        True: N_("Yes"),
        False: N_("No"),
        "nobody": N_("nobody scores"),
        "mano": N_("the mano wins"),
        "target_minus_leader": N_("what the leader lacks"),
        "leader_stage": N_("what the leader lacks in its stage (malas/buenas)"),
        "whole_game": N_("what the leader lacks for the game"),
        "malas_wins_game": N_("the game, when the leader is in the malas"),
        "winner_stage": N_("what the winner lacks to end the malas, while the leader is in them"),
        "loser_lacks": N_("what the loser lacks for the game"),
        "per_flor": N_("3 for each Flor of the better side"),
        "compared": N_("4 to the better Flor"),
    }
)
"""How an option's value is shown to people (English, translated by the edges): never
"False, True"."""


def choice_label(value: Any) -> str:
    """An option value as people read it: a :class:`~scorer.core.errors.PageText` label, or the
    value itself (a target such as ``30``)."""
    if isinstance(value, bool) or (isinstance(value, str) and value in CHOICE_LABELS):
        return PageText(CHOICE_LABELS[value])
    return str(value)
