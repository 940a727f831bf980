"""Rule sets as data: one frozen :class:`Variant` per Truco variant, in one registry.

Every number here comes from a seed in ``shared/seeds/`` (where one speaks) or from
``shared/rules/REFERENCE.md``; the docstring of each variant names its source. A variant
holds every fact that differs between variants: the ladder, Envido and Flor, the special
hand, targets and options, the cards (order, deck, manilhas, muestra), pica-pica and the
malas/buenas split. The match engine (:mod:`scorer.core.match`), the card helpers
(:mod:`scorer.core.card_order`), the seats (:mod:`scorer.core.seats`) and the web read these fields;
no other module names a variant id or has a per-variant ``if``.

Units: every value is in tentos (points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorer.core.card_rules import ARGENTINE_ORDER, CATALAN_ORDER, MINEIRO_MANILHAS, PLAIN_ORDER, CardRules
from scorer.core.errors import N_, PageText, RuleError

#: Envido-type calls, in the order a chain may use them.
ENVIDO_CALLS = ("envido", "real_envido", "falta_envido")
#: Flor-type calls.
FLOR_CALLS = ("flor", "contraflor", "contraflor_al_resto")


@dataclass(frozen=True)
class TrucoStep:
    """One rung of a truco ladder.

    Attributes:
        call: the call's name as players say it (``truco``, ``seis``, ``retruc``...).
        worth: what the hand is worth once this call is accepted (tentos).
        refused: what the caller scores if it is refused (tentos).
    """

    call: str
    worth: int
    refused: int


@dataclass(frozen=True)
class EnvidoRules:
    """Envido chains and their values.

    Attributes:
        chains: accepted value of each legal chain without Falta (tuple of calls -> tentos).
            A refused chain pays its last caller the accepted value of the chain minus its
            last call, or 1 when that is empty (REFERENCE.md 1.5, seed 000 "Pedir Envido").
            ``falta_envido`` may end any of these chains (or stand alone).
        closes_on_truco_accepted: Envido can no longer be called once a Truco is accepted
            (argentino-30, uruguaio; REFERENCE.md 1.4) -- otherwise it stays open until the
            first trick is decided (seed 000).
        muestra: the hands are counted with a muestra (Uruguayan piezas).
    """

    chains: Mapping[tuple[str, ...], int]
    closes_on_truco_accepted: bool = False
    muestra: bool = False

    @property
    def points_range(self) -> frozenset[int]:
        """Envido counts a hand can declare (for ``envido_points``): the calculator's own
        definition, :func:`scorer.core.envido_points.possible_counts`."""
        from scorer.core.envido_points import possible_counts

        return possible_counts("envido", muestra=self.muestra)


ARGENTINE_ENVIDO_CHAINS = MappingProxyType(
    {
        ("envido",): 2,
        ("envido", "envido"): 4,
        ("real_envido",): 3,
        ("envido", "real_envido"): 5,
        ("envido", "envido", "real_envido"): 7,
    }
)
"""REFERENCE.md 1.5 rows 1-5; seed 000 "A cadeia de aumentos"."""

GAUDERIO_ENVIDO_CHAINS = MappingProxyType(
    {
        ("envido",): 2,
        ("real_envido",): 5,
        ("envido", "real_envido"): 5,
    }
)
"""Seed 002 "Pontos obtidos na disputa de Envido": Envido 2/1, Real Envido 5/1, Envido-Real 5/2."""


@dataclass(frozen=True)
class FlorRules:
    """Flor values.

    Attributes:
        uncontested: a Flor the other side answers with ``no_flor`` (3).
        compared: flor answered by flor, compared; the better one scores this (4), or
            ``None`` where a second flor is not an answer (gauderio: contraflor instead).
        refused: the flor caller's gain when the other side refuses (``no_quiero``):
            "con flor me achico" (3) or gauderio's "fugir" (4).
        contraflor: a compared contraflor pays the better flor this (6).
        contraflor_answered: contraflor / contraflor_al_resto wait for quiero/no_quiero
            (argentino-30, uruguaio) instead of being compared at once (gauderio, seed 002).
        contraflor_refused: a refused contraflor pays its caller this (4).
        resto_refused_after_flor / resto_refused_after_contraflor: a refused
            contraflor_al_resto pays its caller 4 after a flor, 6 after a contraflor.
        muestra: the hands are counted with a muestra (Uruguayan piezas).
    """

    uncontested: int = 3
    compared: int | None = 4
    refused: int = 3
    contraflor: int = 6
    contraflor_answered: bool = True
    contraflor_refused: int = 4
    resto_refused_after_flor: int = 4
    resto_refused_after_contraflor: int = 6
    muestra: bool = False

    @property
    def points_range(self) -> frozenset[int]:
        """Flor counts a hand can declare: :func:`scorer.core.envido_points.possible_counts`."""
        from scorer.core.envido_points import possible_counts

        return possible_counts("flor", muestra=self.muestra)


@dataclass(frozen=True)
class SpecialHandRules:
    """The hand at 11 (or 10): mão de onze / mão de dez / the Catalan 11-point rule.

    Attributes:
        threshold: a side with at least this many tentos (and below the target) is "at 11".
        name: ``mao_de_onze`` or ``mao_de_dez`` when exactly one side is at the threshold.
        play_worth: the hand's worth when that side decides to play (no truco calls).
        run_pays: what the other side scores when it decides to run.
        ferro_worth: the hand's worth when both sides are at the threshold (mão de ferro,
            no truco calls, no decision).
    """

    threshold: int
    name: str
    play_worth: int
    run_pays: int
    ferro_worth: int


@dataclass(frozen=True)
class OptionSpec:
    """A setting a table chooses before the match.

    Attributes:
        key: the option's name in ``options``.
        choices: the accepted values.
        default: the value used when the option is not given.
        label: English label (translated by the web layer).
    """

    key: str
    choices: tuple[Any, ...]
    default: Any
    label: str


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
    line, the log, the spoken text and the errors (WORDING-REVIEW.md section 4a).

    Attributes:
        shouts: call id -> the shout on its button ("¡Quiero retruco!", "Seis!").
        calls: call id -> the call's bare name, for the log and messages ("Retruco").
        answers: ``quiero``/``no_quiero``/``mazo``/``no_flor`` -> the answer as said.
        flor_answers: ``quiero``/``no_quiero`` while a Flor (or Contraflor) is pending.
        accepted / refused: the log's word for an accepted / refused call ("querido",
            "no querido"; "aceito", "correram").
        tie: a parda / empate.
        specials: special-hand id -> its name ("Mão de onze"; Catalan: a page word).
        decisions: special-hand decision (``play``/``run``) -> the words, ``{special}``
            standing for the special hand's name in lower case.
        gloss: English glosses of the answers and decisions, shown on English pages.
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


_GLOSS_ANSWERS = {"quiero": "accept", "no_quiero": "refuse", "mazo": "fold", "no_flor": "no Flor",
                  "flor_quiero": "accept the Flor", "flor_no_quiero": "concede the Flor",
                  "play": "play this hand", "run": "run from this hand"}
"""English glosses of the table's answers (WORDING-REVIEW.md section 3, recommendation 1)."""

