"""Scoring a round: penalties for the cards still held, the automatic token return, the leaders.

>>> from laro.games.lama.cards import hand_from_cards
>>> result = score_round(2, [0, hand_from_cards([3, 3, 3, 2, 6])], (12, 5), ended_by=0)
>>> result.penalties, result.returned, result.scores
((0, 17), 10, (2, 22))
>>> party = score_round(2, [0, hand_from_cards([PINK, 6])], (25, 5), ended_by=0, party=True)
>>> party.penalties, party.returned, party.scores  # the pink llama's group costs 20; a pink token goes back
((0, 20), 20, (5, 25))
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import Any, NamedTuple

from laro.games.lama.cards import (
    LLAMA,
    LLAMA_POINTS,
    PINK,
    PINK_POINTS,
    cards_of,
    count_of,
    hand_from_cards,
    party_card_from_text,
    party_penalty,
    penalty,
    texts,
)
from laro.games.lama.tokens import Supply, Tokens, give_back, pay, settle

__all__ = ["RoundResult", "pay_round", "round_totals", "score_round"]


class RoundResult(NamedTuple):
    """How a round ended: the hands as they were, the penalties, who emptied their hand and what they returned,
    and everyone's totals afterwards (a named tuple: made at every round's end of every playout, it costs a
    quarter to a third of a frozen dataclass)."""

    round: int
    hands: tuple[int, ...]
    penalties: tuple[int, ...]
    emptied: int | None
    ended_by: int
    returned: int
    scores: tuple[int, ...]

    def leaders(self) -> tuple[int, ...]:
        """Seats with the fewest points."""
        best = min(self.scores)
        return tuple(seat for seat, total in enumerate(self.scores) if total == best)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "hands": [texts(cards_of(hand)) for hand in self.hands],
            "penalties": list(self.penalties),
            "emptied": self.emptied,
            "ended_by": self.ended_by,
            "returned": self.returned,
            "scores": list(self.scores),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            round=int(data["round"]),
            hands=tuple(hand_from_cards(party_card_from_text(c) for c in hand) for hand in data["hands"]),
            penalties=tuple(int(p) for p in data["penalties"]),
            emptied=None if data["emptied"] is None else int(data["emptied"]),
            ended_by=int(data["ended_by"]),
            returned=int(data["returned"]),
            scores=tuple(int(s) for s in data["scores"]),
        )


def score_round(
    round_number: int, hands: Sequence[int], totals: Sequence[int], ended_by: int, party: bool = False
) -> RoundResult:
    """Score the round that ``ended_by`` ended: by playing their last card, or by quitting last (``party``: by
    the Party Edition's penalties and tokens)."""
    emptied = None if hands[ended_by] else ended_by
    penalties = tuple(map(party_penalty if party else penalty, hands))  # an empty hand scores 0
    if len(totals) != len(penalties):
        raise ValueError(f"{len(hands)} hands but {len(totals)} totals")
    scores = list(map(add, totals, penalties))
    returned = 0
    if emptied is not None:
        returned = _returned(scores[emptied], party)
        scores[emptied] -= returned
    return RoundResult(round_number, tuple(hands), penalties, emptied, ended_by, returned, tuple(scores))


def round_totals(hands: Sequence[int], totals: Sequence[int], ended_by: int, party: bool = False) -> list[int]:
    """The totals after the round: :func:`score_round`'s ``scores``, without the record of the round (what a
    search's playout needs, thousands of times a decision).

    >>> round_totals([0, hand_from_cards([3, 3, 3, 2, 6])], (12, 5), ended_by=0)
    [2, 22]
    """
    points = map(party_penalty if party else penalty, hands)
    scores = [total + held for total, held in zip(totals, points, strict=True)]
    if not hands[ended_by]:
        scores[ended_by] -= _returned(scores[ended_by], party)
    return scores


def _returned(total: int, party: bool) -> int:
    """The token an emptied hand returns: the best one (tokens may always be exchanged), a pink (20, Party
    Edition) or a black (10) when the total allows, else a white (1)."""
    if party and total >= PINK_POINTS:
        return PINK_POINTS
    return 10 if total >= 10 else 1 if total >= 1 else 0


def pay_round(supply: Supply, tokens: Sequence[Tokens], result: RoundResult) -> tuple[Supply, tuple[Tokens, ...]]:
    """The boxed supply after every penalty of ``result`` is paid in tokens, the return is given back, and every
    seat has settled what it owes and exchanged its whites."""
    held = list(tokens)
    for seat, hand in enumerate(result.hands):
        if result.penalties[seat]:
            pink = 1 if count_of(hand, PINK) else 0  # the llama group with the pink llama: a pink token
            llama = 1 if count_of(hand, LLAMA) and not pink else 0
            white = result.penalties[seat] - LLAMA_POINTS * llama - PINK_POINTS * pink
            supply, held[seat] = pay(supply, held[seat], white, llama, pink)
    if result.emptied is not None and result.returned:
        supply, held[result.emptied] = give_back(supply, held[result.emptied], result.returned)
    for seat in range(len(held)):
        supply, held[seat] = settle(supply, held[seat])
    return supply, tuple(held)
