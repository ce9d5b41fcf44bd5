"""The ``heuristic`` Kamara bot: plans the flips its card needs and walks them, from its own observation only.

Each call spends one action, and the bot plans afresh every time (the chamber may have changed). Its plan is
the cheapest *tour* (see :mod:`laro.bots.kamara_planning`): walk (Moves, and Ports between tapos) to the
paltik of each tile whose state breaks the card's code, flip it, then walk to the nearest tapos and match.
Every number below counts actions.

1. **Match** whenever it may.
2. **A green card is valued by the actions it saves** (played when it saves at least one): ``pitik`` on the
   wrong tile that is dearest to reach; ``ikot`` or ``palitan`` when the turned or swapped chamber needs a
   cheaper tour; ``tawag``, ``tagos`` or ``lipat`` when the tour from the new square is shorter; ``sigla``
   when the tour needs more actions than are left; ``tulak`` to push a rival off the square it needs next;
   ``kandado`` on a right tile with a rival near its paltik, when the card will not be matched this turn.
3. **A hopeless card is renewed** before any green card is spent on it: when the tour, less what the green
   card would save, needs more than three turns (:data:`HOPELESS_TURNS`; two turns renewed too often in
   seeded games), or when the card held since the last turn has not got cheaper in a whole round (a rival
   keeps undoing its flips). It dreams (``panaginip``: keeps the cheapest of three), or peeks (``silip``: puts
   the cheapest card on top, and exchanges only for a cheaper one), or simply exchanges.
4. **Work**: flip a wrong tile it stands on; otherwise take the first step of the tour, poking a rival off
   the paltik it needs (from a square next to it that leaves room to poke); with the code shown, step or
   port to the nearest empty tapos. A right tile is never flipped. Without a card (after a match) it walks to
   a tapos, the hub of the Ports, and ends.

Setup: tiles are placed to show its code where the slot's position is known (a centre is turned so that the
placed tiles read well), and its diwa starts where the tour is cheapest. ``silip`` puts the cheapest card on
top when the bot means to exchange, else the dearest (for the rivals to draw). The bot's only memory is the
cost of its card at the start of each of its turns.

>>> import random
>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(3, seed=4)
>>> bot = KamaraHeuristicBot()
>>> while state.phase != "play":
...     seat = state.current_player
...     state = state.apply(bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)))
>>> seat = state.current_player
>>> bot.choose(state.observation(seat), state.legal_actions(), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from laro.bots.kamara_planning import (
    INF,
    PORT_BASE,
    Board,
    Choices,
    Situation,
    board_of,
    card_bits,
    code_score,
    read_tiles,
    tour,
    wrong_slots,
)
from laro.core.game import Action, JSONDict
from laro.games.kamara import GAME
from laro.games.kamara.actions import (
    DIWA,
    EXCHANGE,
    FLIP,
    IKOT,
    KANDADO,
    KEEP,
    LIPAT,
    MATCH,
    MOVE,
    ORDER,
    PALITAN,
    PANAGINIP,
    PITIK,
    PLACE,
    POKE,
    PORT,
    SIGLA,
    SILIP,
    TAGOS,
    TAWAG,
    TULAK,
)
from laro.games.kamara.chamber import CENTRE, OUTWARD, SLOTS, canonical_cell, placed_square
from laro.games.kamara.components import CARD_IDS, Components

__all__ = ["KamaraHeuristicBot"]

A = TypeVar("A", bound=Action)

HOPELESS_TURNS = 3.0  # renew a card whose tour needs more than this many turns of actions
MIN_GAIN = 1.0  # a green card is played when it saves at least this many actions
KANDADO_REACH = 2  # a rival this close to a right tile's paltik may flip it back
POKE_GAIN = 1.5  # pushing a rival off the square needed next saves about a poke and a detour


class KamaraHeuristicBot:
    """Plans flips and walks to match its card, renews hopeless cards, uses green cards that save actions."""

    name = "heuristic"

    def __init__(self) -> None:
        # per seat: the round, card and tour cost when its turn began, and whether that card was stalled then
        self._turns: dict[int, tuple[int, str, int, bool]] = {}

    def choose(self, observation: JSONDict, legal: Sequence[A], rng: random.Random) -> A:
        table = Choices(legal)
        phase = observation["phase"]
        components = GAME.components(observation["options"])
        if phase == "tiles":
            return legal[_place(observation, components, table, rng)]
        tiles = read_tiles(components, observation["tiles"])
        if tiles is None or phase not in ("play", "diwa"):
            return legal[0]
        board = board_of(components, tiles)
        if phase == "diwa":
            return legal[_diwa(observation, board, table, rng)]
        turn = Situation(observation, components, board)
        pending = observation["pending"]
        if pending is not None:
            return legal[_decide(turn, table, pending)]
        return legal[_play(turn, table, self._stalled(turn))]

    def follow(self, observation: JSONDict) -> None:
        """Read an earlier decision's ``observation`` into the memory of stalled cards, as :meth:`choose` does,
        without deciding (see :class:`laro.bots.Follower`)."""
        if observation["phase"] != "play" or observation["pending"] is not None:
            return
        components = GAME.components(observation["options"])
        tiles = read_tiles(components, observation["tiles"])
        if tiles is not None:
            self._stalled(Situation(observation, components, board_of(components, tiles)))

    def _stalled(self, turn: Situation) -> bool:
        """The card held through the last round is no cheaper than a round ago (a rival undoes its flips)."""
        observation = turn.observation
        seat, now = observation["seat"], observation["round"]
        card = observation["yellow"][seat]
        if not card or turn.card is None:
            return False
        before = self._turns.get(seat)
        if before is not None and before[0] == now:  # later in the same turn
            return before[1] == card and before[3]
        cost = turn.plan(turn.dist, turn.wrong())[0]
        stalled = before is not None and before[:2] == (now - 1, card) and cost >= before[2] > turn.actions_left
        self._turns[seat] = (now, card, cost, stalled)
        return stalled


# -- setup ---------------------------------------------------------------------------------------------------


def _place(observation: JSONDict, components: Components, table: Choices, rng: random.Random) -> int:
    """Place a tile so that, read with the best logo turn still possible, the code is shown as far as it can."""
    code = observation["code"]
    choices = table.kinds.get(PLACE, [])
    if not code or not choices:
        return choices[0] if choices else table.end()
    shown, light = card_bits(code)
    placed: dict[int, tuple[int, int, int]] = {}
    for slot, item in enumerate(observation["tiles"][name] for name in SLOTS):
        if item is not None:
            number = components.tile_number[item["tile"]]
            placed[slot] = (number, "AB".index(item["face"]), int(item["rotation"]) // 90)
    best, chosen = -INF, []
    for i in choices:
        number, slot, face, *turns = table.actions[i].args
        after = {**placed, slot: (number, face, turns[0] if turns else OUTWARD[slot])}
        turns_left = (after[CENTRE][2],) if CENTRE in after else range(4)  # the logo's turn, if still open
        score = max(code_score(components, after, shown, light, k) for k in turns_left)
        if score > best:
            best, chosen = score, [i]
        elif score == best:
            chosen.append(i)
    return chosen[int(rng.random() * len(chosen))]


def _diwa(observation: JSONDict, board: Board, table: Choices, rng: random.Random) -> int:
    """The first free colour, on the square where its tour is cheapest."""
    choices = table.kinds.get(DIWA, [])
    if not choices:
        return table.end()
    colour = min(table.actions[i].args[0] for i in choices)
    choices = [i for i in choices if table.actions[i].args[0] == colour]
    code = observation["code"]
    slots = wrong_slots(board, *card_bits(code)) if code else ()
    near = [board.distances(board.paltik[slot]) for slot in slots]  # distances are symmetric

    def cost(square: int) -> int:
        if not slots:
            return board.to_tapos[square]
        start = [INF] * 81
        for slot, there in zip(slots, near, strict=True):
            start[board.paltik[slot]] = there[square]
        return tour(board, start, slots)[0]

    costs = {i: cost(table.actions[i].args[1]) for i in choices}
    least = min(costs.values())
    cheapest = [i for i in choices if costs[i] == least]
    return cheapest[int(rng.random() * len(cheapest))]


# -- decisions after silip and panaginip ---------------------------------------------------------------------


def _decide(turn: Situation, table: Choices, pending: JSONDict) -> int:
    """``keep`` the cheapest card; ``order`` the cheapest first if the bot may take it (by an exchange, or as
    its next card), else the dearest first, for the rivals."""
    if pending["decision"] == "keep":
        keeps = table.kinds.get(KEEP, [])
        if not keeps:
            return table.end()
        return min(keeps, key=lambda i: turn.card_cost(CARD_IDS[table.actions[i].args[0]]))
    orders = table.kinds.get(ORDER, [])
    if not orders:
        return table.end()
    cost = {card: turn.card_cost(CARD_IDS[card]) for card in table.actions[orders[0]].args}
    if turn.card is None:  # it draws the top card when its next turn begins
        keep_for_others = False
    else:
        own = turn.plan(turn.dist, turn.wrong())[0]
        keep_for_others = own <= min(cost.values()) or turn.observation["exchanged"]
    wanted = sorted(cost, key=cost.__getitem__, reverse=keep_for_others)
    found = table.find(ORDER, *wanted)
    return orders[0] if found is None else found


# -- a turn --------------------------------------------------------------------------------------------------


def _play(turn: Situation, table: Choices, stalled: bool) -> int:
    found = table.find(MATCH)
    if found is not None:
        return found
    if turn.card is None:
        return _to_tapos(turn, table)
    wrong = turn.wrong()
    cost, _ = turn.plan(turn.dist, wrong)
    gain, green = _green(turn, table, wrong, cost)
    found = _renew(turn, table, cost - gain, stalled)
    if found is not None:
        return found
    if green is not None:
        return green
    return _work(turn, table, wrong)


def _renew(turn: Situation, table: Choices, cost: float, stalled: bool) -> int | None:
    """A card whose tour (after the green card's help) takes too many turns, or that a rival keeps undoing:
    dream, or peek and exchange, or exchange."""
    if cost <= HOPELESS_TURNS * turn.per_turn and not stalled:
        return None
    if turn.effect == "panaginip" and (found := table.find(PANAGINIP)) is not None:
        return found
    exchange = table.find(EXCHANGE)
    if exchange is None:
        return None
    seen: list[str] = turn.observation["seen_on_top"]
    if seen:
        return exchange if turn.card_cost(seen[0]) < cost - 1 else None
    if turn.effect == "silip" and (found := table.find(SILIP)) is not None:
        return found
    return exchange


def _green(turn: Situation, table: Choices, wrong: tuple[int, ...], cost: int) -> tuple[float, int | None]:
    """The held green card's best use and the actions it saves, if it saves at least :data:`MIN_GAIN`."""
    effect = turn.effect
    if effect is None or effect == "?":
        return 0.0, None
    board = turn.board
    options: list[tuple[float, int]] = []  # (actions saved, index of the action)
    if effect == "sigla" and cost > turn.actions_left:
        options += _found(2.0, table.find(SIGLA))
    elif effect == "pitik":
        for slot in wrong:
            left = tuple(s for s in wrong if s != slot)
            options += _found(cost - turn.plan(turn.dist, left)[0] - 1, table.find(PITIK, slot))
    elif effect == "ikot" and turn.card:
        for quarter in (1, 3):
            turned = wrong_slots(board, *turn.card, turns=(board.turns + quarter) % 4)
            options += _found(cost - turn.plan(turn.dist, turned)[0] - 1, table.find(IKOT, quarter))
    elif effect == "palitan":
        options += _palitan(turn, table, wrong)
    elif effect in ("tawag", "lipat", "tagos"):
        base = turn.plan(board.distances(turn.me), wrong)[0]
        for square, found in _new_squares(turn, table, effect, wrong):
            options += _found(base - turn.plan(board.distances(square), wrong)[0] - 1, found)
    elif effect == "tulak":
        options += _tulak(turn, table, wrong)
    elif effect == "kandado" and cost > turn.actions_left:
        options += _kandado(turn, table, wrong)
    gain, found = max(options, key=lambda option: option[0], default=(0.0, -1))
    return (gain, found) if gain >= MIN_GAIN else (0.0, None)


def _found(gain: float, found: int | None) -> list[tuple[float, int]]:
    return [] if found is None else [(gain, found)]


def _palitan(turn: Situation, table: Choices, wrong: tuple[int, ...]) -> list[tuple[float, int]]:
    """Swaps that fix more code positions than they break, valued by the tour on the swapped chamber."""
    board, options = turn.board, []
    base = turn.plan(board.distances(turn.me), wrong)[0]
    for action in table.of(PALITAN):
        a, b = action.args
        lights = list(board.light)
        lights[a], lights[b] = lights[b], lights[a]
        assert turn.card is not None
        if len(wrong_slots(board, *turn.card, lights=lights)) >= len(wrong):
            continue
        tiles = list(board.tiles)
        (na, fa, ra), (nb, fb, rb) = tiles[a], tiles[b]
        tiles[a], tiles[b] = (nb, fb, OUTWARD[a]), (na, fa, OUTWARD[b])
        swapped = board_of(turn.components, tuple(tiles))
        me = turn.me
        slot = (me // 27) * 3 + (me % 9) // 3
        if slot == a:
            me = placed_square(b, canonical_cell(me, ra), OUTWARD[b])
        elif slot == b:
            me = placed_square(a, canonical_cell(me, rb), OUTWARD[a])
        after = wrong_slots(swapped, *turn.card)
        gain = base - turn.plan(swapped.distances(me), after, swapped)[0] - 1
        options += _found(gain, table.find(PALITAN, a, b))
    return options


def _new_squares(turn: Situation, table: Choices, effect: str, wrong: tuple[int, ...]) -> list[tuple[int, int]]:
    """Where tawag, lipat or tagos would put the bot: (square, index of the action)."""
    if effect == "tawag":
        goal = turn.board.paltik[turn.plan(turn.board.to_tapos, wrong)[1]] if wrong else -1
        near = turn.board.distances(goal) if goal >= 0 else turn.board.to_tapos
        calls = sorted(table.of(TAWAG), key=lambda action: near[action.args[0]])
        return [(calls[0].args[0], table.at[TAWAG, calls[0].args])] if calls else []
    if effect == "lipat":
        return [(turn.rivals[a.args[0]], table.at[LIPAT, a.args]) for a in table.of(LIPAT) if a.args[0] in turn.rivals]
    through = turn.board.geometry.through
    return [(through[turn.me * 4 + a.args[0] // 2], table.at[TAGOS, a.args]) for a in table.of(TAGOS)]


def _needed(turn: Situation, wrong: tuple[int, ...]) -> list[int]:
    """The square the bot needs next: the first wrong tile's paltik, or the nearest tapos."""
    if wrong:
        return [turn.board.paltik[turn.plan(turn.dist, wrong)[1]]]
    near = min(turn.dist[t] for t in turn.board.tapos)
    return [t for t in turn.board.tapos if turn.dist[t] == near]


def _tulak(turn: Situation, table: Choices, wrong: tuple[int, ...]) -> list[tuple[float, int]]:
    """Push a rival two steps (else one) off the square the bot needs next."""
    needed = _needed(turn, wrong)
    if any(turn.rival_at(square) < 0 for square in needed) and not wrong:
        return []  # an equally near tapos is free
    for square in needed:
        colour = turn.rival_at(square)
        if colour < 0:
            continue
        step = turn.board.geometry.step
        pushes = []
        for action in table.of(TULAK):
            if action.args[0] != colour:
                continue
            there = square
            for direction in action.args[1:]:
                there = step[there * 8 + direction]
            if there not in needed:
                pushes.append((len(action.args), table.at[TULAK, action.args]))
        if pushes:
            return [(POKE_GAIN, max(pushes)[1])]
    return []


def _kandado(turn: Situation, table: Choices, wrong: tuple[int, ...]) -> list[tuple[float, int]]:
    """Lock the right tile of the code whose paltik a rival is nearest to, if one is within reach."""
    if turn.card is None or not turn.rivals:
        return []
    board, options = turn.board, []
    shown = turn.card[0]
    for position in range(8):
        slot = board.slot_at(position)
        if not (shown >> position) & 1 or slot in wrong or slot in turn.locked:
            continue
        near = board.distances(board.paltik[slot])
        threat = min(near[square] for square in turn.rivals.values())
        if threat <= KANDADO_REACH:
            options += _found(MIN_GAIN + KANDADO_REACH - threat, table.find(KANDADO, slot))
    return options


def _work(turn: Situation, table: Choices, wrong: tuple[int, ...]) -> int:
    """Flip the wrong tile underfoot, or take the tour's next step; with the code shown, go to a tapos."""
    board = turn.board
    if not wrong:
        return _to_tapos(turn, table)
    paltik_slot = board.geometry.paltik_slot[turn.me]
    if paltik_slot in wrong and (found := table.find(FLIP)) is not None:
        return found
    firsts = [slot for slot in wrong if slot not in turn.locked] or list(wrong)
    ranked = []
    for slot in firsts:
        rest = tuple(s for s in wrong if s != slot)
        later = turn.plan(board.distances(board.paltik[slot]), rest)[0]
        ranked.append((turn.dist[board.paltik[slot]] + later, slot))
    for _, slot in sorted(ranked):
        found = _approach(turn, table, board.paltik[slot], (board.paltik[s] for s in wrong))
        if found is not None:
            return found
    return _past_rivals(turn, table, [board.paltik[slot] for _, slot in sorted(ranked)])


def _past_rivals(turn: Situation, table: Choices, goals: Sequence[int]) -> int:
    """No route past the diwa: go and poke the rival that stands in the way of the nearest goal."""
    best, found = INF, None
    for square in turn.rivals.values():
        if turn.dist[square] >= INF:
            continue
        beyond = turn.board.distances(square)
        for goal in goals:
            cost = turn.dist[square] + beyond[goal]
            if cost < best and (action := _approach(turn, table, square, goals)) is not None:
                best, found = cost, action
    return table.end() if found is None else found


def _to_tapos(turn: Situation, table: Choices) -> int:
    """Step or port toward the nearest empty tapos; end on one."""
    if turn.me in turn.board.tapos_set:
        return table.end()
    targets = sorted((turn.dist[t] + ((turn.occupied >> t) & 1), t) for t in turn.board.tapos)
    for _, square in targets:
        found = _approach(turn, table, square, ())
        if found is not None:
            return found
    return _past_rivals(turn, table, turn.board.tapos)


def _approach(turn: Situation, table: Choices, square: int, keep_free: Any) -> int | None:
    """The first action of a shortest route to ``square``; a rival standing there is poked away (from the
    nearest square next to it that leaves room to poke)."""
    if turn.dist[square] >= INF:
        return None
    colour = turn.rival_at(square)
    if colour >= 0:
        free = set(keep_free)
        pokes = sorted((a.args[1] in free, a.args[1]) for a in table.of(POKE) if a.args[0] == colour)
        if pokes:
            return table.at[POKE, (colour, pokes[0][1])]
        square = _poke_spot(turn, square)
        if square < 0:
            return None
    how = turn.first[square]
    if how >= PORT_BASE:
        return table.find(PORT, how - PORT_BASE)
    return table.find(MOVE, how)


def _poke_spot(turn: Situation, square: int) -> int:
    """The nearest other square next to the diwa on ``square`` from which it could be poked, or -1."""
    adjacency, occupied = turn.board.adjacency, turn.occupied
    around = {there for _, there in adjacency[square]}
    spots = [
        (turn.dist[spot], spot)
        for spot in around
        if spot != turn.me
        and turn.dist[spot] < INF
        and not (occupied >> spot) & 1
        and any(room != spot and room in around and not (occupied >> room) & 1 for _, room in adjacency[spot])
    ]
    return min(spots)[1] if spots else -1
