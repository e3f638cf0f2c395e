// Progressive enhancement only: every page works without this file.
"use strict";

// The hand form's steppers, chips and live preview are in hand_form.js, loaded by that page.

// Scoreboard and a virtual game's seat: follow the game with a conditional GET that asks the
// server to wait for a change (Prefer: wait, a long poll). The server answers the moment another
// phone changes the game (200: the part of the page that shows it is redrawn) or after 25 s
// (304), and the page asks again at once. A server that does not wait (no Preference-Applied:
// busy, or older) is asked every 2.5 s instead. A lost connection is asked again after 1, 2, 4…
// seconds (at most 10), and the page says it is offline meanwhile, its move buttons quiet; coming
// back to the page (a phone waking, the tab shown again, the network back) asks at once without
// waiting, so no stale turn is shown. The page's <html data-live> says where it stands:
// asking, waiting (a question held by the server), following, polling or unreachable.
const polled = document.querySelector("[data-poll]");
if (polled) {
  const WAIT = 25; // seconds the server may hold a question
  const EVERY = 2500; // ms between questions to a server that does not wait
  // Only a game being played asks the server to wait (data-live: a virtual game's seat and its
  // scoreboard while the game is on, read again from each fresh copy); a tabletop scoreboard
  // changes once a hand, and asking every 2.5 s does no harm.
  const live = () => "live" in document.getElementById(polled.id).dataset;
  // The tag of the copy on screen, as the server sent it with the page: the first answer is then
  // news only if the game moved since, however late it comes (a phone offline before it came).
  let etag = polled.dataset.etag || null;
  let asking = null; // the AbortController of the question in flight
  let timer = null;
  let failures = 0;

  const note = document.createElement("p");
  note.className = "banner warn live-offline";
  note.setAttribute("role", "status");
  note.hidden = true;
  note.textContent = polled.dataset.offline || "";
  polled.before(note);

  const connected = (yes) => {
    note.hidden = yes;
    document.documentElement.classList.toggle("offline", !yes);
    document.querySelectorAll("#play form.move button").forEach((button) => {
      if (!yes && !button.disabled) { button.disabled = true; button.dataset.offline = "true"; }
      if (yes && button.dataset.offline) { button.disabled = false; delete button.dataset.offline; }
    });
  };

  const ask = (wait) => {
    clearTimeout(timer);
    if (asking) asking.abort();
    const mine = new AbortController();
    asking = mine;
    const headers = {};
    if (etag) headers["If-None-Match"] = etag;
    const waiting = Boolean(etag && wait && live());
    if (waiting) headers.Prefer = `wait=${WAIT}`;
    // A connection that died without a word (a phone asleep, a proxy gone) is given up.
    const giveUp = setTimeout(() => mine.abort(), (WAIT + 10) * 1000);
    let next = EVERY;
    document.documentElement.dataset.live = waiting ? "waiting" : "asking";
    fetch(polled.dataset.poll, { headers, credentials: "same-origin", cache: "no-store", signal: mine.signal })
      .then((response) => {
        failures = 0;
        connected(true);
        // A seat's link issued again, a wall screen's revoked: the old one is refused, and its
        // page says so at once.
        if (response.status === 404 && (polled.id === "play" || polled.id === "wall")) location.reload();
        const waited = response.headers.has("Preference-Applied");
        // A live page asks again at once: after a wait, or to start waiting. A changed page that
        // was not waited for (the game moved meanwhile) is asked about again after a second, so
        // a page whose tag changes with every answer cannot loop; any other page after EVERY.
        if (live() && (waited || !waiting)) next = 0;
        else if (live() && response.status === 200) next = 1000;
        document.documentElement.dataset.live = next ? "polling" : "following";
        if (response.status !== 200) return null;
        const tag = response.headers.get("ETag");
        // The tag is kept only once the fresh copy is drawn: a body lost on the way (the network
        // gone, the question given up) leaves the old tag, so the next answer brings the page.
        return response.text().then((html) => {
          const fresh = new DOMParser().parseFromString(html, "text/html").getElementById(polled.id);
          if (fresh) document.getElementById(polled.id).replaceWith(fresh);
          etag = tag;
        });
      })
      .catch(() => {
        if (asking !== mine) return; // asked again meanwhile
        failures += 1;
        if (!navigator.onLine || failures > 1) connected(false);
        document.documentElement.dataset.live = "unreachable";
        next = Math.min(1000 * 2 ** (failures - 1), 10000);
      })
      .finally(() => {
        clearTimeout(giveUp);
        if (asking !== mine) return;
        asking = null;
        timer = setTimeout(() => ask(true), next);
      });
  };
  ask(false);
  const again = () => { if (!document.hidden) ask(false); };
  document.addEventListener("visibilitychange", again);
  window.addEventListener("online", again);
  window.addEventListener("pageshow", (event) => { if (event.persisted) again(); });
  // Offline, a question held by the server will never be answered: given up, and asked again
  // when the network is back.
  window.addEventListener("offline", () => {
    clearTimeout(timer);
    const held = asking;
    asking = null;
    if (held) held.abort();
    connected(false);
    document.documentElement.dataset.live = "unreachable";
  });
}

// A move's buttons go quiet once pressed: the server plays a move once anyway (its number).
document.addEventListener("submit", (event) => {
  if (!event.target.matches("form.move")) return;
  setTimeout(() => document.querySelectorAll("form.move button").forEach((b) => { b.disabled = true; }), 0);
});

// A share link carries the table's key after "#", which the browser never sends: hand it over
// in the join form's POST, after taking it out of the address bar and the history.
const join = document.querySelector("form[data-join]");
if (join && location.hash.length > 1) {
  join.elements.token.value = location.hash.slice(1); // a token is URL-safe as it is
  history.replaceState(null, "", location.pathname + location.search);
  join.submit();
}

// The service worker keeps the app's shell and the pages opened (browsers offer one only on
// localhost and HTTPS; on plain HTTP the queue of hands, queue.js, does without it).
const worker = document.documentElement.dataset.serviceWorker;
if (worker && "serviceWorker" in navigator) navigator.serviceWorker.register(worker).catch(() => {});
