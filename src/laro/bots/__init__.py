"""Bots: random, per-game heuristics; each sees only its seat's observation and the legal actions."""

from laro.bots.base import (
    Bot,
    BotError,
    Follower,
    RandomBot,
    TableBound,
    check_table,
    get_bot,
    level_of_bot,
    list_bots,
    offered_bots,
    register_bot,
    standin_bot,
)

__all__ = [
    "Bot",
    "BotError",
    "Follower",
    "RandomBot",
    "TableBound",
    "check_table",
    "get_bot",
    "level_of_bot",
    "list_bots",
    "offered_bots",
    "register_bot",
    "standin_bot",
]
