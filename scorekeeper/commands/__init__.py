"""The ``scorekeeper`` command line's groups beyond serving: the database, tokens, export and
import, simulations. Each module imports what it needs when its command runs, so the engine's
commands start without the web app."""
