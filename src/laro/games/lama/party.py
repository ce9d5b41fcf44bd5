"""The L.A.M.A. Party Edition: plus cards and the pink llama (the turns, rounds and scoring are the state's own).

- A plus card (``1+`` .. ``6+``) counts as its number, both for what it may go on and for what may follow it;
  whoever plays one takes another turn at once (play, draw or quit as usual), unless it was their last card.
- The pink llama (``P``) may go on any card; only a llama or a 1 may follow it, as on a llama.

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=3, seed=6, options={"edition": "party"})
>>> [str(a) for a in state.legal_actions()], state.top_card
(['play 2', 'play 3+', 'draw', 'quit'], '2')
>>> state.apply("play 3+").current_player == state.current_player  # a plus card: another turn
True
>>> state.apply("play 2").current_player == state.current_player
False
"""

from __future__ import annotations

from laro.games.lama.cards import LLAMA, NUM_KINDS, PARTY_COPIES, PARTY_DECK, PINK, PLUS
from laro.games.lama.state import LamaState, LegalRows, legal_lookup

__all__ = ["PartyLamaState"]


def _followers(rank: int) -> tuple[int, ...]:
    """The cards that may follow a top card of ``rank``: its number and the next, their plus cards (the llama
    has none), and the pink llama, which may go on any card."""
    following = (rank + 1) % NUM_KINDS
    plus = tuple(PLUS + each for each in (rank, following) if each != LLAMA)
    return (rank, following, *plus, PINK)


_LEGAL, _MASK = legal_lookup(_followers, PARTY_COPIES.__getitem__)


class PartyLamaState(LamaState):
    """An immutable L.A.M.A. Party Edition state."""

    __slots__ = ()
    party = True
    cards = PARTY_DECK
    legal_rows: LegalRows = _LEGAL
    legal_masks: tuple[int, ...] = _MASK
