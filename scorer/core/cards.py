"""Cards of the Spanish 40-card deck and their Brazilian twin, and reading what people type.

A card is a rank (Spanish numbering 1-7, 10 sota, 11 caballo, 12 rey) and a suit letter
(``e`` espada, ``b`` basto/paus, ``c`` copa, ``o`` oro/ouros). The Brazilian deck is the same
40 cards: A = 1, Q (dama) = 10, J (valete) = 11, K (rei) = 12, paus = basto, ouros = oro
(issue 3; docs/rules.md §Argentine order, §Vira and manilhas). The baralho limpo is the
24 cards Q J K A 2 3 (docs/rules.md §Vira and manilhas).

Every card has a canonical, language-independent code ``<rank><suit>`` such as ``"4b"`` or
``"10c"`` (used in JSON), and a printed name in Portuguese, Spanish or English that
:func:`parse_card` reads back to the same card.

Pure module: no I/O, no Flask, no sqlite3. Every bad input raises :class:`CardError`.

>>> from scorer.core.cards import parse_card, parse_hand
>>> parse_card("7 de espadas"), parse_card("ás de paus"), parse_card("K♥")
(Card(7, 'e'), Card(1, 'b'), Card(12, 'c'))
>>> parse_hand("7 of swords, 6 of swords, king of cups", "en")
(Card(7, 'e'), Card(6, 'e'), Card(12, 'c'))
>>> card = parse_card("4b")
>>> str(card), card.label("pt"), card.label("es"), card.label("en")
('4b', '4 de paus', '4 de basto', '4 of clubs')
>>> parse_card("8e")
Traceback (most recent call last):
    ...
scorer.core.errors.CardError: There are no 8s or 9s in the Spanish deck (card 8e).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from scorer.core.errors import N_, NP_, CardError

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""The ten ranks of the Spanish deck, Spanish numbering (no 8 or 9)."""

SUITS: tuple[str, ...] = ("e", "b", "c", "o")
"""Suit letters of the canonical code: espada, basto (paus), copa, oro (ouros)."""

LIMPO_RANKS: tuple[int, ...] = (10, 11, 12, 1, 2, 3)
"""Ranks of the baralho limpo, Q J K A 2 3 (docs/rules.md §Vira and manilhas)."""

LANGS: tuple[str, ...] = ("pt", "es", "en", "ca")
"""Languages cards can be typed and printed in."""

MANILHA_NAMES: tuple[str, ...] = ("zap", "copas", "espadilha", "pica-fumo")
"""Names of the four manilhas, strongest first: paus, copas, espadas, ouros (docs/rules.md §Vira and manilhas)."""

MANILHA_SUITS: tuple[str, ...] = ("b", "c", "e", "o")
"""Suits of the manilhas, strongest first, matching :data:`MANILHA_NAMES` (docs/rules.md §Vira and manilhas)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``rank`` in 1-7, 10-12 (Spanish numbering) and ``suit`` in ``e b c o``.

    ``str(card)`` is the canonical code (``"7o"``), ``repr(card)`` rebuilds the object
    (``Card(7, 'o')``) and :meth:`label` prints it in a language; both read back with
    :meth:`from_code` / :func:`parse_card`.

    :raise CardError: ``no_eight_nine`` for rank 8 or 9, ``bad_card`` for any other rank or
        suit outside the deck.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank in (8, 9):
            raise CardError(
                "no_eight_nine",
                N_("There are no 8s or 9s in the Spanish deck (card {token})."),
                allowed=list(RANKS),
                token=f"{self.rank}{self.suit}",
            )
        if self.rank not in RANKS or self.suit not in SUITS:
            raise CardError(
                "bad_card",
                N_("Not a card of the Spanish deck: rank {rank}, suit {suit}."),
                allowed=[f"{r}{s}" for s in SUITS for r in RANKS],
                rank=str(self.rank),
                suit=str(self.suit),
            )

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.rank}, {self.suit!r})"

    @property
    def code(self) -> str:
        """Canonical code ``<rank><suit>``, e.g. ``"4b"`` (4 de paus), ``"10c"`` (Q de copas)."""
        return f"{self.rank}{self.suit}"

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Read a canonical code (``"7o"``, ``"10c"``), whatever the language.

        :raise CardError: ``bad_card`` if ``code`` is not ``<rank><e|b|c|o>``.
        """
        match = re.fullmatch(r"(1[0-2]|[1-9])([ebco])", code.strip().lower())
        if match is None:
            raise CardError(
                "bad_card",
                N_("\"{token}\" is not a card code; codes look like {examples}."),
                allowed=["7o", "1e", "10c", "4b"],
                token=_shown(str(code)),
                examples="7o, 1e, 10c, 4b",
            )
        return cls(int(match.group(1)), match.group(2))

    def label(self, lang: str = "pt") -> str:
        """Name of the card in ``lang`` (``pt``, ``es``, ``en`` or ``ca``), e.g. ``"7 de ouros"``,
        ``"as d'espases"``.

        The name re-parses to this card with :func:`parse_card` in the same language.

        :raise CardError: ``bad_lang`` for another language.
        """
        lang = check_lang(lang)
        rank = _RANK_LABELS[lang][self.rank]
        suit = _SUIT_LABELS[lang][self.suit]
        return f"{rank} {of_suit(suit, lang)}"


