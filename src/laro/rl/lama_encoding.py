"""L.A.M.A. observations as a fixed-size vector: :class:`~laro.bots.lama_encoding.LamaEncoding` (the ``learned`` bot
reads its observations with it too, so it lives with the bots)."""

from __future__ import annotations

from laro.bots.lama_encoding import PER_SEAT, LamaEncoding

__all__ = ["PER_SEAT", "LamaEncoding"]
