"""The Kamara game state: the one place that decides which actions are legal, and what each one does.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(num_players=2, seed=5, options={"elder": 0})
>>> state.phase, state.current_player, str(state.legal_actions()[0])
('tiles', 0, 'place kamara C A 0')
"""

from __future__ import annotations

from itertools import permutations, repeat
from operator import is_
from typing import TYPE_CHECKING, Any

from laro.core.errors import IllegalActionError, MalformedActionError
from laro.core.game import ActionLike, JSONDict
from laro.games.kamara import effects, serial
from laro.games.kamara.actions import DIWA, END, KEEP, ORDER, PLACE, ActionSpace, KamaraAction
from laro.games.kamara.chamber import CENTRE, OUTWARD, SLOT_OF_SQUARE, Geometry, chamber_geometry
from laro.games.kamara.components import Components
from laro.games.kamara.tables import (
    DIWA_ACTIONS,
    END_ACTION,
    EXCHANGE_ACTION,
    FLIP_ACTION,
    KEEP_ACTIONS,
    MATCH_ACTION,
    MOVE_ACTIONS,
    ORDER_ACTIONS,
    POKE_ACTIONS,
    PORT_ACTIONS,
)

if TYPE_CHECKING:
    from laro.games.kamara.game import KamaraGame

__all__ = ["KamaraState"]

_new = object.__new__
_NO_ACTIONS: tuple[KamaraAction, ...] = ()
# Squares where a diwa may be set up: on a tile with a paltik (any but the centre).
_SETUP_SQUARES = tuple(sq for sq in range(81) if SLOT_OF_SQUARE[sq] != CENTRE)
_BY_COLOUR: dict[tuple[int, ...], tuple[int, ...]] = {}  # colours per seat -> seats with a diwa in colour order


