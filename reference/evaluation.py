"""A learned evaluation: the chance that a seat's side wins the game, from what the seat can see.

A position is read as a few dozen numbers (:func:`features`): each side's tableau (distance, what
shows on the battle and speed piles, the safeties laid), the seat's own hand, the cards it has
not seen yet (card counting: what is still in the other hands and the draw pile), the pile, the
hand sizes and the game's running totals. The chance of winning is a logistic function of a
weighted sum of those numbers (:class:`Evaluation`), plain arithmetic over the weights of
``evaluation.json``, which ``benchmarks/train_evaluation.py`` fits by self-play (numpy is needed
to fit them, never to use them).

Only what the seat may see goes in: its own hand, never another seat's, and of the hidden cards
only how many of each are left unseen (:meth:`SeatView.unseen_count`), so two hands that differ
in a rival's hidden cards have the same features.

Two models share the file: one for a position inside a hand (``position``) and one for the
game's totals between hands (``totals``), the chance of winning from the totals alone, which
also values a position whose hand is over.

Research code beside the candidates that use it (:mod:`reference.evaluated`): no player the app
plays uses it, as none measured better than the engine's (docs/contributing/computer-players.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

from engine.codes import (
    ACCIDENT,
    ANSWERS,
    BATTLE_HAZARDS,
    CARDS,
    COUNT,
    CURES,
    DISTANCE,
    DISTANCE_200,
    DRIVING_ACE,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    HAZARD,
    KIND,
    KM,
    NO_CARD,
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    REMEDY_FOR,
    RIGHT_OF_WAY,
    ROLL,
    SAFETY,
    SAFETY_FOR,
    STOP,
)
from engine.rules import GAME_TARGET
from engine.scoring import score_hand
from engine.state import HandState
from engine.tableau import Tableau
from engine.view import SeatView

_SAFETY_CODES: Final = (DRIVING_ACE, EXTRA_TANK, PUNCTURE_PROOF, RIGHT_OF_WAY)
_HAZARDS_OF: Final = tuple(
    tuple(hazard for hazard in range(COUNT) if ANSWERS[card] >> hazard & 1) for card in range(COUNT)
)
"""The hazards each safety protects against (empty for other cards)."""
_SIDE_FEATURES: Final = (
    "distance",
    "room",
    "near_home",
    "near_home_rolling",
    "rolling",
    "limited",
    "stop",
    "accident",
    "out_of_gas",
    "flat_tire",
    "waiting",
    *(f"laid_{CARDS[code].value}" for code in _SAFETY_CODES),
    "coup_fourres",
    "two_hundreds",
)
FEATURES: Final[tuple[str, ...]] = (
    "bias",
    *(f"own_{name}" for name in _SIDE_FEATURES),
    *(f"rival_{name}" for name in _SIDE_FEATURES),
    *(f"hand_{card.value}" for card in CARDS),
    "remedy_ready",
    "roll_ready",
    "limit_ready",
    "drive_ready",
    "km_playable",
    "finish_in_hand",
    "attack_ready",
    "dead_cards",
    "spare_copies",
    "remedy_cover",
    "coup_fourre_cover",
    *(f"unseen_{card.value}" for card in CARDS),
    "draw_pile",
    "pile_empty",
    "rival_hand",
    "own_to_act",
    "extended",
    "total_lead",
    "own_total",
    "rival_total",
    "total_lead_late",
)
"""The features' names, in the order of :func:`features` and of the weights."""
TOTALS_FEATURES: Final[tuple[str, ...]] = ("bias", "lead", "lead_late", "lead_later")
"""The features of the totals model (:func:`totals_features`)."""


def rival_side(view: SeatView) -> int:
    """The opponent side the seat watches most: the one that has driven furthest (the first of
    equals); with two sides, the other side."""
    own = view.side
    best, best_distance = -1, -1
    for side in range(view.sides):
        if side != own and view.tableau(side).distance > best_distance:
            best, best_distance = side, view.tableau(side).distance
    return best


def _side(tableau: Tableau, target: int) -> list[float]:
    """The features of one side's tableau (everyone sees it)."""
    room = target - tableau.distance
    showing = tableau.hazard_showing
    rolling = tableau.rolling
    near = room <= 200
    safeties = tableau.safeties
    return [
        tableau.distance / 100,
        room / 100,
        1.0 if near else 0.0,
        1.0 if near and rolling else 0.0,
        1.0 if rolling else 0.0,
        1.0 if tableau.limited else 0.0,
        1.0 if showing == STOP else 0.0,
        1.0 if showing == ACCIDENT else 0.0,
        1.0 if showing == OUT_OF_GAS else 0.0,
        1.0 if showing == FLAT_TIRE else 0.0,
        1.0 if not rolling and showing == NO_CARD else 0.0,
        *(1.0 if code in safeties else 0.0 for code in _SAFETY_CODES),
        float(len(tableau.coup_fourres)),
        float(tableau.two_hundreds),
    ]


