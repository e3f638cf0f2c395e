"""How long the coup-fourré window must stay open: the share of it the machine takes, measured in
chromium (from the attacker's tap to the prompt on the attacked player's phone), and a person's
tap within the time left. The share a person needs is judged in docs/contributing/live.md."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.services import virtual
from tests.pages.test_live_pages import following, two_seats
from tests.pages.test_virtual_pages import tap_card

SEED = 11
"""A deal where the first seat to act holds a speed limit and the other holds Right of Way."""
WINDOW = 3.0
"""The default window (config.py's VIRTUAL_CHANCE_WINDOW) under test."""
A_PERSON = 1.5
"""How long the test's player takes to see the prompt and tap, after it shows: slower than most
people who expect it (a buzz, a banner), to show that the window leaves them time."""


@pytest.mark.parametrize("attempt", range(3))
def test_the_window_leaves_a_person_time_to_see_the_hazard_and_tap(
    phone: Callable[..., Page], live_server: str, monkeypatch: pytest.MonkeyPatch, attempt: int
) -> None:
    monkeypatch.setattr(virtual.lifecycle, "new_seed", lambda: SEED)
    monkeypatch.setattr(virtual.moves, "chance_window", lambda: WINDOW)
    _, attacker, attacked = two_seats(phone, live_server, f"Window {attempt}")
    following(attacked)
    card = attacker.locator('.hand-card[data-card="speed_limit"]').first
    panel = tap_card(attacker, card)
    play = panel.locator("form", has=attacker.locator("input[name=target]")).locator("button")
    began = time.monotonic()
    play.first.click()
    answer = attacked.locator(".prompt").get_by_role("button", name="Coup-fourré!")
    expect(answer).to_be_visible(timeout=int(WINDOW * 1000))
    seen = time.monotonic() - began
    print(f"\nthe attack on the other phone after {seen:.3f} s: {WINDOW - seen:.3f} s left to tap")
    assert seen < WINDOW - A_PERSON, seen
    time.sleep(A_PERSON)
    answer.click()
    expect(attacked.locator(".events li").first).to_contain_text("as a coup-fourré")
