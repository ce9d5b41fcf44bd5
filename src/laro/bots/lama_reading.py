"""Reading the other hands of a L.A.M.A. round from what the table has seen them do.

A player who draws or quits instead of playing most likely holds no card that fits: neither the top's value
nor the next one. (Playing is never worse than drawing for the hand's penalty, so careful players, and all of
this project's bots, play when they can.) A reader who remembers every draw and quit therefore knows, for each
card another seat held at that moment, two values it is not. Cards drawn later are unlimited until the next
draw or quit, and a card played comes from a card that may be its value (the most limited such card, so that
what is left stays as open as the facts allow).

A :class:`Reading` follows one seat's observations from decision to decision: between two of them every seat
still in the round moved exactly once, in turn order, and each hand's size and quit flag, with the cards added
to the discard pile, tell what each did. When the observations do not follow on (a new round, a missed turn, a
different table), the reading starts again from the round's deal, which is exact for the seat's first turn of
a round; when nothing fits, the reading claims nothing.

The Party Edition reads the same way with its own cards: what fits a top card is the engine's (the number and
the next, their plus cards, the pink llama), and a plus card gives the one who played it another turn at once,
so a seat's turn is a run of plus cards ended by a draw, a quit or one more card; after the reader's own plus
card, nobody else has moved.

>>> import laro
>>> state = laro.get_game("lama").new_game(num_players=3, seed=5)
>>> for move in ("draw", "draw"):
...     state = state.apply(move)
>>> seat = state.current_player
>>> reading = Reading.follow(None, state.observation(seat))
>>> sorted(len(masks) for masks in reading.excluded)  # the two who drew: six limited cards each (and one open)
[0, 6, 6]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laro.games.lama import cards as lama
from laro.games.lama.cards import ANOTHER_TURN, HAND_SIZE, party_card_from_text
from laro.games.lama.party import PartyLamaState
from laro.games.lama.state import LamaState

__all__ = ["Reading"]


def _fitting(packed: int) -> int:
    """The values a packed legal mask lets follow, as one bit each."""
    return sum(1 << card for card in range(lama.NUM_PARTY_KINDS) if (packed >> (4 * card)) & 15)


# per edition (party?), per top card: the values that may follow it, as the engine says
_FITS = {
    False: tuple(_fitting(LamaState.legal_masks[card]) for card in range(lama.NUM_KINDS)),
    True: tuple(_fitting(PartyLamaState.legal_masks[lama.RANK[card]]) for card in range(lama.NUM_PARTY_KINDS)),
}


@dataclass(frozen=True, slots=True)
class Reading:
    """One seat's reading of a round so far: per seat, a mask of the values each of its cards cannot be (oldest
    card first; 0: no limit), and the public facts the next observation must follow on from."""

    seat: int
    round: int
    discard: tuple[str, ...]
    sizes: tuple[int, ...]
    quit: tuple[bool, ...]
    scores: tuple[int, ...]
    slots: tuple[tuple[int, ...], ...]

    @property
    def excluded(self) -> list[list[int]]:
        """The limited cards of every seat (the seat's own and open cards left out)."""
        return [[mask for mask in masks if mask] if seat != self.seat else [] for seat, masks in enumerate(self.slots)]

    @classmethod
    def follow(cls, previous: Reading | None, observation: Mapping[str, Any]) -> Reading | None:
        """The reading at ``observation`` (the seat's own, at its decision), from ``previous`` when the table
        followed on from it, else from the round's deal; ``None`` when the moves cannot be made out."""
        try:
            if previous is not None and previous._precedes(observation):
                found = previous._advance(observation, first=previous.seat)
                if found is not None:
                    return found
            return _dealt(observation)._advance(observation, first=observation["starter"], since_deal=True)
        except (KeyError, TypeError, ValueError, IndexError):
            return None

    def _precedes(self, observation: Mapping[str, Any]) -> bool:
        discard = observation["discard_pile"]
        return (
            observation["seat"] == self.seat
            and observation["round"] == self.round
            and tuple(observation["scores"]) == self.scores
            and tuple(discard[: len(self.discard)]) == self.discard
        )

    def _advance(self, observation: Mapping[str, Any], first: int, since_deal: bool = False) -> Reading | None:
        """Every seat still in took its turn, in turn order from ``first`` (the reader itself, or the starter
        just after the deal) up to the reader's decision: what each did."""
        seat: int = observation["seat"]
        n = len(self.sizes)
        discard: list[str] = observation["discard_pile"]
        sizes: list[int] = observation["hand_sizes"]
        quit_flags: list[bool] = observation["quit"]
        party = observation.get("options", {}).get("edition") == "party"
        cards = [party_card_from_text(text) for text in discard]  # the Party Edition's texts include the classic ones
        played = len(self.discard)
        slots = [list(masks) for masks in self.slots]
        order = [(first + k) % n for k in range(n)]
        if since_deal:
            order = order[: order.index(seat)]
        for mover in order:
            if self.quit[mover]:
                continue
            change = sizes[mover] - self.sizes[mover]
            if mover == seat:  # the reader's own move: its cards are no question
                if change == -1 and played < len(discard):
                    played += 1
                elif change != 1:
                    return None
                slots[mover] = [0] * sizes[mover]
                if change == -1 and ANOTHER_TURN[cards[played - 1]]:
                    break  # its plus card: its turn goes on, and nobody else has moved
                continue
            turn = _turn(cards[played:], change, quit_flags[mover])
            if turn is None:
                return None
            count, drew = turn
            for card in cards[played : played + count]:
                _play(slots[mover], card)
            played += count
            if drew or quit_flags[mover]:  # it held nothing that fit the top: it drew one card more, or quit
                _rule_out(slots[mover], _FITS[party][cards[played - 1]])
                if drew:
                    slots[mover].append(0)
        if played != len(discard) or any(len(slots[s]) != sizes[s] for s in range(n)):
            return None
        return Reading(
            seat=seat,
            round=observation["round"],
            discard=tuple(discard),
            sizes=tuple(sizes),
            quit=tuple(quit_flags),
            scores=tuple(observation["scores"]),
            slots=tuple(tuple(masks) for masks in slots),
        )


def _turn(added: Sequence[int], change: int, quit_: bool) -> tuple[int, bool] | None:
    """Another seat's turn from its hand's ``change``, whether it quit, and the cards ``added`` to the discard
    pile since (its own first): how many of them it played, and whether it drew; ``None`` if nothing fits.
    A turn is a run of plus cards ended by a quit, a draw or one other card (classic turns: one card, or none);
    a hand one card shorter played one card, or two plus cards and drew: the cards tell which."""
    runs = 0
    while runs < len(added) and ANOTHER_TURN[added[runs]]:
        runs += 1
    if quit_:
        return (-change, False) if 0 <= -change <= runs else None
    if 1 <= -change <= runs + 1 and -change <= len(added) and not ANOTHER_TURN[added[-change - 1]]:
        return -change, False  # plus cards, then one other card
    if 0 <= 1 - change <= runs:
        return 1 - change, True  # plus cards (or none), then a draw
    return None


def _dealt(observation: Mapping[str, Any]) -> Reading:
    """The round as dealt: every hand full and open, the first card on the discard pile."""
    n = observation["num_players"]
    return Reading(
        seat=observation["seat"],
        round=observation["round"],
        discard=tuple(observation["discard_pile"][:1]),
        sizes=(HAND_SIZE,) * n,
        quit=(False,) * n,
        scores=tuple(observation["scores"]),
        slots=((0,) * HAND_SIZE,) * n,
    )


def _rule_out(masks: list[int], fitting: int) -> None:
    """Nothing in the hand fits the top: no card is one of the ``fitting`` values (a mask)."""
    for k in range(len(masks)):
        masks[k] |= fitting


def _play(masks: list[int], card: int) -> None:
    """A ``card`` left the hand: it was the most limited card that may be one (or, if none may, a belief was
    wrong and the hand is open again)."""
    for k, mask in enumerate(masks):  # oldest, so most limited, first
        if not (mask >> card) & 1:
            del masks[k]
            return
    masks[:] = [0] * (len(masks) - 1)
