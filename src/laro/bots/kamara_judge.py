"""How ISMCTS judges a Kamara position: quick, purposeful play to the end of the turn, then each seat's race.

Random Kamara players almost never match a card, so random playouts say nothing. A playout here plays on with
:meth:`KamaraJudge.policy`, a fast model of the ``heuristic`` bot that works on the state itself (observations
are too dear for the inner loop): match when it may; renew a hopeless card; use ``pitik`` on a wrong tile and
``sigla`` when the turn is short of actions; flip a wrong tile underfoot; otherwise walk (Moves, and Ports
between tapos) toward the paltik the cheapest *tour* flips first (see :mod:`laro.bots.kamara_planning`), or to
a tapos once the code shows. During setup it places tiles to show its own code and starts its diwa near the
first tile it must flip.

A playout runs to the end of the current turn (``turns`` turns; from setup, to the first turn of play). A game
that ends gives each winner its share of the win. Otherwise each seat's *race* is estimated: the actions it
still needs to win (its card's tour, at most a renewal, plus a fresh card's worth for every further match),
turned into the number of turns until it would finish, counting who moves next and the actions left in this
turn. The values come from a soft-min over the seats' finishing times (about one in all, like win shares).

>>> import random, laro
>>> state = laro.get_game("kamara").new_game(num_players=3, seed=3)
>>> judge = KamaraJudge()
>>> values = judge.playout(state, random.Random(1))
>>> len(values), all(0.0 <= v <= 1.0 for v in values)
(3, True)
>>> judge.policy(state, random.Random(1)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import pairwise, permutations
from typing import TypeVar, cast

from laro.bots import kamara_heuristic
from laro.bots.judges import win_shares
from laro.bots.kamara_planning import INF, Board, Choices, Situation, board_of, route, tour
from laro.core.game import Action, GameState, JSONDict
from laro.games.kamara.actions import DIWA, EXCHANGE, KEEP, KamaraAction
from laro.games.kamara.chamber import CENTRE, POSITION_SLOT
from laro.games.kamara.components import CARD_IDS, EFFECTS
from laro.games.kamara.state import KamaraState

__all__ = ["KamaraJudge", "play_on"]

A = TypeVar("A", bound=Action)

_PITIK = EFFECTS.index("pitik")
_SIGLA = EFFECTS.index("sigla")
_POSITION_OF_SLOT = {slot: position for position, slot in enumerate(POSITION_SLOT)}
# Turns until a seat plays, as the offsets of four players: 0 (to play) to 3 (last).
_OFFSET = {n: tuple(round(3 * k / (n - 1)) for k in range(n)) for n in range(2, 9)}
_OFFSET_NAMES = ("", "off1", "off2", "off3")
_TOURS: dict[Board, dict[tuple[int, int], tuple[int, int]]] = {}
_COSTS: dict[Board, dict[tuple[int, int, int], int]] = {}
_FREE: dict[Board, dict[int, list[int]]] = {}
_ROUTES: dict[Board, dict[tuple[int, int], tuple[list[int], list[int]]]] = {}
_BY_GEOMETRY: dict[int, Board] = {}  # id of a chamber's geometry -> its board


def _wrong(board: Board, mask: int) -> tuple[int, ...]:
    """The slots at the card positions in ``mask`` (logo as it lies)."""
    turns = 2 * board.turns
    return tuple(POSITION_SLOT[(p + turns) % 8] for p in range(8) if (mask >> p) & 1)


def _tour(board: Board, square: int, mask: int) -> tuple[int, int]:
    """The tour from ``square`` that flips the tiles at the wrong card positions ``mask`` and matches (cached)."""
    cache = _per_board(_TOURS, board)
    key = (square, mask)
    found = cache.get(key)
    if found is None:
        found = cache[key] = tour(board, board.distances(square), _wrong(board, mask))
    return found


def _cost(board: Board, square: int, mask: int, occupied: int) -> int:
    """The tour's actions from ``square`` past the diwa in ``occupied``: flip the tiles at the wrong card
    positions ``mask`` (a diwa on a paltik is poked away first), then match on the nearest empty tapos (cached)."""
    cache = _per_board(_COSTS, board)
    key = (square, mask, occupied)
    found = cache.get(key)
    if found is None:
        start = route(board, square, occupied)[0]
        if not mask:
            found = min((start[t] for t in board.tapos if not (occupied >> t) & 1), default=INF) + 1
        else:
            free = _to_free_tapos(board, occupied & board.geometry.tapos_mask)
            paltik = board.paltik
            slots = _wrong(board, mask)
            best = INF
            for order in permutations(slots):
                cost = start[paltik[order[0]]]
                for a, b in pairwise(order):
                    cost += board.distances(paltik[a])[paltik[b]]
                cost += free[paltik[order[-1]]]
                if cost < best:
                    best = cost
            found = best + len(slots) + 1 + sum((occupied >> paltik[slot]) & 1 for slot in slots)
        found = cache[key] = min(found, INF)
    return found


def _to_free_tapos(board: Board, taken: int) -> list[int]:
    """Moves from every square to the nearest tapos not in ``taken`` (cached)."""
    cache = _per_board(_FREE, board)
    field = cache.get(taken)
    if field is None:
        field = cache[taken] = board.search([t for t in board.tapos if not (taken >> t) & 1], ports=False)
    return field


K = TypeVar("K")
V = TypeVar("V")


def _per_board(caches: dict[Board, dict[K, V]], board: Board) -> dict[K, V]:
    """``board``'s own cache in ``caches`` (all of them dropped when too many boards are kept)."""
    cache = caches.get(board)
    if cache is None:
        if len(caches) >= 512:
            caches.clear()
        cache = caches[board] = {}
    return cache


