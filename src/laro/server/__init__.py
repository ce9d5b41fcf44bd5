"""The multiplayer server: tables, seats, bots and persistence."""
