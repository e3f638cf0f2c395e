"""The vocabulary every layer of the app shares, and nothing else: the levels of the computer
players, why a write is refused, how tokens are made and stored, where a game stands. It knows no
database, no request and no page, so storage, the services, the reads, the schemas and the web
layer can all name it."""
