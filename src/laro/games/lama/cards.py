"""L.A.M.A. cards and hands, in both editions.

Cards are small integers: 0..5 are the values 1..6 and 6 is the llama; the Party Edition adds the plus cards
7..12 (``1+`` .. ``6+``) and 13, the pink llama (``P``). A hand is a packed integer with one 4-bit count per card
(a hand never holds more than the 8 copies of a card), so playing or drawing a card is one addition and an empty
hand is 0. A plus card's *rank* is its number's (what it may go on and what may follow it); the pink llama's rank
is the llama's (only a llama or a 1 may follow it), but it may itself go on any card.

>>> hand = hand_from_cards([3, 3, 2, LLAMA, 4])
>>> cards_of(hand)
[2, 3, 3, 4, 6]
>>> penalty(hand)  # 3 + 4 + 5 + llama
22
>>> texts(cards_of(hand))
['3', '4', '4', '5', 'L']
>>> party = hand_from_cards([PLUS + 2, 2, PINK, LLAMA])  # 3+, 3, P, L
>>> texts(cards_of(party)), party_penalty(party), party_hand_size(party)
(['3', '3+', 'L', 'P'], 23, 4)
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ALL_CARD_TEXT",
    "ANOTHER_TURN",
    "CARD_TEXT",
    "COPIES",
    "DECK",
    "HAND_SIZE",
    "LLAMA",
    "LLAMA_POINTS",
    "NUM_KINDS",
    "NUM_PARTY_KINDS",
    "PARTY_COPIES",
    "PARTY_DECK",
    "PINK",
    "PINK_POINTS",
    "PLUS",
    "RANK",
    "card_from_text",
    "cards_of",
    "count_of",
    "hand_from_cards",
    "hand_size",
    "party_card_from_text",
    "party_hand_size",
    "party_penalty",
    "penalty",
    "playable_after",
    "texts",
]

NUM_KINDS = 7
LLAMA = 6
COPIES = 8
HAND_SIZE = 6
LLAMA_POINTS = 10
CARD_TEXT = ("1", "2", "3", "4", "5", "6", "L")
DECK: tuple[int, ...] = tuple(card for card in range(NUM_KINDS) for _ in range(COPIES))

# -- the Party Edition: seven of each number and one plus card of each, seven llamas and the pink llama -------
PLUS = 7  # the plus card of value v (1..6) is PLUS + v - 1
PINK = 13
NUM_PARTY_KINDS = 14
PINK_POINTS = 20  # the pink llama held: the llama group costs 20, with or without ordinary llamas
ALL_CARD_TEXT = (*CARD_TEXT, "1+", "2+", "3+", "4+", "5+", "6+", "P")
PARTY_COPIES: tuple[int, ...] = (7,) * 7 + (1,) * 7
PARTY_DECK: tuple[int, ...] = tuple(card for card in range(NUM_PARTY_KINDS) for _ in range(PARTY_COPIES[card]))
RANK: tuple[int, ...] = (*range(NUM_KINDS), *range(LLAMA), LLAMA)  # a plus card ranks as its number
ANOTHER_TURN: tuple[bool, ...] = tuple(PLUS <= card < PINK for card in range(NUM_PARTY_KINDS))  # plus cards
_CARD_OF_TEXT = {text: card for card, text in enumerate(CARD_TEXT)} | {"l": LLAMA}
_PARTY_CARD_OF_TEXT = {text: card for card, text in enumerate(ALL_CARD_TEXT)} | {"l": LLAMA, "p": PINK}
_SORT_ORDER = (0, PLUS, 1, PLUS + 1, 2, PLUS + 2, 3, PLUS + 3, 4, PLUS + 4, 5, PLUS + 5, LLAMA, PINK)


def card_from_text(text: str) -> int:
    """The classic card written ``text`` (``"1"``…``"6"``, ``"L"``); ``KeyError`` if none."""
    return _CARD_OF_TEXT[text]


def party_card_from_text(text: str) -> int:
    """The Party Edition card written ``text`` (``"1"``…``"6"``, ``"1+"``…``"6+"``, ``"L"``, ``"P"``)."""
    return _PARTY_CARD_OF_TEXT[text]


def texts(cards: Iterable[int]) -> list[str]:
    return [ALL_CARD_TEXT[card] for card in cards]


def playable_after(top: int) -> tuple[int, int]:
    """The two cards that may follow ``top``: the same, or the next (6 → llama, llama → 1)."""
    return top, (top + 1) % NUM_KINDS


def count_of(hand: int, card: int) -> int:
    return (hand >> (4 * card)) & 15


def hand_from_cards(cards: Iterable[int]) -> int:
    hand = 0
    for card in cards:
        hand += 1 << (4 * card)
    return hand


def cards_of(hand: int) -> list[int]:
    """The cards of a hand, sorted by rank (a plus card after its number, the pink llama last)."""
    return [card for card in _SORT_ORDER for _ in range((hand >> (4 * card)) & 15)]


_EVEN_NIBBLES = 0x0F0F0F0F


def hand_size(hand: int) -> int:
    """How many cards a hand holds: its seven 4-bit counts added up, pairwise into bytes, then the bytes at once.

    >>> hand_size(hand_from_cards([0, 0, 3, 6, 6, 6])), hand_size(0)
    (6, 0)
    """
    pairs = (hand & _EVEN_NIBBLES) + ((hand >> 4) & _EVEN_NIBBLES)  # each byte <= 16
    return ((pairs * 0x01010101) >> 24) & 0xFF


def _penalty_of_presence() -> dict[int, int]:
    table = {}
    for kinds in range(1 << NUM_KINDS):
        presence = sum(1 << (4 * card) for card in range(NUM_KINDS) if (kinds >> card) & 1)
        points = sum(card + 1 for card in range(LLAMA) if (kinds >> card) & 1)
        table[presence] = points + (LLAMA_POINTS if (kinds >> LLAMA) & 1 else 0)
    return table


_PENALTY = _penalty_of_presence()
_LOW_BITS = sum(1 << (4 * card) for card in range(NUM_KINDS))
# a count of 1..8 plus 7 has the top bit of its 4 bits (8..15), a count of 0 does not (7), and none carries over
_SEVENS = 7 * _LOW_BITS


def penalty(hand: int) -> int:
    """Penalty points of a hand: each distinct number at face value once, any llamas 10."""
    return _PENALTY[(hand + _SEVENS) >> 3 & _LOW_BITS]


_EVEN_NIBBLES_64 = 0x0F0F0F0F0F0F0F0F


def party_hand_size(hand: int) -> int:
    """How many cards a Party Edition hand holds (fourteen 4-bit counts, added as in :func:`hand_size`)."""
    pairs = (hand & _EVEN_NIBBLES_64) + ((hand >> 4) & _EVEN_NIBBLES_64)
    return ((pairs * 0x0101010101010101) >> 56) & 0xFF


_PLUS_BITS = _LOW_BITS << (4 * PLUS) & ~(15 << (4 * PINK))  # the low bit of each plus card's count
_SEVENS_64 = 7 * sum(1 << (4 * card) for card in range(NUM_PARTY_KINDS))


def party_penalty(hand: int) -> int:
    """Penalty points of a Party Edition hand: each distinct number once (a plus card is its number), the llama
    group 10, or 20 when the pink llama is in it.

    >>> party_penalty(hand_from_cards([PINK])), party_penalty(hand_from_cards([PINK, LLAMA, LLAMA, 0, PLUS]))
    (20, 21)
    """
    present = (hand + _SEVENS_64) >> 3  # as in penalty: the low bit of a count is set when the card is held
    ranks = (present | (present & _PLUS_BITS) >> (4 * PLUS)) & _LOW_BITS
    if hand >> (4 * PINK):
        return _PENALTY[ranks | 1 << (4 * LLAMA)] + PINK_POINTS - LLAMA_POINTS
    return _PENALTY[ranks]
