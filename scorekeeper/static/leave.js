// "Leave this table": before the form goes (the server then takes the table's key off this phone),
// the phone drops what it kept of the table: the service worker's copies of its pages, the hands
// waiting to be sent to it (IndexedDB, after asking when there are any) and the newest state of
// its games seen (queue.js). Without this script, the form still goes, and the service worker
// drops the pages at the start page that follows.
"use strict";
(() => {
  const form = document.querySelector("form[data-leave]");
  if (!form) return;
  const table = form.dataset.leave; // "/t/<id>"
  const within = (path) => typeof path === "string" && path.startsWith(table + "/");
  const texts = JSON.parse(document.getElementById("leave-texts").textContent);
  const confirmation = form.querySelector(".leave-confirm");

  // The queue's store (queue.js), opened as it opens it; no IndexedDB, no hands.
  const database = () => new Promise((resolve, reject) => {
    const request = indexedDB.open("scorekeeper-queue", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const hands = (mode, work) => database().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction("hands", mode);
    const request = work(transaction.objectStore("hands"));
    transaction.oncomplete = () => { db.close(); resolve(request.result); };
    transaction.onerror = () => { db.close(); reject(transaction.error); };
  }));
  const waiting = () => (window.indexedDB ? hands("readonly", (store) => store.getAll()) : Promise.resolve([]))
    .then((all) => all.filter((hand) => within(hand.game) || within(new URL(hand.action, location.href).pathname)))
    .catch(() => []);

  const dropWaiting = async () => {
    for (const hand of await waiting()) await hands("readwrite", (store) => store.delete(hand.id));
  };
  const dropPages = () => (window.caches ? caches.delete("scorekeeper-table-" + table.split("/").pop()) : Promise.resolve());
  const dropSeen = () => {
    try {
      Object.keys(localStorage).filter((key) => within(key.replace(/^scorekeeper-seen:/, "")))
        .forEach((key) => localStorage.removeItem(key));
    } catch (unavailable) { /* nothing kept there */ }
  };

  const leave = async () => {
    await Promise.all([dropWaiting(), dropPages().catch(() => {})]);
    dropSeen();
    form.submit();
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const confirmed = event.submitter && event.submitter.name === "confirmed";
    const count = confirmed ? 0 : (await waiting()).length;
    if (count === 0) return leave();
    // Hands still waiting: said first, and they go only if the person leaves all the same.
    confirmation.querySelector(".banner").textContent =
      count === 1 ? texts.waiting_one : texts.waiting_many.replace("{n}", count);
    confirmation.hidden = false;
    confirmation.scrollIntoView({ block: "center" });
  });
  confirmation.querySelector(".stay").addEventListener("click", () => { confirmation.hidden = true; });
})();