# A seat's chance to win, fitted to seeded 4-player games of ``heuristic`` bots: the state at the start of every
# turn, and who won. PUBLIC scores what everyone sees of a seat: its matches still to make (two, or the last),
# how many turns until it plays (offsets 1..3, 0 for the seat about to play) and a green card held. OWN adds
# its yellow card: the tour's cost (in tens of actions, past the other diwa) and whether the card is within one
# turn's reach (``sigla`` counted). A seat wins with odds exp(OWN) / (the sum of the others' exp(PUBLIC)).
_PUBLIC = {
    "two": 1.223, "last": 2.891, "off1": -0.099, "off2": -0.174, "off3": -0.248, "off1_last": -0.017,
    "off2_last": -0.063, "off3_last": -0.107, "green": 0.128,
}  # fmt: skip
_OWN = {
    "const": 0.39, "two": 1.375, "last": 3.135, "off1": -0.086, "off2": -0.147, "off3": -0.221, "off1_last": -0.09,
    "off2_last": -0.178, "off3_last": -0.262, "green": 0.06, "nocard": -0.628, "cost": -0.579, "cost_two": -0.059,
    "cost_last": -0.124, "cost2": 0.104, "near": 0.717, "near_last": 0.55, "near_off1": -0.3, "near_off2": -0.568,
    "near_off3": -0.742,
}  # fmt: skip


