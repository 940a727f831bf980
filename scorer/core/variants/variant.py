""":class:`Variant`: one Truco variant's rules, as data (every fact that differs between
variants). Units: tentos."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorer.core.card_rules import ARGENTINE_ORDER, CardRules
from scorer.core.errors import N_, PageText, RuleError
from scorer.core.variants.rules import EnvidoRules, FlorRules, OptionSpec, SpecialHandRules, TrucoStep
from scorer.core.variants.words import TABLE_WORDS, TableWords, choice_label

ARGENTINE_CARDS = CardRules(ARGENTINE_ORDER)
"""The Argentine 14 levels, 40 cards (docs/rules.md §Argentine order)."""


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
            (Catalan truc; docs/rules.md §Catalan ladder); elsewhere it is an error.
        mazo_primera: default of the option that adds 1 tento to a fold in the first trick
            while Envido could still be called and was not (docs/rules.md §Folding in the first trick).
        option_specs: the settings this variant offers.
        cards: the card order, deck, manilhas and muestra (:class:`CardRules`).
        pica_pica: a 6-player game alternates redonda and pica-pica hands (docs/rules.md §Seats and pica-pica).
        family: the table whose words the variant uses, a key of :data:`TABLE_WORDS`
            (``rio``, ``br``, ``gaucho``, ``cat``, ``ve``).
        table_words: the variant's own table words, where it has no family in
            :data:`TABLE_WORDS` (a variant registered from outside), else ``None``.
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
    table_words: TableWords | None = None

    def plays_flor(self, options: Mapping[str, Any]) -> bool:
        """Whether Flor is in play with these (resolved) ``options``."""
        return self.flor is not None and (not self.flor_option or bool(options.get("flor")))

    def malas_size(self, target: int) -> int | None:
        """Tentos of the malas (half the target) where the score is split in malas and
        buenas (docs/rules.md §Malas and buenas), else ``None``."""
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
        """The variant's table words (its own, else :data:`TABLE_WORDS` of its family)."""
        return self.table_words or TABLE_WORDS[self.family]

    def call_ids(self) -> tuple[str, ...]:
        """Every call id this variant can use: its ladder, its Envido and its Flor calls."""
        return (
            *(step.call for step in self.truco_ladder),
            *(self.envido.calls if self.envido else ()),
            *(self.flor.calls if self.flor else ()),
        )

    def options_before(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A stored match's ``options`` (every option it had, resolved when it was made) with
        each option added since given the value the rules had then (:attr:`OptionSpec.before`),
        so that an old match replays as it was played: a stored ``venezolano`` match without
        ``flor_vs_flor`` keeps the compared Flor (docs/rules.md §Venezuelan options)."""
        missing = {spec.key: spec.before for spec in self.option_specs
                   if spec.before is not None and spec.key not in options}
        return {**options, **missing}

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check every given option.

        Args:
            options: option key -> value; ``None`` or ``{}`` for all defaults.

        Returns:
            A dict with every option of this variant.

        Raises:
            RuleError: ``bad_option`` for an unknown key, a value not in its choices, or
            ``flor_per_player`` without Flor in play.
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
        if resolved.get("flor_per_player") and not self.plays_flor(resolved):
            raise RuleError(  # one Flor per player needs the Flor itself (docs/rules.md §One Flor per player)
                "bad_option", N_("One Flor per player needs Flor in play: turn Flor on too."),
                allowed=["flor"], key="flor_per_player", variant=self.id)
        return resolved
