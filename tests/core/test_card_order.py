"""Card order per variant, manilhas for a vira, piezas, compare (docs/rules.md §Cards:
§Argentine order, §Muestra and piezas, §Vira and manilhas, §Fixed manilhas, §Catalan order)."""

import json
import re
from pathlib import Path

import pytest

from scorer.core.card_order import (
    MINEIRO_MANILHAS,
    VARIANTS,
    card_order,
    compare,
    manilha_name,
    manilha_rank,
    manilhas_for,
    paulista_manilhas,
    piezas,
    strength_level,
)
from scorer.core.card_rules import LIMPO, SUJO
from scorer.core.cards import DECK, Card
from scorer.core.errors import CardError
from scorer.core.variants import known_decks


def c(code):
    return Card.from_code(code)


def codes(level):
    return sorted(card.code for card in level)


# --- Argentine 14 levels (docs/rules.md §Argentine order) ----------------------------------

ARGENTINE_LEVELS = [
    ["1e"], ["1b"], ["7e"], ["7o"], ["3b", "3c", "3e", "3o"], ["2b", "2c", "2e", "2o"],
    ["1c", "1o"], ["12b", "12c", "12e", "12o"], ["11b", "11c", "11e", "11o"],
    ["10b", "10c", "10e", "10o"], ["7b", "7c"], ["6b", "6c", "6e", "6o"],
    ["5b", "5c", "5e", "5o"], ["4b", "4c", "4e", "4o"],
]


@pytest.mark.parametrize("variant", ["truco-15", "argentino-30", "gauderio"])
def test_argentine_levels(variant):
    assert [codes(level) for level in card_order(variant)] == ARGENTINE_LEVELS


def test_gauderio_top_four_from_seed_002():
    # docs/rules.md §Argentine order (gauderio): manilhas weakest to strongest 7 ouros, 7 espadas, 1 paus, 1 espadas;
    # then 3 > 2 > 1 > 12 > 11 > 10 > 7 > 6 > 5 > 4 of all suits.
    order = card_order("gauderio")
    assert [level[0].code for level in order[:4]] == ["1e", "1b", "7e", "7o"]
    assert compare(c("7o"), c("3e"), "gauderio") == "first"
    assert compare(c("10c"), c("7c"), "gauderio") == "first"


@pytest.mark.parametrize(
    ("first", "second", "variant", "winner"),
    [
        # docs/rules.md §Argentine order: 7 oro beats any 3; 1 copa ties 1 oro; 7 copa loses to any 10.
        ("7o", "3e", "truco-15", "first"),
        ("3b", "7o", "argentino-30", "second"),
        ("1c", "1o", "truco-15", "parda"),
        ("7c", "10b", "truco-15", "second"),
        # Issue example: 1 espada vs 7 oro.
        ("1e", "7o", "truco-15", "first"),
        # docs/rules.md §Argentine order: a 3 beats a rey; two 6s or two reis are a parda; 3 espada vs 3 oro parda.
        ("3c", "12e", "truco-15", "first"),
        ("6e", "6b", "truco-15", "parda"),
        ("12o", "12c", "truco-15", "parda"),
        ("3e", "3o", "truco-15", "parda"),
        ("1b", "7e", "truco-15", "first"),
        ("7b", "7c", "truco-15", "parda"),
        ("4e", "5e", "truco-15", "second"),
        # docs/rules.md §Catalan order: 3 2 1 12 11 10 7 6 5 4, suits irrelevant.
        ("1e", "2c", "truc", "second"),
        ("1e", "1c", "truc", "parda"),
        ("7o", "10b", "truc", "second"),
        ("12c", "11c", "truc", "first"),
        ("4e", "5o", "truc", "second"),
    ],
)
def test_compare_without_vira(first, second, variant, winner):
    assert compare(c(first), c(second), variant) == winner


def test_catalan_order():
    assert [codes(level) for level in card_order("truc")] == [
        sorted(f"{r}{s}" for s in "ebco") for r in (3, 2, 1, 12, 11, 10, 7, 6, 5, 4)
    ]


# --- Paulista (docs/rules.md §Vira and manilhas) ---------------------------------------

@pytest.mark.parametrize(
    ("vira", "deck", "rank"),
    [
        (3, SUJO, 4),  # docs/rules.md §Vira and manilhas: vira 3 -> the 4s
        (7, SUJO, 10),  # docs/rules.md §Vira and manilhas: vira 7 -> the Qs
        (12, SUJO, 1),  # docs/rules.md §Vira and manilhas: vira K -> As
        (1, SUJO, 2),  # vira A -> 2s
        (2, SUJO, 3),  # vira 2 -> 3s
        (11, SUJO, 12),  # vira J -> Ks
        (10, SUJO, 11),  # vira Q -> Js (Q < J < K)
        (4, SUJO, 5),
        (5, SUJO, 6),
        (6, SUJO, 7),
        (3, LIMPO, 10),  # docs/rules.md §Vira and manilhas: limpo, vira 3 -> the Qs
        (12, LIMPO, 1),
        (10, LIMPO, 11),
    ],
)
def test_manilha_rank(vira, deck, rank):
    assert manilha_rank(vira, deck=deck) == rank
    assert manilha_rank(Card(vira, "o"), deck=deck) == rank