TABLE_WORDS: Mapping[str, TableWords] = MappingProxyType(
    {
        # Rioplatense: truco-15, argentino-30, uruguaio (seed 000; REFERENCE.md 1.4-1.7).
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
        ),
        # Gaúcho / gaudério (seed 002: "ir ao baralho", "fugir", "Contra-flor e o resto").
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
        ),
        # Paulista and Mineiro (seed 001: "correr", "empate", mão de onze / ferro).
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
        # Catalan truc (seed 004): its own calls and answers; the rest in the page's language.
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
    }
)
"""Table words of each variant family (:attr:`Variant.family`), WORDING-REVIEW.md section 4a."""

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


FALTA_CONVENTIONS = ("target_minus_leader", "leader_stage", "whole_game", "malas_wins_game")
"""How an accepted Falta Envido is valued (REFERENCE.md 1.6):

* ``target_minus_leader`` / ``whole_game``: target minus the leader's score (conventions A).
* ``leader_stage``: leader in the malas -> half minus the leader; else target minus leader (B).
* ``malas_wins_game``: leader in the malas -> the winner gets what it needs to reach the
  target; else target minus the leader (C).
"""


ARGENTINE_CARDS = CardRules(ARGENTINE_ORDER)
"""The Argentine 14 levels, 40 cards (seeds 000/003; seed 002 for gauderio; REFERENCE.md 1.2, 5)."""