def _exact(hand: Sequence[int], room: int) -> bool:
    """Whether distance cards of ``hand`` add up to ``room`` km exactly."""
    if room <= 0 or room % 25:
        return False
    reachable = 1  # bit k: k × 25 km can be made
    for card in hand:
        if KIND[card] == DISTANCE:
            reachable |= reachable << (KM[card] // 25)
    return bool(reachable >> (room // 25) & 1)


def _holdings(
    counts: list[int], mine: Tableau, rival: Tableau, room: int, unseen: list[float]
) -> tuple[int, int, float, float]:
    """What the hand's cards are worth holding: how many are dead (a remedy the side is
    protected against or holds the safety for, distance that no longer fits, a hazard the rival
    is protected against), how many are spare copies of a card held once already, how much of
    the hazards still unseen the remedies held answer, and how much of them the safeties held
    could answer with a coup-fourré (each as the unseen share of the deck's copies)."""
    dead = spare = 0
    remedy_cover = coup_fourre_cover = 0.0
    for card, count in enumerate(counts):
        if not count:
            continue
        kind = KIND[card]
        if kind == DISTANCE:
            if KM[card] > room or (card == DISTANCE_200 and mine.two_hundreds >= 2):
                dead += count
            continue
        if kind == SAFETY:
            for hazard in _HAZARDS_OF[card]:
                coup_fourre_cover += unseen[hazard]
            continue
        if kind == HAZARD:
            if rival.protected(card):
                dead += count
            else:
                spare += count - 1
            continue
        hazard = CURES[card]
        if mine.protected(hazard) or counts[SAFETY_FOR[hazard]]:
            dead += count
        else:
            spare += count - 1
            remedy_cover += unseen[hazard]
    return dead, spare, remedy_cover, coup_fourre_cover


def features(view: SeatView) -> list[float]:
    """The position as the seat sees it, in the order of :data:`FEATURES`."""
    own_side = view.side
    mine = view.tableau(own_side)
    rival_index = rival_side(view)
    rival = view.tableau(rival_index)
    target = view.target
    hand = view.hand_codes
    counts = [0] * COUNT
    for card in hand:
        counts[card] += 1
    showing = mine.hazard_showing
    room = target - mine.distance
    waiting = not mine.rolling and showing == NO_CARD
    playable_km = 0
    drive_ready = False
    for card in hand:
        km = KM[card]
        if KIND[card] == DISTANCE and km <= room:
            playable_km += km
            if (
                mine.rolling
                and (km <= 50 or not mine.limited)
                and (card != DISTANCE_200 or mine.two_hundreds < 2)
            ):
                drive_ready = True
    attack_ready = sum(
        count
        for card, count in enumerate(counts)
        if count and BATTLE_HAZARDS >> card & 1 and rival.open_to >> card & 1
    )
    unseen = [
        view.unseen_count(card) / deck if (deck := view.deck_count(card)) else 0.0
        for card in range(COUNT)
    ]
    dead, spare, remedy_cover, coup_fourre_cover = _holdings(counts, mine, rival, room, unseen)
    scores = view.scores
    own_total = scores[own_side]
    rival_total = max(total for side, total in enumerate(scores) if side != own_side)
    lead = (own_total - rival_total) / 1000
    late = max(own_total, rival_total) / GAME_TARGET
    sizes = view.hand_sizes
    rival_hand = max(size for seat, size in enumerate(sizes) if seat % view.sides == rival_index)
    return [
        1.0,
        *_side(mine, target),
        *_side(rival, target),
        *(float(count) for count in counts),
        1.0
        if showing != NO_CARD and (counts[REMEDY_FOR[showing]] or counts[SAFETY_FOR[showing]])
        else 0.0,
        1.0 if waiting and (counts[ROLL] or counts[RIGHT_OF_WAY]) else 0.0,
        1.0 if mine.limited and (counts[END_OF_LIMIT] or counts[RIGHT_OF_WAY]) else 0.0,
        1.0 if drive_ready else 0.0,
        playable_km / 100,
        1.0 if _exact(hand, room) else 0.0,
        float(attack_ready),
        float(dead),
        float(spare),
        remedy_cover,
        coup_fourre_cover,
        *unseen,
        view.draw_pile / 100,
        1.0 if view.draw_pile == 0 else 0.0,
        rival_hand / 7,
        1.0 if view.to_act % view.sides == own_side else 0.0,
        1.0 if view.extension_caller is not None else 0.0,
        lead,
        own_total / GAME_TARGET,
        rival_total / GAME_TARGET,
        lead * late,
    ]


def totals_features(own: int, rival: int) -> list[float]:
    """The game's totals before a hand, for the totals model (:data:`TOTALS_FEATURES`)."""
    lead = (own - rival) / 1000
    late = max(own, rival) / GAME_TARGET
    return [1.0, lead, lead * late, lead * late * late]


def log_odds(chance: float) -> float:
    """The log-odds of a chance (a settled one held at ±30, where the logistic saturates)."""
    if chance <= 1e-13:
        return -30.0
    if chance >= 1 - 1e-13:
        return 30.0
    return math.log(chance / (1.0 - chance))


def _logistic(logit: float) -> float:
    if logit < -30:
        return 0.0
    if logit > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-logit))


class Evaluation:
    """The chance of winning the game: a logistic regression over the seat's features, with
    (if the weights have them) a few hidden units added to its log-odds, each the hyperbolic
    tangent of a weighted sum of the same features (a tiny neural network)."""

    __slots__ = ("position", "totals", "hidden", "outputs", "advantage")

    def __init__(
        self,
        position: Sequence[float],
        totals: Sequence[float],
        hidden: Sequence[Sequence[float]] = (),
        outputs: Sequence[float] = (),
        advantage: Sequence[float] = (),
    ) -> None:
        """``hidden``: each hidden unit's weights over the features (the bias feature first);
        ``outputs``: what each hidden unit adds to the log-odds; ``advantage``: weights fitted
        to tell the positions one move apart (:meth:`preference`), if any."""
        if len(position) != len(FEATURES) or len(totals) != len(TOTALS_FEATURES):
            raise ValueError("weights do not match the features")
        if len(hidden) != len(outputs) or any(len(unit) != len(FEATURES) for unit in hidden):
            raise ValueError("hidden weights do not match the features")
        if advantage and len(advantage) != len(FEATURES):
            raise ValueError("advantage weights do not match the features")
        self.position: list[float] = [float(weight) for weight in position]
        self.totals: list[float] = [float(weight) for weight in totals]
        self.hidden: list[list[float]] = [[float(weight) for weight in unit] for unit in hidden]
        self.outputs: list[float] = [float(weight) for weight in outputs]
        self.advantage: list[float] = [float(weight) for weight in advantage]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evaluation:
        """The weights as the training command wrote them, checked against the features'
        names."""
        if list(data["features"]) != list(FEATURES):
            raise ValueError("the weights were fitted on other features")
        if list(data["totals_features"]) != list(TOTALS_FEATURES):
            raise ValueError("the totals weights were fitted on other features")
        return cls(
            data["position"],
            data["totals"],
            data.get("hidden", ()),
            data.get("outputs", ()),
            data.get("advantage", ()),
        )

    def logit(self, view: SeatView) -> float:
        """The log-odds of the seat's side winning the game."""
        values = features(view)
        total = 0.0
        for weight, value in zip(self.position, values, strict=True):
            total += weight * value
        for unit, output in zip(self.hidden, self.outputs, strict=True):
            inner = 0.0
            for weight, value in zip(unit, values, strict=True):
                inner += weight * value
            total += output * math.tanh(inner)
        return total

    def chance(self, view: SeatView) -> float:
        """The chance that the seat's side wins the game, from this position."""
        return _logistic(self.logit(view))

    def preference(self, view: SeatView) -> float:
        """How much the seat likes this position, in log-odds, to choose between the positions
        its legal moves lead to: the advantage weights' sum where the file has them (fitted to
        tell positions one move apart, not to be a chance: across positions far apart it is no
        chance of winning), else :meth:`logit`."""
        if not self.advantage:
            return self.logit(view)
        total = 0.0
        for weight, value in zip(self.advantage, features(view), strict=True):
            total += weight * value
        return total

    def totals_chance(self, totals: Sequence[int], side: int) -> float:
        """The chance that ``side`` wins the game with these totals after a hand: settled if a
        side has reached 5,000 (the highest total wins, an equal one halves), otherwise the
        totals model's."""
        own = totals[side]
        rival = max(total for other, total in enumerate(totals) if other != side)
        if max(own, rival) >= GAME_TARGET:
            return 1.0 if own > rival else 0.5 if own == rival else 0.0
        total = 0.0
        for weight, value in zip(self.totals, totals_features(own, rival), strict=True):
            total += weight * value
        return _logistic(total)

    def after_hand(self, state: HandState, side: int) -> float:
        """The chance that ``side`` wins the game once this hand (over) is scored."""
        scores = score_hand(state.report(), state.rules).totals
        totals = [before + score for before, score in zip(state.scores, scores, strict=True)]
        return self.totals_chance(totals, side)


_LOADED: list[Evaluation] = []


def default_evaluation() -> Evaluation:
    """The evaluation of the weights in ``reference/evaluation.json`` (read once)."""
    if not _LOADED:
        text = resources.files("reference").joinpath("evaluation.json").read_text()
        _LOADED.append(Evaluation.from_dict(json.loads(text)))
    return _LOADED[0]
