"""One hand played by the rules: deal, turns, legal moves, coups-fourrés, the extension, the end.

The state machine of RULES.md §2–§8. A seat asks for :meth:`HandState.legal_moves`, chooses one and
:meth:`HandState.apply` checks it (an illegal move raises :class:`IllegalMove` naming the rule),
changes the state and logs an event. Drawing is not a decision, so the engine draws for the seat
whose turn begins. A coup-fourré chance is a phase of the rules in which the seats asked answer
one after another, never a clock (§6; who is asked: :mod:`engine.chance`). A safety clears every
hazard its side is protected against (§5a, :meth:`engine.tableau.Tableau.lay_safety`). ``copy``
is shallow per container: cheap enough for search players.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from random import Random
from typing import NamedTuple

from engine.cards import Card, CardKind, safety_for
from engine.chance import NOTHING_FRESH, Chance, after_clearing, answerable, seats_to_ask
from engine.errors import IllegalMove
from engine.moves import (
    CALL,
    COUP_FOURRES,
    DECLINE,
    DISCARDS,
    PASS,
    PLAYS,
    CallExtension,
    CoupFourre,
    DeclineExtension,
    Discard,
    Move,
    PassCoupFourre,
    Play,
)
from engine.report import HandReport, SideReport
from engine.rules import (
    CoupFourreWindow,
    DiscardSafeties,
    ExhaustionEnd,
    Hazards,
    Rules,
    SafetyAfterExhaustion,
    SpeedLimitOnLimit,
    TwoHundredsLimit,
)
from engine.tableau import Tableau

HAND_SIZE = 6
_ROLL = Card.ROLL
_STOP = Card.STOP
_SPEED_LIMIT = Card.SPEED_LIMIT
_END_OF_LIMIT = Card.END_OF_LIMIT
_DISTANCE_200 = Card.DISTANCE_200
_LIMITED_DISTANCE = frozenset({Card.DISTANCE_25, Card.DISTANCE_50})
_REMEDIES_BEFORE_ROLL = frozenset({Card.REPAIRS, Card.GASOLINE, Card.SPARE_TIRE})
_HAZARD = CardKind.HAZARD
_SAFETY = CardKind.SAFETY
_DISTANCE = CardKind.DISTANCE
_CURES = {card: next(iter(card.answers)) for card in Card if card.kind is CardKind.REMEDY}


class _Road(NamedTuple):
    """What a side's own tableau allows, read once per decision."""

    tableau: Tableau
    rolling: bool
    limited: bool
    room: int
    """Kilometres left before the target in force."""
    two_hundreds_left: bool


class Phase(StrEnum):
    """What the seat to act is asked."""

    PLAY = "play"
    """Play a card or discard one (after the engine drew for it)."""
    COUP_FOURRE = "coup_fourre"
    """Lay the matching safety out of turn, or let the chance go."""
    EXTENSION = "extension"
    """Extend the hand to 1,000, or stop at 700."""
    OVER = "over"
    """The hand has ended."""