def of_suit(suit: str, lang: str) -> str:
    """``suit`` (a suit's name in ``lang``) after the language's "of": ``"of clubs"``, ``"de
    copas"``, and in Catalan ``"de copes"`` but ``"d'oros"``, ``"d'espases"`` (elided before a
    vowel)."""
    if lang == "en":
        return f"of {suit}"
    if lang == "ca" and suit[:1] in "aeiouàèéíòóú":
        return f"d'{suit}"
    return f"de {suit}"


def rank_label(rank: int, lang: str = "pt") -> str:
    """Name of a rank in ``lang`` (``10`` -> ``"Q"`` in pt, ``"sota"`` in es, ``"queen"`` in en)."""
    return _RANK_LABELS[check_lang(lang)][rank]


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is one of :data:`LANGS`.

    :raise CardError: ``bad_lang`` otherwise.
    """
    if lang not in LANGS:
        raise CardError(
            "bad_lang", N_("Unknown language \"{token}\"."), allowed=list(LANGS), token=str(lang)
        )
    return lang


DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
"""The 40 cards, suit by suit (espada, basto, copa, oro), ranks 1-7, 10-12."""

LIMPO_DECK: tuple[Card, ...] = tuple(c for c in DECK if c.rank in LIMPO_RANKS)
"""The 24 cards of the baralho limpo: Q J K A 2 3 of each suit (docs/rules.md §Vira and manilhas)."""


# --- printed names ----------------------------------------------------------------------------

_RANK_LABELS: dict[str, dict[int, str]] = {
    "pt": {1: "Ás", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 10: "Q", 11: "J", 12: "K"},
    "es": {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7",
           10: "sota", 11: "caballo", 12: "rey"},
    "en": {1: "ace", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7",
           10: "queen", 11: "jack", 12: "king"},
    # Catalan names of the Spanish deck: as, sota, cavall, rei (Catalan Truc, "Preparação").
    "ca": {1: "as", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7",
           10: "sota", 11: "cavall", 12: "rei"},
}
_SUIT_LABELS: dict[str, dict[str, str]] = {
    "pt": {"e": "espadas", "b": "paus", "c": "copas", "o": "ouros"},
    "es": {"e": "espada", "b": "basto", "c": "copa", "o": "oro"},
    "en": {"e": "spades", "b": "clubs", "c": "hearts", "o": "diamonds"},
    "ca": {"e": "espases", "b": "bastos", "c": "copes", "o": "oros"},
}

# --- what people type -------------------------------------------------------------------------

# Whole words naming a rank, after lower-casing and removing accents. Same table in every
# language: the words do not clash across pt, es and en.
_RANK_WORDS: dict[str, int] = {
    **{str(r): r for r in RANKS},
    "a": 1, "as": 1, "ace": 1, "ancho": 1, "um": 1, "uno": 1, "one": 1,
    "dois": 2, "dos": 2, "two": 2, "tres": 3, "three": 3,
    "quatro": 4, "cuatro": 4, "four": 4, "cinco": 5, "five": 5,
    "seis": 6, "six": 6, "sete": 7, "siete": 7, "seven": 7,
    "q": 10, "dama": 10, "sota": 10, "queen": 10,
    "j": 11, "valete": 11, "caballo": 11, "cavalo": 11, "jack": 11, "knight": 11,
    "k": 12, "rei": 12, "rey": 12, "king": 12,
    # Catalan (a rank word of its own only where pt/es/en have none).
    "quatre": 4, "cinc": 5, "sis": 6, "set": 7, "cavall": 11,
}
_NO_RANK_WORDS = {"8", "9", "oito", "ocho", "eight", "nove", "nueve", "nine", "vuit", "nou"}

# Whole words naming a suit (plural and singular), any language, plus the suit symbols.
_SUIT_WORDS: dict[str, str] = {
    "espada": "e", "espadas": "e", "spade": "e", "spades": "e", "sword": "e", "swords": "e",
    "basto": "b", "bastos": "b", "pau": "b", "paus": "b", "club": "b", "clubs": "b",
    "copa": "c", "copas": "c", "heart": "c", "hearts": "c", "cup": "c", "cups": "c",
    "oro": "o", "oros": "o", "ouro": "o", "ouros": "o", "diamond": "o", "diamonds": "o",
    "coin": "o", "coins": "o",
    "espasa": "e", "espases": "e", "copes": "c",
}
_SUIT_SYMBOLS: dict[str, str] = {
    "♠": "e", "♤": "e", "♣": "b", "♧": "b", "♥": "c", "♡": "c", "♦": "o", "♢": "o",
}
# Suit letters glued to a rank ("7o", "QC"), every language's at once (issue 13 item 6):
# e/s espadas/spades, b/p bastos/paus, h hearts (copas), o/d oros/diamonds. Only "c" is
# ambiguous -- copas in pt and es, clubs in en -- and there the language decides.
_SUIT_LETTERS_ANY: dict[str, str] = {"e": "e", "s": "e", "b": "b", "p": "b", "h": "c", "o": "o", "d": "o"}
_AMBIGUOUS_LETTERS: dict[str, dict[str, str]] = {
    "pt": {"c": "c"},
    "es": {"c": "c"},
    "en": {"c": "b"},
    "ca": {"c": "c"},
}
_SUIT_LETTERS: dict[str, dict[str, str]] = {
    lang: {**_SUIT_LETTERS_ANY, **_AMBIGUOUS_LETTERS[lang]} for lang in LANGS
}


def ambiguous_letters(text: str) -> list[str]:
    """The tokens of ``text`` whose suit letter means different suits in different
    languages (``"4c"``: copas in pt/es, clubs in en), read in the page's language."""
    return [w for w in _tokens(text) if (m := _COMPACT.fullmatch(w)) and m.group(2) in _AMBIGUOUS_LETTERS["pt"]]
