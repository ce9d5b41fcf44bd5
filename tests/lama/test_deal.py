"""The deal is the documented procedure, whatever makes it fast: SHAKE-256 of ``seed:round`` read as big-endian
32-bit words, a Fisher-Yates shuffle from the last position down (``j = word * size >> 32``), six cards to each
seat in turn, then the discard and the draw pile, and the last word choosing the first round's starter."""

from __future__ import annotations

import hashlib

import pytest

from laro.games.lama.cards import DECK, PARTY_DECK, hand_from_cards
from laro.games.lama.state import ONWARD, deal_round


def _documented_deal(seed: int, round_number: int, players: int, cards: tuple[int, ...]) -> tuple[object, ...]:
    digest = hashlib.shake_256(f"{seed}:{round_number}".encode()).digest(4 * len(cards))
    words = [int.from_bytes(digest[4 * k : 4 * k + 4], "big") for k in range(len(cards))]
    deck = list(cards)
    for step, i in enumerate(range(len(deck) - 1, 0, -1)):
        j = words[step] * (i + 1) // 2**32
        deck[i], deck[j] = deck[j], deck[i]
    hands = [hand_from_cards(deck[6 * seat : 6 * seat + 6]) for seat in range(players)]
    return hands, tuple(deck[6 * players :]), words[-1] % players


@pytest.mark.parametrize("cards", [DECK, PARTY_DECK], ids=["classic", "party"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_deal_is_the_documented_one(players: int, cards: tuple[int, ...]) -> None:
    for seed in [*range(200), 2**63 - 1, 123_456_789_012]:
        round_number = 1 + seed % 7
        assert deal_round(seed, round_number, players, cards) == _documented_deal(seed, round_number, players, cards)


def test_play_passes_left_to_the_next_seat_still_in() -> None:
    assert ONWARD[4][0] == (1, 2, 3, 0)
    assert ONWARD[4][0b0110] == (3, 3, 3, 0)  # seats 1 and 2 have quit
    assert ONWARD[3][0b011] == (2, 2, 2)  # the lone seat still in plays again
