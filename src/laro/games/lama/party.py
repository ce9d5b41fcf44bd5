"""The L.A.M.A. Party Edition's turns: plus cards and the pink llama (the rest of the state is the classic one).

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

import itertools

from laro.core.game import ActionLike
from laro.games.lama.actions import DRAW, PLAY, QUIT, LamaAction
from laro.games.lama.cards import LLAMA, NUM_KINDS, PARTY_DECK, PINK, PLUS, RANK
from laro.games.lama.state import LamaState

__all__ = ["PartyLamaState"]

_NOTHING = 4 * 14  # the shift of a count no hand has: there is no plus llama


def _plus(rank: int) -> int | None:
    """The plus card of a rank; the llama has none."""
    return None if rank == LLAMA else PLUS + rank


def _legal_table() -> tuple[tuple[tuple[LamaAction, ...], ...], ...]:
    """Legal actions by the top card's rank and a 6-bit key: holds the rank's number, the next rank's number,
    the rank's plus card, the next rank's plus card, the pink llama; may draw."""
    table: list[tuple[tuple[LamaAction, ...], ...]] = []
    for rank in range(NUM_KINDS):
        following = (rank + 1) % NUM_KINDS
        cards = (rank, following, _plus(rank), _plus(following), PINK)
        row = []
        for key in range(64):
            plays = {card for bit, card in enumerate(cards) if key >> bit & 1 and card is not None}
            actions = sorted((PLAY[card] for card in plays), key=lambda action: action.index)
            if key & 32:
                actions.append(DRAW)
            actions.append(QUIT)  # quitting is always allowed
            row.append(tuple(actions))
        table.append(tuple(row))
    return tuple(table)


_LEGAL = _legal_table()
_SAME = tuple(4 * rank for rank in range(NUM_KINDS))
_NEXT = tuple(4 * ((rank + 1) % NUM_KINDS) for rank in range(NUM_KINDS))
_PLUS_SAME = tuple(4 * (PLUS + rank) if rank < LLAMA else _NOTHING for rank in range(NUM_KINDS))
_PLUS_NEXT = tuple(_PLUS_SAME[(rank + 1) % NUM_KINDS] for rank in range(NUM_KINDS))
_PINK_SHIFT = 4 * PINK
_AGAIN = tuple(PLUS <= card < PINK for card in range(PINK + 1))  # a plus card: another turn
_new = object.__new__


_Rows = tuple[dict[int, tuple[LamaAction, ...]], dict[int, tuple[LamaAction, ...]]]  # without, with drawing


def _by_hand() -> tuple[tuple[_Rows, ...], tuple[int, ...]]:
    """The legal actions looked up at once, per top rank and may-draw: by the hand's counts of the cards that may
    follow that rank (its number and plus card, the next's, the pink llama), every combination of them; and the
    mask that keeps just those counts of a hand."""
    tables: list[_Rows] = []
    masks = []
    for rank in range(NUM_KINDS):
        shifts = sorted({_SAME[rank], _NEXT[rank], _PLUS_SAME[rank], _PLUS_NEXT[rank], _PINK_SHIFT} - {_NOTHING})
        masks.append(sum(15 << shift for shift in shifts))
        rows: _Rows = ({}, {})
        for counts in itertools.product(*(range(8) if shift < 4 * PLUS else range(2) for shift in shifts)):
            hand = sum(count << shift for count, shift in zip(counts, shifts, strict=True))
            key = (
                ((hand >> _SAME[rank]) & 15 != 0)
                | ((hand >> _NEXT[rank]) & 15 != 0) << 1
                | ((hand >> _PLUS_SAME[rank]) & 15 != 0) << 2
                | ((hand >> _PLUS_NEXT[rank]) & 15 != 0) << 3
                | (hand >> _PINK_SHIFT != 0) << 4
            )
            rows[0][hand] = _LEGAL[rank][key]
            rows[1][hand] = _LEGAL[rank][key | 32]
        tables.append(rows)
    return tuple(tables), tuple(masks)


_BY_HAND, _MASK = _by_hand()


class PartyLamaState(LamaState):
    """An immutable L.A.M.A. Party Edition state."""

    __slots__ = ()
    party = True
    cards = PARTY_DECK

    def apply(self, action: ActionLike) -> PartyLamaState:
        # The Party Edition's inner loop, flat like the classic one: a plus card keeps the turn.
        if type(action) is not LamaAction:
            action = self._coerce(action)
        if action not in self._legal:
            raise self._illegal(action)
        player: int = self.current_player  # type: ignore[assignment]  # legal implies not over
        n = self.num_players
        new = _new(PartyLamaState)
        new.game = self.game
        new.num_players = n
        new.options = self.options
        new.seed = self.seed
        new.round = self.round
        new.deck = self.deck
        new.starter = self.starter
        new.scores = self.scores
        new.supply = self.supply
        new.tokens = self.tokens
        new.last_round = self.last_round
        new.winners = ()
        hands = self.hands
        quit_mask = self.quit_mask
        draw_pos = self.draw_pos
        card = action.card
        again = False
        if card is not None:
            hand = hands[player] - (1 << (4 * card))
            hands = hands.copy()
            hands[player] = hand
            discard = (*self.discard, card)
            new.last_player = player
            again = _AGAIN[card]
        else:
            discard = self.discard
            new.last_player = self.last_player
            if action is DRAW:
                hand = hands[player] + (1 << (4 * self.deck[draw_pos]))
                hands = hands.copy()
                hands[player] = hand
                draw_pos += 1
            else:
                hand = -1  # a quitter's hand is laid down, not emptied
                quit_mask |= 1 << player
        new.hands = hands
        new.discard = discard
        new.draw_pos = draw_pos
        new.quit_mask = quit_mask
        full = (1 << n) - 1
        if not hand or quit_mask == full:
            new._end_round(ended_by=player)
            return new
        seat = player
        if not again:  # play passes left to the next seat still in the round (possibly the lone player again)
            while True:
                seat = seat + 1 if seat + 1 < n else 0
                if not (quit_mask >> seat) & 1:
                    break
        new.current_player = seat
        top = RANK[discard[-1]]
        may_draw = draw_pos < len(self.deck) and (quit_mask | (1 << seat)) != full
        new._legal = _BY_HAND[top][may_draw][hands[seat] & _MASK[top]]
        return new

    def _set_legal(self) -> None:
        """The legal actions of the current player (as at the end of ``apply``)."""
        seat: int = self.current_player  # type: ignore[assignment]
        top = RANK[self.discard[-1]]
        may_draw = self.draw_pos < len(self.deck) and (self.quit_mask | (1 << seat)) != (1 << self.num_players) - 1
        self._legal = _BY_HAND[top][may_draw][self.hands[seat] & _MASK[top]]
