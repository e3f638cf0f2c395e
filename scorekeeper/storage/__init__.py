"""The database: its extensions and models, SQLite's settings, each game's kept totals, the cache
of virtual games, and a table's export and import."""
