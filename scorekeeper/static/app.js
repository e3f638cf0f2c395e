// Progressive enhancement only: every page works without this file.
"use strict";

// Steppers: large − / + buttons around each count of distance cards.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  const next = Math.max(0, (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10));
  input.value = Math.min(next, parseInt(input.max, 10) || next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});

// Live preview: the engine scores the form as it is filled; nothing is saved.
const form = document.querySelector("form[data-preview]");
if (form) {
  let timer = null;
  let sent = 0;
  const preview = () => {
    const number = ++sent;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : null))
      .then((html) => { if (html !== null && number === sent) document.getElementById("preview").innerHTML = html; })
      .catch(() => {});
  };
  const later = () => { clearTimeout(timer); timer = setTimeout(preview, 250); };
  form.addEventListener("input", later);
  form.addEventListener("change", later);
  preview();
}

// Scoreboard and a virtual game's seat: poll with a conditional GET; a 304 costs nothing, a
// 200 means another phone changed the game, and the part of the page that shows it is redrawn.
const polled = document.querySelector("[data-poll]");
if (polled) {
  let etag = null;
  const poll = () => {
    const headers = etag ? { "If-None-Match": etag } : {};
    fetch(polled.dataset.poll, { headers, credentials: "same-origin", cache: "no-store" })
      .then((response) => {
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
