"""Values of L.A.M.A. decisions as the ``hard`` search finds them, but with the seat playing on by a policy of its own.

The paired search plays each determinisation out from every legal action with the heuristic's moves for every seat
(:mod:`laro.bots.lama_batch`). Here the same determinisations are loaded into the batched engine
(:class:`~laro.rl.vector.VectorLama`), each action is made, and the round is played out with the seat that decided
moving by ``policy`` (from its observation vectors, masks and the heuristic's moves there) and the other seats by the
heuristic (:func:`~laro.rl.train_lama.heuristic_actions`). A round's value is the seat's win chance from the totals
at the round's end (:func:`~laro.bots.lama_batch.win_chances`). Many decisions are played in one batch: a whole
game's.

>>> import random, laro
>>> from laro.bots.lama_deals import deal_many
>>> from laro.games.lama.sampling import sampler
>>> state = laro.get_game("lama").new_game(num_players=4, seed=3)
>>> sample = sampler(state.game, state.observation(state.current_player))
>>> decision = Decision(sample, deal_many(sample, random.Random(1), 20), state.legal_actions())
>>> [values] = continued_values([decision], state.options, lambda observations, masks, moves: moves)
>>> values.shape == (20, len(state.legal_actions())), bool(((values >= 0) & (values <= 1)).all())
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from laro.bots.lama_batch import win_chances
from laro.bots.lama_deals import Dealt
from laro.core.game import Action
from laro.games.lama.sampling import LamaSampler
from laro.rl.gym_vector import Masks, Observations
from laro.rl.train_lama import heuristic_actions
from laro.rl.vector import VectorLama

__all__ = ["Decision", "SeatPolicy", "continued_values"]

Ints = npt.NDArray[np.int64]
SeatPolicy = Callable[[Observations, Masks, Ints], Ints]  # observations, masks, heuristic's moves -> actions


@dataclass(frozen=True)
class Decision:
    """A decision to value: the seat's determinisations (``dealt`` from ``sample``) and its legal ``actions``."""

    sample: LamaSampler
    dealt: Dealt
    actions: Sequence[Action]


def continued_values(
    decisions: Sequence[Decision], options: Mapping[str, Any], policy: SeatPolicy
) -> list[npt.NDArray[np.float64]]:
    """Each decision's values, ``(determinisations, actions)``: every determinisation played out to the round's end
    from every action, the deciding seat moving by ``policy`` and the others by the heuristic."""
    blocks = [len(d.dealt.counts) * len(d.actions) for d in decisions]
    total = sum(blocks)
    n = decisions[0].sample.template.num_players
    engine = VectorLama(total, n, seed=0, options=options)
    seats = np.empty(total, dtype=np.int64)
    first = np.empty(total, dtype=np.int64)
    start = 0
    for decision, size in zip(decisions, blocks, strict=True):
        rows = np.arange(start, start + size)
        seats[rows] = _load(engine, rows, decision)
        first[rows] = np.repeat([action.index for action in decision.actions], len(decision.dealt.counts))
        start += size
    engine._observe()
    values = np.empty(total)
    active = np.ones(total, dtype=np.bool_)
    actions = first
    while True:
        before = engine.round.copy()
        _, _, _, done = engine.step(actions, active)
        ended = active & ((engine.round != before) | done)
        if ended.any():
            totals = np.where(done[:, None], engine.final_scores, engine.scores)[ended].astype(np.int64)
            chances = win_chances(totals, engine.end_score)
            values[ended] = chances[np.arange(len(chances)), seats[ended]]
            active &= ~ended
        if not active.any():
            break
        actions = _moves(engine, active, seats, options, policy)
    out, start = [], 0
    for decision, size in zip(decisions, blocks, strict=True):
        out.append(values[start : start + size].reshape(len(decision.actions), -1).T)
        start += size
    return out


def _moves(
    engine: VectorLama, active: npt.NDArray[np.bool_], seats: Ints, options: Mapping[str, Any], policy: SeatPolicy
) -> Ints:
    """The next action of every active row: the seat's by ``policy``, the others' by the heuristic."""
    actions = np.zeros(engine.batch, dtype=np.int64)
    rows = np.flatnonzero(active)
    observations, masks = engine.obs[rows], engine.mask[rows]
    moves = heuristic_actions(observations, engine.num_players, options)
    mine = engine.current[rows] == seats[rows]
    if mine.any():
        moves[mine] = policy(observations[mine], masks[mine], moves[mine])
    actions[rows] = moves
    return actions


def _load(engine: VectorLama, rows: Ints, decision: Decision) -> int:
    """Put ``decision``'s determinisations, once per action, into ``rows`` of ``engine``; the seat to move."""
    template = decision.sample.template
    counts, piles = decision.dealt.counts, decision.dealt.piles
    times = len(decision.actions)
    hands = np.tile(counts, (times, 1, 1))
    engine.hands[rows] = hands
    engine.sizes[rows] = hands.sum(axis=2)
    engine._size_seen[rows] = engine.sizes[rows] / engine._deck_size
    left = piles.shape[1]
    engine.deck[rows, engine._rest - left :] = np.tile(piles, (times, 1))
    engine.draw_pos[rows] = engine._rest - left
    top = template.discard[-1]
    engine.top[rows] = top
    k = engine.kinds
    pile = np.zeros(2 * k, dtype=np.float32)
    pile[top] = 1.0
    for card, count in Counter(template.discard).items():
        pile[k + card] = count * engine._copies
    engine._pile[rows] = pile
    engine.quit_bits[rows] = template.quit_mask
    seat: int = template.current_player  # type: ignore[assignment]  # a decision has a seat to move
    engine.current[rows] = seat
    engine.starter[rows] = template.starter
    engine.last_player[rows] = -1 if template.last_player is None else template.last_player
    engine.scores[rows] = template.scores
    engine._score_seen[rows] = np.minimum(1.0, np.asarray(template.scores) / engine.end_score)
    engine.round[rows] = template.round
    return seat
