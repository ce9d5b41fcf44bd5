"""The ``heuristic`` L.A.M.A. bot: plays like a careful person, from its own seat's observation only.

A hand costs each distinct value once (numbers at face value, any llamas 10), so what matters is which values
are still held when the round ends, and whether the hand runs out first (no penalty, and a token back).
The bot decides in three steps, each a small function below:

1. **Play whenever a card can be played.** A play never raises the penalty, and playing now then quitting
   next turn is never worse than quitting now. Drawing instead of playing also lost in the rollouts.
2. **The top's value or the next one?** With both in hand, the bot keeps the chain by default: it plays
   the top's value and keeps the next card as the follow-up for its next turn (with 4,4,5,5 on a 4 it
   plays a 4). The top only climbs, so cards of the top's value go dead first. It plays the next value
   instead when the chain will not last: a big hand will not run out soon anyway, and at a crowded table
   the others move the top past the follow-up. On a llama it plays its llamas, not a 1, because a 1
   would bury them for a whole cycle. On a 6 with one llama it plays the 6 and keeps the llama to follow
   (see :func:`chain_value`).
3. **Nothing to play: draw or quit.** Quitting locks in today's penalty. Drawing keeps the chance to
   shed the expensive values and to run out. The bot draws when the penalty at stake is above a quit
   threshold (see :func:`quit_threshold`). The threshold grows with the hand size (big hands rarely run
   out), with the danger that an opponent is about to go out, and with the number of opponents still in.
   It falls when the hand holds cards just ahead of the top (the others' plays will reach them), when
   running out would give back a black token, and in what is probably the last round when the bot is not
   leading, because then only a risk can still win. So a cheap hand is laid down when an opponent holds
   one card, and an expensive hand keeps drawing.

The weights come from a rollout study, done outside the package. At thousands of seeded decisions every
legal action was played out to the end of the round, with all seats using the bot. The measured
differences were fitted by least squares, and the new rules were kept only when they also won
head-to-head games.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(4, seed=3)
>>> seat = state.current_player
>>> LamaHeuristicBot().choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from laro.core.game import Action, JSONDict
from laro.games.lama.actions import DRAW, QUIT
from laro.games.lama.cards import CARD_TEXT, LLAMA, LLAMA_POINTS, NUM_KINDS, playable_after
from laro.games.lama.cards import penalty as hand_penalty

__all__ = [
    "LamaHeuristicBot",
    "chain_value",
    "is_trailing_in_last_round",
    "leaning",
    "penalty",
    "quit_threshold",
    "read_hand",
]

A = TypeVar("A", bound=Action)

SIX = LLAMA - 1
POINTS: tuple[int, ...] = (*range(1, LLAMA + 1), LLAMA_POINTS)  # what holding a card costs, by card
_CARD_OF_TEXT = {text: card for card, text in enumerate(CARD_TEXT)}
_DRAW, _QUIT = DRAW.index, QUIT.index
_NOBODY = 99  # the shortest opponent hand when no opponent is still in the round

# -- step 2: keep the chain (play the top's value) or move on (play the next value) ------------------------
CHAIN_BASE = 5.8  # keep the chain unless the reasons below outweigh it
CHAIN_PER_NEXT_COPY = 0.95  # each copy of the next value stays playable while the top stays put
CHAIN_PER_POINT_OF_LONE_NEXT = 0.27  # a lone next card is the follow-up: the dearer, the more worth keeping
CHAIN_PER_FOLLOW_UP_AHEAD = 0.39  # cards two or three steps ahead extend the chain
CHAIN_PER_OPPONENT_IN = -0.99  # (up to four) the others move the top past the follow-up anyway
CHAIN_PER_CARD_HELD = -0.96  # a big hand will not run out soon: shed now
CHAIN_ON_A_SIX = -0.62  # the next card is a llama, worth shedding
CHAIN_ON_A_LLAMA = 3.52  # a 1 on a llama would bury the llamas held for a whole cycle

# -- step 3: the quit threshold, in penalty points: draw when the hand costs more ----------------------
QUIT_BASE = -1.9
QUIT_PER_CARD_HELD = 0.97  # big hands rarely run out
QUIT_PER_OPPONENT_IN = 0.55  # every opponent still in may end the round
# an opponent with 1, 2, 3 or 4 cards may go out before the bot sheds anything
QUIT_FOR_SHORTEST_OPPONENT: dict[int, float] = {1: 8.3, 2: 5.7, 3: 4.2, 4: 2.6}
QUIT_IF_HOLDING_TWO_AHEAD = -1.7  # a card two steps ahead of the top becomes playable as the others play
QUIT_IF_HOLDING_THREE_AHEAD = -1.4
QUIT_IF_A_BLACK_TOKEN_BACK = -2.1  # running out returns 10 points once the total is 10 or more
QUIT_WHEN_TRAILING_IN_LAST_ROUND = -3.8  # not leading when the game is about to end: take the risk
LAST_ROUND_MARGIN = 12  # the game probably ends this round when someone is this close to the end score


def read_hand(cards: Sequence[str]) -> list[int]:
    """Copies held of each card (index 0..5 for the values 1..6, 6 for the llama).

    >>> read_hand(["4", "4", "5", "L"])
    [0, 0, 0, 2, 1, 0, 1]
    """
    hand = [0] * NUM_KINDS
    for text in cards:
        hand[_CARD_OF_TEXT[text]] += 1
    return hand


def penalty(hand: Sequence[int]) -> int:
    """What the hand would cost now: each distinct value once, any llamas 10.

    >>> penalty(read_hand(["4", "4", "4", "3", "L"]))
    17
    """
    return hand_penalty(sum(count << (4 * card) for card, count in enumerate(hand)))


def chain_value(hand: Sequence[int], top: int, opponents_in: int) -> float:
    """How much better it is to play the top's value than the next one, when both are held (below 0: the next).

    >>> chain_value(read_hand(["4", "4", "5", "5"]), 3, opponents_in=3) > 0  # play a 4, keep the 5s to follow
    True
    >>> chain_value(read_hand(["6", "6", "L"]), SIX, opponents_in=3) > 0  # play a 6, the llama follows it
    True
    >>> chain_value(read_hand(["1", "L", "L"]), LLAMA, opponents_in=3) > 0  # never bury llamas under a 1
    True
    >>> chain_value(read_hand(["2", "2", "3", "3", "5", "6", "6", "L"]), 1, opponents_in=3) < 0  # too big to chain
    True
    """
    following = playable_after(top)[1]
    next_copies = hand[following]
    value = CHAIN_BASE + CHAIN_PER_NEXT_COPY * next_copies
    if next_copies == 1:
        value += CHAIN_PER_POINT_OF_LONE_NEXT * POINTS[following]
    value += CHAIN_PER_FOLLOW_UP_AHEAD * ((hand[(top + 2) % NUM_KINDS] > 0) + (hand[(top + 3) % NUM_KINDS] > 0))
    value += CHAIN_PER_OPPONENT_IN * min(opponents_in, 4) + CHAIN_PER_CARD_HELD * sum(hand)
    if top == SIX:
        value += CHAIN_ON_A_SIX
    elif top == LLAMA:
        value += CHAIN_ON_A_LLAMA
    return value


def quit_threshold(
    hand: Sequence[int], top: int, shortest_opponent: int, opponents_in: int, total: int, trailing_in_last_round: bool
) -> float:
    """The penalty (in points) up to which quitting beats drawing, for a hand with nothing to play.

    >>> quit_threshold(read_hand(["2", "3"]), 4, shortest_opponent=1, opponents_in=3, total=12,
    ...                trailing_in_last_round=False) > penalty(read_hand(["2", "3"]))  # quit: 5 points is cheap
    True
    """
    threshold = QUIT_BASE + QUIT_PER_CARD_HELD * sum(hand) + QUIT_PER_OPPONENT_IN * opponents_in
    threshold += QUIT_FOR_SHORTEST_OPPONENT.get(shortest_opponent, 0.0)
    if hand[(top + 2) % NUM_KINDS]:
        threshold += QUIT_IF_HOLDING_TWO_AHEAD
    if hand[(top + 3) % NUM_KINDS]:
        threshold += QUIT_IF_HOLDING_THREE_AHEAD
    if total >= 10:
        threshold += QUIT_IF_A_BLACK_TOKEN_BACK
    if trailing_in_last_round:
        threshold += QUIT_WHEN_TRAILING_IN_LAST_ROUND
    return threshold


def is_trailing_in_last_round(scores: Sequence[int], seat: int, end_score: int) -> bool:
    """Someone is close to the end score, and ``seat`` is not strictly ahead of everyone else.

    >>> is_trailing_in_last_round([35, 36, 20, 30], seat=0, end_score=40)
    True
    >>> is_trailing_in_last_round([20, 36, 30, 30], seat=0, end_score=40)  # leading
    False
    >>> is_trailing_in_last_round([25, 20, 10, 15], seat=0, end_score=40)  # nobody is close to 40 yet
    False
    """
    if max(scores) < end_score - LAST_ROUND_MARGIN:
        return False
    return scores[seat] >= min(total for other, total in enumerate(scores) if other != seat)


class LamaHeuristicBot:
    """Plays every card it can, keeps chains, and draws or quits by what the hand stands to lose (see the module)."""

    name = "heuristic"

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        if observation["options"].get("edition") == "party":
            from laro.bots.lama_party import party_choice  # it builds on this module

            return party_choice(observation, legal)
        top = _CARD_OF_TEXT[observation["top_card"]]
        same = following = draw = quit_ = None
        for action in legal:
            index = action.index
            if index == top:
                same = action
            elif index < NUM_KINDS:
                following = action
            elif index == _DRAW:
                draw = action
            elif index == _QUIT:
                quit_ = action
        if same is None or following is None:  # step 1: one card to play, play it
            play = same if same is not None else following
            if play is not None:
                return play

        seat: int = observation["seat"]
        sizes: list[int] = observation["hand_sizes"]
        gone: list[bool] = observation["quit"]
        opponent_sizes = [size for other, size in enumerate(sizes) if other != seat and not gone[other]]
        hand = read_hand(observation["hand"])

        if same is not None and following is not None:  # step 2: keep the chain or move on
            value = chain_value(hand, top, len(opponent_sizes))
            if value == 0.0:  # an exact tie: the only use of the rng
                return same if rng.random() < 0.5 else following
            return same if value > 0.0 else following

        if draw is not None:  # step 3 (draw is legal only with cards to draw and another player still in)
            scores: list[int] = observation["scores"]
            end_score = int(observation["options"].get("end_score", 40))
            threshold = quit_threshold(
                hand,
                top,
                min(opponent_sizes, default=_NOBODY),
                len(opponent_sizes),
                scores[seat],
                is_trailing_in_last_round(scores, seat, end_score),
            )
            at_stake = penalty(hand)
            if at_stake > threshold or (at_stake == threshold and rng.random() < 0.5):
                return draw
        return quit_ if quit_ is not None else legal[-1]


def leaning(scores: Sequence[int], seat: int, end_score: int) -> float:
    """The part of ``seat``'s quit threshold that stays put during a round: a black token to win back, and the
    risk a trailing seat must take in what is probably the last round."""
    value = QUIT_IF_A_BLACK_TOKEN_BACK if scores[seat] >= 10 else 0.0
    if is_trailing_in_last_round(scores, seat, end_score):
        value += QUIT_WHEN_TRAILING_IN_LAST_ROUND
    return value
