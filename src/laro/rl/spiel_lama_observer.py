"""OpenSpiel's observer of ``python_laro_lama``, for every kind of observation OpenSpiel asks for
(``pyspiel.IIGObservationType``):

- ``private_info``: ``SINGLE_PLAYER`` (the default) shows the observing player's hand (``hand``, one count per
  card kind divided by 8, as in laro's encoding); ``NONE`` shows no hand at all; ``ALL_PLAYERS`` shows every
  hand (``hands``, one row per seat from the observer on).
- ``public_info``: the rest of laro's encoding (``public``: top card, discard pile, draw pile, each seat's hand
  size, quit, score, turn, start and last card) — what everyone at the table sees.
- ``perfect_recall``: adds ``moves`` (for each seat, how often it drew and quit on each top card this round), and
  the string becomes the history: every public move, with the private cards the observation may show (a
  player's own ``dealt``/``drew``/``holds``; with ``ALL_PLAYERS`` everyone's, each named by its seat).

The default observation (``SINGLE_PLAYER``, public, no recall) is laro's encoding of the seat's observation,
and the information state (the same with perfect recall) adds ``moves``.

>>> import pyspiel, laro.rl.spiel
>>> from open_spiel.python.observation import make_observation
>>> game = pyspiel.load_game("python_laro_lama", {"players": 3})
>>> kind = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
>>> public = make_observation(game, kind)
>>> list(public.dict), public.tensor.shape
(['public'], (33,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import pyspiel

from laro.games.lama.cards import COPIES, party_card_from_text, texts

if TYPE_CHECKING:
    from laro.rl.spiel_lama import LamaSpielGame, LamaSpielState

__all__ = ["PUBLIC", "LamaObserver", "Log", "entries"]

PUBLIC = -1  # a log entry every seat sees; any other is one seat's own
# What the seats saw, newest first: (seat or PUBLIC, text, the entries before). Never changed once built, so
# every state of a game shares the entries of their common past.
Log: TypeAlias = "tuple[int, str, Log] | None"


def entries(log: Log) -> list[tuple[int, str]]:
    """The log's entries, oldest first."""
    found = []
    while log is not None:
        seat, text, log = log
        found.append((seat, text))
    found.reverse()
    return found


class LamaObserver:
    """OpenSpiel's ``PyObserver`` for one observation type (see the module docstring)."""

    def __init__(self, game: LamaSpielGame, iig_obs_type: Any) -> None:
        self.game = game
        self.private = iig_obs_type.private_info
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        kinds, n = len(game.cards), game.num_seats
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(("hand", (kinds,)))
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces.append(("hands", (n, kinds)))
        if self.public:
            pieces.append(("public", (game.encoding.size - kinds,)))
            if self.perfect_recall:
                pieces.append(("moves", (n, 2, kinds)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def _shows(self, seat: int, player: int) -> bool:
        """Whether an entry of ``seat`` is in ``player``'s observation."""
        if seat == PUBLIC:
            return self.public
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return True
        return seat == player and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER

    def set_from(self, state: LamaSpielState, player: int) -> None:
        kinds = len(self.game.cards)
        if "hand" in self.dict or "public" in self.dict:
            vector = self.game.encoding.encode(state.view(player))
            if "hand" in self.dict:
                self.dict["hand"][:] = vector[:kinds]
            if "public" in self.dict:
                self.dict["public"][:] = vector[kinds:]
        if "hands" in self.dict:
            hands = self.dict["hands"]
            hands[:] = 0.0
            for r in range(state.n):
                for card in state.hand_cards((player + r) % state.n):
                    hands[r, card] += 1.0 / COPIES
        if "moves" in self.dict:
            self._set_moves(state, player)

    def _set_moves(self, state: LamaSpielState, player: int) -> None:
        moves = self.dict["moves"]
        moves[:] = 0.0
        top = None
        for _, text in entries(state.log):
            words = text.split()
            if words[0] == "discard":
                top = party_card_from_text(words[1])
            elif words[0] == "round":
                top = None
                moves[:] = 0.0
            elif words[0].startswith("p") and len(words) >= 2 and words[1] in ("draw", "quit", "play"):
                seat = (int(words[0][1:]) - player) % state.n
                if words[1] == "play":
                    top = party_card_from_text(words[2])
                elif top is not None:
                    moves[seat, 0 if words[1] == "draw" else 1, top] += 1.0 / COPIES

    def string_from(self, state: LamaSpielState, player: int) -> str:
        everyone = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
        if self.perfect_recall:
            seen = [
                f"p{seat} {text}" if everyone and seat != PUBLIC else text
                for seat, text in entries(state.log)
                if self._shows(seat, player)
            ]
            return f"p{player}: " + ", ".join(seen)
        view = state.view(player)
        parts = [f"p{player}"]
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            parts[0] += f" hand {' '.join(view['hand'])}"
        elif everyone:
            hands = (" ".join(texts(state.hand_cards(seat))) for seat in range(state.n))
            parts.append("hands " + " / ".join(hands))
        if self.public:
            parts += [
                f"top {view['top_card']}",
                f"draw pile {view['draw_pile_count']}",
                f"hands {view['hand_sizes']}",
                f"quit {[int(q) for q in view['quit']]}",
                f"scores {view['scores']}",
            ]
        return " | ".join(parts)
