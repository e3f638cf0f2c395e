"""Who sits where when a game is being set up: what the pickers show before anyone taps them.

When the table has exactly as many players as the seats chosen, there is one obvious seating:
everyone plays, seated in the order they were added (seat ``i`` goes to side ``i % sides``, so
partners sit opposite, as ``Rules.seats_of`` seats them). The pickers are filled that way on the
server, so it works without JavaScript, and each stays a picker: anyone can change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

if TYPE_CHECKING:
    from scorekeeper.storage.models import Player


def obvious_seating(players: Sequence[Player], seats: int) -> list[Player] | None:
    """The table's players in the order they were added, if they fill the seats exactly."""
    ordered = sorted(players, key=lambda player: player.id)
    return ordered if len(ordered) == seats else None


def side_picks(
    form: MultiDict[str, str], players: Sequence[Player], seats: int, sides: int
) -> list[list[str]]:
    """Each side's pickers on the new-game form: the form's own choices when it is being
    started (so a refused start keeps them), else the obvious seating, else what was chosen."""
    per_side = seats // sides
    seating = obvious_seating(players, seats)
    if "start" in form or seating is None:
        chosen = [form.getlist(f"side{side}") for side in range(sides)]
        return [(picks + [""] * per_side)[:per_side] for picks in chosen]
    picks = [[""] * per_side for _ in range(sides)]
    for seat, player in enumerate(seating):
        picks[seat % sides][seat // sides] = str(player.id)
    return picks


def seat_picks(
    form: MultiDict[str, str], players: Sequence[Player], seats: int, computer: str
) -> list[str]:
    """Each seat's picker on the virtual-game form (``p<id>`` a player, ``c<kind>`` a
    computer): the form's choices when it is being dealt, else the obvious seating, else the
    first player against computers."""
    seating = obvious_seating(players, seats)
    if "start" not in form and seating is not None:
        return [f"p{player.id}" for player in seating]
    first = [f"p{min(player.id for player in players)}"] if players else []
    default = first + [f"c{computer}"] * seats
    return [form.get(f"seat{seat}") or default[seat] for seat in range(seats)]
