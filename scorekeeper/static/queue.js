// The queue of hands: a hand saved while the scorekeeper cannot be reached waits on this phone
// (IndexedDB) and is sent when it can, in order, each with its own Idempotency-Key, so a hand
// whose answer was lost is answered on its retry, never recorded twice. It needs no service
// worker, so it works on a table's plain http://<ip>:5000 too. Without it (no script, or no
// IndexedDB) the form posts as it always did.
"use strict";
(() => {
  const section = document.getElementById("queue");
  if (!section || !window.indexedDB || !window.fetch) return;
  const texts = JSON.parse(document.getElementById("queue-texts").textContent);
  const game = section.dataset.game;
  const banner = section.querySelector(".banner");
  const choice = section.querySelector(".queue-conflict");
  const say = (text, n) => text.replace("{n}", n);

  // IndexedDB: one store of hands, in the order they were saved (auto-increment ids).
  let opened = null;
  const database = () => opened || (opened = new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper-queue", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }));
  const store = (mode, work) => database().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction("hands", mode);
    const request = work(transaction.objectStore("hands"));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
  }));
  const waiting = () => store("readonly", (hands) => hands.getAll()).then((all) => all.filter((hand) => hand.game === game));
  const keep = (hand) => store("readwrite", (hands) => hands.put(hand));
  const forget = (hand) => store("readwrite", (hands) => hands.delete(hand.id));
  // A hand written again only if it is still waiting, its check and its write one transaction: a
  // hand sent (and forgotten) meanwhile never comes back. ``change`` turns the stored hand into
  // the one written (by default, the hand as given); the answer: whether it was still waiting.
  const keepIfWaiting = (hand, change = () => hand) => database().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction("hands", "readwrite");
    const hands = transaction.objectStore("hands");
    let still = false;
    const read = hands.get(hand.id);
    read.onsuccess = () => {
      if (read.result === undefined) return; // sent meanwhile: left gone
      still = true;
      hands.put(change(read.result));
    };
    transaction.oncomplete = () => resolve(still);
    transaction.onerror = () => reject(transaction.error);
  }));

  // A key per hand entered; crypto.randomUUID is missing on plain HTTP, getRandomValues is not.
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const field = (hand, name) => (hand.entries.find(([key]) => key === name) || [])[1];
  const setField = (hand, name, value) => {
    hand.entries = hand.entries.filter(([key]) => key !== name).concat([[name, String(value)]]);
    hand.key = newKey(); // another request: another key
  };

  // A server that does not answer (the laptop asleep on the table's Wi-Fi) counts as out of
  // reach after a few seconds, not minutes: the hand waits, and Save is back. It may have reached
  // the server all the same: its Idempotency-Key makes the resend safe.
  const TIMEOUT = 8000;
  const deadline = () => {
    if (AbortSignal.timeout) return AbortSignal.timeout(TIMEOUT);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), TIMEOUT);
    return controller.signal;
  };

  // The session's CSRF token, as the page running the queue holds it: a hand kept for days
  // carries the token of the form it was entered on, which a new session (a browser closed, a
  // server restarted) refuses. The server leaves the token out of the Idempotency-Key's
  // fingerprint, so a hand goes with the current one.
  let token = section.dataset.csrf || "";
  const withToken = (hand) =>
    token ? hand.entries.filter(([name]) => name !== "csrf_token").concat([["csrf_token", token]]) : hand.entries;
  // The session may have changed since this page was rendered: the token of a page the server
  // renders now (a new session with it, if the old one is gone). True if it is another one.
  const renewToken = async () => {
    try {
      const response = await fetch(section.dataset.game, { credentials: "same-origin", cache: "no-store", signal: deadline() });
      if (!response.ok) return false;
      const there = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("queue");
      const fresh = there ? there.dataset.csrf : "";
      if (!fresh || fresh === token) return false;
      token = section.dataset.csrf = fresh;
      document.querySelectorAll("input[name=csrf_token]").forEach((input) => { input.value = fresh; }); // this page's other forms
      return true;
    } catch (unreachable) {
      return false;
    }
  };

  const send = (hand) => fetch(hand.action, {
    method: "POST",
    body: new URLSearchParams(withToken(hand)),
    headers: { "Idempotency-Key": hand.key },
    credentials: "same-origin",
    signal: deadline(),
  });

  // What the server said to a refusal, in its own words (its error page's title and detail;
  // parsed, never run), or its status.
  const serverSays = async (response) => {
    let words = "";
    try {
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      words = [page.querySelector("h1"), page.querySelector(".problem")]
        .map((element) => (element ? element.textContent.trim() : ""))
        .filter(Boolean)
        .join(" – ");
    } catch (unreadable) {
      words = "";
    }
    return words || (response.status + " " + response.statusText).trim();
  };

  // The form as the browser would post it without this script: the server's answer is then the
  // page shown (a refusal with the hand's values in place, as without the queue).
  const postPlainly = (hand) => {
    const plain = document.createElement("form");
    plain.method = "post";
    plain.action = hand.action;
    plain.hidden = true;
    for (const [name, value] of withToken(hand)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      plain.append(input);
    }
    document.body.append(plain);
    plain.submit();
  };

  // The scoreboard's totals with the new hands waiting on this phone added, marked as waiting.
  // A hand's points are the ones the server's preview gave for that very form before it was
  // kept; a hand entered with no preview (out of reach all along) adds nothing and says so:
  // the browser never scores a hand itself.
  const format = (value) => new Intl.NumberFormat(document.documentElement.lang || undefined).format(value);
  const showWaitingTotals = (hands) => {
    document.querySelectorAll(".totals .waiting-total").forEach((line) => line.remove());
    const added = hands.filter((hand) => field(hand, "etag") === undefined);
    if (!added.length) return;
    const scored = added.filter((hand) => Array.isArray(hand.points));
    document.querySelectorAll(".totals .total[data-points]").forEach((cell) => {
      const side = Number(cell.dataset.side);
      const sum = scored.reduce((total, hand) => total + (Number(hand.points[side]) || 0), Number(cell.dataset.points));
      const line = document.createElement("span");
      line.className = "waiting-total";
      line.dataset.side = String(side);
      line.textContent = scored.length ? say(texts.with_waiting, format(sum)) : "";
      if (scored.length < added.length) line.textContent = [line.textContent, texts.unscored].filter(Boolean).join(" ");
      cell.closest("li").append(line);
    });
  };

  const render = async () => {
    const hands = await waiting();
    showWaitingTotals(hands);
    const count = hands.length;
    banner.querySelector(".queue-count").textContent = count === 1 ? texts.waiting_one : say(texts.waiting_many, count);
    banner.querySelector(".queue-why").textContent = count === 1 ? texts.waiting_why_one : texts.waiting_why_many;
    banner.hidden = count === 0;
    section.hidden = count === 0 && choice.hidden;
  };

  // Sending, in order; the first hand that cannot go stops the ones after it.
  let mine = new Set(); // keys of the hands saved from this page
  let dirty = false; // the form was touched since its last hand was saved
  let stuck = null; // a hand waiting for the person's choice
  let sending = null;
  let again = false; // asked for while sending: once more after (a hand saved meanwhile)
  const flush = () => {
    if (sending) {
      again = true;
    } else {
      // Out of reach, it stops there: the timer and the ``online`` event try again.
      sending = (async () => { let reached; do { again = false; reached = await run(); } while (again && !stuck && reached !== false); })()
        .finally(() => { sending = null; render(); });
    }
    return sending;
  };

  async function run() {
    let arrived = null;
    let sentHere = false; // a hand recorded while a page other than the form shows the game
    for (const hand of await waiting()) {
      if (stuck) return;
      if (navigator.onLine === false) return false;
      let response;
      try {
        response = await send(hand);
        // A 400 is what a token of another session gets: once more with the current one.
        if (response.status === 400 && (await renewToken())) response = await send(hand);
      } catch (unreachable) {
        return false; // still out of reach, or no answer in time: it and the ones after it wait
      }
      const status = response.status;
      if (response.ok && response.redirected) {
        await forget(hand);
        if (field(hand, "etag") === undefined) numberAfter(parseInt(field(hand, "number"), 10));
        if (mine.has(hand.key)) arrived = response.url;
        else sentHere = true;
      } else if (status === 409 && (hand.queued || !mine.has(hand.key))) {
        return conflict(hand); // taken or changed while it waited: the person chooses
      } else if (status === 409 || status === 422) {
        // Refused as it stands: the server's page, with the hand's values in place to fix them,
        // as without the queue.
        await forget(hand);
        return postPlainly(hand);
      } else if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return refused(hand, response); // kept: the person reads why, and retries or drops it
      } else {
        return; // the server is in trouble (5xx), or busy: kept, tried again later
      }
    }
    if (arrived && !dirty && (await waiting()).length === 0) location.assign(arrived);
    // The scoreboard showed those hands as waiting: it is shown again as the scorekeeper has it.
    else if (sentHere && !document.querySelector("form.hand-form") && (await waiting()).length === 0) location.reload();
  }

  // Another phone recorded (or changed) this hand meanwhile: both versions, and the person chooses.
  async function conflict(hand) {
    stuck = hand;
    const number = parseInt(field(hand, "number"), 10);
    const correction = field(hand, "etag") !== undefined;
    const recordedUrl = section.dataset.recorded.replace(/\/0\/recorded$/, "/" + number + "/recorded");
    // Each version as the server renders it, parsed (its scripts never run), or what the server
    // said instead; undefined when out of reach.
    const version = (request) => request
      .then(async (r) => (r.ok ? { page: new DOMParser().parseFromString(await r.text(), "text/html") } : { said: await serverSays(r) }))
      .catch(() => undefined);
    const [yours, theirs] = await Promise.all([
      version(fetch(section.dataset.preview, { method: "POST", body: new URLSearchParams(withToken(hand)), credentials: "same-origin", signal: deadline() })),
      version(fetch(recordedUrl, { credentials: "same-origin", cache: "no-store", signal: deadline() })),
    ]);
    if (yours === undefined || theirs === undefined) { stuck = null; return; } // out of reach again: tried later
    const held = theirs.page ? theirs.page.querySelector(".recorded") : null;
    const next = held ? parseInt(held.dataset.next, 10) : number + 1;
    choice.replaceChildren();
    const heading = document.createElement("p");
    heading.className = "banner waiting";
    heading.textContent = say(correction ? texts.changed_elsewhere : texts.recorded_elsewhere, number);
    const versions = document.createElement("div");
    versions.className = "versions";
    const nothing = (cell) => cell.textContent.trim() === "0";
    const shown = (found, outcome) => {
      if (found) return found;
      const plain = document.createElement("p"); // what the server said instead, as plain text
      plain.className = "problem";
      plain.textContent = outcome.said || "–";
      return plain;
    };
    const yoursShown = shown(yours.page && yours.page.body.querySelector(".preview-table, ul.problems"), yours);
    const theirsShown = shown(held, theirs);
    for (const [title, breakdown] of [[texts.yours, yoursShown], [texts.theirs, theirsShown]]) {
      const part = document.createElement("section");
      part.className = title === texts.yours ? "yours" : "theirs";
      const h = document.createElement("h2");
      h.textContent = title;
      breakdown.querySelectorAll("h2, script").forEach((element) => element.remove()); // "Preview": said above
      // Only what scored in this version (and its totals): the two fit under the choice.
      breakdown.querySelectorAll("tbody tr:not(.total)").forEach((row) => {
        if ([...row.querySelectorAll("td")].every(nothing)) row.remove();
      });
      part.append(h, breakdown);
      versions.append(part);
    }
    const [buttons, record, drop] = answers(correction ? texts.keep_correction : say(texts.record_next, next));
    choice.append(heading, buttons, versions); // the question and its answers first
    choice.hidden = false;
    section.hidden = false;
    saving(false);
    choice.scrollIntoView({ block: "start" });
    record.addEventListener("click", () => resolve(hand, correction ? { etag: held ? held.dataset.etag : "" } : { number: next }, correction, next));
    drop.addEventListener("click", () => resolve(hand, null, correction, next));
  }

  // The two answers a person gives to a kept hand: send it (as ``label`` says), or drop it.
  function answers(label) {
    const button = (text, primary) => {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      if (primary) element.className = "primary";
      return element;
    };
    const send = button(label, true);
    const drop = button(texts.drop, false);
    const line = document.createElement("p");
    line.className = "inline";
    line.append(send, drop);
    return [line, send, drop];
  }

  // The choice made: the hand again under the next number (or over the current version), or
  // dropped; the hands queued after it follow it in order.
  async function resolve(hand, change, correction, next) {
    choice.hidden = true;
    choice.replaceChildren();
    saving(true);
    if (change === null) {
      await forget(hand);
    } else {
      for (const [name, value] of Object.entries(change)) setField(hand, name, value);
      hand.queued = true;
      await keepIfWaiting(hand);
    }
    let number = change && change.number;
    for (const later of number ? await waiting() : []) {
      if (later.id <= hand.id || field(later, "etag") !== undefined) continue;
      setField(later, "number", ++number); // entered after it, so numbered after it
      await keepIfWaiting(later);
    }
    if (!correction) numberAfter(number || next - 1); // the form: the hand after those
    stuck = null;
    await flush();
  }

  // The server refused the hand for another reason than the hand itself (a session or a table
  // this phone no longer has, a game gone): it is kept, never dropped on the server's word; the
  // person reads what the server said, and sends it again (once put right) or drops it.
  async function refused(hand, response) {
    stuck = hand;
    const number = parseInt(field(hand, "number"), 10);
    const correction = field(hand, "etag") !== undefined;
    const heading = document.createElement("p");
    heading.className = "banner waiting";
    heading.textContent = texts.refused;
    const said = document.createElement("p");
    said.className = "problem";
    said.textContent = await serverSays(response);
    const [buttons, retry, drop] = answers(correction ? texts.keep_correction : say(texts.record_next, number));
    choice.replaceChildren(heading, said, buttons);
    choice.hidden = false;
    section.hidden = false;
    saving(false);
    choice.scrollIntoView({ block: "start" });
    const chosen = async (dropped) => {
      choice.hidden = true;
      choice.replaceChildren();
      saving(true);
      if (dropped) {
        await forget(hand);
        if (!correction) await closeUp(hand, number);
      }
      stuck = null;
      await flush();
    };
    retry.addEventListener("click", () => chosen(false));
    drop.addEventListener("click", () => chosen(true));
  }

  // A new hand dropped before it was recorded: the new hands queued after it, and the form's,
  // each take the number before theirs.
  async function closeUp(dropped, number) {
    for (const later of await waiting()) {
      const n = parseInt(field(later, "number"), 10);
      if (later.id <= dropped.id || field(later, "etag") !== undefined || !(n > number)) continue;
      setField(later, "number", n - 1);
      await keepIfWaiting(later);
    }
    const numberField = newHandNumber();
    if (numberField && Number(numberField.value) > number) renumber(numberField, Number(numberField.value) - 1);
  }

  // The hand form: saved here first, then sent; if it cannot go, the form is ready for the next hand.
  document.addEventListener("input", (event) => { if (event.target.closest("form.hand-form")) dirty = true; });
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form.hand-form") || event.defaultPrevented) return;
    if (event.submitter && event.submitter.dataset.again !== undefined) return; // shown again, not saved
    event.preventDefault();
    if (form.dataset.sending || stuck) return; // a double tap: one hand; a conflict: its choice first
    form.dataset.sending = "1";
    form.dataset.key = form.dataset.key || newKey();
    const entries = Array.from(new FormData(form)).filter(([, value]) => typeof value === "string");
    if (event.submitter && event.submitter.name) entries.push([event.submitter.name, event.submitter.value]);
    const hand = { game, action: form.action, entries, key: form.dataset.key, time: Date.now(), queued: navigator.onLine === false };
    // Each side's points as the server's preview gave them for this very form (hand_form.js
    // clears them as soon as the form changes), for the scoreboard while the hand waits.
    try { hand.points = form.dataset.previewPoints ? JSON.parse(form.dataset.previewPoints) : null; } catch (unreadable) { hand.points = null; }
    hand.number = parseInt(field(hand, "number"), 10) || null;
    try {
      hand.id = await keep(hand);
    } catch (noStorage) {
      form.submit(); // no IndexedDB here (a private window): the plain form post
      return;
    }
    mine.add(hand.key);
    dirty = false;
    await flush();
    // Still waiting? Marked queued in the same transaction as the check, so the timer's send
    // cannot forget it in between and have it written back.
    if (await keepIfWaiting(hand, (kept) => Object.assign(kept, { queued: true }))) {
      hand.queued = true;
      if (field(hand, "etag") === undefined && form.elements.number) {
        form.reset(); // ready for the next hand, numbered after this one
        renumber(form.elements.number, (hand.number || 0) + 1);
        form.dispatchEvent(new Event("input", { bubbles: true }));
        dirty = false;
      }
      await render();
      section.scrollIntoView({ block: "start" }); // "n hands waiting", above the next hand
      form.dataset.key = "";
    }
    delete form.dataset.sending;
    render();
  });

  // The number of the hand the form records, and the page's heading where it ends with it.
  const renumber = (numberField, next) => {
    const heading = document.querySelector("h1");
    const text = heading ? heading.textContent.trim() : "";
    if (text.endsWith(" " + numberField.value)) heading.textContent = text.replace(/\d+$/, String(next));
    numberField.value = String(next);
  };
  // A new hand's form left on screen once hand n is recorded (or taken) is numbered after it.
  const newHandNumber = () => {
    const form = document.querySelector("form.hand-form");
    return form && !form.elements.etag && form.elements.number ? form.elements.number : null;
  };
  function numberAfter(n) {
    const numberField = newHandNumber();
    if (numberField && n > 0 && Number(numberField.value) <= n) renumber(numberField, n + 1);
  }
  // While a conflict waits for the person's choice, the form's Save is put away.
  function saving(allowed) {
    const form = document.querySelector("form.hand-form");
    if (!form) return;
    form.querySelectorAll("[type=submit]:not([data-again])").forEach((button) => { button.disabled = !allowed; }); // Save, not a stepper
    const bar = form.querySelector(".save-bar");
    if (bar) bar.hidden = !allowed;
  }

  // A page kept by the service worker may be older than what this phone saw since: the newest
  // state of the game seen (its version and hand count) numbers a new hand, after those queued.
  const here = { version: Number(section.dataset.version), hands: Number(section.dataset.hands) };
  const seenKey = "scorekeeper-seen:" + game;
  let seen = null;
  try { seen = JSON.parse(localStorage.getItem(seenKey)); } catch (unreadable) { seen = null; }
  const latest = seen && seen.version > here.version ? seen : here;
  try { localStorage.setItem(seenKey, JSON.stringify(latest)); } catch (full) { /* still usable */ }
  const numberField = document.querySelector("form.hand-form input[name=number]");
  if (numberField && !document.querySelector("form.hand-form input[name=etag]")) {
    waiting().then((hands) => {
      const base = latest === here ? Number(numberField.value) : latest.hands + 1;
      const queued = hands.filter((hand) => field(hand, "etag") === undefined).map((hand) => Number(field(hand, "number")) + 1);
      renumber(numberField, Math.max(base, ...queued));
    });
  }

  window.addEventListener("online", flush);
  setInterval(flush, 5000);
  render().then(flush);
})();
