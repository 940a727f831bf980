"""Cards and parsing what people type (issue 3 "Cards", "Parsing what people type")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.core.cards import (
    DECK,
    LANGS,
    LIMPO_DECK,
    Card,
    parse_card,
    parse_cards,
    parse_hand,
    parse_rank,
)
from scorer.core.errors import CardError, TrucoError

# Every form listed in the issue, with the card it names (issue 3, "Parsing what people type").
ISSUE_FORMS = [
    ("7 de oro", "es", Card(7, "o")),
    ("7 oro", "es", Card(7, "o")),
    ("7o", "es", Card(7, "o")),
    ("7 de ouros", "pt", Card(7, "o")),
    ("7♦", "pt", Card(7, "o")),
    ("ancho de espada", "es", Card(1, "e")),
    ("as de espadas", "es", Card(1, "e")),
    ("Ás de paus", "pt", Card(1, "b")),
    ("1e", "pt", Card(1, "e")),
    ("sota de copa", "es", Card(10, "c")),
    ("caballo de basto", "es", Card(11, "b")),
    ("rey de oros", "es", Card(12, "o")),
    ("12b", "es", Card(12, "b")),
    ("Q de copas", "pt", Card(10, "c")),
    ("QC", "pt", Card(10, "c")),
    ("K♠", "pt", Card(12, "e")),
    # Brazilian twin: 10 = Q (dama), 11 = J (valete), 12 = K (rei), paus = basto.
    ("dama de ouros", "pt", Card(10, "o")),
    ("valete de paus", "pt", Card(11, "b")),
    ("rei de copas", "pt", Card(12, "c")),
    ("4p", "pt", Card(4, "b")),
    ("4 de paus", "pt", Card(4, "b")),
    # English letters: c = clubs, h = hearts, d = diamonds, s = spades.
    ("QC", "en", Card(10, "b")),
    ("7d", "en", Card(7, "o")),
    ("4h", "en", Card(4, "c")),
    ("As", "en", Card(1, "e")),
    ("king of hearts", "en", Card(12, "c")),
    ("jack of clubs", "en", Card(11, "b")),
    ("7 of diamonds", "en", Card(7, "o")),
    ("3 ♣", "en", Card(3, "b")),
    ("10♥", "es", Card(10, "c")),
]


@pytest.mark.parametrize(("text", "lang", "card"), ISSUE_FORMS)
def test_issue_forms_parse(text, lang, card):
    assert parse_card(text, lang) == card


@pytest.mark.parametrize(
    ("text", "lang", "cards"),
    [
        ("7o 6o 5c", "pt", ["7o", "6o", "5c"]),
        ("7o, 6o, 5c", "es", ["7o", "6o", "5c"]),
        ("7 de oro y 6 de oro y 5 de copa", "es", ["7o", "6o", "5c"]),
        ("7 de ouros e 6 de ouros e 5 de copas", "pt", ["7o", "6o", "5c"]),
        ("7 of diamonds and 6d, 5h", "en", ["7o", "6o", "5c"]),
        ("1 espada 7 oro", "es", ["1e", "7o"]),
        ("", "pt", []),
        ("  ,  ", "pt", []),
    ],
)
def test_several_cards_in_one_string(text, lang, cards):
    assert [c.code for c in parse_cards(text, lang)] == cards


@pytest.mark.parametrize(
    ("text", "lang", "code", "token"),
    [
        ("8o", "pt", "no_eight_nine", "8o"),
        ("9 de oro", "es", "no_eight_nine", "9 de oro"),
        ("7o 8e 6o", "pt", "no_eight_nine", "8e"),
        ("13o", "pt", "bad_card", "13o"),
        ("7x", "pt", "bad_card", "7x"),
        ("7w", "pt", "bad_card", "7w"),  # issue 13 item 6: "7h" reads as 7 de copas everywhere now
        ("7o 6o banana", "pt", "bad_card", "banana"),
        ("7 de nada", "es", "bad_card", "7 de nada"),
        ("7", "pt", "missing_suit", "7"),
        ("7 de", "es", "missing_suit", "7 de"),
        ("7o 7 de ouros", "pt", "duplicate_card", "7"),
        ("zap", "pt", "manilha_needs_vira", "zap"),
        ("espadilha 3o", "pt", "manilha_needs_vira", "espadilha"),
    ],
)
def test_bad_input_names_the_token(text, lang, code, token):
    with pytest.raises(CardError) as info:
        parse_cards(text, lang)
    assert info.value.code == code
    assert info.value.params["token"] == token
    assert isinstance(info.value, TrucoError) and isinstance(info.value, ValueError)


def test_bad_token_shows_accepted_forms():
    with pytest.raises(CardError) as info:
        parse_cards("banana", "es")
    assert "7 de oro" in info.value.allowed
    assert "7 de oro" in info.value.message
    assert "banana" in info.value.message


def test_manilha_nicknames_with_manilhas_in_force():
    # Paulista vira 3: manilhas are the 4s, paus > copas > espadas > ouros (docs/rules.md §Vira and manilhas).
    manilhas = (Card(4, "b"), Card(4, "c"), Card(4, "e"), Card(4, "o"))
    cards = parse_cards("zap, copeta, espadilha e pica-fumo", "pt", manilhas=manilhas)
    assert cards == manilhas
    assert parse_card("pica fumo", "pt", manilhas=manilhas) == Card(4, "o")


@pytest.mark.parametrize(
    ("text", "count", "got"), [("7o 6o", 3, 2), ("7o 6o 5o 4o", 3, 4), ("", 1, 0)]
)
def test_wrong_count(text, count, got):
    with pytest.raises(CardError) as info:
        parse_hand(text, "pt", count=count)
    assert info.value.code == "card_count"
    assert info.value.params["count"] == got


def test_parse_card_wants_exactly_one():
    with pytest.raises(CardError) as info:
        parse_card("7o 6o")
    assert info.value.code == "card_count"


@pytest.mark.parametrize(("rank", "code"), [(8, "no_eight_nine"), (9, "no_eight_nine"),
                                            (0, "bad_card"), (13, "bad_card")])
def test_card_rejects_ranks_outside_the_deck(rank, code):
    with pytest.raises(CardError) as info:
        Card(rank, "o")
    assert info.value.code == code


def test_card_rejects_unknown_suit():
    with pytest.raises(CardError):
        Card(7, "x")


@pytest.mark.parametrize(
    ("text", "rank"),
    [("7", 7), ("Q", 10), ("dama", 10), ("J", 11), ("K", 12), ("rei", 12), ("Ás", 1), ("A", 1),
     ("3", 3), ("sota", 10)],
)
def test_parse_rank(text, rank):
    assert parse_rank(text) == rank


@pytest.mark.parametrize(("text", "code"), [("8", "no_eight_nine"), ("x", "bad_rank"),
                                            ("", "bad_rank"), ("7o", "bad_rank")])
def test_parse_rank_errors(text, code):
    with pytest.raises(CardError) as info:
        parse_rank(text)
    assert info.value.code == code


def test_decks():
    # Spanish deck: 40 cards, no 8 or 9 (docs/rules.md §Argentine order); baralho limpo Q J K A 2 3 (docs/rules.md §Vira and manilhas).
    assert len(DECK) == len(set(DECK)) == 40
    assert not any(c.rank in (8, 9) for c in DECK)
    assert len(LIMPO_DECK) == 24
    assert {c.rank for c in LIMPO_DECK} == {10, 11, 12, 1, 2, 3}


@pytest.mark.parametrize(
    ("card", "pt", "es", "en"),
    [
        (Card(7, "o"), "7 de ouros", "7 de oro", "7 of diamonds"),
        (Card(1, "e"), "Ás de espadas", "1 de espada", "ace of spades"),
        (Card(10, "c"), "Q de copas", "sota de copa", "queen of hearts"),
        (Card(11, "b"), "J de paus", "caballo de basto", "jack of clubs"),
        (Card(12, "o"), "K de ouros", "rey de oro", "king of diamonds"),
    ],
)
def test_labels(card, pt, es, en):
    assert (card.label("pt"), card.label("es"), card.label("en")) == (pt, es, en)


@pytest.mark.parametrize(("code", "card"), [("4b", Card(4, "b")), ("10c", Card(10, "c")),
                                            ("12O", Card(12, "o"))])
def test_code_round_trip(code, card):
    assert Card.from_code(code) == card
    assert Card.from_code(card.code) == card
    assert str(card) == card.code
    assert eval(repr(card)) == card  # noqa: S307 - repr rebuilds the object


@pytest.mark.parametrize("code", ["8o", "4h", "", "10", "c10"])
def test_from_code_rejects(code):
    with pytest.raises(CardError):
        Card.from_code(code)


def test_unknown_language():
    with pytest.raises(CardError) as info:
        parse_cards("7o", "fr")
    assert info.value.code == "bad_lang"


# --- properties (hypothesis) -----------------------------------------------------------------

cards = st.sampled_from(DECK)
langs = st.sampled_from(LANGS)


@given(cards, langs)
def test_printed_form_reparses_to_same_card(card, lang):
    assert parse_card(card.label(lang), lang) == card
    assert parse_card(card.label(lang).upper(), lang) == card


@given(cards, st.sampled_from(["pt", "es"]))
def test_code_reparses_in_pt_and_es(card, lang):
    assert parse_card(card.code, lang) == card


@given(st.lists(cards, min_size=1, max_size=6, unique=True), langs,
       st.sampled_from([", ", " ", " e ", " y ", " and "]))
def test_joined_hand_reparses(hand, lang, sep):
    assert list(parse_cards(sep.join(c.label(lang) for c in hand), lang)) == hand


JUNK_ALPHABET = st.sampled_from(
    list("0123456789 ,;eEyYoOcCbBpPsShHdDaAqQjJkK♠♣♥♦-") + ["de ", "of ", "zap", "ás", "\n"]
)


@given(st.text(), langs)
def test_random_text_gives_card_error_or_cards(text, lang):
    try:
        result = parse_cards(text, lang)
    except CardError:
        return
    assert all(isinstance(c, Card) for c in result)


@given(st.lists(JUNK_ALPHABET, max_size=12).map("".join), langs)
def test_card_like_junk_gives_card_error_or_cards(text, lang):
    try:
        result = parse_cards(text, lang)
    except CardError:
        return
    assert len(set(result)) == len(result)


@given(st.text(min_size=1).filter(lambda t: any(ch.isalpha() for ch in t)).map(lambda t: t + "§"))
def test_junk_with_unknown_symbol_always_raises(text):
    with pytest.raises(CardError):
        parse_cards(text, "pt")
