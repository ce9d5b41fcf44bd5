"""A straightforward reference implementation of L.A.M.A., written the way most Python card-game engines are:
lists of card texts, rules as plain loops, and a deep copy for every new state.

It is the benchmark's in-project baseline and the tests' second opinion: it deals with laro's own shuffle, so
for the same seed and actions it must agree with ``laro.games.lama`` on every legal action and every score, in
both editions (``party=True``: plus cards, the pink llama and pink tokens, written from the rules page).

>>> ref = ReferenceLama.new_game(3, seed=4)
>>> sorted(ref.legal_actions()) == sorted(str(a) for a in __import__("laro").get_game("lama")
...     .new_game(3, seed=4).legal_actions())
True
>>> ReferenceLama.new_game(3, seed=16, party=True).legal_actions()
['play 3', 'play P', 'draw', 'quit']
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from laro.games.lama.cards import ALL_CARD_TEXT, DECK, PARTY_DECK, cards_of
from laro.games.lama.state import deal_round

__all__ = ["ReferenceLama"]

_NEXT = {"1": "2", "2": "3", "3": "4", "4": "5", "5": "6", "6": "L", "L": "1"}
_POINTS = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "L": 10}
_ORDER = ["1", "2", "3", "4", "5", "6", "L", "1+", "2+", "3+", "4+", "5+", "6+", "P"]  # the actions' order


def _rank(card: str) -> str:
    """What a card counts as: a plus card as its number, the pink llama as a llama."""
    return "L" if card == "P" else card.rstrip("+")


def _may_follow(card: str, top: str) -> bool:
    return card == "P" or _rank(card) in (_rank(top), _NEXT[_rank(top)])


@dataclass
class ReferenceLama:
    num_players: int
    seed: int
    end_score: int = 40
    party: bool = False
    round: int = 0
    hands: list[list[str]] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)
    discard_pile: list[str] = field(default_factory=list)
    quit: list[bool] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    current_player: int | None = None
    last_player: int | None = None

    @classmethod
    def new_game(cls, num_players: int, seed: int, end_score: int = 40, party: bool = False) -> ReferenceLama:
        game = cls(num_players, seed, end_score, party, scores=[0] * num_players)
        game.deal(1, None)
        return game

    def deal(self, round_number: int, starter: int | None) -> None:
        deck = PARTY_DECK if self.party else DECK
        packed, rest, drawn_seat = deal_round(self.seed, round_number, self.num_players, deck)
        if starter is None:
            starter = drawn_seat
        self.round = round_number
        self.hands = [[ALL_CARD_TEXT[c] for c in cards_of(hand)] for hand in packed]
        self.discard_pile = [ALL_CARD_TEXT[rest[0]]]
        self.draw_pile = [ALL_CARD_TEXT[c] for c in rest[1:]]
        self.quit = [False] * self.num_players
        self.current_player = starter
        self.last_player = None

    def legal_actions(self) -> list[str]:
        if self.current_player is None:
            return []
        top = self.discard_pile[-1]
        hand = self.hands[self.current_player]
        playable = {card for card in hand if _may_follow(card, top)}
        actions = [f"play {card}" for card in sorted(playable, key=_ORDER.index)]
        others_in = any(not q for seat, q in enumerate(self.quit) if seat != self.current_player)
        if self.draw_pile and others_in:
            actions.append("draw")
        actions.append("quit")
        return actions

    def apply(self, action: str) -> ReferenceLama:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}")
        new = copy.deepcopy(self)
        player = new.current_player
        assert player is not None
        if action == "draw":
            new.hands[player].append(new.draw_pile.pop(0))
        elif action == "quit":
            new.quit[player] = True
            if all(new.quit):
                new.end_round(player)
                return new
        else:
            card = action.split()[1]
            new.hands[player].remove(card)
            new.discard_pile.append(card)
            new.last_player = player
            if not new.hands[player]:
                new.end_round(player)
                return new
            if card.endswith("+"):  # a plus card: another turn at once
                return new
        seat = (player + 1) % new.num_players
        while new.quit[seat]:
            seat = (seat + 1) % new.num_players
        new.current_player = seat
        return new

    def end_round(self, ended_by: int) -> None:
        for seat, hand in enumerate(self.hands):
            points = sum(_POINTS[rank] for rank in {_rank(card) for card in hand})
            if "P" in hand:  # the llama group with the pink llama in it counts 20
                points += 10
            self.scores[seat] += points
        if not self.hands[ended_by]:
            if self.party and self.scores[ended_by] >= 20:
                self.scores[ended_by] -= 20
            elif self.scores[ended_by] >= 10:
                self.scores[ended_by] -= 10
            elif self.scores[ended_by] >= 1:
                self.scores[ended_by] -= 1
        if max(self.scores) >= self.end_score:
            self.current_player = None
            return
        starter = self.last_player if self.last_player is not None else ended_by
        self.deal(self.round + 1, starter)

    @property
    def winners(self) -> tuple[int, ...]:
        if self.current_player is not None:
            return ()
        best = min(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)
