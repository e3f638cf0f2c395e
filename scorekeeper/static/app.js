// Progressive enhancement only: every page works without this file.
"use strict";

// The hand form's steppers, chips and live preview are in hand_form.js, loaded by that page.

// Scoreboard and a virtual game's seat: poll with a conditional GET; a 304 costs nothing, a
// 200 means another phone changed the game, and the part of the page that shows it is redrawn.
const polled = document.querySelector("[data-poll]");
if (polled) {
  let etag = null;
  const poll = () => {
    const headers = etag ? { "If-None-Match": etag } : {};
    fetch(polled.dataset.poll, { headers, credentials: "same-origin", cache: "no-store" })
      .then((response) => {
        // A seat's link issued again: the old one is refused, and its page says so at once.
        if (response.status === 404 && polled.id === "play") location.reload();
        if (response.status !== 200) return null;
        const first = etag === null;
        etag = response.headers.get("ETag");
        return first ? null : response.text();
      })
      .then((html) => {
        if (!html) return;
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById(polled.id);
        if (fresh) document.getElementById(polled.id).replaceWith(fresh);
      })
      .catch(() => {})
      .finally(() => setTimeout(poll, 2500));
  };
  poll();
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