_LINKS = {"de", "del", "of", "da", "do"}
_CONJUNCTIONS = {"e", "y", "and", "i", "&"}
# Paulista/Mineiro manilha nicknames -> index into MANILHA_NAMES (strongest first).
_MANILHA_WORDS: dict[str, int] = {
    "zap": 0, "zape": 0, "copeta": 1, "escopeta": 1, "espadilha": 2,
    "pica-fumo": 3, "picafumo": 3, "pica fumo": 3,
}
_COMPACT = re.compile(r"(10|11|12|[0-9]+|a|q|j|k)([a-z]|[♠♤♣♧♥♡♦♢])")
_RANK_THEN_SYMBOL = re.compile(r"(10|11|12|[0-9]+|a|q|j|k)([♠♤♣♧♥♡♦♢])")


def accepted_forms(lang: str = "pt") -> list[str]:
    """Examples of accepted card forms in ``lang``, shown in error messages' ``allowed`` list."""
    if lang == "en":
        return ["7 of diamonds", "7d", "7♦", "ace of spades", "As", "QH", "K♠", "queen of hearts"]
    if lang == "ca":
        return ["7 d'oros", "7 oros", "7o", "7♦", "as d'espases", "1e",
                "sota de copes", "cavall de bastos", "rei d'oros", "12b"]
    if lang == "es":
        return ["7 de oro", "7 oro", "7o", "7♦", "ancho de espada", "1e",
                "sota de copa", "caballo de basto", "rey de oros", "12b"]
    return ["7 de ouros", "7o", "7♦", "Ás de espadas", "Ás de paus", "1e",
            "Q de copas", "QC", "K♠", "12b"]


def _normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