class HandState:
    """The whole truth of a hand, every seat's cards included (seats see a :class:`SeatView`)."""

    __slots__ = (
        "rules",
        "players",
        "sides",
        "dealer",
        "hands",
        "draw_pile",
        "discards",
        "tableaux",
        "phase",
        "to_act",
        "turn",
        "private_chances",
        "chance",
        "fresh",
        "extension_caller",
        "completer",
        "delayed_action",
        "events",
    )

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[Card],
        dealer: int = 0,
        *,
        private_chances: bool = False,
    ) -> None:
        """Deal ``deck`` (top card last) from ``dealer``: six each, one at a time, clockwise.

        With ``private_chances`` every coup-fourré chance asks every seat of the attacked side,
        holder of the safety or not (see :mod:`engine.chance`).
        """
        players = rules.players
        self.rules = rules
        self.players = players
        self.sides = rules.sides
        self.dealer = dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.draw_pile: list[Card] = list(deck)
        self.discards: list[Card] = []
        self.tableaux: list[Tableau] = [Tableau() for _ in range(self.sides)]
        self.phase = Phase.PLAY
        self.to_act = 0
        self.turn = 0
        self.private_chances = private_chances
        self.chance: Chance | None = None
        """The coup-fourré chance being offered, in :attr:`Phase.COUP_FOURRE`."""
        self.fresh: list[tuple[int, int]] = [NOTHING_FRESH] * self.sides
        """Per side, how many cards on top of its battle and speed piles a coup-fourré may
        still answer (:func:`engine.chance.answerable`)."""
        self.extension_caller: int | None = None
        self.completer: int | None = None
        self.delayed_action = False
        self.events: list[tuple[int, Move]] = []
        """Every move of the hand, in order, as (seat, move)."""
        for _ in range(HAND_SIZE):
            for offset in range(1, players + 1):
                self.hands[(dealer + offset) % players].append(self.draw_pile.pop())
        self._begin_turn((dealer + 1) % players)

    @classmethod
    def shuffled(
        cls, rules: Rules, rng: Random, dealer: int = 0, *, private_chances: bool = False
    ) -> HandState:
        """A new hand dealt from the rules' deck shuffled by ``rng``."""
        deck = list(rules.deck.elements())
        rng.shuffle(deck)
        return cls(rules, deck, dealer, private_chances=private_chances)

    def copy(self) -> HandState:
        """An independent copy, without the event log (search players only need the state)."""
        twin = HandState.__new__(HandState)
        twin.rules = self.rules
        twin.players = self.players
        twin.sides = self.sides
        twin.dealer = self.dealer
        twin.hands = [hand[:] for hand in self.hands]
        twin.draw_pile = self.draw_pile[:]
        twin.discards = self.discards[:]
        twin.tableaux = [tableau.copy() for tableau in self.tableaux]
        twin.phase = self.phase
        twin.to_act = self.to_act
        twin.turn = self.turn
        twin.private_chances = self.private_chances
        twin.chance = self.chance
        twin.fresh = self.fresh[:]
        twin.extension_caller = self.extension_caller
        twin.completer = self.completer
        twin.delayed_action = self.delayed_action
        twin.events = []
        return twin

    # -- what is true now ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    @property
    def chance_hazards(self) -> tuple[Card, ...]:
        """The hazards the open coup-fourré chance may answer (none outside a chance)."""
        if self.chance is None:
            return ()
        side = self.chance.side
        return answerable(self.tableaux[side], self.fresh[side])

    @property
    def target(self) -> int:
        """The target in force: 1,000 (or 1,200) once an extension is called."""
        return self.rules.target(extended=self.extension_caller is not None)

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every legal move of ``seat`` (by default the seat to act); empty if it is not to act.

        The hot path of every computer player: the own tableau's state is read once, and the
        moves are shared instances, not new objects.
        """
        if seat is None:
            seat = self.to_act
        phase = self.phase
        if phase is Phase.OVER or seat != self.to_act:
            return []
        if phase is Phase.COUP_FOURRE:
            hand = self.hands[seat]
            safeties = dict.fromkeys(safety_for(hazard) for hazard in self.chance_hazards)
            return [*(COUP_FOURRES[safety] for safety in safeties if safety in hand), PASS]
        if phase is Phase.EXTENSION:
            return [CALL, DECLINE]
        moves: list[Move] = []
        own = seat % self.sides
        road = self._road(seat)
        may_discard_safeties = self.rules.discard_safeties is DiscardSafeties.ALLOWED
        for card in dict.fromkeys(self.hands[seat]):
            kind = card.kind
            if kind is _HAZARD:
                for side in range(self.sides):
                    if side != own and self._hazard_problem(card, side) is None:
                        moves.append(PLAYS[card, side])
            elif self._play_problem(card, road) is None:
                moves.append(PLAYS[card, None])
            if kind is not _SAFETY or may_discard_safeties:
                moves.append(DISCARDS[card])
        return moves

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        try:
            self.check(move, seat)
        except IllegalMove:
            return False
        return True

    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalMove` naming the rule if ``move`` is not legal for ``seat``."""
        if seat is None:
            seat = self.to_act
        if self.phase is Phase.OVER:
            raise IllegalMove("The hand is over (RULES.md §8).")
        if seat != self.to_act:
            raise IllegalMove(f"Seat {seat} may not act now: it is seat {self.to_act}'s move.")
        if self.phase is Phase.COUP_FOURRE:
            if isinstance(move, PassCoupFourre):
                return
            if isinstance(move, CoupFourre) and move in self.legal_moves(seat):
                return
            raise IllegalMove(
                f"Seat {seat} may only declare the coup-fourré or pass now (RULES.md §6)."
            )
        if self.phase is Phase.EXTENSION:
            if isinstance(move, CallExtension | DeclineExtension):
                return
            raise IllegalMove(f"Seat {seat} must say whether to extend the hand (RULES.md §7).")
        if not isinstance(move, Play | Discard):
            raise IllegalMove(f"Seat {seat} must play or discard a card (RULES.md §4).")
        card = move.card
        if card not in self.hands[seat]:
            raise IllegalMove(f"Seat {seat} does not hold {card}.")
        if isinstance(move, Discard):
            problem = self._discard_problem(card)
        elif card.kind is _HAZARD:
            if move.target is None or not 0 <= move.target < self.sides:
                problem = f"{card} must be played on an opponent side (RULES.md §2)."
            elif move.target == self.side_of(seat):
                problem = f"{card} cannot be played on the own side (RULES.md §2)."
            else:
                problem = self._hazard_problem(card, move.target)
        elif move.target is not None and move.target != self.side_of(seat):
            problem = f"{card} goes on the own tableau (RULES.md §5)."
        else:
            problem = self._play_problem(card, self._road(seat))
        if problem is not None:
            raise IllegalMove(f"Seat {seat}: {problem}")

    # -- the rules of §5 -----------------------------------------------------------------------

    def _discard_problem(self, card: Card) -> str | None:
        if card.kind is _SAFETY and self.rules.discard_safeties is DiscardSafeties.FORBIDDEN:
            return "safeties may not be discarded under discard_safeties: forbidden (§12)."
        return None

    def _road(self, seat: int) -> _Road:
        """What the own tableau of ``seat`` allows now, read once for every card in hand."""
        tableau = self.tableaux[seat % self.sides]
        if self.rules.two_hundreds_limit is TwoHundredsLimit.PLAYER:
            two_hundreds = tableau.two_hundreds_by_seat.get(seat, 0)
        else:
            two_hundreds = tableau.cards[200]
        return _Road(
            tableau,
            tableau.rolling(self.rules),
            tableau.limited,
            self.target - tableau.distance,
            two_hundreds < 2,
        )

    def _play_problem(self, card: Card, road: _Road) -> str | None:
        """Why ``card`` cannot go on the own tableau now (None if it can)."""
        kind = card.kind
        if kind is _SAFETY:
            return None
        tableau = road.tableau
        if kind is _DISTANCE:
            if not road.rolling:
                return f"distance needs the side rolling (a Roll showing) (§5); {card} refused."
            if road.limited and card not in _LIMITED_DISTANCE:
                return f"under a Speed Limit only 25 and 50 may be played (§5); {card} refused."
            if card is _DISTANCE_200 and not road.two_hundreds_left:
                return "at most two 200 km cards per side in a hand (§5)."
            if card.value_km > road.room:
                return (
                    f"{card} would take the side to {tableau.distance + card.value_km} km, past "
                    f"the target of {self.target} (§5)."
                )
            return None
        if card is _ROLL:
            battle = tableau.battle
            top = battle[-1] if battle else None
            if top is None or top is _STOP or top in _REMEDIES_BEFORE_ROLL:
                return None
            return f"Roll goes on an empty pile, a Stop or a remedy, not on {top} (§5)."
        if card is _END_OF_LIMIT:
            if road.limited:
                return None
            return "End of Limit needs a Speed Limit showing (§5)."
        hazard = _CURES[card]
        if tableau.hazard_showing is hazard:
            return None
        return f"{card} cures {hazard}, which is not showing on the battle pile (§5)."

    def _hazard_problem(self, hazard: Card, side: int) -> str | None:
        """Why ``hazard`` cannot be played on ``side`` now (None if it can)."""
        tableau = self.tableaux[side]
        if tableau.protected(hazard):
            return f"side {side} is protected against {hazard} by a safety (§5)."
        if hazard is _SPEED_LIMIT:
            if tableau.limited and self.rules.speed_limit_on_limit is SpeedLimitOnLimit.FORBIDDEN:
                return f"side {side} is already limited (§5)."
            return None
        rolling = tableau.rolling(self.rules)
        if self.rules.hazards is Hazards.ON_ROLLING:
            return None if rolling else f"side {side} is not rolling (hazards: on_rolling, §12)."
        if tableau.battle_empty and not rolling:
            return f"side {side}'s battle pile is empty: only a Speed Limit may start a hand (§5)."
        return None

    # -- moves ---------------------------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Check and play ``move`` for ``seat`` (default: the seat to act)."""
        if seat is None:
            seat = self.to_act
        self.check(move, seat)
        self.events.append((seat, move))
        if isinstance(move, Play):
            self._play(seat, move)
        elif isinstance(move, Discard):
            self.hands[seat].remove(move.card)
            self.discards.append(move.card)
            self._next_turn(seat)
        elif isinstance(move, PassCoupFourre):
            self._pass_chance()
        elif isinstance(move, CoupFourre):
            self._coup_fourre(seat, move.card)
        elif isinstance(move, CallExtension):
            self.extension_caller = self.side_of(seat)
            self.phase = Phase.PLAY
            self._next_turn(seat)
        else:
            self._complete(self.side_of(seat))

    def _play(self, seat: int, move: Play) -> None:
        card = move.card
        self.hands[seat].remove(card)
        kind = card.kind
        if kind is _HAZARD:
            assert move.target is not None
            self._attack(seat, card, move.target)
            return
        own = seat % self.sides
        tableau = self.tableaux[own]
        if kind is _DISTANCE:
            tableau.add_distance(card, seat)
            if tableau.distance == self.rules.base_target and self._may_extend():
                self.phase = Phase.EXTENSION
                self.to_act = seat
            elif tableau.distance == self.target:
                self._complete(own)
            else:
                self._next_turn(seat)
        elif kind is _SAFETY:
            self.discards.extend(tableau.lay_safety(card, coup_fourre=False))
            if not self.draw_pile and self._no_extra_turn_after_exhaustion():
                self._next_turn(seat)
            else:
                self._begin_turn(seat)  # a safety gives another turn (§4)
        elif card is _END_OF_LIMIT:
            tableau.speed.append(card)
            self._next_turn(seat)
        else:
            tableau.put_on_battle(card)
            self._next_turn(seat)

    def _may_extend(self) -> bool:
        return self.rules.extension_allowed and self.extension_caller is None

    def _no_extra_turn_after_exhaustion(self) -> bool:
        return self.rules.safety_after_exhaustion is SafetyAfterExhaustion.NO_EXTRA_TURN

    def _attack(self, seat: int, hazard: Card, side: int) -> None:
        """A hazard lands on ``side``: the coup-fourré window opens (RULES.md §6, §12)."""
        tableau = self.tableaux[side]
        battle, speed = self.fresh[side]
        if hazard is _SPEED_LIMIT:
            tableau.speed.append(hazard)
            fresh = (0, 1) if self._chance_until_next_draw else (battle, speed + 1)
        else:
            tableau.put_on_battle(hazard)
            fresh = (1, 0) if self._chance_until_next_draw else (battle + 1, speed)
        self.fresh[side] = fresh
        resume = (seat + 1) % self.players
        if not self._chance_until_next_draw:
            self._begin_turn(resume)  # the chance waits for the side's next turn
            return
        asked = seats_to_ask(seat, side, self.players, self.sides)
        if not self._offer_chance(side, asked, resume):
            self.fresh[side] = NOTHING_FRESH
            self._begin_turn(resume)

    @property
    def _chance_until_next_draw(self) -> bool:
        return self.rules.coup_fourre_window is CoupFourreWindow.UNTIL_NEXT_DRAW

    def _offer_chance(self, side: int, candidates: Sequence[int], resume: int) -> bool:
        """Open a chance on ``side`` for the seats among ``candidates`` that are asked: every
        one that holds a card under private chances, else those holding a matching safety."""
        hazards = answerable(self.tableaux[side], self.fresh[side])
        if not hazards:
            return False
        hands = self.hands
        if self.private_chances:
            seats = tuple(seat for seat in candidates if hands[seat])
        else:
            safeties = {safety_for(hazard) for hazard in hazards}
            seats = tuple(seat for seat in candidates if not safeties.isdisjoint(hands[seat]))
        if not seats:
            return False
        self.chance = Chance(side=side, seats=seats, resume=resume)
        self.phase = Phase.COUP_FOURRE
        self.to_act = seats[0]
        return True

    def _pass_chance(self) -> None:
        """The seat asked lets the chance go: the next seat is asked, or play resumes."""
        chance = self.chance
        assert chance is not None
        if len(chance.seats) > 1:
            self.chance = Chance(side=chance.side, seats=chance.seats[1:], resume=chance.resume)
            self.to_act = chance.seats[1]
        else:
            self._close_chance()
            self._begin_turn(chance.resume)

    def _close_chance(self) -> None:
        assert self.chance is not None
        self.fresh[self.chance.side] = NOTHING_FRESH
        self.chance = None
        self.phase = Phase.PLAY

    def _coup_fourre(self, seat: int, safety: Card) -> None:
        """RULES.md §6 and §5a: the hazard goes with every hazard the side is now protected
        against; the safety lies crosswise; the declarer draws a card to replace it and takes a
        full turn; the seats in between lose theirs."""
        chance = self.chance
        assert chance is not None
        side = chance.side
        answered = next(h for h in self.chance_hazards if h in safety.answers)
        tableau = self.tableaux[side]
        battle, speed = len(tableau.battle), len(tableau.speed)
        self.hands[seat].remove(safety)
        self.discards.extend(tableau.lay_safety(safety, coup_fourre=True, answered=answered))
        self.fresh[side] = after_clearing(
            self.fresh[side], battle - len(tableau.battle), speed - len(tableau.speed)
        )
        pile_was_empty = not self.draw_pile
        if not pile_was_empty:
            self.hands[seat].append(self.draw_pile.pop())
        if not self._chance_until_next_draw:
            # §12: the same seat may go on to answer the next hazard shown, if it is fresh too.
            if self._offer_chance(side, (seat,), resume=seat):
                return
            self._close_chance()
            self._begin_turn(seat)
            return
        self._close_chance()
        if pile_was_empty and self._no_extra_turn_after_exhaustion():
            self._begin_turn(chance.resume)  # nobody loses a turn (§12)
        else:
            self._begin_turn(seat)

    def _complete(self, side: int) -> None:
        """The trip is completed: the hand ends (§8); delayed if the pile has run out."""
        self.completer = side
        self.delayed_action = not self.draw_pile
        self.phase = Phase.OVER

    # -- turns ---------------------------------------------------------------------------------

    def _next_turn(self, seat: int) -> None:
        self._begin_turn((seat + 1) % self.players)

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` the turn and draw for it; skip empty hands once the pile has run out;
        end the hand by exhaustion (§8). Under ``victims_next_turn`` a chance waiting for this
        seat's side comes first, before the draw, and is this seat's alone (§12)."""
        self.phase = Phase.PLAY
        if not self.draw_pile:
            if self._exhausted():
                self.phase = Phase.OVER
                return
            players = self.players
            for _ in range(players):
                if self.hands[seat]:
                    break
                seat = (seat + 1) % players
        side = seat % self.sides
        if self.fresh[side] != NOTHING_FRESH:
            if self._offer_chance(side, (seat,), resume=seat):
                return
            self.fresh[side] = NOTHING_FRESH  # older hazards lose their chance
        if self.draw_pile:
            self.hands[seat].append(self.draw_pile.pop())
            if not self.draw_pile and self._exhausted():
                self.phase = Phase.OVER  # no_playable: as soon as the last draw leaves no play
                return
        self.turn = seat
        self.to_act = seat

    def _exhausted(self) -> bool:
        """With the pile empty: every card played (default), or nothing left but discards."""
        if not any(self.hands):
            return True
        if self.rules.exhaustion_end is ExhaustionEnd.NO_PLAYABLE:
            return not any(
                not isinstance(move, Discard)
                for seat in range(self.players)
                for move in self._moves_ignoring_turn(seat)
            )
        return False

    def _moves_ignoring_turn(self, seat: int) -> list[Move]:
        saved = self.to_act, self.phase
        self.to_act, self.phase = seat, Phase.PLAY
        try:
            return self.legal_moves(seat)
        finally:
            self.to_act, self.phase = saved

    # -- the report a table would enter --------------------------------------------------------

    def report(self, names: Sequence[str] | None = None) -> HandReport:
        """The hand's facts (RULES.md §8), exactly as a table would report them."""
        sides = []
        for side, tableau in enumerate(self.tableaux):
            sides.append(
                SideReport.from_cards(
                    tableau.cards,
                    name=names[side] if names else "",
                    safeties=tuple(tableau.safeties),
                    coup_fourres=tuple(tableau.coup_fourres),
                    completed_trip=self.completer == side,
                    delayed_action=self.completer == side and self.delayed_action,
                )
            )
        return HandReport(
            sides=tuple(sides),
            extension_called_by=self.extension_caller,
            target=self.target,
        )

    def cards_accounted(self) -> int:
        """Every card of the deck, wherever it is now (a sanity check for tests)."""
        on_tableaux = sum(
            sum(1 for card in tableau.battle if card is not None)
            + len(tableau.speed)
            + sum(tableau.cards.values())
            + len(tableau.safeties)
            for tableau in self.tableaux
        )
        return (
            sum(len(hand) for hand in self.hands)
            + len(self.draw_pile)
            + len(self.discards)
            + on_tableaux
        )


__all__ = ["HAND_SIZE", "HandState", "Phase"]
