// The hand form, enhanced: a hand in ten taps. Progressive enhancement only: without this file
// every field still posts as a plain input and the server reads the same names.
"use strict";

(() => {
  const form = document.querySelector("form.hand-form");
  if (!form) return;

  const number = (text) => { const n = parseInt(text, 10); return Number.isFinite(n) ? n : 0; };
  const target = number(form.dataset.target);
  const extended = number(form.dataset.extendedTarget); // 0: no extension in this game
  const sides = [...form.querySelectorAll("fieldset.side")];
  const changed = (element) => element.dispatchEvent(new Event("input", { bubbles: true }));
  const texts = JSON.parse(form.dataset.texts || "{}");
  const say = (text, name) => (text || "").replace("{name}", name);

  // A number field tapped is a number to type afresh: its whole value is selected, so typing 5
  // into a chip total of 300 gives 5, not 5300 (the caret would land first on a phone).
  form.addEventListener("focusin", (event) => {
    if (event.target.matches("input[type=number]")) event.target.select();
  });

  form.querySelectorAll(".js-only").forEach((element) => { element.hidden = false; });
  form.querySelectorAll(".nojs-only").forEach((element) => { element.hidden = true; });

  // The answers a person chose, which the script never changes: who completed the trip, who
  // called the extension, a side's 200s. The hidden field carries them to the server and back
  // (a refusal, the other language, the offline queue's copy), so a form shown again
  // still tells them from the answers the script suggested. A form that comes back without it
  // was filled in by hand throughout: the server then lists every answer.
  const chosenField = form.elements.namedItem("chosen");
  if (chosenField) chosenField.disabled = false;
  const chosen = new Set(chosenField ? chosenField.value.split(" ").filter(Boolean) : []);
  const setChosen = (name, yes) => {
    if (yes) chosen.add(name);
    else chosen.delete(name);
    if (chosenField) chosenField.value = [...chosen].join(" ");
  };

  // One side's distance: its km total when one is given (the server reads that first), else the
  // sum of its cards by value.
  const km = (side) => side.querySelector("input[name$='-km']");
  const cards = (side) => [...side.querySelectorAll(".stepper input")];
  const cardSum = (side) => cards(side).reduce((sum, input) => sum + number(input.value) * number(input.name.split("-d")[1]), 0);
  const distance = (side) => (km(side).value.trim() === "" ? cardSum(side) : number(km(side).value));
  // A side's 200s as the person gave them: tapped, or counted by a +200 chip or the 200 cards.
  const twoHundreds = (side, count) => {
    const radio = side.querySelector(`input[name$='-two_hundreds'][value='${count}']`);
    if (radio) radio.checked = true;
    setChosen(radio200Name(side), true);
  };
  const cardsInUse = (side) => km(side).value.trim() === "" && cards(side).some((input) => number(input.value) > 0);

  // The km total, set at once: chips add to it (or set the whole trip); the cards by value then
  // give way to it, their sum carried into the total, so one source counts at a time. A +200
  // is a 200 km card: the 200s choice counts it (up to the most it offers); cleared, the km
  // total leaves the 200s unsaid.
  const radios200 = (side) => [...side.querySelectorAll("input[name$='-two_hundreds']")];
  function radio200Name(side) { return radios200(side)[0].name; }
  const oneMore200 = (side) => {
    const checked = radios200(side).find((radio) => radio.checked);
    const most = Math.max(...radios200(side).map((radio) => number(radio.value)));
    twoHundreds(side, Math.min(most, checked ? number(checked.value) + 1 : 1));
  };
  const setKm = (side, value, added = 0) => {
    const stepper200 = side.querySelector("input[name$='-d200']");
    if (cardsInUse(side)) twoHundreds(side, number(stepper200.value));
    cards(side).forEach((input) => { input.value = "0"; });
    km(side).value = value === null ? "" : String(Math.max(0, value));
    if (value === null) {
      radios200(side).forEach((radio) => { radio.checked = false; });
      setChosen(radio200Name(side), false); // no distance: no 200s said, by anyone
    }
    else if (added === 200) oneMore200(side);
    changed(km(side));
  };
  // The cards by value add up beside their steppers; while a km total is typed they are not
  // counted, and the line says so (never "0 km" under a 1,000 km total).
  const showTotals = (side) => {
    const output = side.querySelector("[data-cards-total]");
    if (output) {
      const line = output.closest(".cards-total");
      output.dataset.km = String(cardSum(side));
      output.value = km(side).value.trim() === ""
        ? line.dataset.sumText.replace("{km}", String(cardSum(side)))
        : line.dataset.optionalText;
      line.classList.toggle("optional", km(side).value.trim() !== "");
    }
    km(side).placeholder = cardsInUse(side) ? String(cardSum(side)) : "";
    // A stepper's − at 0 and + at its limit would change nothing: they are disabled.
    side.querySelectorAll(".stepper").forEach((stepper) => {
      const count = number(stepper.querySelector("input").value);
      stepper.querySelector(".step[data-step='-1']").disabled = count <= 0;
      stepper.querySelector(".step[data-step='1']").disabled = count >= number(stepper.querySelector("input").max);
    });
  };

  form.addEventListener("click", (event) => {
    const side = event.target.closest("fieldset.side");
    const button = event.target.closest("button");
    if (!side || !button) return;
    if (button.dataset.add) setKm(side, distance(side) + number(button.dataset.add), number(button.dataset.add));
    else if (button.dataset.set) setKm(side, number(button.dataset.set));
    else if (button.classList.contains("km-clear")) setKm(side, null);
    else if (button.classList.contains("step")) {
      // Steppers: large − / + buttons around each count of distance cards, moved here in place
      // (without the script each posts the form to be shown again with its count moved).
      event.preventDefault();
      const input = button.parentElement.querySelector("input");
      const next = Math.max(0, number(input.value) + number(button.dataset.step));
      input.value = String(Math.min(next, number(input.max) || next));
      changed(input);
    } else if (button.classList.contains("safety-cycle")) cycle(button);
  });

  // Counting cards by value makes them the source: the km total clears (its placeholder shows the
  // cards' sum) and the 200s choice follows the 200 cards.
  form.addEventListener("input", (event) => {
    const side = event.target.closest("fieldset.side");
    if (!side) return;
    if (event.target.closest(".stepper")) {
      km(side).value = "";
      if (event.target.name.endsWith("-d200")) twoHundreds(side, number(event.target.value));
    } else if (event.target === km(side) && event.isTrusted && cards(side).some((input) => number(input.value) > 0)) {
      twoHundreds(side, number(side.querySelector("input[name$='-d200']").value));
      cards(side).forEach((input) => { input.value = "0"; });
    } else if (event.target.name && event.target.name.endsWith("-two_hundreds")) {
      if (cardsInUse(side)) side.querySelector("input[name$='-d200']").value = event.target.value;
    }
    showTotals(side);
  });

  // Safeties: one toggle each, whose taps go laid → coup-fourré → not laid. The two check boxes
  // the server reads stay in the form (hidden) and carry the state.
  const boxes = (button) => {
    const safety = button.closest(".safety");
    return [safety.querySelector("input[name*='-safety-']"), safety.querySelector("input[name*='-cf-']")];
  };
  const show = (button) => {
    const [laid, coupFourre] = boxes(button);
    const state = coupFourre.checked ? "cf" : laid.checked ? "laid" : "off";
    button.dataset.state = state;
    button.setAttribute("aria-pressed", String(state !== "off"));
    button.setAttribute("aria-label", state === "cf" ? button.dataset.cfName : button.dataset.name);
  };
  const cycle = (button) => {
    const [laid, coupFourre] = boxes(button);
    const state = button.dataset.state;
    laid.checked = state !== "cf";
    coupFourre.checked = state === "laid";
    show(button);
    changed(laid);
  };
  form.querySelectorAll(".safety-cycle").forEach((button) => {
    button.dataset.name = button.getAttribute("aria-label");
    show(button);
  });

  // Who completed the trip, and who called the extension, follow the distances until a person
  // chooses (RULES.md §7, §8): the trip is the side at exactly the target in force; with the
  // extension, a side beyond the hand's target (700) means one was called, most likely by the
  // side at the extended target (1,000), else by the side farthest beyond 700.
  const answer = (name) => form.querySelector(`input[name='${name}']:checked`)?.value ?? "";
  // A person's tap makes an answer chosen, whatever its value ("Nobody" included), even a tap on
  // the answer already suggested (a click, which changes nothing and so fires no change). Ticking
  // the delayed action says how the trip was completed: the side then shown completing it is
  // chosen too, so the box never moves to another side as the distances change.
  const choose = (event) => {
    if (!event.isTrusted || !event.target.matches("input")) return;
    const name = event.target.name || "";
    if (name === "completed" || name === "extension" || name.endsWith("-two_hundreds")) setChosen(name, true);
    if (name === "delayed" && event.target.checked && answer("completed") !== "") setChosen("completed", true);
  };
  form.addEventListener("input", choose); // before the listener below that follows the distances
  form.addEventListener("change", choose);
  form.addEventListener("click", choose);
  const pick = (name, value) => {
    const radio = form.querySelector(`input[name='${name}'][value='${value}']`);
    if (radio && !radio.checked) radio.checked = true;
  };
  const follow = () => {
    const distances = sides.map(distance);
    if (extended && !chosen.has("extension")) {
      const over = distances.map((d, i) => [d, i]).filter(([d]) => d > target);
      const whole = over.find(([d]) => d === extended);
      const farthest = over.sort((a, b) => b[0] - a[0])[0];
      pick("extension", whole ? whole[1] : farthest ? farthest[1] : "");
    }
    if (!chosen.has("completed")) {
      const inForce = extended && answer("extension") !== "" ? extended : target;
      const done = distances.flatMap((d, i) => (d === inForce ? [i] : []));
      pick("completed", done.length === 1 ? done[0] : "");
    }
    zeroTwoHundreds();
  };
  // The side that completed the trip says its 200s (they decide the safe trip, RULES.md §9):
  // with a km total and none said yet, 0 is suggested for it, in view, and can be changed; once
  // another side completes it, the suggestion goes. The server still refuses a completed trip
  // whose 200s are unsaid (a form sent without script).
  const zeroTwoHundreds = () => {
    const completer = answer("completed");
    sides.forEach((side, index) => {
      const said = radios200(side).find((radio) => radio.checked);
      if (String(index) === completer) {
        if (!said && !cardsInUse(side) && km(side).value.trim() !== "") {
          radios200(side).find((radio) => radio.value === "0").checked = true;
        }
      } else if (said && !chosen.has(radio200Name(side))) {
        said.checked = false;
      }
    });
  };

  // Live preview: the engine scores the form as it is filled; nothing is saved. Each refusal
  // is shown beside the side its path names (or beside who completed the trip, for the hand as
  // a whole); the bar beside Save keeps each side's hand score, what the form suggests for the
  // trip and the extension, or where the first refusal is. A score is shown only for the form
  // as it is now: while a newer one is asked for the bar says so, and out of reach it says the
  // score needs the scorekeeper (the engine scores on the server; the browser never guesses).
  const section = document.getElementById("preview");
  const summary = form.querySelector("[data-bar-summary]");
  const suggest = form.querySelector("[data-bar-suggest]");
  const problemBoxes = [...form.querySelectorAll("[data-problems]")];
  const box = (path) => {
    const parts = (path || "").split("/");
    const where = parts[1] === "sides" && /^\d+$/.test(parts[2] || "") ? parts[2]
      : parts[1] === "extension_called_by" ? "extension" : "who";
    const named = (name) => problemBoxes.find((element) => element.dataset.problems === name);
    return named(where) || named("who");
  };
  const nameOf = (element) => {
    const side = element.closest("fieldset.side");
    return side ? side.querySelector("legend").textContent.trim() : null;
  };
  const placeProblems = (problems) => {
    problemBoxes.forEach((element) => element.replaceChildren());
    const placed = problems.map((problem) => {
      const line = document.createElement("p");
      line.className = "problem";
      line.dataset.code = problem.dataset.code || "";
      line.dataset.path = problem.dataset.path || "";
      line.textContent = problem.textContent;
      box(problem.dataset.path).append(line);
      return line;
    });
    placed.forEach((line, index) => { line.id = `problem-${index}`; });
    return placed;
  };
  const barLine = (className, text) => {
    const line = document.createElement("span");
    line.className = className;
    line.textContent = text;
    return line;
  };
  const sideNames = sides.map((side) => side.querySelector("legend").textContent.trim());
  const showSuggestion = () => {
    const parts = [];
    const completer = answer("completed");
    parts.push(completer === "" ? texts.no_trip : say(texts.trip, sideNames[number(completer)]));
    const caller = answer("extension");
    if (extended && caller !== "") parts.push(say(texts.extension, sideNames[number(caller)]));
    suggest.textContent = parts.join(" · ");
  };
  const showTotalsInBar = (cells) => {
    const line = document.createElement("span");
    line.className = "bar-totals";
    line.style.setProperty("--sides", String(sideNames.length));
    cells.forEach((cell, index) => {
      const one = document.createElement("span");
      one.className = `side-total side-${index}`;
      const total = document.createElement("b");
      total.textContent = cell.textContent; // written in the page's language by the server
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = sideNames[index] ?? "";
      one.append(name, " ", total);
      line.append(one);
    });
    summary.replaceChildren(line);
  };
  const summarise = () => {
    form.dataset.previewPoints = "";
    const placed = placeProblems([...section.querySelectorAll(".problem")]);
    if (placed.length) {
      const first = placed[0];
      const link = document.createElement("a");
      link.className = "problem";
      link.href = `#${first.id}`;
      const name = nameOf(first);
      link.textContent = name === null ? texts.refused_hand : say(texts.refused, name);
      summary.replaceChildren(link);
      return;
    }
    const cells = [...section.querySelectorAll("[data-preview-total]")];
    showTotalsInBar(cells);
    form.dataset.previewPoints = JSON.stringify(cells.map((cell) => number(cell.dataset.points)));
  };
  const unscored = (text) => {
    form.dataset.previewPoints = "";
    summary.replaceChildren(barLine("unscored", text));
  };
  let timer = null;
  let sent = 0;
  const preview = () => {
    const asked = ++sent;
    const out = () => {
      if (asked !== sent) return;
      section.replaceChildren();
      unscored(texts.offline);
    };
    if (navigator.onLine === false) { out(); return; }
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : null))
      .then((html) => {
        if (asked !== sent) return;
        if (html === null) { out(); return; }
        section.innerHTML = html;
        summarise();
      })
      .catch(out);
  };
  // The form as last sent to be scored: a "change" that changes nothing (a field left after
  // its "input") keeps the score shown, which is still the form's.
  let scoredForm = null;
  const formNow = () => new URLSearchParams(new FormData(form)).toString();
  const later = () => {
    follow();
    showSuggestion();
    if (formNow() === scoredForm) return;
    scoredForm = formNow();
    unscored(texts.pending); // the score shown is the form's as it is now, or none
    sent += 1; // an answer to an older form is dropped
    clearTimeout(timer);
    timer = setTimeout(preview, 250);
  };
  form.addEventListener("input", later);
  form.addEventListener("change", later);
  sides.forEach((side) => {
    if (cardsInUse(side)) twoHundreds(side, number(side.querySelector("input[name$='-d200']").value));
    showTotals(side);
  });
  // A form reset (the offline queue keeps a hand and clears the form for the next one) puts the
  // inputs back as the page came, which is the hand as it then stood on a page the server
  // showed again (a refusal, the other language): the form is made blank for the next hand,
  // nothing chosen; the toggles, totals and defaults that mirror it follow.
  const blank = (input) => {
    if (input.type === "checkbox") input.checked = false;
    else if (input.type === "radio") input.checked = input.value === "" && (input.name === "completed" || input.name === "extension");
    else if (input.type === "number") input.value = input.closest(".stepper") ? "0" : "";
  };
  form.addEventListener("reset", () => setTimeout(() => {
    form.querySelectorAll("input").forEach(blank);
    chosen.clear();
    if (chosenField) chosenField.value = "";
    form.querySelectorAll(".safety-cycle").forEach(show);
    sides.forEach(showTotals);
    later();
  }, 0));
  // Another language shows the form again from the server, everything entered kept (a stepper's
  // button never posts here: its click moved the count in place). Out of reach the form stays as
  // it is, rather than give way to the browser's error page, and the bar says why.
  form.addEventListener("submit", (event) => {
    if (event.submitter?.dataset.again === undefined || navigator.onLine !== false) return;
    event.preventDefault();
    unscored(texts.offline_language);
  });
  // Back in reach, the form is scored again; going out of reach changes no score already shown
  // for the form as it is (the next change says the score needs the scorekeeper).
  window.addEventListener("online", () => { scoredForm = null; later(); });
  follow();
  showSuggestion();
  scoredForm = formNow();
  preview();
})();
