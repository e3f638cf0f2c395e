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

  // A key per hand entered; crypto.randomUUID is missing on plain HTTP, getRandomValues is not.
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const field = (hand, name) => (hand.entries.find(([key]) => key === name) || [])[1];
  const setField = (hand, name, value) => {
    hand.entries = hand.entries.filter(([key]) => key !== name).concat([[name, String(value)]]);
    hand.key = newKey(); // another request: another key
  };

  const send = (hand) => fetch(hand.action, {
    method: "POST",
    body: new URLSearchParams(hand.entries),
    headers: { "Idempotency-Key": hand.key },
    credentials: "same-origin",
  });

  // The form as the browser would post it without this script: the server's answer is then the
  // page shown (a refusal with the hand's values in place, as without the queue).
  const postPlainly = (hand) => {
    const plain = document.createElement("form");
    plain.method = "post";
    plain.action = hand.action;
    plain.hidden = true;
    for (const [name, value] of hand.entries) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      plain.append(input);
    }
    document.body.append(plain);
    plain.submit();
  };

  const render = async () => {
    const count = (await waiting()).length;
    banner.querySelector(".queue-count").textContent = count === 1 ? texts.waiting_one : say(texts.waiting_many, count);
    banner.querySelector(".queue-why").textContent = texts.waiting_why;
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
      sending = (async () => { do { again = false; await run(); } while (again && !stuck); })()
        .finally(() => { sending = null; render(); });
    }
    return sending;
  };

  async function run() {
    let arrived = null;
    for (const hand of await waiting()) {
      if (stuck || navigator.onLine === false) return;
      let response;
      try {
        response = await send(hand);
      } catch (unreachable) {
        return; // still out of reach: it and the ones after it wait
      }
      if (response.ok && response.redirected) {
        await forget(hand);
        if (field(hand, "etag") === undefined) numberAfter(parseInt(field(hand, "number"), 10));
        if (mine.has(hand.key)) arrived = response.url;
      } else if (response.status === 409 && (hand.queued || !mine.has(hand.key))) {
        return conflict(hand); // taken or changed while it waited: the person chooses
      } else if (response.status >= 400 && response.status < 500) {
        await forget(hand); // refused as it stands: the server's page, as without the queue
        return postPlainly(hand);
      } else {
        return; // the server is in trouble (5xx): kept, tried again later
      }
    }
    if (arrived && !dirty && (await waiting()).length === 0) location.assign(arrived);
  }

  // Another phone recorded (or changed) this hand meanwhile: both versions, and the person chooses.
  async function conflict(hand) {
    stuck = hand;
    const number = parseInt(field(hand, "number"), 10);
    const correction = field(hand, "etag") !== undefined;
    const recordedUrl = section.dataset.recorded.replace(/\/0\/recorded$/, "/" + number + "/recorded");
    const [yours, theirs] = await Promise.all([
      fetch(section.dataset.preview, { method: "POST", body: new URLSearchParams(hand.entries), credentials: "same-origin" }).then((r) => r.text()),
      fetch(recordedUrl, { credentials: "same-origin", cache: "no-store" }).then((r) => r.text()),
    ]).catch(() => [null, null]);
    if (yours === null) { stuck = null; return; } // out of reach again: tried later
    const held = new DOMParser().parseFromString(theirs, "text/html").querySelector(".recorded");
    const next = held ? parseInt(held.dataset.next, 10) : number + 1;
    choice.replaceChildren();
    const heading = document.createElement("p");
    heading.className = "banner waiting";
    heading.textContent = say(correction ? texts.changed_elsewhere : texts.recorded_elsewhere, number);
    const versions = document.createElement("div");
    versions.className = "versions";
    const nothing = (cell) => cell.textContent.trim() === "0";
    for (const [title, html] of [[texts.yours, yours], [texts.theirs, held ? held.outerHTML : ""]]) {
      const part = document.createElement("section");
      part.className = title === texts.yours ? "yours" : "theirs";
      const h = document.createElement("h2");
      h.textContent = title;
      const breakdown = document.createRange().createContextualFragment(html); // the server's own markup
      breakdown.querySelectorAll("h2").forEach((title) => title.remove()); // "Preview": said above
      // Only what scored in this version (and its totals): the two fit under the choice.
      breakdown.querySelectorAll("tbody tr:not(.total)").forEach((row) => {
        if ([...row.querySelectorAll("td")].every(nothing)) row.remove();
      });
      part.append(h, breakdown);
      versions.append(part);
    }
    const record = document.createElement("button");
    record.type = "button";
    record.className = "primary";
    record.textContent = correction ? texts.keep_correction : say(texts.record_next, next);
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = texts.drop;
    const buttons = document.createElement("p");
    buttons.className = "inline";
    buttons.append(record, drop);
    choice.append(heading, buttons, versions); // the question and its answers first
    choice.hidden = false;
    section.hidden = false;
    saving(false);
    choice.scrollIntoView({ block: "start" });
    record.addEventListener("click", () => resolve(hand, correction ? { etag: held ? held.dataset.etag : "" } : { number: next }, correction, next));
    drop.addEventListener("click", () => resolve(hand, null, correction, next));
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
      await keep(hand);
    }
    let number = change && change.number;
    for (const later of number ? await waiting() : []) {
      if (later.id <= hand.id || field(later, "etag") !== undefined) continue;
      setField(later, "number", ++number); // entered after it, so numbered after it
      await keep(later);
    }
    if (!correction) numberAfter(number || next - 1); // the form: the hand after those
    stuck = null;
    await flush();
  }

  // The hand form: saved here first, then sent; if it cannot go, the form is ready for the next hand.
  document.addEventListener("input", (event) => { if (event.target.closest("form.hand-form")) dirty = true; });
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches("form.hand-form") || event.defaultPrevented) return;
    event.preventDefault();
    if (form.dataset.sending || stuck) return; // a double tap: one hand; a conflict: its choice first
    form.dataset.sending = "1";
    form.dataset.key = form.dataset.key || newKey();
    const entries = Array.from(new FormData(form)).filter(([, value]) => typeof value === "string");
    if (event.submitter && event.submitter.name) entries.push([event.submitter.name, event.submitter.value]);
    const hand = { game, action: form.action, entries, key: form.dataset.key, time: Date.now(), queued: navigator.onLine === false };
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
    if ((await waiting()).some((kept) => kept.key === hand.key)) {
      hand.queued = true;
      await keep(hand);
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
    form.querySelectorAll("[type=submit]").forEach((button) => { button.disabled = !allowed; });
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
