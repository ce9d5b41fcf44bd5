"""L.A.M.A. cards and hands.

Cards are small integers: 0..5 are the values 1..6 and 6 is the llama. A hand is a packed integer with one
4-bit count per card (a hand never holds more than the 8 copies of a card), so playing or drawing a card is one
addition and an empty hand is 0.

>>> hand = hand_from_cards([3, 3, 2, LLAMA, 4])
>>> cards_of(hand)
[2, 3, 3, 4, 6]
>>> penalty(hand)  # 3 + 4 + 5 + llama
22
>>> texts(cards_of(hand))
['3', '4', '4', '5', 'L']
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CARD_TEXT",
    "COPIES",
    "DECK",
    "HAND_SIZE",
    "LLAMA",
    "LLAMA_POINTS",
    "NUM_KINDS",
    "card_from_text",
    "cards_of",
    "count_of",
    "hand_from_cards",
    "hand_size",
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
_CARD_OF_TEXT = {text: card for card, text in enumerate(CARD_TEXT)} | {"l": LLAMA}


def card_from_text(text: str) -> int:
    """The card written ``text`` (``"1"``…``"6"``, ``"L"``); ``KeyError`` if none."""
    return _CARD_OF_TEXT[text]


def texts(cards: Iterable[int]) -> list[str]:
    return [CARD_TEXT[card] for card in cards]


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
    """The cards of a hand, sorted."""
    return [card for card in range(NUM_KINDS) for _ in range(count_of(hand, card))]


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


def penalty(hand: int) -> int:
    """Penalty points of a hand: each distinct number at face value once, any llamas 10."""
    return _PENALTY[(hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS]
