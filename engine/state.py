"""One hand played by the rules: deal, turns, legal moves, coups-fourrés, the extension, the end.

The state machine of RULES.md §2–§8. A seat asks for :meth:`HandState.legal_moves`, chooses one
and :meth:`HandState.apply` checks it (an illegal move raises :class:`IllegalMove` naming the
rule, :mod:`engine.legality`), changes the state and logs an event; a move taken from the legal
list itself goes through :meth:`HandState.apply_legal`, which does not check it a second time.
Drawing is not a decision, so the engine draws for the seat whose turn begins. A coup-fourré
chance is a phase of the rules in which the seats asked answer one after another, never a clock
(§6; who is asked: :mod:`engine.chance`). A safety clears every hazard its side is protected
against (§5a, :meth:`engine.tableau.Tableau.lay_safety`). ``copy`` is shallow per container:
cheap enough for search players.

Cards are codes and tableaux keep their legal plays as masks (:mod:`engine.codes`,
:mod:`engine.tableau`): a legal move is a bit test, the hot path of every computer player.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from engine.chance import (
    NOTHING_FRESH,
    Chance,
    after_clearing,
    answerable,
    chance_hazards,
    seats_to_ask,
)
from engine.codes import (
    ANSWERS,
    CARDS,
    COUNT,
    DISTANCE,
    DISTANCES,
    END_OF_LIMIT,
    EVERY_CARD,
    HAZARD,
    KIND,
    NO_CARD,
    SAFETIES,
    SAFETY,
    SAFETY_FOR,
    SPEED_LIMIT,
    counts_of,
    deck_of,
)
from engine.errors import IllegalMove
from engine.legality import answers, is_legal, may_play, plays, refusal
from engine.moves import (
    CALL,
    DECLINE,
    CallExtension,
    CoupFourre,
    Discard,
    Move,
    PassCoupFourre,
    Play,
)
from engine.phase import Phase
from engine.randomness import shuffle
from engine.report import HandReport, SideReport
from engine.rules import (
    CoupFourreWindow,
    DiscardSafeties,
    ExhaustionEnd,
    Rules,
    SafetyAfterExhaustion,
    TwoHundredsLimit,
)
from engine.tableau import Tableau

HAND_SIZE = 6


# The hot path reads the phases from module constants: an enum member's lookup through its class
# costs ten times as much as a global's.
_PLAY = Phase.PLAY
_COUP_FOURRE = Phase.COUP_FOURRE
_EXTENSION = Phase.EXTENSION
_OVER = Phase.OVER


class HandState:
    """The whole truth of a hand, every seat's cards included (seats see a :class:`SeatView`).

    Hands, piles and tableaux hold card codes (:mod:`engine.codes`).
    """

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
        "face_up",
        "deck_counts",
        "_until_next_draw",
        "_no_extra_turn",
        "_no_playable_ends",
        "discardable",
        "per_player_200",
        "opponents",
        "_legal",
        "scores",
    )

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int],
        dealer: int = 0,
        *,
        private_chances: bool = False,
        scores: Sequence[int] = (),
    ) -> None:
        """Deal ``deck`` (card codes, top card last) from ``dealer``: six each, one at a time,
        clockwise. An empty ``deck`` leaves the hand undealt (what :meth:`copy` fills in).

        With ``private_chances`` every coup-fourré chance asks every seat of the attacked side,
        holder of the safety or not (see :mod:`engine.chance`). ``scores`` are the sides' game
        totals before this hand (0 each by default): written on the score sheet in view of all,
        so a player may weigh a risk by the game it is in.
        """
        players = rules.players
        self.rules = rules
        self.players = players
        self.sides = rules.sides
        self.dealer = dealer
        self.scores: tuple[int, ...] = tuple(scores) or (0,) * rules.sides
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = list(deck)
        self.discards: list[int] = []
        target = rules.base_target
        self.tableaux: list[Tableau] = [Tableau(rules, target) for _ in range(self.sides)]
        self.phase = _PLAY
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
        self.face_up: list[int] = [0] * COUNT
        """Cards laid face up so far (tableaux and discards), by code: what every seat has seen,
        kept as the hand goes so a seat's unseen cards are a subtraction, not a count."""
        self.deck_counts = counts_of(rules)
        self._until_next_draw = rules.coup_fourre_window is CoupFourreWindow.UNTIL_NEXT_DRAW
        self._no_extra_turn = rules.safety_after_exhaustion is SafetyAfterExhaustion.NO_EXTRA_TURN
        self._no_playable_ends = rules.exhaustion_end is ExhaustionEnd.NO_PLAYABLE
        forbidden = rules.discard_safeties is DiscardSafeties.FORBIDDEN
        self.discardable = EVERY_CARD & ~SAFETIES if forbidden else EVERY_CARD
        """The cards a seat may discard, as a mask (:mod:`engine.legality`)."""
        self.per_player_200 = rules.two_hundreds_limit is TwoHundredsLimit.PLAYER
        """Whether the two 200s are counted per player rather than per side."""
        sides = self.sides
        self.opponents = tuple(
            tuple(other for other in range(sides) if other != side) for side in range(sides)
        )
        """Each side's opponent sides."""
        self._legal: tuple[Move, ...] | None = None
        """The legal moves of the seat to act, once asked for, until the next move."""
        if not deck:
            return
        for _ in range(HAND_SIZE):
            for offset in range(1, players + 1):
                self.hands[(dealer + offset) % players].append(self.draw_pile.pop())
        self._begin_turn((dealer + 1) % players)

    @classmethod
    def shuffled(
        cls, rules: Rules, rng: Random, dealer: int = 0, *, private_chances: bool = False
    ) -> HandState:
        """A new hand dealt from the rules' deck shuffled by ``rng``."""
        deck = list(deck_of(rules))
        shuffle(rng, deck)
        return cls(rules, deck, dealer, private_chances=private_chances)

    def copy(self) -> HandState:
        """An independent copy, without the event log (search players only need the state)."""
        twin = HandState(
            self.rules, (), self.dealer, private_chances=self.private_chances, scores=self.scores
        )
        twin.hands = [hand[:] for hand in self.hands]
        twin.draw_pile = self.draw_pile[:]
        twin.discards = self.discards[:]
        twin.tableaux = [tableau.copy() for tableau in self.tableaux]
        twin.phase = self.phase
        twin.to_act = self.to_act
        twin.turn = self.turn
        twin.chance = self.chance
        twin.fresh = self.fresh[:]
        twin.extension_caller = self.extension_caller
        twin.completer = self.completer
        twin.delayed_action = self.delayed_action
        twin.face_up = self.face_up[:]
        return twin

    def refresh(self) -> None:
        """Work out again what the tableaux allow and what is face up, after hands or piles
        were set by hand (a position built for a test or an example), and forget the legal
        moves known. The deck is then taken to be the cards the position holds."""
        face_up = [0] * COUNT
        for tableau in self.tableaux:
            tableau.refresh()
            for code in tableau.battle + tableau.speed + tableau.safeties:
                if code != NO_CARD:
                    face_up[code] += 1
            for code in DISTANCES:
                face_up[code] += tableau.distance_cards[code]
        for code in self.discards:
            face_up[code] += 1
        deck = face_up[:]
        for code in [*self.draw_pile, *(card for hand in self.hands for card in hand)]:
            deck[code] += 1
        self.face_up, self.deck_counts = face_up, tuple(deck)
        self._legal = None

    # -- what is true now ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    @property
    def chance_hazards(self) -> tuple[int, ...]:
        """The hazards (codes) the open coup-fourré chance may answer (none outside one)."""
        return chance_hazards(self.chance, self.tableaux, self.fresh)

    @property
    def target(self) -> int:
        """The target in force: 1,000 (or 1,200) once an extension is called."""
        return self.rules.target(extended=self.extension_caller is not None)

    def unseen(self, seat: int, card: int) -> int:
        """How many ``card`` ``seat`` has not seen: in the other hands and the draw pile."""
        return self.deck_counts[card] - self.face_up[card] - self.hands[seat].count(card)

    def legal_moves(self, seat: int | None = None) -> tuple[Move, ...]:
        """Every legal move of ``seat`` (by default the seat to act); empty if it is not to act.

        The hot path of every computer player: a bit test per card in hand, the moves shared
        instances, and the answer kept until the next move.
        """
        to_act = self.to_act
        if seat is not None and seat != to_act:
            return ()
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase is _PLAY:
                legal = plays(self, to_act)
            elif phase is _COUP_FOURRE:
                legal = answers(self, to_act)
            elif phase is _EXTENSION:
                legal = (CALL, DECLINE)
            else:
                legal = ()
            self._legal = legal
        return legal

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        """Whether ``seat`` (by default the seat to act) may make ``move`` now."""
        return is_legal(self, move, self.to_act if seat is None else seat)

    def check(self, move: Move, seat: int | None = None) -> None:
        """Raise :class:`IllegalMove` naming the rule if ``move`` is not legal for ``seat``."""
        if seat is None:
            seat = self.to_act
        if not self.is_legal(move, seat):
            raise IllegalMove(refusal(self, move, seat))

    # -- moves ---------------------------------------------------------------------------------

    def apply(self, move: Move, seat: int | None = None) -> None:
        """Check and play ``move`` for ``seat`` (default: the seat to act)."""
        if seat is None:
            seat = self.to_act
        self.check(move, seat)
        self.apply_legal(move, seat)

    def apply_legal(self, move: Move, seat: int) -> None:
        """Play ``move``, taken from this state's :meth:`legal_moves` for ``seat``, unchecked."""
        self._legal = None
        self.events.append((seat, move))
        if isinstance(move, Play):
            self._play(seat, move.code, move.target)
        elif isinstance(move, Discard):
            code = move.code
            self.hands[seat].remove(code)
            self.face_up[code] += 1
            self.discards.append(code)
            self._begin_turn((seat + 1) % self.players)
        elif isinstance(move, PassCoupFourre):
            self._pass_chance()
        elif isinstance(move, CoupFourre):
            self._coup_fourre(seat, move.code)
        elif isinstance(move, CallExtension):
            self.extension_caller = seat % self.sides
            target = self.target
            for tableau in self.tableaux:
                tableau.retarget(target)
            self.phase = _PLAY
            self._begin_turn((seat + 1) % self.players)
        else:
            self._complete(seat % self.sides)

    def _play(self, seat: int, code: int, target: int | None) -> None:
        self.hands[seat].remove(code)
        self.face_up[code] += 1
        kind = KIND[code]
        if kind == HAZARD:
            assert target is not None
            self._attack(seat, code, target)
            return
        own = seat % self.sides
        tableau = self.tableaux[own]
        if kind == DISTANCE:
            tableau.add_distance(code, seat)
            if tableau.distance == self.rules.base_target and self._may_extend():
                self.phase = _EXTENSION
                self.to_act = seat
            elif tableau.distance == tableau.target:
                self._complete(own)
            else:
                self._begin_turn((seat + 1) % self.players)
        elif kind == SAFETY:
            self.discards.extend(tableau.lay_safety(code, coup_fourre=False))
            if not self.draw_pile and self._no_extra_turn:
                self._begin_turn((seat + 1) % self.players)
            else:
                self._begin_turn(seat)  # a safety gives another turn (§4)
        elif code == END_OF_LIMIT:
            tableau.put_on_speed(code)
            self._begin_turn((seat + 1) % self.players)
        else:
            tableau.put_on_battle(code)
            self._begin_turn((seat + 1) % self.players)

    def _may_extend(self) -> bool:
        return self.rules.extension_allowed and self.extension_caller is None

    def _attack(self, seat: int, hazard: int, side: int) -> None:
        """A hazard lands on ``side``: the coup-fourré window opens (RULES.md §6, §12)."""
        tableau = self.tableaux[side]
        battle, speed = self.fresh[side]
        until_next_draw = self._until_next_draw
        if hazard == SPEED_LIMIT:
            tableau.put_on_speed(hazard)
            fresh = (0, 1) if until_next_draw else (battle, speed + 1)
        else:
            tableau.put_on_battle(hazard)
            fresh = (1, 0) if until_next_draw else (battle + 1, speed)
        self.fresh[side] = fresh
        resume = (seat + 1) % self.players
        if not until_next_draw:
            self._begin_turn(resume)  # the chance waits for the side's next turn
            return
        asked = seats_to_ask(seat, side, self.players, self.sides, self.next_turn(resume))
        if not self._offer_chance(side, asked, resume):
            self.fresh[side] = NOTHING_FRESH
            self._begin_turn(resume)

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
            safeties = 0
            for hazard in hazards:
                safeties |= 1 << SAFETY_FOR[hazard]
            seats = tuple(
                seat for seat in candidates if any(safeties >> card & 1 for card in hands[seat])
            )
        if not seats:
            return False
        self.chance = Chance(side=side, seats=seats, resume=resume)
        self.phase = _COUP_FOURRE
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
        self.phase = _PLAY

    def _coup_fourre(self, seat: int, safety: int) -> None:
        """RULES.md §6 and §5a: the hazard goes with every hazard the side is now protected
        against; the safety lies crosswise; the declarer draws a card to replace it and takes a
        full turn; the seats in between lose theirs."""
        chance = self.chance
        assert chance is not None
        side = chance.side
        answers = ANSWERS[safety]
        answered = next(hazard for hazard in self.chance_hazards if answers >> hazard & 1)
        tableau = self.tableaux[side]
        battle, speed = len(tableau.battle), len(tableau.speed)
        self.hands[seat].remove(safety)
        self.face_up[safety] += 1
        self.discards.extend(tableau.lay_safety(safety, coup_fourre=True, answered=answered))
        self.fresh[side] = after_clearing(
            self.fresh[side], battle - len(tableau.battle), speed - len(tableau.speed)
        )
        pile_was_empty = not self.draw_pile
        if not pile_was_empty:
            self.hands[seat].append(self.draw_pile.pop())
        if not self._until_next_draw:
            # §12: the same seat may go on to answer the next hazard shown, if it is fresh too.
            if self._offer_chance(side, (seat,), resume=seat):
                return
            self._close_chance()
            self._begin_turn(seat)
            return
        self._close_chance()
        if pile_was_empty and self._no_extra_turn:
            self._begin_turn(chance.resume)  # nobody loses a turn (§12)
        else:
            self._begin_turn(seat)

    def _complete(self, side: int) -> None:
        """The trip is completed: the hand ends (§8); delayed if the pile has run out."""
        self.completer = side
        self.delayed_action = not self.draw_pile
        self.phase = _OVER

    # -- turns ---------------------------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` the turn and draw for it; skip empty hands once the pile has run out;
        end the hand by exhaustion (§8). Under ``victims_next_turn`` a chance waiting for this
        seat's side comes first, before the draw, and is this seat's alone (§12)."""
        self.phase = _PLAY
        draw_pile = self.draw_pile
        if not draw_pile:
            if self._exhausted():
                self.phase = _OVER
                return
            seat = self.next_turn(seat)
        side = seat % self.sides
        if self.fresh[side] != NOTHING_FRESH:
            if self._offer_chance(side, (seat,), resume=seat):
                return
            self.fresh[side] = NOTHING_FRESH  # older hazards lose their chance
        if draw_pile:
            self.hands[seat].append(draw_pile.pop())
            if not draw_pile and self._exhausted():
                self.phase = _OVER  # no_playable: as soon as the last draw leaves no play
                return
        self.turn = seat
        self.to_act = seat

    def next_turn(self, seat: int) -> int:
        """The seat whose turn begins when the turn passes to ``seat``: ``seat`` itself while
        the pile lasts; once it is empty, the first seat from ``seat`` on that holds a card
        (§4: a player whose hand is empty is skipped), as :meth:`_begin_turn` finds it."""
        if self.draw_pile:
            return seat
        players = self.players
        for offset in range(players):
            if self.hands[(seat + offset) % players]:
                return (seat + offset) % players
        return seat

    def _exhausted(self) -> bool:
        """With the pile empty: every card played (default), or nothing left but discards."""
        if not any(self.hands):
            return True
        if self._no_playable_ends:
            return not any(may_play(self, seat) for seat in range(self.players))
        return False

    # -- the report a table would enter --------------------------------------------------------

    def report(self, names: Sequence[str] | None = None) -> HandReport:
        """The hand's facts (RULES.md §8), exactly as a table would report them."""
        sides = []
        for side, tableau in enumerate(self.tableaux):
            completed = self.completer == side
            sides.append(
                SideReport(
                    name=names[side] if names else "",
                    distance=tableau.distance,
                    cards=tableau.cards_by_km(),
                    two_hundreds=tableau.two_hundreds,
                    safeties=tuple(CARDS[code] for code in tableau.safeties),
                    coup_fourres=tuple(CARDS[code] for code in tableau.coup_fourres),
                    completed_trip=completed,
                    delayed_action=completed and self.delayed_action,
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
            sum(1 for card in tableau.battle if card != NO_CARD)
            + len(tableau.speed)
            + sum(tableau.distance_cards)
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