class KamaraState:
    """An immutable Kamara state; build one with ``GAME.new_game`` or ``GAME.from_json``.

    Cards are numbers: yellow cards by id (``Y01`` = 0), green cards by effect (index into ``EFFECTS``).
    A seat's missing card, diwa or colour is ``-1``.
    """

    __slots__ = (
        "_geometry",
        "_legal",
        "actions_left",
        "colours",
        "components",
        "current_player",
        "diwa",
        "elder",
        "exchanged",
        "first_player",
        "game",
        "green",
        "green_deck",
        "green_drawn",
        "known",
        "locks",
        "matched",
        "num_players",
        "options",
        "pending",
        "phase",
        "pool",
        "round",
        "seed",
        "space",
        "tiles",
        "winners",
        "yellow",
        "yellow_deck",
    )

    game: KamaraGame
    num_players: int
    options: dict[str, Any]
    seed: int
    components: Components
    space: ActionSpace
    phase: str  # tiles, diwa, play, over
    tiles: tuple[tuple[int, int, int] | None, ...]  # per slot: (tile number, face, rotation) or None
    pool: tuple[int, ...]  # tile numbers still to place
    diwa: tuple[int, ...]  # per seat: square
    colours: tuple[int, ...]  # per seat: colour
    yellow: tuple[int, ...]  # per seat: held yellow card
    green: tuple[int, ...]  # per seat: held green card (effect)
    matched: tuple[tuple[int, ...], ...]
    yellow_deck: tuple[int, ...]  # top first
    green_deck: tuple[int, ...]  # top first
    current_player: int | None
    actions_left: int
    exchanged: bool
    green_drawn: bool
    locks: tuple[int, ...]  # per slot: the seat that locked it, or -1
    round: int
    elder: int
    first_player: int  # who took the first turn (-1 during setup); a round begins with their turn
    pending: tuple[int, ...] | None  # (ORDER, how many) or (KEEP, *drawn cards): the current player decides
    known: tuple[tuple[int, ...], ...]  # per seat: the cards silip showed them, still on top of the yellow deck
    winners: tuple[int, ...]
    _legal: tuple[KamaraAction, ...] | None
    _geometry: Geometry | None

    # -- the contract -------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.current_player is None

    @property
    def scores(self) -> tuple[int, ...]:
        """Matched yellow cards per seat (more is better)."""
        return tuple(map(len, self.matched))

    @property
    def geometry(self) -> Geometry:
        """The geometry of the full chamber (only once every tile is placed)."""
        geometry = self._geometry
        if geometry is None:
            geometry = self._geometry = chamber_geometry(self.components, self.tiles)  # type: ignore[arg-type]
        return geometry

    def legal_actions(self) -> tuple[KamaraAction, ...]:
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase == "play":
                legal = self._decision_actions() if self.pending is not None else self._play_actions()
            elif phase == "tiles":
                legal = self._place_actions()
            elif phase == "diwa":
                legal = self._diwa_actions()
            else:
                legal = _NO_ACTIONS
            self._legal = legal
        return legal

    def parse_action(self, action: ActionLike) -> KamaraAction:
        return self._coerce(action)

    def apply(self, action: ActionLike) -> KamaraState:
        if type(action) is not KamaraAction:
            action = self._coerce(action)
        legal = self.legal_actions()
        # the legal actions are the space's own objects: found by identity at C speed, else compared
        if not any(map(is_, legal, repeat(action))) and action not in legal:
            raise self._illegal(action)
        new = self._copy()
        _HANDLERS[action.kind](new, action.args)
        return new

    def apply_legal(self, action: KamaraAction) -> KamaraState:
        """:meth:`apply` for an action known to be legal here (one of :meth:`legal_actions`, or what a search
        found legal in the same position before): the same new state, without the look for it among the legal
        actions. An action that is not legal here breaks the rules unnoticed."""
        new = self._copy()
        _HANDLERS[action.kind](new, action.args)
        return new

    def observation(self, seat: int) -> JSONDict:
        return serial.observation(self, seat)

    def public_observation(self) -> JSONDict:
        """What a spectator may know: the observation of no seat."""
        return serial.observation(self, None)

    def to_json(self) -> JSONDict:
        return serial.to_json(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KamaraState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<KamaraState {self.phase} round={self.round} player={self.current_player} matched={self.scores}>"

    # -- legal actions ------------------------------------------------------------------------------------

    def _place_actions(self) -> tuple[KamaraAction, ...]:
        pool, tiles = self.pool, self.tiles
        return tuple(a for a in self.space.by_index[:72] if a.args[0] in pool and tiles[a.args[1]] is None)

    def _diwa_actions(self) -> tuple[KamaraAction, ...]:
        geometry = self.geometry
        taken = self.occupied() | geometry.blocked
        free = [sq for sq in _SETUP_SQUARES if not (taken >> sq) & 1 and geometry.paltik_slot[sq] < 0]
        return tuple(DIWA_ACTIONS[colour][sq] for colour in range(8) if colour not in self.colours for sq in free)

    def _decision_actions(self) -> tuple[KamaraAction, ...]:
        pending: tuple[int, ...] = self.pending  # type: ignore[assignment]
        if pending[0] == ORDER:
            top = sorted(self.yellow_deck[: pending[1]])
            return tuple(ORDER_ACTIONS[cards] for cards in permutations(top))
        own = self.yellow[self.current_player]  # type: ignore[index]
        return tuple(KEEP_ACTIONS[card] for card in sorted((*pending[1:], *((own,) if own >= 0 else ()))))

    def _play_actions(self) -> tuple[KamaraAction, ...]:
        player: int = self.current_player  # type: ignore[assignment]
        me = self.diwa[player]
        geometry = self.geometry
        occupied = self.occupied()
        step = geometry.step
        base = me * 8
        legal = []
        for direction in range(8):
            target = step[base + direction]
            if target >= 0 and not (occupied >> target) & 1:
                legal.append(MOVE_ACTIONS[direction])
        slot = geometry.paltik_slot[me]
        if slot >= 0 and self.locks[slot] < 0:
            legal.append(FLIP_ACTION)
        card = self.yellow[player]
        on_tapos = (geometry.tapos_mask >> me) & 1
        if on_tapos and card >= 0 and self.matches(card):
            legal.append(MATCH_ACTION)
        if card >= 0 and not self.exchanged and self.yellow_deck:
            legal.append(EXCHANGE_ACTION)
        if on_tapos:
            legal += [PORT_ACTIONS[t] for t in geometry.tapos if not (occupied >> t) & 1]
        near = geometry.neighbours[me]
        if near & occupied:
            for seat in self.by_colour():
                there = self.diwa[seat]
                if seat != player and (near >> there) & 1:
                    pokes = POKE_ACTIONS[self.colours[seat]]
                    targets = {t for t in step[there * 8 : there * 8 + 8] if t >= 0}
                    legal += [pokes[t] for t in sorted(targets) if (near >> t) & 1 and not (occupied >> t) & 1]
        if self.green[player] >= 0:
            legal += effects.play_actions(self, player, occupied)
        legal.append(END_ACTION)
        return tuple(legal)

    # -- rules shared by the handlers ---------------------------------------------------------------------

    def matches(self, card: int) -> bool:
        """Whether the chamber shows the code of yellow card ``card``, read from the logo."""
        shown, light = self.components.codes[card]
        return not (self.geometry.relative_light ^ light) & shown

    def occupied(self) -> int:
        """Bit mask of the squares with a diwa."""
        mask = 0
        for square in self.diwa:
            if square >= 0:
                mask |= 1 << square
        return mask

    def by_colour(self) -> tuple[int, ...]:
        """Seats with a diwa, in colour order (the order of colour-named actions)."""
        colours = self.colours
        seats = _BY_COLOUR.get(colours)
        if seats is None:
            if len(_BY_COLOUR) >= 4096:
                _BY_COLOUR.clear()
            chosen = (seat for seat in range(len(colours)) if colours[seat] >= 0)
            seats = _BY_COLOUR[colours] = tuple(sorted(chosen, key=colours.__getitem__))
        return seats

    def seat_of_colour(self, colour: int) -> int:
        return self.colours.index(colour)

    def _copy(self) -> KamaraState:
        new = _new(KamaraState)
        new.game = self.game
        new.num_players = self.num_players
        new.options = self.options
        new.seed = self.seed
        new.components = self.components
        new.space = self.space
        new.phase = self.phase
        new.tiles = self.tiles
        new.pool = self.pool
        new.diwa = self.diwa
        new.colours = self.colours
        new.yellow = self.yellow
        new.green = self.green
        new.matched = self.matched
        new.yellow_deck = self.yellow_deck
        new.green_deck = self.green_deck
        new.current_player = self.current_player
        new.actions_left = self.actions_left
        new.exchanged = self.exchanged
        new.green_drawn = self.green_drawn
        new.locks = self.locks
        new.round = self.round
        new.elder = self.elder
        new.first_player = self.first_player
        new.pending = self.pending
        new.known = self.known
        new.winners = ()
        new._legal = None
        new._geometry = self._geometry
        return new

    def set_tiles(self, tiles: tuple[tuple[int, int, int] | None, ...]) -> None:
        self.tiles = tiles
        self._geometry = None

    def set_diwa(self, seat: int, square: int) -> None:
        diwa = list(self.diwa)
        diwa[seat] = square
        self.diwa = tuple(diwa)

    def draw_yellow(self, count: int) -> tuple[int, ...]:
        """Take up to ``count`` cards from the top of the yellow deck; what silip showed is drawn with them."""
        drawn, self.yellow_deck = self.yellow_deck[:count], self.yellow_deck[count:]
        if any(self.known):
            self.known = tuple(seen[len(drawn) :] for seen in self.known)
        return drawn

    def set_yellow(self, seat: int, card: int) -> None:
        yellow = list(self.yellow)
        yellow[seat] = card
        self.yellow = tuple(yellow)

    def spend(self) -> None:
        """One action is used; the turn ends when none is left (after any pending decision)."""
        self.actions_left -= 1
        if self.actions_left <= 0 and self.pending is None:
            self.next_turn()

    def next_turn(self) -> None:
        """Play passes left; a new round begins with the first player; the round cap ends the game."""
        seat = (self.current_player + 1) % self.num_players  # type: ignore[operator]
        if seat == self.first_player:
            if self.round >= self.options["max_rounds"]:
                self.finish_by_count()
                return
            self.round += 1
        self.start_turn(seat)

    def start_turn(self, seat: int) -> None:
        """Locks this player placed expire; they draw a yellow card if they hold none (none left: game over)."""
        self.current_player = seat
        if seat in self.locks:
            self.locks = tuple(-1 if owner == seat else owner for owner in self.locks)
        self.actions_left = self.options["actions_per_turn"]
        self.exchanged = False
        self.green_drawn = False
        if self.yellow[seat] < 0:
            if not self.yellow_deck:
                self.finish_by_count()
                return
            self.set_yellow(seat, self.draw_yellow(1)[0])

    def finish(self, winners: tuple[int, ...]) -> None:
        self.phase = "over"
        self.current_player = None
        self.winners = winners
        self.pending = None
        self._legal = _NO_ACTIONS

    def finish_by_count(self) -> None:
        """The game ends without a third match: the most matched cards win, equal counts share."""
        scores = self.scores
        best = max(scores)
        self.finish(tuple(seat for seat, score in enumerate(scores) if score == best))

    # -- errors -------------------------------------------------------------------------------------------

    def _coerce(self, action: object) -> KamaraAction:
        if isinstance(action, str):
            return self.space.parse(action)
        if isinstance(action, int) and not isinstance(action, bool):
            return self.space.from_index(action)
        if isinstance(action, KamaraAction):
            return self.space.from_index(action.index)
        raise MalformedActionError(f"expected a Kamara action, its text or its index; got {action!r}")

    def _illegal(self, action: KamaraAction) -> IllegalActionError:
        if self.current_player is None:
            return IllegalActionError(f"the game is over; {action} is not possible")
        allowed = ", ".join(a.text for a in self.legal_actions())
        why = effects.why_illegal(self, action)
        return IllegalActionError(f"{action} is not allowed: {why}; allowed: {allowed}")


# -- the handlers: each changes a fresh copy ------------------------------------------------------------------


def _place(state: KamaraState, args: tuple[int, ...]) -> None:
    number, slot, face = args[:3]
    turns = args[3] if len(args) > 3 else OUTWARD[slot]
    tiles = list(state.tiles)
    tiles[slot] = (number, face, turns)
    state.set_tiles(tuple(tiles))
    state.pool = tuple(t for t in state.pool if t != number)
    player: int = state.current_player  # type: ignore[assignment]
    if state.pool:
        state.current_player = (player + 1) % state.num_players
    else:  # the player to the right of whoever placed the last tile chooses a diwa first
        state.phase = "diwa"
        state.current_player = (player - 1) % state.num_players


def _diwa(state: KamaraState, args: tuple[int, ...]) -> None:
    colour, square = args
    player: int = state.current_player  # type: ignore[assignment]
    state.set_diwa(player, square)
    colours = list(state.colours)
    colours[player] = colour
    state.colours = tuple(colours)
    if -1 in state.diwa:
        state.current_player = (player - 1) % state.num_players  # choosing continues to the right
    else:  # the player who placed the last diwa takes the first turn
        state.phase = "play"
        state.first_player = player
        state.round = 1
        state.start_turn(player)


def _decide(state: KamaraState, args: tuple[int, ...]) -> None:
    pending: tuple[int, ...] = state.pending  # type: ignore[assignment]
    player: int = state.current_player  # type: ignore[assignment]
    if pending[0] == ORDER:
        state.yellow_deck = args + state.yellow_deck[len(args) :]
        state.known = tuple(args if seat == player else () for seat in range(state.num_players))
    else:  # keep one card; the others go to the bottom: the drawn ones in order, then the old card
        own = state.yellow[player]
        rest = tuple(card for card in pending[1:] if card != args[0])
        if own >= 0 and own != args[0]:
            rest += (own,)
        state.set_yellow(player, args[0])
        state.yellow_deck += rest
    state.pending = None
    if state.actions_left <= 0:
        state.next_turn()


def _end(state: KamaraState, args: tuple[int, ...]) -> None:
    state.next_turn()


_HANDLERS = [
    {PLACE: _place, DIWA: _diwa, ORDER: _decide, KEEP: _decide, END: _end}.get(kind) or effects.HANDLERS[kind]
    for kind in range(END + 1)
]
