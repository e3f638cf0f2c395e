"""Computer players: legal moves only, reproducible from their seeds, and stronger means better."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from engine.cards import Card, CardKind
from engine.codes import CARDS
from engine.moves import (
    CallExtension,
    CoupFourre,
    DeclineExtension,
    Discard,
    Move,
    PassCoupFourre,
    Play,
)
from engine.players import make_player
from engine.players.search import SearchPlayer
from engine.rules import Rules
from engine.validation import check_report
from engine.view import seat_view
from engine.virtual_game import VirtualGame
from reference import make_player as make_reference_player
from scorekeeper.commands.simulate import simulate, tally

MOVES_IN_A_GAME = 20_000
"""Far more moves than any game takes (random players' six-seat games take about 2,000)."""


def every_move_with(hand: list[Card], own_side: int) -> list[Move]:
    """Every move a seat holding ``hand`` could try, legal or not: each card played on each
    side or on no side, each card discarded or laid as a coup-fourré, and the card-less moves.
    (A card for the own tableau is listed once, with no side: naming the own side is the same
    play.)"""
    cards = set(hand)
    return [
        *(
            Play(card, target)
            for card in cards
            for target in (None, 0, 1, 2)
            if card.kind is CardKind.HAZARD or target != own_side
        ),
        *(Discard(card) for card in cards),
        *(CoupFourre(card) for card in cards),
        PassCoupFourre(),
        CallExtension(),
        DeclineExtension(),
    ]


@pytest.mark.parametrize("name", ["random", "greedy", "strong", "classic", "contest"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_players_play_whole_games_by_the_rules(name: str, players: int) -> None:
    """Each move chosen passes the rules' own check (not the list the player chose from), the
    legal-move list is exactly what that check allows, every hand's report is one the scorer
    accepts, and the game ends."""
    rules = Rules.for_players(players)
    game = VirtualGame(rules, seed=players)
    computers = [make_reference_player(name, Random(seat)) for seat in range(players)]
    for _ in range(MOVES_IN_A_GAME):
        if game.over:
            break
        hand, seat = game.hand, game.hand.to_act
        tried = every_move_with(list(seat_view(hand, seat).hand), hand.side_of(seat))
        assert {move for move in tried if hand.is_legal(move, seat)} == set(hand.legal_moves())
        move = computers[seat].choose(seat_view(hand, seat))
        hand.check(move, seat)
        for other in range(players):
            assert other == seat or not hand.is_legal(move, other)
        game.apply(move, seat)
    assert game.over, f"no end after {MOVES_IN_A_GAME} moves"
    assert max(game.sheet.totals) >= 5000
    assert [check_report(report, rules) for report in game.reports] == [[]] * len(game.reports)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_search_player_chooses_legal_moves_reproducibly(players: int) -> None:
    choices = []
    for _ in range(2):
        game = VirtualGame(Rules.for_players(players), seed=players)
        searcher = SearchPlayer(Random(1))
        others = [make_player("strong", Random(seat)) for seat in range(players)]
        moves: list[Move] = []
        while not game.over and len(moves) < 40 * players:
            seat = game.hand.to_act
            view = seat_view(game.hand, seat)
            move = (searcher if seat == 0 else others[seat]).choose(view)
            game.hand.check(move, seat)
            moves.append(move)
            game.apply(move, seat)
        choices.append(moves)
    assert choices[0] == choices[1]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_sampled_deal_keeps_what_the_seat_has_seen(players: int) -> None:
    game = VirtualGame(Rules.for_players(players), seed=7)
    game.play([make_player("greedy", Random(seat)) for seat in range(players)], hands=1)
    for _ in range(30):  # into the second hand, with cards on the tableaux and discards
        game.apply(game.hand.legal_moves()[0])
    hand = game.hand
    assert len(game.sheet.hands) == 1 and not hand.over
    assert hand.discards and any(t.battle for t in hand.tableaux)
    view = seat_view(hand, hand.to_act)
    unseen = view.unseen()
    sampled = [view.sample(Random(n)) for n in range(20)]
    for deal in sampled:
        assert deal.hands[view.seat] == hand.hands[view.seat]
        assert [len(cards) for cards in deal.hands] == [len(cards) for cards in hand.hands]
        assert len(deal.draw_pile) == len(hand.draw_pile)
        assert deal.discards == hand.discards
        assert [t.battle for t in deal.tableaux] == [t.battle for t in hand.tableaux]
        pool = Counter(CARDS[code] for code in deal.draw_pile)
        for seat, codes in enumerate(deal.hands):
            if seat != view.seat:
                pool.update(CARDS[code] for code in codes)
        assert pool == unseen
        assert deal.legal_moves() == hand.legal_moves()
    assert len({tuple(deal.draw_pile) for deal in sampled}) > 1  # the hidden cards move


def test_unseen_cards_are_the_deck_less_everything_face_up_and_the_own_hand() -> None:
    game = VirtualGame(Rules.for_players(2), seed=3)
    game.play([make_player("greedy", Random(seat)) for seat in range(2)], hands=1)
    for _ in range(25):
        game.apply(game.hand.legal_moves()[-1])
    view = seat_view(game.hand, game.hand.to_act)
    seen = Counter(view.hand) + Counter(view.discard_pile)
    for tableau in view.tableaux:
        seen.update(card for card in tableau.battle if card is not None)
        seen.update(tableau.speed)
        seen.update(tableau.safeties)
        seen.update({Card.distance(km): count for km, count in tableau.cards.items()})
    corrected = sum(card is None for tableau in view.tableaux for card in tableau.battle)
    assert corrected == 0 or view.discards  # a corrected hazard went to the discards
    assert view.unseen() == Counter(game.rules.deck) - seen


def test_unknown_players_are_refused() -> None:
    with pytest.raises(ValueError, match="no computer player"):
        make_player("oracle", Random(0))
    with pytest.raises(
        ValueError, match="no computer player .* the references classic and contest, and the "
    ):
        make_reference_player("oracle", Random(0))


def test_a_research_candidate_takes_its_settings_from_its_name() -> None:
    player = make_reference_player("evaluated:residual=1000.0;candidates=3,safeties=yes", Random(0))
    assert (player.residual, player.candidates, player.safeties) == (1000.0, 3, True)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="'safeties=no' is not key=number"):
        make_reference_player("evaluated:safeties=no", Random(0))


@pytest.mark.parametrize("name", ["classic", "contest"])
def test_the_engine_plays_only_the_apps_players(name: str) -> None:
    """The reference opponents are not the engine's: only the reference registry builds them,
    and it builds the engine's players as the engine does."""
    with pytest.raises(ValueError, match="there are random, greedy, strong, search$"):
        make_player(name, Random(0))
    assert make_reference_player(name, Random(0)).name == name
    for app_player in ("random", "greedy", "strong", "search"):
        built = make_reference_player(app_player, Random(0))
        assert type(built) is type(make_player(app_player, Random(0)))


def test_strong_beats_greedy_with_seats_swapped() -> None:
    results = list(simulate(["strong", "greedy"], 2, games=100, seed=11, variants={}))
    record = tally(results)
    assert record["strong"].games == record["greedy"].games == 100
    assert record["strong"].wins / 100 > 0.6