#: The longest part of a typed token repeated in a message (a longer one is cut with "…",
#: so a pasted paragraph cannot widen the page past a phone's screen).
TOKEN_SHOWN = 20


def _shown(token: str) -> str:
    return token if len(token) <= TOKEN_SHOWN else token[: TOKEN_SHOWN - 1] + "…"


def _bad_token(token: str, lang: str) -> CardError:
    return CardError(
        "bad_card",
        N_("Cannot read \"{token}\" as a card. Accepted forms: {examples}."),
        allowed=accepted_forms(lang),
        token=_shown(token),
        examples=", ".join(accepted_forms(lang)),
    )


def _no_eight_nine(token: str) -> CardError:
    return CardError(
        "no_eight_nine",
        N_("There are no 8s or 9s in the Spanish deck (card {token})."),
        allowed=[str(r) for r in RANKS],
        token=token,
    )


def _make(rank: int, suit: str, token: str, lang: str) -> Card:
    if rank in (8, 9):
        raise _no_eight_nine(token)
    if rank not in RANKS:
        raise _bad_token(token, lang)
    return Card(rank, suit)


def _rank_of(word: str) -> int | None:
    if word in _NO_RANK_WORDS:
        return 8
    return _RANK_WORDS.get(word)


def _tokens(text: str) -> list[str]:
    text = _normalize(text)
    text = re.sub(r"\bpica\s+fumo\b", "pica-fumo", text)
    text = re.sub(r"\bd['’]", "de ", text)  # Catalan "d'oros", "as d'espases"
    # Split on whitespace, commas and semicolons; keep suit symbols apart from what follows.
    words = [w for w in re.split(r"[\s,;/+]+", text) if w]
    return [w for w in words if w not in _CONJUNCTIONS]


def parse_cards(
    text: str, lang: str = "pt", *, manilhas: Sequence[Card] | None = None
) -> tuple[Card, ...]:
    """Read every card in ``text`` as typed by a player, in order.

    Accepted forms (issue 3): ``7 de oro``, ``7 oro``, ``7o``, ``7 de ouros``, ``7♦``,
    ``ancho de espada``, ``as de espadas``, ``Ás de paus``, ``1e``, ``sota de copa``,
    ``caballo de basto``, ``rey de oros``, ``12b``, ``Q de copas``, ``QC``, ``K♠``, and the
    manilha nicknames ``zap``, ``copeta``/``escopeta``, ``espadilha``, ``pica-fumo`` when
    ``manilhas`` (the four manilhas, strongest first: paus, copas, espadas, ouros) is given.
    Cards are separated by spaces, commas, or "e"/"y"/"and". Case and accents do not matter.
    Full names and suit words of every language are read on every page. Suit letters glued
    to a rank are read in any language too (``e``/``s`` espadas, ``b``/``p`` paus, ``h``
    copas, ``o``/``d`` ouros); only ``c`` is ambiguous and follows ``lang``: copas in ``pt``
    and ``es``, clubs (paus) in ``en`` (issue 13 item 6).

    :param text: any string; an empty one holds no cards.
    :param lang: ``"pt"``, ``"es"`` or ``"en"``.
    :param manilhas: the manilhas in force (Paulista vira or Mineiro), strongest first.
    :return: the cards, 0 or more, in the order typed, all different.
    :raise CardError: ``bad_card`` naming the unreadable token with accepted forms in
        ``allowed``; ``no_eight_nine``; ``manilha_needs_vira`` for a nickname without
        ``manilhas``; ``duplicate_card``; ``bad_lang``.
    """
    lang = check_lang(lang)
    if not isinstance(text, str):
        raise _bad_token(repr(text), lang)
    words = _tokens(text)
    cards: list[Card] = []
    i = 0
    while i < len(words):
        word = words[i]
        card, i = _read_one(words, i, lang, manilhas)
        if card in cards:
            raise CardError(
                "duplicate_card",
                N_("The card {card} appears twice; each card is in the deck only once."),
                allowed=[],
                card=card.label(lang),
                token=_shown(word),
            )
        cards.append(card)
    return tuple(cards)


