// Cards at the table (the play page only): tap a card to choose it, then tap what to do with
// it; ask for a hint, which marks a move. Progressive enhancement: without this file every card
// shows its own move buttons, the same forms this file offers, so the server sees the same POST
// either way (and there is no hint, nor its button).
//
// The page is redrawn by app.js's polling (it replaces #play with a fresh copy), so every
// handler is delegated from the document, and after a redraw the chosen card is chosen again
// if the fresh hand still holds it, with the fresh forms (their move number is the new one).
"use strict";

(() => {
  document.documentElement.classList.add("cards-js");
  let chosen = null; // { index, card } of the chosen card, or null

  const hand = () => document.querySelector("#play .hand");

  // A card with moves becomes a toggle button; its face stays what it was drawn as.
  const enhance = () => {
    const list = hand();
    if (!list) { chosen = null; return; }
    list.querySelectorAll(".hand-card[data-moves]").forEach((item) => {
      if (item.querySelector(".card-pick")) return;
      const face = item.querySelector(".card");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "card-pick";
      button.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-label", face.getAttribute("aria-label"));
      face.setAttribute("aria-hidden", "true");
      face.replaceWith(button);
      button.append(face);
    });
    if (chosen) {
      const selector = `.hand-card[data-index="${chosen.index}"][data-card="${chosen.card}"][data-moves]`;
      const item = list.querySelector(selector);
      if (item) choose(item, false); else unchoose(); // a redraw does not scroll the page
    }
  };

  const unchoose = () => {
    chosen = null;
    document.querySelectorAll('#play .card-pick[aria-pressed="true"]').forEach((button) => {
      button.setAttribute("aria-pressed", "false");
    });
    document.querySelectorAll("#play .card-panel").forEach((panel) => panel.remove());
    document.querySelectorAll("#play .tableau.target").forEach((side) => side.classList.remove("target"));
  };

  // Where a move's card lands: the side it targets, or the seat's own side for a card played
  // (a discard or a coup-fourré lands on no tableau).
  const tableauOf = (form) => {
    const target = form.querySelector("input[name=target]");
    if (target) return `.tableau[data-side="${target.value}"]`;
    return form.querySelector('input[name=move][value="play"]') ? ".tableau.own" : null;
  };

  // The chosen card's moves, as large buttons under the hand; the tableaux it may land on
  // light up and take a tap too (a hazard: each opponent's; a remedy or distance: the own).
  const choose = (item, reveal = true) => {
    unchoose();
    chosen = { index: item.dataset.index, card: item.dataset.card };
    const list = hand();
    const button = item.querySelector(".card-pick");
    button.setAttribute("aria-pressed", "true");
    const panel = document.createElement("div");
    panel.className = "card-panel";
    panel.setAttribute("role", "group");
    const title = document.createElement("p");
    title.className = "panel-title";
    const name = document.createElement("strong");
    name.textContent = button.getAttribute("aria-label");
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.textContent = list.dataset.cancel;
    title.append(name, cancel);
    panel.setAttribute("aria-label", `${name.textContent}: ${list.dataset.ask}`);
    panel.append(title);
    item.querySelectorAll(".card-moves form").forEach((form) => {
      const copy = form.cloneNode(true);
      const lands = tableauOf(copy);
      const side = lands && document.querySelector(`#play ${lands}`);
      if (side) side.classList.add("target");
      panel.append(copy);
    });
    list.after(panel);
    if (reveal) panel.scrollIntoView({ block: "nearest" });
  };

  // A hint: the strong computer player's choice for this seat, asked of the API with the seat's
  // token (the button's data-*), then marked on the button of that move and on its card. Nothing
  // is played. A redraw (the game moved on) brings a fresh page, and the mark goes with the old.
  const sends = (form, hint) => ["move", "card", "target"].every((name) => {
    const input = form.querySelector(`input[name=${name}]`);
    return hint[name] === undefined ? !input : Boolean(input) && input.value === String(hint[name]);
  });

  const mark = (ask, hint) => {
    const note = document.getElementById(ask.getAttribute("aria-controls"));
    if (!note) return;
    const forms = document.querySelectorAll("#play .prompt form.move, #play .hand .card-moves form.move");
    const form = [...forms].find((f) =>
      f.querySelector("input[name=number]").value === String(hint.number) && sends(f, hint));
    if (!form) { note.textContent = ask.dataset.moved; return; }
    const button = form.querySelector("button");
    button.classList.add("suggested");
    button.setAttribute("aria-describedby", note.id);
    const item = form.closest(".hand-card");
    if (item) {
      item.classList.add("suggested-card");
      const pick = item.querySelector(".card-pick");
      if (pick) pick.setAttribute("aria-describedby", note.id);
      // The chosen card's panel holds copies of its forms made before the mark: copied again.
      if (chosen && chosen.index === item.dataset.index) choose(item, false);
    }
    note.textContent = `${ask.dataset.suggested} ${button.getAttribute("aria-label")}`;
  };

  const askHint = (ask) => {
    const failed = (words) => {
      const note = document.getElementById(ask.getAttribute("aria-controls"));
      if (note) note.textContent = words;
    };
    ask.disabled = true;
    fetch(ask.dataset.hint, { headers: { Authorization: `Bearer ${ask.dataset.token}` }, cache: "no-store" })
      .then((response) => {
        if (response.status === 200) return response.json();
        failed(response.status === 409 ? ask.dataset.moved : ask.dataset.failed);
        return null;
      })
      .then((hint) => { if (hint) mark(ask, hint); })
      .catch(() => failed(ask.dataset.failed))
      .finally(() => { ask.disabled = false; });
  };

  document.addEventListener("click", (event) => {
    const ask = event.target.closest("#play .hint-ask");
    if (ask) {
      if (!ask.disabled) askHint(ask);
      return;
    }
    const pick = event.target.closest("#play .card-pick");
    if (pick) {
      if (pick.getAttribute("aria-pressed") === "true") unchoose();
      else choose(pick.closest(".hand-card"));
      return;
    }
    if (event.target.closest("#play .card-panel .cancel")) {
      const index = chosen && chosen.index;
      unchoose();
      const card = document.querySelector(`#play .hand-card[data-index="${index}"] .card-pick`);
      if (card) card.focus();
      return;
    }
    const side = event.target.closest("#play .tableau.target");
    if (side) {
      const forms = document.querySelectorAll("#play .card-panel form");
      const form = [...forms].find((f) => tableauOf(f) && side.matches(tableauOf(f)));
      // Once a move is sent app.js quiets the buttons: a second tap sends nothing more.
      if (form && !form.querySelector("button").disabled) form.requestSubmit();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && chosen) unchoose();
  });

  // "Your turn" in the tab's title, and a buzz where the browser allows it when the turn comes
  // (a coup-fourré question included), so a phone showing another tab or app says so. Only a
  // turn that arrives while the page is open buzzes: opening the page on one's turn does not.
  let wasMine = null;
  const announce = () => {
    const play = document.getElementById("play");
    if (!play) return;
    if (play.dataset.title) document.title = play.dataset.title;
    const mine = play.dataset.yourTurn === "true";
    if (mine && wasMine === false && typeof navigator.vibrate === "function") {
      navigator.vibrate([200, 100, 200]);
    }
    wasMine = mine;
  };

  const redrawn = () => { enhance(); announce(); };
  const main = document.querySelector("main");
  if (main) new MutationObserver(redrawn).observe(main, { childList: true });
  redrawn();
})();