def test_manilhas_for_vira_3_strongest_first():
    # docs/rules.md §Vira and manilhas: 4♣ (zap), then 4♥, 4♠, 4♦.
    manilhas = paulista_manilhas(c("3o"))
    assert [m.code for m in manilhas] == ["4b", "4c", "4e", "4o"]
    assert [manilha_name(m, manilhas) for m in manilhas] == ["zap", "copas", "espadilha",
                                                              "pica-fumo"]
    assert manilha_name(c("3e"), manilhas) is None


@pytest.mark.parametrize(
    ("first", "second", "vira", "winner"),
    [
        ("6o", "3e", "5c", "first"),  # docs/rules.md §Vira and manilhas: vira 5, 6♦ beats any 3
        ("3e", "3c", "5c", "parda"),  # docs/rules.md §Vira and manilhas: 3♠ vs 3♥ cangou
        ("4b", "4c", "3o", "first"),  # zap beats copas
        ("4o", "4e", "3o", "second"),  # espadilha beats pica-fumo
        ("4o", "3e", "3o", "first"),  # the weakest manilha beats any 3
        ("3o", "2c", "7e", "first"),  # docs/rules.md §Vira and manilhas: 3 2 A K J Q 7 6 5 4
        ("12c", "11c", "7e", "first"),  # K beats J
        ("11b", "10e", "3o", "first"),  # J beats Q
        ("1e", "12o", "3o", "first"),  # A beats K; espadas has no special ace in Paulista
        ("1e", "1o", "3c", "parda"),
        ("7o", "7e", "3c", "parda"),  # vira rank cards are ordinary; 7s tie
        ("10b", "3c", "7e", "first"),  # vira 7: Q de paus is the zap
        ("5e", "4e", "2o", "first"),
    ],
)
def test_paulista_compare(first, second, vira, winner):
    assert compare(c(first), c(second), "paulista", vira=c(vira)) == winner


def test_paulista_compare_with_vira_rank_only():
    assert compare(c("6o"), c("3e"), "paulista", vira=5) == "first"


def test_paulista_order_sujo_and_limpo():
    order = card_order("paulista", vira=7)
    assert [codes(level) for level in order[:4]] == [["10b"], ["10c"], ["10e"], ["10o"]]
    assert [codes(level) for level in order[4:]] == [
        sorted(f"{r}{s}" for s in "ebco") for r in (3, 2, 1, 12, 11, 7, 6, 5, 4)
    ]
    limpo = card_order("paulista", vira=3, deck="limpo")
    assert sum(len(level) for level in limpo) == 24
    assert [codes(level) for level in limpo[4:]] == [
        sorted(f"{r}{s}" for s in "ebco") for r in (3, 2, 1, 12, 11)
    ]


def test_limpo_rejects_cards_and_viras_outside_it():
    with pytest.raises(CardError) as info:
        compare(c("4o"), c("3e"), "paulista", vira=3, deck="limpo")
    assert info.value.code == "not_in_deck"
    with pytest.raises(CardError) as info:
        manilha_rank(7, deck=LIMPO)
    assert info.value.code == "not_in_deck"


# --- Mineiro (docs/rules.md §Fixed manilhas) -------------------------------------------

def test_mineiro_manilhas():
    assert [m.code for m in MINEIRO_MANILHAS] == ["4b", "7c", "1e", "7o"]
    assert manilhas_for("mineiro") == MINEIRO_MANILHAS


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [
        ("4b", "7c", "first"),
        ("7c", "1e", "first"),
        ("1e", "7o", "first"),
        ("7o", "3e", "first"),  # pica-fumo beats any 3
        ("4c", "5e", "second"),  # 4♥ is the lowest class
        ("4c", "4o", "parda"),
        ("1c", "1o", "parda"),  # A♥ ranks with the ordinary As
        ("1c", "12c", "first"),
        ("12e", "11e", "first"),  # K > J > Q
        ("11e", "10e", "first"),
        ("7e", "7b", "parda"),  # the other 7s are ordinary
        ("7e", "10o", "second"),
    ],
)
def test_mineiro_compare(first, second, winner):
    assert compare(c(first), c(second), "mineiro") == winner


# --- Uruguayan (docs/rules.md §Muestra and piezas) ---------------------------------------

@pytest.mark.parametrize(
    ("muestra", "expected"),
    [
        ("1e", ["2e", "4e", "5e", "11e", "10e"]),
        ("3c", ["2c", "4c", "5c", "11c", "10c"]),
        ("4c", ["2c", "12c", "5c", "11c", "10c"]),  # docs/rules.md §Muestra and piezas: the 12 copa is the "4"
        ("2o", ["12o", "4o", "5o", "11o", "10o"]),
        ("11b", ["2b", "4b", "5b", "12b", "10b"]),
        ("10e", ["2e", "4e", "5e", "11e", "12e"]),
        ("6o", ["2o", "4o", "5o", "11o", "10o"]),  # docs/rules.md §Muestra and piezas: 12 oro stays ordinary
    ],
)
def test_piezas(muestra, expected):
    assert [p.code for p in piezas(c(muestra))] == expected


