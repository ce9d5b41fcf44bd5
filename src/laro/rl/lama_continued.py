"""Values of L.A.M.A. decisions as the ``hard`` search finds them, but with the seat playing on by a policy of its own.

The paired search plays each determinisation out from every legal action with the heuristic's moves for every seat
(:mod:`laro.bots.lama_batch`). Here the same determinisations are placed into the batched engine
(:meth:`~laro.rl.vector.VectorLama.place`), each action is made, and the round is played out with the seat that decided
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
    positions = [_position(engine, decision) for decision in decisions]
    placed = {name: np.concatenate([position[name] for position in positions]) for name in positions[0]}
    engine.place(np.arange(total), **placed)
    seats = engine.current.copy()
    actions = np.concatenate([np.repeat([a.index for a in d.actions], len(d.dealt.counts)) for d in decisions])
    values = np.empty(total)
    active = np.ones(total, dtype=np.bool_)
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


def _position(engine: VectorLama, decision: Decision) -> dict[str, npt.NDArray[np.int64]]:
    """``decision``'s determinisations, once per action, as rows for :meth:`VectorLama.place`."""
    template = decision.sample.template
    counts, piles = decision.dealt.counts, decision.dealt.piles
    rows = len(decision.actions) * len(counts)
    deck = np.zeros((rows, engine.deck.shape[1]), dtype=np.int64)
    drawn = deck.shape[1] - piles.shape[1]
    deck[:, drawn:] = np.tile(piles, (len(decision.actions), 1))
    discard = np.zeros(engine.kinds, dtype=np.int64)
    for card, count in Counter(template.discard).items():
        discard[card] = count
    each = {
        "drawn": drawn,
        "discard": discard,
        "top": template.discard[-1],
        "quit_bits": template.quit_mask,
        "current": template.current_player,
        "starter": template.starter,
        "last_player": -1 if template.last_player is None else template.last_player,
        "scores": template.scores,
        "rounds": template.round,
    }
    position = {name: np.repeat(np.asarray(value, dtype=np.int64)[None], rows, axis=0) for name, value in each.items()}
    return {"hands": np.tile(counts, (len(decision.actions), 1, 1)).astype(np.int64), "deck": deck, **position}
