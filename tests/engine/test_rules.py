"""Seats, sides, targets and variants (RULES.md §2, §7, §12)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import (
    VARIANT_ENUMS,
    Rules,
    Shutout,
    UnknownVariant,
    UnsupportedPlayerCount,
)


@pytest.mark.parametrize(
    ("players", "sides", "target", "extended"),
    [(2, 2, 700, 1000), (3, 3, 700, 1000), (4, 2, 1000, None), (6, 3, 700, 1000)],
)
def test_table_configurations(players: int, sides: int, target: int, extended: int | None) -> None:
    rules = Rules.for_players(players)
    assert (rules.sides, rules.base_target, rules.extended_target) == (sides, target, extended)
    assert rules.extension_allowed is (extended is not None)


@pytest.mark.parametrize("players", [0, 1, 5, 7, 8])
def test_unsupported_player_counts(players: int) -> None:
    with pytest.raises(UnsupportedPlayerCount):
        Rules.for_players(players)


def test_partners_sit_opposite() -> None:
    assert [Rules.for_players(4).side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert Rules.for_players(6).seats_of(1) == (1, 4)


def documented_variants() -> dict[str, list[str]]:
    """Each variant of the rules reference (RULES.md §12) with its values, the default first."""
    text = (Path(__file__).resolve().parents[2] / "RULES.md").read_text(encoding="utf-8")
    section = text.split("\n## 12. ", 1)[1].split("\n## ", 1)[0]
    variants: dict[str, list[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        key = re.fullmatch(r"`(\w+)`", cells[0])
        if key is None:
            continue
        default = re.fullmatch(r"`(\w+)`", cells[1])
        assert default is not None, f"§12 gives no single default for {key[1]}: {cells[1]!r}"
        assert key[1] not in variants, f"§12 lists {key[1]} twice"
        variants[key[1]] = [default[1], *re.findall(r"`(\w+)`", cells[2])]
    return variants


def test_the_rules_reference_lists_every_variant_and_no_other() -> None:
    assert documented_variants().keys() == VARIANT_ENUMS.keys()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_variant_defaults_to_the_rules_reference(players: int) -> None:
    rules = Rules.for_players(players)
    defaults = {key: values[0] for key, values in documented_variants().items()}
    assert rules.variants == defaults


def test_every_variant_value_is_documented_default_first() -> None:
    for key, values in documented_variants().items():
        assert [member.value for member in VARIANT_ENUMS[key]] == values, key


def test_variants_are_chosen_by_their_rules_keys() -> None:
    rules = Rules.for_players(3, {"shutout": "capot", "deck": "full"})
    assert rules.shutout is Shutout.CAPOT
    assert rules.variants["deck"] == "full"


@pytest.mark.parametrize(("key", "value"), [("shutout", "triple"), ("nope", "x"), ("deck", 3)])
def test_unknown_variants_are_refused(key: str, value: object) -> None:
    with pytest.raises(UnknownVariant):
        Rules.for_players(2, {key: value})


def test_two_hundreds_limit_per_player_doubles_for_teams_only() -> None:
    assert Rules.for_players(2, {"two_hundreds_limit": "player"}).two_hundreds_per_side == 2
    assert Rules.for_players(4, {"two_hundreds_limit": "player"}).two_hundreds_per_side == 4
    assert Rules.for_players(4).two_hundreds_per_side == 2