class KamaraJudge:
    """Playouts with a model of the ``heuristic`` bot, valued by each seat's race (see the module docstring).

    ``turns``: how many turns a playout plays (the current one counts). ``fresh``: the actions a new card is
    reckoned to cost, match included. ``hopeless``: a card whose tour costs more is renewed. ``temperature``:
    the soft-min's width, in turns. ``randomness``: the share of the model's moves that are random.
    ``horizon``: the turns a :meth:`lookahead` plays.
    """

    def __init__(
        self,
        turns: int = 1,
        hopeless: int = 15,
        sharpness: float = 1.0,
        randomness: float = 0.0,
        public: dict[str, float] | None = None,
        own: dict[str, float] | None = None,
        waiting: float = 0.0,
        horizon: int = 4,
    ) -> None:
        self.waiting = waiting
        self.horizon = horizon
        self.heuristic = kamara_heuristic.KamaraHeuristicBot()
        self.public = dict.fromkeys(_OWN, 0.0) | (_PUBLIC if public is None else public)
        self.own = dict.fromkeys(_OWN, 0.0) | (_OWN if own is None else own)
        self.turns = turns
        self.hopeless = hopeless
        self.sharpness = sharpness
        self.randomness = randomness

    # -- the judge ---------------------------------------------------------------------------------------

    def playout(self, state: GameState, rng: random.Random) -> Sequence[float]:
        kamara = cast(KamaraState, state)
        policy = self.policy
        budget = 400  # a safety net: every turn ends within its actions
        while kamara.current_player is not None and kamara.phase != "play" and budget:
            kamara = kamara.apply(policy(kamara, rng))
            budget -= 1
        player = kamara.current_player
        if player is None:
            return win_shares(kamara)
        if cast(KamaraState, state).phase != "play" or not _begun(kamara):
            return self.values(kamara)
        # a turn in progress: its player is judged when it is done, the others as things stand
        values = self.values(kamara)
        if self.waiting:
            values = [1.0 / (1.0 + (1.0 - v) / max(v, 1e-12) * math.exp(self.waiting)) for v in values]
        held = kamara.green[player]
        while kamara.current_player == player and budget:
            kamara = kamara.apply_legal(heuristic_move(kamara, kamara.green[player] != held))
            budget -= 1
        values[player] = win_shares(kamara)[player] if kamara.current_player is None else self.values(kamara)[player]
        return values

    def values(self, state: KamaraState) -> list[float]:
        """Each seat's chance to win, read from the position (see the module docstring)."""
        n = state.num_players
        if state.phase != "play":
            return [0.5] * n
        per_turn = state.options["actions_per_turn"]
        scale = 5.0 / per_turn  # the weights count actions of five-action turns
        target = state.options["target_matches"]
        board = _board(state)  # every tile is placed
        relative = board.geometry.relative_light
        codes = state.components.codes
        player: int = state.current_player  # type: ignore[assignment]  # the game is not over
        diwa = state.diwa
        occupied = state.occupied()
        pw, ow = self.public, self.own
        public = []
        own = []
        for seat in range(n):
            to_make = target - len(state.matched[seat])
            last, two = to_make == 1, to_make == 2
            offset = _OFFSET[n][(seat - player) % n]
            green = state.green[seat]
            public_score = 0.0
            own_score = ow["const"]
            if last:
                public_score += pw["last"]
                own_score += ow["last"]
            elif two:
                public_score += pw["two"]
                own_score += ow["two"]
            name = _OFFSET_NAMES[offset]
            if offset:
                public_score += pw[name] + (pw[name + "_last"] if last else 0.0)
                own_score += ow[name] + (ow[name + "_last"] if last else 0.0)
            if green >= 0:
                public_score += pw["green"]
                own_score += ow["green"]
            public.append(public_score)
            card = state.yellow[seat]
            if card < 0:
                own_score += ow["nocard"]
            else:
                shown, light = codes[card]
                here = diwa[seat]
                actions = _cost(board, here, (relative ^ light) & shown, occupied & ~(1 << here)) * scale
                cost = min(actions, 24.0) / 10.0
                own_score += cost * (ow["cost"] + ow["cost2"] * cost)
                if last:
                    own_score += cost * ow["cost_last"]
                elif two:
                    own_score += cost * ow["cost_two"]
                if actions <= (8.0 if green == _SIGLA else 5.0):
                    own_score += ow["near"] + (ow["near_last"] if last else 0.0)
                    if offset:
                        own_score += ow["near_" + name]
            own.append(own_score)
        exps = [math.exp(score) for score in public]
        total = sum(exps)
        sharpness = self.sharpness
        values = []
        for seat in range(n):
            odds = own[seat] - math.log(max(total - exps[seat], 1e-12))
            values.append(1.0 / (1.0 + math.exp(-sharpness * odds)))
        return values

    # -- the paired search's comparisons -------------------------------------------------------------------

    def candidates(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> list[A]:
        """The moves the paired search compares: the ``heuristic`` bot's own, and, when that renews the card
        (an Exchange, the decision it takes on the least evidence), the move it would make keeping the card.
        Every other move is a step of its planned tour, which searching only adds noise to."""
        planned = self.heuristic.choose(observation, legal, rng)
        if cast(KamaraAction, planned).kind != EXCHANGE or observation["pending"] is not None:
            return [planned]
        kept = [action for action in legal if cast(KamaraAction, action).kind != EXCHANGE]
        return [planned, self.heuristic.choose(observation, kept, rng)] if kept else [planned]

    def lookahead(self, state: GameState, rng: random.Random) -> Sequence[float]:
        """Values after :attr:`horizon` turns of the model's play (the one in progress counts): a renewed card is
        a new draw, whose worth shows only over a few turns."""
        kamara = play_on(cast(KamaraState, state), self.horizon)
        return win_shares(kamara) if kamara.current_player is None else self.values(kamara)

    # -- the model -----------------------------------------------------------------------------------------

    def policy(self, state: GameState, rng: random.Random) -> Action:
        """The model's move for the seat to act (see the module docstring)."""
        kamara = cast(KamaraState, state)
        if self.randomness and rng.random() < self.randomness:
            legal = kamara.legal_actions()
            return legal[int(rng.random() * len(legal))]
        phase = kamara.phase
        if phase == "play":
            return heuristic_move(kamara)
        if phase == "tiles":
            return self._place(kamara, rng)
        return self._diwa(kamara)

    @staticmethod
    def _place(state: KamaraState, rng: random.Random) -> KamaraAction:
        """A tile placed to show the placer's code where the slot's card position is known."""
        legal = state.legal_actions()
        player: int = state.current_player  # type: ignore[assignment]
        card = state.yellow[player]
        if card < 0:
            return legal[int(rng.random() * len(legal))]
        shown, light = state.components.codes[card]
        faces = state.components.tiles
        tiles = state.tiles
        centre = tiles[CENTRE]
        best, chosen = -9, []
        for action in legal:
            args = action.args
            number, slot, face = args[0], args[1], args[2]
            if slot == CENTRE:
                turns = args[3]
                score = 0
                for other, placed in enumerate(tiles):
                    if placed is not None and other != CENTRE:
                        position = (_POSITION_OF_SLOT[other] - 2 * turns) % 8
                        if (shown >> position) & 1:
                            is_light = faces[placed[0]].faces[placed[1]].paltik == "light"
                            score += 1 if is_light == bool((light >> position) & 1) else -1
            elif centre is None:
                score = 0
            else:
                position = (_POSITION_OF_SLOT[slot] - 2 * centre[2]) % 8
                if (shown >> position) & 1:
                    is_light = faces[number].faces[face].paltik == "light"
                    score = 1 if is_light == bool((light >> position) & 1) else -1
                else:
                    score = 0
            if score > best:
                best, chosen = score, [action]
            elif score == best:
                chosen.append(action)
        return chosen[int(rng.random() * len(chosen))]

    @staticmethod
    def _diwa(state: KamaraState) -> KamaraAction:
        """The first free colour, on the square nearest the paltik of a tile its code needs flipped."""
        legal = [action for action in state.legal_actions() if action.kind == DIWA]
        colour = min(action.args[0] for action in legal)
        legal = [action for action in legal if action.args[0] == colour]
        player: int = state.current_player  # type: ignore[assignment]
        board = _board(state)  # every tile is placed
        card = state.yellow[player]
        fields = [board.to_tapos]
        if card >= 0:
            shown, light = state.components.codes[card]
            wrong = _wrong(board, (board.geometry.relative_light ^ light) & shown)
            fields = [board.distances(board.paltik[slot]) for slot in wrong] or fields
        return min(legal, key=lambda action: min(field[action.args[1]] for field in fields))


def _route(board: Board, square: int, occupied: int) -> tuple[list[int], list[int]]:
    """:func:`~laro.bots.kamara_planning.route`, cached (its lists are only read)."""
    cache = _per_board(_ROUTES, board)
    key = (square, occupied)
    found = cache.get(key)
    if found is None:
        found = cache[key] = route(board, square, occupied)
    return found


def _situation(state: KamaraState, board: Board, seat: int) -> Situation:
    """What the ``heuristic`` bot would read from ``seat``'s observation, read from the state instead."""
    turn = Situation.__new__(Situation)
    turn.observation = {
        "seat": seat,
        "exchanged": state.exchanged,
        "seen_on_top": [CARD_IDS[card] for card in state.known[seat]],
    }
    turn.components = state.components
    turn.board = board
    colours, diwa = state.colours, state.diwa
    turn.colour = colours[seat]
    turn.me = me = diwa[seat]
    turn.rivals = rivals = {colours[other]: diwa[other] for other in state.by_colour() if other != seat}
    turn.occupied = occupied = sum(1 << square for square in rivals.values())
    card = state.yellow[seat]
    turn.card = state.components.codes[card] if card >= 0 else None
    turn.locked = frozenset(slot for slot, owner in enumerate(state.locks) if owner >= 0)
    turn.actions_left = state.actions_left
    turn.per_turn = state.options["actions_per_turn"]
    green = state.green[seat]
    turn.effect = EFFECTS[green] if green >= 0 else None
    turn.dist, turn.first = _route(board, me, occupied)
    return turn


def _board(state: KamaraState) -> Board:
    """The :class:`Board` of the state's chamber, found by its geometry (which the state keeps)."""
    geometry = state.geometry
    board = _BY_GEOMETRY.get(id(geometry))
    if board is None or board.geometry is not geometry:  # a board keeps its geometry alive: its id is not reused
        if len(_BY_GEOMETRY) >= 512:
            _BY_GEOMETRY.clear()
        board = _BY_GEOMETRY[id(geometry)] = board_of(state.components, state.tiles)  # type: ignore[arg-type]
    return board


def heuristic_move(state: KamaraState, hide_green: bool = False) -> KamaraAction:
    """The ``heuristic`` bot's move in play, decided on the state (it never finds its card stalled); with
    ``hide_green`` it does not see its green card."""
    seat: int = state.current_player  # type: ignore[assignment]
    legal = state.legal_actions()
    table = Choices(legal)
    turn = _situation(state, _board(state), seat)
    if hide_green:
        turn.effect = None
    pending = state.pending
    if pending is not None:
        decision = {"decision": "keep" if pending[0] == KEEP else "order"}
        return legal[kamara_heuristic._decide(turn, table, decision)]
    return legal[kamara_heuristic._play(turn, table, False)]


def _begun(state: KamaraState) -> bool:
    """Whether the seat to play has done something this turn."""
    return (
        state.actions_left != state.options["actions_per_turn"]
        or state.exchanged
        or state.green_drawn
        or state.pending is not None
    )


_SAFETY = 2_000  # moves: every turn ends within its actions, so a few turns end far sooner


def play_on(state: KamaraState, turns: int) -> KamaraState:
    """The state after ``turns`` turns end (or the game does), every seat moving as the ``heuristic`` bot.

    >>> import laro
    >>> state = laro.get_game("kamara").new_game(num_players=2, seed=1)
    >>> play_on(state, 3) is state  # play has not begun: the model plays turns only
    True
    """
    if state.phase != "play":
        return state
    ended = 0
    budget = _SAFETY
    while ended < turns and state.current_player is not None and budget:
        player = state.current_player
        state = state.apply_legal(heuristic_move(state))  # the model chose among the legal actions
        budget -= 1
        if state.current_player != player:
            ended += 1
    return state