def _read_one(
    words: list[str], i: int, lang: str, manilhas: Sequence[Card] | None
) -> tuple[Card, int]:
    word = words[i]
    if word in _MANILHA_WORDS:
        if not manilhas:
            raise CardError(
                "manilha_needs_vira",
                N_("\"{token}\" names a manilha; give the vira (or play Mineiro) to use it."),
                allowed=accepted_forms(lang),
                token=_shown(word),
            )
        return manilhas[_MANILHA_WORDS[word]], i + 1
    following = words[i + 1] if i + 1 < len(words) else ""
    spelled_out = _rank_of(word) is not None and (
        following in _LINKS or following in _SUIT_WORDS or following in _SUIT_SYMBOLS
    )
    match = None if spelled_out else (
        _RANK_THEN_SYMBOL.fullmatch(word) or _COMPACT.fullmatch(word)
    )
    if match is not None and _rank_of(match.group(1)) is not None:
        rank_text, suit_text = match.groups()
        suit = _SUIT_SYMBOLS.get(suit_text) or _SUIT_LETTERS[lang].get(suit_text)
        if suit is None:
            raise _bad_token(word, lang)
        return _make(_rank_of(rank_text) or 0, suit, word, lang), i + 1
    if match is not None and match.group(1).isdigit():
        # A number that is no rank of the deck, glued to a letter: "13o", "0e", "8o".
        rank_text = match.group(1)
        if rank_text in ("8", "9"):
            raise _no_eight_nine(word)
        raise _bad_token(word, lang)
    rank = _rank_of(word)
    if rank is None:
        raise _bad_token(word, lang)
    j = i + 1
    if j < len(words) and words[j] in _LINKS:
        j += 1
    if j >= len(words):
        raise CardError(
            "missing_suit",
            N_("The card \"{token}\" has no suit. Accepted forms: {examples}."),
            allowed=accepted_forms(lang),
            token=_shown(" ".join(words[i:j])),
            examples=", ".join(accepted_forms(lang)),
        )
    suit = _SUIT_WORDS.get(words[j]) or _SUIT_SYMBOLS.get(words[j])
    token = " ".join(words[i : j + 1])
    if suit is None:
        raise _bad_token(token, lang)
    return _make(rank, suit, token, lang), j + 1


def parse_card(
    text: str, lang: str = "pt", *, manilhas: Sequence[Card] | None = None
) -> Card:
    """Read exactly one card from ``text`` (same forms as :func:`parse_cards`).

    :raise CardError: as :func:`parse_cards`, and ``card_count`` unless there is exactly one card.
    """
    cards = parse_cards(text, lang, manilhas=manilhas)
    if len(cards) != 1:
        raise CardError(
            "card_count",
            NP_("Expected {expected} card in \"{token}\", got {count}.", "Expected {expected} cards in \"{token}\", got {count}."),
            allowed=accepted_forms(lang),
            token=_shown(text),
            expected=1,
            count=len(cards),
        )
    return cards[0]


def parse_hand(
    text: str, lang: str = "pt", *, count: int = 3, manilhas: Sequence[Card] | None = None
) -> tuple[Card, ...]:
    """Read exactly ``count`` different cards (a hand is 3) from ``text``.

    :raise CardError: as :func:`parse_cards`, and ``card_count`` for another number of cards.
    """
    cards = parse_cards(text, lang, manilhas=manilhas)
    if len(cards) != count:
        raise CardError(
            "card_count",
            NP_("Expected {expected} card in \"{token}\", got {count}.", "Expected {expected} cards in \"{token}\", got {count}."),
            allowed=accepted_forms(lang),
            token=_shown(text),
            expected=count,
            count=len(cards),
        )
    return cards


def parse_rank(text: str, lang: str = "pt") -> int:
    """Read a rank alone (``"7"``, ``"Q"``, ``"dama"``, ``"rei"``, ``"ás"``), e.g. a vira's.

    :return: the Spanish-numbered rank, 1-7 or 10-12.
    :raise CardError: ``no_eight_nine`` or ``bad_rank`` naming the token.
    """
    check_lang(lang)
    word = _normalize(text).strip() if isinstance(text, str) else ""
    rank = _rank_of(word)
    if rank in (8, 9):
        raise _no_eight_nine(text)
    if rank is None:
        raise CardError(
            "bad_rank",
            N_("Cannot read \"{token}\" as a rank; use {examples}."),
            allowed=["A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"],
            token=_shown(str(text)),
            examples="A 2 3 4 5 6 7 Q J K (or 1-7, 10-12)",
        )
    return rank