@dataclass(frozen=True)
class Variant:
    """One Truco variant's rules, as data.

    Attributes:
        id: stable id stored with every match.
        title: short name shown to players.
        description: English one-liner (translated by the web layer).
        target: default tentos to win.
        ends_at_once: the game ends the moment a side reaches the target, its score shown
            capped; otherwise the target is checked at the end of each hand.
        base_hand_value: a hand's worth with no truco accepted (1; Mineiro 2).
        truco_ladder: the calls, in order.
        envido: Envido rules, or ``None`` where there is no Envido.
        flor: Flor rules, or ``None`` where there is no Flor (see ``flor_option``).
        flor_option: Flor exists only when ``options["flor"]`` is true.
        falta: default Falta convention (a :data:`FALTA_CONVENTIONS` name).
        malas_buenas: the score is split in two halves (malas, buenas).
        special_hand: mão de onze / dez rules, or ``None``.
        all_pardas: who wins a hand of three pardas by default: ``"mano"`` or ``"nobody"``.
        trick_accepts_pending: recording a trick while a truco call is pending accepts it
            (Catalan truc, seed 004); elsewhere it is an error.
        mazo_primera: default of the option that adds 1 tento to a fold in the first trick
            while Envido could still be called and was not (REFERENCE.md 1.8, M1).
        option_specs: the settings this variant offers.
        cards: the card order, deck, manilhas and muestra (:class:`CardRules`).
        pica_pica: a 6-player game alternates redonda and pica-pica hands (REFERENCE.md 1.1).
        family: the table whose words the variant uses, a key of :data:`TABLE_WORDS`
            (``rio``, ``br``, ``gaucho``, ``cat``).
    """

    id: str
    title: str
    description: str
    target: int
    ends_at_once: bool
    truco_ladder: tuple[TrucoStep, ...]
    base_hand_value: int = 1
    envido: EnvidoRules | None = None
    flor: FlorRules | None = None
    flor_option: bool = False
    falta: str = "target_minus_leader"
    malas_buenas: bool = False
    special_hand: SpecialHandRules | None = None
    all_pardas: str = "mano"
    trick_accepts_pending: bool = False
    mazo_primera: bool = False
    option_specs: tuple[OptionSpec, ...] = field(default_factory=tuple)
    cards: CardRules = ARGENTINE_CARDS
    pica_pica: bool = False
    family: str = "rio"

    def plays_flor(self, options: Mapping[str, Any]) -> bool:
        """Whether Flor is in play with these (resolved) ``options``."""
        return self.flor is not None and (not self.flor_option or bool(options.get("flor")))

    def malas_size(self, target: int) -> int | None:
        """Tentos of the malas (half the target) where the score is split in malas and
        buenas (REFERENCE.md 1.1), else ``None``."""
        return target // 2 if self.malas_buenas else None

    def score_parts(self, points: int, target: int) -> list[tuple[str | None, int]]:
        """One side's ``points`` as the table counts them: ``[(None, points)]``, or
        ``[("malas", m), ("buenas", b)]`` where the score is split (``m`` up to half the
        target, ``b`` what is above it)."""
        half = self.malas_size(target)
        if half is None:
            return [(None, points)]
        return [("malas", min(points, half)), ("buenas", max(0, points - half))]

    def stage(self, points: int, target: int) -> dict[str, Any] | None:
        """``{"stage", "points"}``: the stage a side with ``points`` is in and its points in
        it, or ``None`` where the score is not split."""
        half = self.malas_size(target)
        if half is None:
            return None
        return {"stage": "malas", "points": points} if points < half else {"stage": "buenas", "points": points - half}

    @property
    def words(self) -> TableWords:
        """The variant's table words (:data:`TABLE_WORDS` of its family)."""
        return TABLE_WORDS[self.family]

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check every given option.

        Args:
            options: option key -> value; ``None`` or ``{}`` for all defaults.

        Returns:
            A dict with every option of this variant.

        Raises:
            RuleError: ``bad_option`` for an unknown key or a value not in its choices.
        """
        specs = {spec.key: spec for spec in self.option_specs}
        resolved = {key: spec.default for key, spec in specs.items()}
        if options is not None and not isinstance(options, Mapping):
            raise RuleError("bad_option", N_("Options must be a JSON object of key and value."), allowed=sorted(specs))
        for key, value in (options or {}).items():
            spec = specs.get(key)
            if spec is None:
                raise RuleError(
                    "bad_option",
                    N_("Variant {variant} has no option {key}."),
                    allowed=sorted(specs),
                    variant=self.id,
                    key=str(key),
                )
            if type(value) is not type(spec.default) or value not in spec.choices:
                raise RuleError(
                    "bad_option",
                    N_("{label}: {value} is not a choice; choose one of: {choices}."),
                    allowed=list(spec.choices),
                    key=key,
                    label=PageText(spec.label),
                    value=str(value)[:40],
                    choices=[choice_label(choice) for choice in spec.choices],
                )
            resolved[key] = value
        return resolved


ARGENTINE_LADDER = (
    TrucoStep("truco", 2, 1),
    TrucoStep("retruco", 3, 2),
    TrucoStep("vale_cuatro", 4, 3),
)
"""Seed 000 "Pedir Truco" / "Responder a um pedido"; REFERENCE.md 1.4."""

_TARGET_LABEL = N_("Points to win")
_FLOR_LABEL = N_("Play with Flor")
_FALTA_LABEL = N_("Falta Envido is worth")
_MAZO_LABEL = N_("Folding in the first trick before Envido gives 1 more")
_PARDAS_LABEL = N_("Three pardas")

_REGISTRY: dict[str, Variant] = {
        variant.id: variant
        for variant in (
            Variant(
                id="truco-15",
                title=N_("Truco (15)"),
                description=N_("Two players to 15, Envido, no Flor; the game ends at 15."),
                target=15,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(ARGENTINE_ENVIDO_CHAINS),
                cards=ARGENTINE_CARDS,
            ),
            Variant(
                id="argentino-30",
                title=N_("Truco argentino (30)"),
                description=N_("30 tentos in malas and buenas, Envido, Flor if agreed."),
                target=30,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(ARGENTINE_ENVIDO_CHAINS, closes_on_truco_accepted=True),
                flor=FlorRules(),
                flor_option=True,
                falta="leader_stage",
                malas_buenas=True,
                mazo_primera=True,
                cards=ARGENTINE_CARDS,
                pica_pica=True,
                option_specs=(
                    OptionSpec("target", (30, 18, 40), 30, _TARGET_LABEL),
                    OptionSpec("flor", (False, True), False, _FLOR_LABEL),
                    OptionSpec("falta", ("leader_stage", "whole_game", "malas_wins_game"), "leader_stage", _FALTA_LABEL),
                    OptionSpec("mazo_primera", (True, False), True, _MAZO_LABEL),
                ),
            ),
            Variant(
                id="uruguaio",
                title=N_("Truco uruguayo"),
                description=N_("Uruguayan truco with muestra: 30 (or 40) in malas and buenas, Envido and Flor."),
                target=30,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(
                    ARGENTINE_ENVIDO_CHAINS,
                    closes_on_truco_accepted=True,
                    # A pieza counts 27-30 and adds the best other card (REFERENCE.md 2.4).
                    muestra=True,
                ),
                flor=FlorRules(muestra=True),
                falta="malas_wins_game",
                malas_buenas=True,
                mazo_primera=True,
                # The piezas of the muestra, then the matas, on top of the Argentine order
                # (REFERENCE.md 2.3).
                cards=CardRules(ARGENTINE_ORDER, muestra=True),
                option_specs=(
                    OptionSpec("target", (30, 40), 30, _TARGET_LABEL),
                    OptionSpec("falta", ("malas_wins_game", "leader_stage", "whole_game"), "malas_wins_game", _FALTA_LABEL),
                    OptionSpec("mazo_primera", (True, False), True, _MAZO_LABEL),
                ),
            ),
            Variant(
                id="paulista",
                title=N_("Truco paulista"),
                family="br",
                description=N_("12 tentos with vira and manilhas: Truco 3, Seis, Nove, Doze; mão de onze."),
                target=12,
                ends_at_once=True,
                truco_ladder=(
                    TrucoStep("truco", 3, 1),
                    TrucoStep("seis", 6, 3),
                    TrucoStep("nove", 9, 6),
                    TrucoStep("doze", 12, 9),
                ),
                special_hand=SpecialHandRules(threshold=11, name="mao_de_onze", play_worth=3, run_pays=1, ferro_worth=1),
                all_pardas="nobody",
                # Manilhas from the vira over 3 2 A K J Q 7 6 5 4; sujo or limpo (seed 001; REFERENCE.md 3.2).
                cards=CardRules(PLAIN_ORDER, decks=("sujo", "limpo"), vira_manilhas=True),
                option_specs=(OptionSpec("all_pardas", ("nobody", "mano"), "nobody", _PARDAS_LABEL),),
            ),
            Variant(
                id="mineiro",
                title=N_("Truco mineiro"),
                family="br",
                description=N_("12 tentos with fixed manilhas: hand 2, Truco 4, Seis, Dez, Doze; mão de dez."),
                target=12,
                ends_at_once=True,
                base_hand_value=2,
                truco_ladder=(
                    TrucoStep("truco", 4, 2),
                    TrucoStep("seis", 6, 4),
                    TrucoStep("dez", 10, 6),
                    TrucoStep("doze", 12, 10),
                ),
                special_hand=SpecialHandRules(threshold=10, name="mao_de_dez", play_worth=4, run_pays=2, ferro_worth=2),
                all_pardas="nobody",
                cards=CardRules(PLAIN_ORDER, fixed_manilhas=MINEIRO_MANILHAS),  # REFERENCE.md 4
                option_specs=(OptionSpec("all_pardas", ("nobody", "mano"), "nobody", _PARDAS_LABEL),),
            ),
            Variant(
                id="gauderio",
                title=N_("Truco gaudério"),
                family="gaucho",
                description=N_("12 (or 24) tentos, Envido and Flor with the Gaudério values."),
                target=12,
                ends_at_once=False,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(GAUDERIO_ENVIDO_CHAINS),
                flor=FlorRules(compared=None, refused=4, contraflor_answered=False),
                cards=ARGENTINE_CARDS,  # seed 002; REFERENCE.md 5
                option_specs=(OptionSpec("target", (12, 24), 12, _TARGET_LABEL),),
            ),
            Variant(
                id="truc",
                title=N_("Truc català"),
                family="cat",
                description=N_("Catalan truc to 12: truc 2, retruc 3, the 11-point rule."),
                target=12,
                ends_at_once=True,
                truco_ladder=(TrucoStep("truc", 2, 1), TrucoStep("retruc", 3, 2)),
                special_hand=SpecialHandRules(threshold=11, name="mao_de_onze", play_worth=3, run_pays=1, ferro_worth=1),
                trick_accepts_pending=True,
                cards=CardRules(CATALAN_ORDER),  # seed 004 "Preparação"; REFERENCE.md 6.1
            ),
        )
    }
VARIANTS: Mapping[str, Variant] = MappingProxyType(_REGISTRY)
"""Every variant by id (read-only; :func:`register` adds one)."""


def get_variant(variant_id: str) -> Variant:
    """The variant with id ``variant_id``.

    Raises:
        RuleError: ``no_variant`` when none was given, ``bad_variant`` naming the id; both
            list the known ones.
    """
    if variant_id is None:
        raise RuleError("no_variant", N_("Choose a variant."), allowed=list(VARIANTS))
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):
        raise RuleError(
            "bad_variant",
            N_("Unknown variant {variant}."),
            allowed=list(VARIANTS),
            variant=str(variant_id),
        ) from None


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry (a variant built from the parts above, say); every
    module that reads :data:`VARIANTS` sees it at once.

    Raises:
        ValueError: a variant with that id is already registered.
    """
    if variant.id in _REGISTRY:
        raise ValueError(f"variant {variant.id!r} is already registered")
    _REGISTRY[variant.id] = variant
    return variant


def unregister(variant_id: str) -> None:
    """Remove the variant ``variant_id`` from the registry (nothing if it is not there)."""
    _REGISTRY.pop(variant_id, None)


def variants_where(test: Callable[[Variant], bool]) -> list[str]:
    """The ids of the registered variants for which ``test(variant)`` is true, in order."""
    return [v.id for v in VARIANTS.values() if test(v)]


def default_variant() -> Variant:
    """The variant a new match or a calculator starts from: the first registered."""
    return next(iter(VARIANTS.values()))


def flor_in_play(*, flor: bool, muestra: bool) -> bool:
    """Whether an Envido count includes the Flor: when the table plays "con flor", or when a
    muestra is turned up, since every variant with a muestra always plays Flor (uruguaio:
    REFERENCE.md 2.4; issue #2)."""
    return flor or (muestra and all(v.flor is not None and not v.flor_option
                                    for v in VARIANTS.values() if v.cards.muestra))