def test_uruguayan_order_muestra_copa():
    # docs/rules.md §Muestra and piezas: 2 copa > 4 copa > 5 copa > 11 copa > 10 copa > 1 espada.
    order = card_order("uruguaio", muestra=c("6c"))
    assert [codes(level) for level in order[:9]] == [
        ["2c"], ["4c"], ["5c"], ["11c"], ["10c"], ["1e"], ["1b"], ["7e"], ["7o"]
    ]
    assert codes(order[9]) == ["3b", "3c", "3e", "3o"]
    assert codes(order[10]) == ["2b", "2e", "2o"]
    assert codes(order[-1]) == ["4b", "4e", "4o"]
    assert sum(len(level) for level in order) == 40


@pytest.mark.parametrize(
    ("first", "second", "muestra", "winner"),
    [
        ("10c", "1e", "6c", "first"),  # docs/rules.md §Muestra and piezas: the weakest pieza beats the ancho de espada
        ("2c", "4c", "6c", "first"),
        ("12c", "2c", "4c", "second"),  # docs/rules.md §Muestra and piezas: 12 copa replaces the 4, second after 2 copa
        ("12c", "5c", "4c", "first"),
        ("12o", "12c", "6o", "parda"),  # docs/rules.md §Muestra and piezas: 12 oro ordinary
        ("7o", "3e", "6o", "first"),  # matas beat the 3s
        ("2e", "2b", "6o", "parda"),
        ("4o", "5e", "6o", "first"),  # pieza 4 de oro
        ("4e", "5e", "6o", "second"),
    ],
)
def test_uruguayan_compare(first, second, muestra, winner):
    assert compare(c(first), c(second), "uruguaio", muestra=c(muestra)) == winner


# --- completeness and errors ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("variant", "kwargs"),
    [(v.id, {v.cards.piezas.turned_up: Card(1, "e")} if v.cards.piezas
             else {"vira": 3} if v.cards.vira_manilhas else {}) for v in VARIANTS.values()],
)
def test_every_order_holds_each_of_its_decks_once(variant, kwargs):
    # Every deck a variant is played with (its data: CardRules.decks), each card once: the 40
    # cards, Paulista's limpo 24 (docs/rules.md §Vira and manilhas), Valencian truc's 22
    # (docs/rules.md §Valencian truc).
    for deck in VARIANTS[variant].cards.decks:
        order = card_order(variant, deck=deck.name, **kwargs)
        listed = [card for level in order for card in level]
        assert sorted(listed, key=str) == sorted(deck.cards, key=str)
        assert len(listed) == len(set(listed))
        assert strength_level(listed[0], order) == 1


def test_the_decks_come_from_the_variants():
    # The deck names the CLI and the calculators take are read from the registry (no closed list).
    assert set(known_decks()) == {deck.name for v in VARIANTS.values() for deck in v.cards.decks}
    assert [len(deck.cards) for deck in VARIANTS["paulista"].cards.decks] == [40, 24]


@pytest.mark.parametrize(
    ("variant", "kwargs", "code"),
    [
        ("paulista", {}, "vira_required"),
        ("uruguaio", {}, "muestra_required"),
        ("truco-15", {"vira": 3}, "vira_not_used"),
        ("mineiro", {"vira": 3}, "vira_not_used"),
        ("paulista", {"muestra": Card(1, "e"), "vira": 3}, "muestra_not_used"),
        ("truc", {"deck": "limpo"}, "deck_not_used"),
        ("truco", {}, "bad_variant"),
        ("paulista", {"vira": 3, "deck": "meio"}, "bad_deck"),
    ],
)
def test_order_errors(variant, kwargs, code):
    with pytest.raises(CardError) as info:
        card_order(variant, **kwargs)
    assert info.value.code == code


@pytest.mark.parametrize(
    ("first", "second", "kwargs"),
    [("3o", "3o", {}), ("3o", "4o", {"vira": Card(3, "o")}),
     ("5c", "1e", {"muestra": Card(1, "e")})],
)
def test_compare_rejects_the_same_card_twice(first, second, kwargs):
    variant = "paulista" if "vira" in kwargs else "uruguaio" if "muestra" in kwargs else "truc"
    with pytest.raises(CardError) as info:
        compare(c(first), c(second), variant, **kwargs)
    assert info.value.code == "duplicate_card"


def test_manilhas_for_variant_without_manilhas():
    with pytest.raises(CardError) as info:
        manilhas_for("truco-15")
    assert info.value.code == "no_manilhas"
    assert set(info.value.allowed) == {"paulista", "mineiro"}


def test_variants_list():
    """The registry's ids are the variants the whole-match files pin (tests/matches/expected.json,
    one entry a variant), each a URL-safe slug: the list is read, never written out here."""
    expected = json.loads((Path(__file__).resolve().parents[1] / "matches" / "expected.json").read_text())
    assert set(VARIANTS) == {entry["variant"] for entry in expected.values()}
    assert all(re.fullmatch(r"[a-z0-9-]+", variant_id) for variant_id in VARIANTS)
