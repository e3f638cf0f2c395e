"""The database: its extensions and models, SQLite's settings, the one way a write locks a game,
the idempotency keys' records, each game's kept totals, the cache of virtual games, and the watch
over the games' versions."""
