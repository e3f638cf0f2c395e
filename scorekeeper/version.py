"""The app's own version, in a module of its own so that any layer may read it without loading
the app (the package's ``create_app`` builds it)."""

__version__ = "0.3.1"
"""The app's version (``scorekeeper --version``, the server's start-up line, and pyproject.toml's,
read from here): one section of CHANGELOG.md per version."""
