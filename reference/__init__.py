"""The reference players: research code the app never plays, kept beside the benchmarks.

The app's computer players are the engine's (:func:`engine.players.make_player`: random, greedy,
strong, search). What they were measured against, and the levers measured and left off, live
here, outside the installed packages (no wheel ships them): the tests and the benchmarks import
them from a source checkout.

- :mod:`reference.classic` and :mod:`reference.contest`: the reference opponents, faithful ports
  of BSD ``mille``'s computer player and of KevinAI, the ``mille-ai`` contest winner;
- :mod:`reference.search`: the search player with its research levers (:class:`SearchVariant`),
  among them deals weighted by the rival's moves (:mod:`reference.inference`), hands valued by
  the chance of winning the game, and the exact end of a two-seat hand (:mod:`reference.endgame`);
- :mod:`reference.evaluation`: a learned evaluation of a seat's position, whose weights
  ``benchmarks/train_evaluation.py`` fits, and the candidates built on it
  (:mod:`reference.evaluated`: ``evaluated`` for Club, ``evaluated_search`` and
  ``residual_search`` for Expert).

``make compiled`` compiles this package with mypyc into ``build/compiled`` beside the engine, for
the benchmarks (setup.py, ``COMPILE_REFERENCE=1``); the tests play it from its source, on the
compiled engine (``make engine`` builds the engine alone).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from engine.players import ComputerPlayer
from engine.players import make_player as make_engine_player


def make_player(name: str, rng: Random) -> ComputerPlayer:
    """A computer player by its registry name: the reference opponents ``classic`` and
    ``contest``, a research candidate with its settings (``evaluated:residual=1000.0``), or one
    of the engine's (:func:`engine.players.make_player`)."""
    from reference.classic import ClassicPlayer
    from reference.contest import ContestPlayer
    from reference.evaluated import EvaluatedPlayer, EvaluatedSearch, ResidualSearch

    if name == ClassicPlayer.name:
        return ClassicPlayer(rng)
    if name == ContestPlayer.name:
        return ContestPlayer(rng)
    candidates: dict[str, Callable[..., ComputerPlayer]] = {
        EvaluatedPlayer.name: EvaluatedPlayer,
        EvaluatedSearch.name: EvaluatedSearch,
        ResidualSearch.name: ResidualSearch,
    }
    kind = name.partition(":")[0]
    if kind in candidates:
        return candidates[kind](rng, **_options(name))
    try:
        return make_engine_player(name, rng)
    except ValueError as error:
        known = ", ".join(candidates)
        raise ValueError(
            f"{error}, the references classic and contest, and the candidates {known}"
        ) from None


def _options(name: str) -> dict[str, Any]:
    """A research player's settings from its name: ``evaluated:keep=0.02;candidates=3`` (``;``
    or ``,`` between them, ``;`` where a list of players is comma-separated; numbers as numbers,
    ``yes`` as true)."""
    _, _, settings = name.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, settings.replace(";", ",").split(",")):
        key, _, value = item.partition("=")
        try:
            options[key] = True if value == "yes" else float(value) if "." in value else int(value)
        except ValueError:
            raise ValueError(
                f"{name}: the setting {item!r} is not key=number (1000.0 or 3) or key=yes"
            ) from None
    return options
