"""A virtual game: seeded deals, hands chained to 5,000, each hand's report scored by the scorer.

A game is reproducible from its seed and its moves: :meth:`VirtualGame.to_dict` records both
(and each hand's deck, so a replay can prove it dealt the same cards), :meth:`VirtualGame.replay`
plays them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from engine.codes import CARDS, deck_of
from engine.errors import IllegalMove, InvalidRecord
from engine.moves import Move, move_from_dict
from engine.players import ComputerPlayer
from engine.randomness import shuffle
from engine.report import HandReport
from engine.rules import Rules, UnknownVariant, UnsupportedPlayerCount
from engine.scoring import HandScore
from engine.sentences import N_, Sentence
from engine.sheet import Outcome, ScoreSheet
from engine.state import HandState, Phase
from engine.view import seat_view

RECORD_VERSION = 1


class VirtualGame:
    """Hands dealt one after another, the deal passing to the left, until the game ends."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        names: Sequence[str] | None = None,
        *,
        private_chances: bool = False,
    ) -> None:
        """``private_chances``: every coup-fourré chance asks every seat of the attacked side,
        so a game with people at it does not tell who holds a safety (:mod:`engine.chance`)."""
        self.rules = rules
        self.seed = seed
        self.private_chances = private_chances
        self.rng = Random(seed)
        word = "Player" if rules.players_per_side == 1 else "Team"
        self.sheet = ScoreSheet(
            rules, names or [f"{word} {chr(ord('A') + side)}" for side in range(rules.sides)]
        )
        self.dealer = 0
        self.decks: list[list[int]] = []
        """Each hand's deck as dealt, in card codes (top card last)."""
        self.moves: list[list[tuple[int, Move]]] = []
        """Each hand's moves as (seat, move): the hand's own event log."""
        self.reports: list[HandReport] = []
        """Each finished hand's report, as a table would have entered it."""
        self.status = Outcome.IN_PROGRESS
        self.hand = self._deal()

    def _deal(self) -> HandState:
        deck = list(deck_of(self.rules))
        shuffle(self.rng, deck)
        self.decks.append(deck[:])
        hand = HandState(
            self.rules,
            deck,
            self.dealer,
            private_chances=self.private_chances,
            scores=self.sheet.totals,
        )
        self.moves.append(hand.events)
        return hand

    @classmethod
    def resume(
        cls,
        rules: Rules,
        seed: int,
        names: Sequence[str],
        moves: Iterable[tuple[int, Move]],
        *,
        private_chances: bool = False,
    ) -> VirtualGame:
        """The game after ``moves`` (seat and move, numbered across its hands): how a stored
        game is brought back. :class:`IllegalMove` if one of them was not legal."""
        game = cls(rules, seed, names, private_chances=private_chances)
        for seat, move in moves:
            game.apply(move, seat)
        return game

    @property
    def move_count(self) -> int:
        """Moves played so far, across every hand."""
        return sum(len(moves) for moves in self.moves)

    def events(self, since: int = 0) -> list[tuple[int, int, int, Move]]:
        """Moves from number ``since`` on, as (number, hand number from 1, seat, move)."""
        events = []
        number = 0
        for hand, moves in enumerate(self.moves, start=1):
            for seat, move in moves:
                if number >= since:
                    events.append((number, hand, seat, move))
                number += 1
        return events

    @property
    def over(self) -> bool:
        """Whether the game has ended (RULES.md §10)."""
        return self.status is not Outcome.IN_PROGRESS

    def apply(self, move: Move, seat: int | None = None) -> HandScore | None:
        """Play ``move``; when it ends the hand, score the hand (and deal the next one)."""
        if self.over:
            raise IllegalMove(Sentence(N_("The game is over (rules §10).")))
        seat = self.hand.to_act if seat is None else seat
        self.hand.check(move, seat)
        return self.apply_legal(move, seat)

    def apply_legal(self, move: Move, seat: int) -> HandScore | None:
        """:meth:`apply` for a move taken from the seat's legal moves now: not checked again."""
        self.hand.apply_legal(move, seat)
        if not self.hand.over:
            return None
        return self._hand_over()

    def _hand_over(self) -> HandScore:
        """Score the hand just ended and deal the next one, unless the game is over."""
        report = self.hand.report(self.sheet.names)
        score = self.sheet.record(report)
        self.reports.append(report)
        self.status = self.sheet.status
        if not self.over:
            self.dealer = (self.dealer + 1) % self.rules.players
            self.hand = self._deal()
        return score

    def play(self, players: Sequence[ComputerPlayer], hands: int | None = None) -> None:
        """Let computer players (one per seat) play to the end of the game, or ``hands`` hands.

        A computer player chooses among its view's legal moves, so its move is not checked a
        second time: a player that may answer otherwise must go through :meth:`apply`."""
        target = None if hands is None else len(self.sheet.hands) + hands
        while not self.over and (target is None or len(self.sheet.hands) < target):
            hand, over = self.hand, Phase.OVER
            views = [seat_view(hand, seat) for seat in range(self.rules.players)]
            apply = hand.apply_legal
            while hand.phase is not over:  # a view is a window: one per seat and hand
                seat = hand.to_act
                apply(players[seat].choose(views[seat]), seat)
            self._hand_over()

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON: rules, seed, every hand's deck and moves, and each finished hand's
        report and breakdown (so a reader can check the scores without the engine)."""
        finished = [
            {"report": report.to_dict(self.rules), "score": score.to_dict()}
            for report, score in zip(self.reports, self.sheet.hands, strict=True)
        ]
        return {
            "version": RECORD_VERSION,
            "players": self.rules.players,
            "variants": self.rules.variants,
            "seed": self.seed,
            "private_chances": self.private_chances,
            "names": list(self.sheet.names),
            "hands": [
                {
                    "deck": [CARDS[code].value for code in deck],
                    "moves": [{"seat": seat, **move.to_dict()} for seat, move in moves],
                    **(finished[number] if number < len(finished) else {}),
                }
                for number, (deck, moves) in enumerate(zip(self.decks, self.moves, strict=True))
            ],
            "totals": list(self.sheet.totals),
            "status": str(self.sheet.status),
        }

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> VirtualGame:
        """Play a recorded game again; :class:`InvalidRecord` if it does not reproduce."""
        try:
            rules = Rules.for_players(record["players"], record.get("variants"))
            game = cls(
                rules,
                int(record["seed"]),
                record.get("names"),
                private_chances=record.get("private_chances") is True,
            )
            for number, hand in enumerate(record["hands"]):
                if [CARDS[code].value for code in game.decks[-1]] != list(hand["deck"]):
                    raise InvalidRecord(f"hand {number + 1} was not dealt from this seed")
                for move in hand["moves"]:
                    game.apply(move_from_dict(move), int(move["seat"]))
        except (KeyError, TypeError, IllegalMove, UnknownVariant, UnsupportedPlayerCount) as error:
            raise InvalidRecord(f"the record does not replay: {error}") from None
        if "totals" in record and list(game.sheet.totals) != list(record["totals"]):
            raise InvalidRecord("the replayed totals differ from the recorded ones")
        replayed = game.to_dict()["hands"]
        for number, hand in enumerate(record["hands"]):
            if "score" in hand and hand["score"] != replayed[number].get("score"):
                raise InvalidRecord(f"hand {number + 1} scores differently when replayed")
        return game
