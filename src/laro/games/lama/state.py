"""The L.A.M.A. game state and its transitions: every rule of a turn, a round and the game lives here.

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=2, seed=3)
>>> [str(a) for a in state.legal_actions()]
['play 6', 'draw', 'quit']
>>> state.apply("quit").current_player != state.current_player
True
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Self

from laro.core.errors import IllegalActionError, MalformedActionError
from laro.core.game import ActionLike, JSONDict
from laro.games.lama.actions import ACTIONS, ALL_ACTIONS, DRAW, PLAY, QUIT, LamaAction, parse_action
from laro.games.lama.cards import (
    ALL_CARD_TEXT,
    ANOTHER_TURN,
    COPIES,
    DECK,
    HAND_SIZE,
    NUM_KINDS,
    NUM_PARTY_KINDS,
    RANK,
    cards_of,
    count_of,
    hand_size,
    party_hand_size,
    playable_after,
    texts,
)
from laro.games.lama.scoring import RoundResult, pay_round, score_round
from laro.games.lama.tokens import Supply, Tokens, unlimited_tokens

if TYPE_CHECKING:
    from laro.games.lama.game import LamaGame

__all__ = ["ONWARD", "LamaState", "LegalRows", "deal_round", "legal_lookup"]


LegalRows = tuple[tuple[dict[int, tuple[LamaAction, ...]], dict[int, tuple[LamaAction, ...]]], ...]


def legal_lookup(
    followers: Callable[[int], Iterable[int]], most: Callable[[int], int]
) -> tuple[LegalRows, tuple[int, ...]]:
    """The one place that says which actions are legal: per top rank (0..6), and without or with drawing allowed,
    a dict from the hand's counts of the cards that may follow that rank (``followers(rank)``, at most
    ``most(card)`` copies each) to the legal actions; and per rank the mask that keeps just those counts of a
    hand. Plays come in the order of their indices, then ``draw`` when allowed, then ``quit`` (always allowed).

    >>> from laro.games.lama.cards import hand_from_cards
    >>> rows, masks = legal_lookup(lambda rank: playable_after(rank), lambda card: 8)
    >>> [str(action) for action in rows[2][True][hand_from_cards([3]) & masks[2]]]  # a 4 on a 3
    ['play 4', 'draw', 'quit']
    """
    shared: dict[tuple[LamaAction, ...], tuple[LamaAction, ...]] = {}
    tables = []
    masks = []
    for rank in range(NUM_KINDS):
        cards = sorted(set(followers(rank)))
        masks.append(sum(15 << (4 * card) for card in cards))
        rows: tuple[dict[int, tuple[LamaAction, ...]], dict[int, tuple[LamaAction, ...]]] = ({}, {})
        for counts in itertools.product(*(range(most(card) + 1) for card in cards)):
            hand = sum(count << (4 * card) for count, card in zip(counts, cards, strict=True))
            plays = sorted((PLAY[card] for card, count in zip(cards, counts, strict=True) if count), key=_index)
            for may_draw, actions in enumerate(((*plays, QUIT), (*plays, DRAW, QUIT))):
                rows[may_draw][hand] = shared.setdefault(actions, actions)
        tables.append(rows)
    return tuple(tables), tuple(masks)


def _index(action: LamaAction) -> int:
    return action.index


_LEGAL, _MASK = legal_lookup(playable_after, lambda card: COPIES)
_NO_ACTIONS: tuple[LamaAction, ...] = ()
_new = object.__new__
_BIT = tuple(1 << (4 * card) for card in range(NUM_PARTY_KINDS))
_SHUFFLED = tuple(range(len(DECK) - 1, 0, -1))  # the positions a Fisher-Yates shuffle fills, the last first
_WORD_BYTES = 4 * len(DECK)  # one word per shuffle step, and one for the seat
_unpack_words = struct.Struct(f">{len(DECK)}I").unpack
_MOST_PLAYERS = 6
_Dealer = Callable[[list[int], tuple[int, ...]], tuple[list[int], tuple[int, ...]]]


def _written_out_deal(num_players: int) -> _Dealer:
    """The shuffle and the hands of :func:`deal_round` for ``num_players``, as the loop ::

        for i, word in zip(_SHUFFLED, words):
            j = (word * (i + 1)) >> 32  # the size of the part still to shuffle is i + 1
            deck[i], deck[j] = deck[j], deck[i]
        hands = [hand_from_cards(deck[k : k + 6]) for k in range(0, 6 * num_players, 6)]  # a hand, six cards
        return hands, tuple(deck[6 * num_players :])

    but written out, one step and one card after the other with every position and size a constant (a third
    cheaper in CPython), and each position's card kept in a name of its own once the shuffle has settled it (a
    step settles the highest position still open, so ``deck[i]`` is only read, never written back): a fifth
    cheaper again. Dealing is a good part of a random playout. It leaves ``deck`` partly shuffled.
    """
    words = ", ".join(f"w{step}" for step in range(len(DECK)))
    steps = "".join(
        f"    j = (w{step} * {i + 1}) >> 32\n    c{i} = deck[j]\n    deck[j] = deck[{i}]\n"
        for step, i in enumerate(_SHUFFLED)
    )
    hands = ", ".join(
        " + ".join(f"bit[c{k}]" for k in range(start, start + HAND_SIZE))
        for start in range(0, HAND_SIZE * num_players, HAND_SIZE)
    )
    rest = ", ".join(f"c{k}" for k in range(HAND_SIZE * num_players, len(DECK)))
    namespace: dict[str, Any] = {"bit": _BIT}
    exec(
        f"def deal(deck, words):\n    {words} = words\n{steps}    c0 = deck[0]\n    return [{hands}], ({rest},)\n",
        namespace,
    )
    dealer: _Dealer = namespace["deal"]
    return dealer


_DEALERS = tuple(_written_out_deal(n) for n in range(_MOST_PLAYERS + 1))


def _onward(n: int, quit_mask: int) -> tuple[int, ...]:
    """Per seat, the next seat to its left still in the round (itself when it is the only one)."""
    following = []
    for seat in range(n):
        other = (seat + 1) % n
        while (quit_mask >> other) & 1 and other != seat:
            other = (other + 1) % n
        following.append(other)
    return tuple(following)


# per number of players and quit mask, per seat: who plays after it (play passes left to the next seat still in)
ONWARD = tuple(tuple(_onward(n, mask) for mask in range(1 << n)) for n in range(_MOST_PLAYERS + 1))


def deal_round(
    seed: int, round_number: int, num_players: int, cards: tuple[int, ...] = DECK
) -> tuple[list[int], tuple[int, ...], int]:
    """Deal one round of the 56 ``cards`` (the classic deck, or the Party Edition's): the packed hands, the rest
    of the shuffled deck (discard first, then the draw pile), and a seat drawn at random (the first round's
    starter).

    The randomness is SHAKE-256 of the game's seed and the round number, read as 32-bit words: a Fisher-Yates
    shuffle takes each position ``j = word * size >> 32`` (bias below 2**-26), the last word picks the seat.
    It is the same on every machine and Python version, and cheap enough for millions of playouts.

    >>> hands, rest, starter = deal_round(7, 1, 4)
    >>> [hand_size(hand) for hand in hands], len(rest), starter
    ([6, 6, 6, 6], 32, 1)
    """
    words = _unpack_words(hashlib.shake_256(b"%d:%d" % (seed, round_number)).digest(_WORD_BYTES))
    hands, rest = _DEALERS[num_players](list(cards), words)  # the last word is left for the seat
    return hands, rest, words[-1] % num_players


class LamaState:
    """An immutable L.A.M.A. state (the classic edition; the Party Edition's is a subclass). Build one with
    ``GAME.new_game`` or ``GAME.from_json``."""

    party = False  # the edition: the Party Edition's state says True
    cards: tuple[int, ...] = DECK  # the edition's 56 cards
    legal_rows: LegalRows = _LEGAL  # the edition's legal actions (see legal_lookup)
    legal_masks: tuple[int, ...] = _MASK

    __slots__ = (
        "_legal",
        "current_player",
        "deck",
        "discard",
        "draw_pos",
        "game",
        "hands",
        "last_player",
        "last_round",
        "num_players",
        "options",
        "quit_mask",
        "round",
        "scores",
        "seed",
        "starter",
        "supply",
        "tokens",
        "winners",
    )

    game: LamaGame
    num_players: int
    options: dict[str, Any]
    seed: int
    round: int
    hands: list[int]  # never changed once the state is built
    deck: tuple[int, ...]  # the draw pile is deck[draw_pos:], top first
    draw_pos: int
    discard: tuple[int, ...]  # top card last
    current_player: int | None
    starter: int  # who started this round
    quit_mask: int
    last_player: int | None  # who played the last card this round
    scores: tuple[int, ...]
    supply: Supply | None  # None: unlimited supply
    tokens: tuple[Tokens, ...] | None
    last_round: RoundResult | None
    winners: tuple[int, ...]
    _legal: tuple[LamaAction, ...]

    # -- the contract -------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.current_player is None

    @property
    def num_actions(self) -> int:
        """The edition's action space: every legal action's index is below it (9 classic, 16 Party Edition)."""
        return len(ALL_ACTIONS) if self.party else len(ACTIONS)

    def legal_actions(self) -> tuple[LamaAction, ...]:
        return self._legal

    def parse_action(self, action: ActionLike) -> LamaAction:
        return action if type(action) is LamaAction else self._coerce(action)

    def apply(self, action: ActionLike) -> Self:
        # The engine's inner loop, for both editions: kept flat on purpose (no helper calls on an ordinary turn).
        if type(action) is not LamaAction:
            action = self._coerce(action)
        if action not in self._legal:
            raise self._illegal(action)
        player: int = self.current_player  # type: ignore[assignment]  # legal implies not over
        n = self.num_players
        new = _new(self.__class__)
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
            hand = hands[player] - _BIT[card]
            hands = hands.copy()
            hands[player] = hand
            discard = self.discard + (card,)  # noqa: RUF005  # cheaper than (*discard, card): no list on the way
            new.last_player = player
            again = ANOTHER_TURN[card]  # the Party Edition's plus card: another turn at once
        else:
            discard = self.discard
            new.last_player = self.last_player
            if action is DRAW:
                hand = hands[player] + _BIT[self.deck[draw_pos]]
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
        # play passes left to the next seat still in the round (possibly the lone player again)
        seat = player if again else ONWARD[n][quit_mask][player]
        new.current_player = seat
        top = RANK[discard[-1]]
        may_draw = draw_pos < len(self.deck) and (quit_mask | (1 << seat)) != full
        new._legal = self.legal_rows[top][may_draw][hands[seat] & self.legal_masks[top]]
        return new

    # -- turns and rounds ---------------------------------------------------------------------------------

    def _set_legal(self) -> None:
        """The legal actions of the current player (the same logic as the end of ``apply``)."""
        seat: int = self.current_player  # type: ignore[assignment]
        top = RANK[self.discard[-1]]
        # drawing needs a card in the draw pile and another player still in the round
        may_draw = self.draw_pos < len(self.deck) and (self.quit_mask | (1 << seat)) != (1 << self.num_players) - 1
        self._legal = self.legal_rows[top][may_draw][self.hands[seat] & self.legal_masks[top]]

    def _end_round(self, ended_by: int) -> None:
        """Score the round, return a token for an emptied hand, then end the game or deal the next round."""
        result = score_round(self.round, self.hands, self.scores, ended_by, self.party)
        self.scores = result.scores
        self.last_round = result
        if self.tokens is not None and self.supply is not None:
            self.supply, self.tokens = pay_round(self.supply, self.tokens, result)
        if max(result.scores) >= self.options["end_score"]:
            self.winners = result.leaders()
            self.current_player = None
            self._legal = _NO_ACTIONS
            return
        if self.options["next_round_starter"] == "last_card" and self.last_player is not None:
            starter = self.last_player
        else:
            starter = ended_by
        self._deal(self.round + 1, starter)

    def _deal(self, round_number: int, starter: int | None) -> None:
        """Deal a round; the first round's starter (``None``) is drawn with the deal."""
        self.hands, deck, drawn_seat = deal_round(self.seed, round_number, self.num_players, self.cards)
        if starter is None:
            starter = drawn_seat
        self.round = round_number
        self.deck = deck
        self.discard = (deck[0],)
        self.draw_pos = 1
        self.quit_mask = 0
        self.last_player = None
        self.starter = starter
        self.current_player = starter
        self._set_legal()

    # -- errors -------------------------------------------------------------------------------------------

    def _coerce(self, action: object) -> LamaAction:
        if isinstance(action, str):
            return parse_action(action)
        if isinstance(action, int) and not isinstance(action, bool):
            if 0 <= action < len(ALL_ACTIONS):
                return ALL_ACTIONS[action]
            raise MalformedActionError(f"action index must be 0..{len(ALL_ACTIONS) - 1}; got {action}")
        raise MalformedActionError(f"expected a L.A.M.A. action, its text or its index; got {action!r}")

    def _illegal(self, action: LamaAction) -> IllegalActionError:
        if self.current_player is None:
            return IllegalActionError(f"the game is over; {action} is not possible")
        allowed = ", ".join(a.text for a in self._legal)
        player = self.current_player
        why = ""
        if action is DRAW:
            why = "the draw pile is empty" if self.draw_pos >= len(self.deck) else "every other player has quit"
        elif action.card is not None and action.card >= NUM_KINDS and not self.party:
            why = "the classic game has no plus cards and no pink llama (they are the Party Edition's)"
        elif action.card is not None:
            if not count_of(self.hands[player], action.card):
                why = f"you hold no {ALL_CARD_TEXT[action.card]}"
            else:
                why = f"{_a_card(action.card)} cannot go on {_a_card(self.discard[-1])}"
        return IllegalActionError(f"{action} is not allowed: {why}; allowed: {allowed}")

    # -- views --------------------------------------------------------------------------------------------

    @property
    def top_card(self) -> str:
        return ALL_CARD_TEXT[self.discard[-1]]

    @property
    def draw_pile_count(self) -> int:
        return len(self.deck) - self.draw_pos

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat``'s hand, sorted, as text."""
        return texts(cards_of(self.hands[seat]))

    def hand_sizes(self) -> list[int]:
        return [(party_hand_size if self.party else hand_size)(hand) for hand in self.hands]

    def has_quit(self, seat: int) -> bool:
        return bool((self.quit_mask >> seat) & 1)

    def tokens_of(self, seat: int) -> Tokens:
        """The tokens in front of ``seat`` (derived from the total with an unlimited supply)."""
        if self.tokens is None:
            return unlimited_tokens(self.scores[seat], self.party)
        return self.tokens[seat]

    def observation(self, seat: int) -> JSONDict:
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}; got {seat}")
        return {
            "game": "lama",
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "round": self.round,
            "hand": self.hand(seat),
            "hand_sizes": self.hand_sizes(),
            "discard_pile": texts(self.discard),
            "top_card": self.top_card,
            "draw_pile_count": self.draw_pile_count,
            "current_player": self.current_player,
            "starter": self.starter,
            "last_player": self.last_player,
            "quit": [self.has_quit(s) for s in range(self.num_players)],
            "scores": list(self.scores),
            "tokens": [self.tokens_of(s).to_json(self.party) for s in range(self.num_players)],
            "supply": None if self.supply is None else self.supply.to_json(self.party),
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "is_over": self.is_over,
            "winners": list(self.winners),
        }

    def public_observation(self) -> JSONDict:
        """What a spectator may know: the observation of any seat, without its hand and seat."""
        data = self.observation(0)
        data["seat"] = None
        data["hand"] = []
        return data

    def to_json(self) -> JSONDict:
        data: JSONDict = {
            "game": "lama",
            "rules_version": self.game.rules_version,
            "num_players": self.num_players,
            "options": dict(self.options),
            "seed": self.seed,
            "round": self.round,
            "hands": [self.hand(seat) for seat in range(self.num_players)],
            "draw_pile": texts(self.deck[self.draw_pos :]),
            "discard_pile": texts(self.discard),
            "current_player": self.current_player,
            "starter": self.starter,
            "last_player": self.last_player,
            "quit": [self.has_quit(s) for s in range(self.num_players)],
            "scores": list(self.scores),
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "winners": list(self.winners),
        }
        if self.supply is not None and self.tokens is not None:
            data["tokens"] = [held.to_json(self.party) for held in self.tokens]
            data["supply"] = self.supply.to_json(self.party)
        return data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LamaState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<LamaState round={self.round} player={self.current_player} top={self.top_card} "
            f"scores={list(self.scores)}>"
        )


def _a_card(card: int) -> str:
    """A card with its article, as read aloud: "a 3", "a 3+", "a llama", "the pink llama"."""
    text = ALL_CARD_TEXT[card]
    return "a llama" if text == "L" else "the pink llama" if text == "P" else f"a {text}"
