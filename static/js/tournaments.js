// The Tournaments Lobby (templates/tournaments/): right-click a row for Get Info, double-click
// a queue to join it, the window both open in, the box of the queue you wait in kept live from
// the lists, and the leave the page sends as it goes (tournaments/views/lobby.py says why).
// On every page: the Tournament Timer's countdown, its Drop window, and "Between Rounds"
// (rulebook): a player whose match is over goes back to the Tournaments Lobby, and a round's
// call pulls a player back to the lobby and, from there, into their match.
(function () {
  "use strict";

  function openWindow(url) {
    if (!url || !document.getElementById("tournament-dialog-body")) return;
    htmx.ajax("GET", url, { target: "#tournament-dialog-body", swap: "innerHTML" });
  }

  document.addEventListener("contextmenu", (event) => {
    const row = event.target.closest?.(".tournament-row[data-info-url]");
    if (!row) return;
    event.preventDefault();
    openWindow(row.dataset.infoUrl);
  });
  document.addEventListener("dblclick", (event) => {
    const row = event.target.closest?.(".tournament-row");
    if (!row || event.target.closest("button")) return;
    openWindow(row.dataset.joinUrl || row.dataset.infoUrl);
  });

  // The window opens once its content is in, and closes once the player has joined.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target.id !== "tournament-dialog-body") return;
    const dialog = document.getElementById("tournament-dialog");
    if (!dialog) return;
    if (event.target.querySelector("[data-joined]")) {
      dialog.close();
      return;
    }
    if (!dialog.open) dialog.showModal();
    dialog.querySelector("input:checked, .tournament-info__actions button, form button:not([disabled])")?.focus();
  });

  // The box of the queue you wait in shows who waits there now, from the lists the lobby's
  // socket swaps in; once you are no longer listed (the tournament began) it goes.
  let listsSeen = null;
  function followQueueBox() {
    const lists = document.getElementById("tournament-lists");
    if (!lists || lists === listsSeen) return;
    listsSeen = lists;
    const box = document.getElementById("queue-box");
    if (!box || box.hidden || !box.dataset.queue) return;
    const names = lists.querySelector(`template[data-queue-players="${box.dataset.queue}"]`);
    const listed = names ? Array.from(names.content.querySelectorAll("li"), (li) => li.textContent) : [];
    if (!listed.includes(box.dataset.me)) {
      box.hidden = true;
      delete box.dataset.queue;
      return;
    }
    box.querySelector("[data-queue-players-shown]")?.replaceChildren(names.content.cloneNode(true));
    const count = box.querySelector("[data-queue-count]");
    if (count) count.textContent = String(listed.length);
  }
  document.addEventListener("DOMContentLoaded", () => {
    listsSeen = document.getElementById("tournament-lists");
  });

  // Leaving the lobby's page leaves the queue (rulebook, "Verifying You Are in the Tournament").
  window.addEventListener("pagehide", () => {
    const box = document.getElementById("queue-box");
    if (!box || box.hidden || !box.dataset.queue || !box.dataset.leaveUrl) return;
    const form = new FormData();
    form.append("csrfmiddlewaretoken", JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]);
    navigator.sendBeacon(box.dataset.leaveUrl, form);
  });

  // A tournament's notice refreshes the timer. A round's call takes a player in the
  // Tournaments Lobby to their match, and a player elsewhere to the lobby first (the address
  // says why they came, so the lobby's page follows on to the match). A match decided in a
  // round still being played sends its player back to the lobby after a few seconds to read
  // the result, unless they choose to stay where they are. Each link stays in its pop-up for
  // a page that could not follow it.
  const RETURN_AFTER_MS = 6000;
  const ROUND_CALL_HASH = "#round-call";
  let returning = null;
  function stayHere() {
    clearTimeout(returning);
    returning = null;
  }
  function inLobby(lobbyUrl) {
    return new URL(lobbyUrl, window.location.href).pathname === window.location.pathname;
  }
  function followNotices() {
    const notices = Array.from(document.querySelectorAll("#toasts .tournament-toast:not([data-seen])"));
    if (notices.length === 0) return;
    notices.forEach((notice) => (notice.dataset.seen = "1"));
    htmx.trigger(document.body, "tournament-changed");
    const calls = notices.map((notice) => notice.querySelector("a[data-round-call]")).filter(Boolean);
    const call = calls[calls.length - 1];
    if (call) {
      stayHere();
      if (inLobby(call.dataset.lobby)) window.location.assign(call.href);
      else window.location.assign(call.dataset.lobby + ROUND_CALL_HASH);
      return;
    }
    const back = notices.map((notice) => notice.querySelector("a[data-lobby-return]")).filter(Boolean).pop();
    if (back && !inLobby(back.href)) {
      stayHere();
      returning = setTimeout(() => window.location.assign(back.href), RETURN_AFTER_MS);
    }
  }
  document.addEventListener("click", (event) => {
    const stay = event.target.closest?.("[data-stay]");
    if (!stay) return;
    stayHere();
    stay.closest(".toast")?.remove();
  });
  // Brought to the lobby by a round's call: on to the match the Tournament Timer links.
  function followRoundCall() {
    if (window.location.hash !== ROUND_CALL_HASH) return;
    history.replaceState(null, "", window.location.pathname + window.location.search);
    const match = document.querySelector("#tournament-timer a[data-round-match]");
    if (match) window.location.assign(match.href);
  }
  document.addEventListener("DOMContentLoaded", followRoundCall);
  window.addEventListener("hashchange", followRoundCall);
  document.addEventListener("htmx:wsAfterMessage", () => {
    followQueueBox();
    followNotices();
  });

  // The Tournament Timer counts down from what the server said was left, so the player's own
  // clock being wrong does not matter.
  const endsAt = new WeakMap();
  function tick() {
    document.querySelectorAll("[data-left-ms]").forEach((clock) => {
      if (!endsAt.has(clock)) endsAt.set(clock, performance.now() + Number(clock.dataset.leftMs));
      const seconds = Math.max(0, Math.round((endsAt.get(clock) - performance.now()) / 1000));
      const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      if (clock.textContent !== text) clock.textContent = text;
      clock.closest(".tournament-timer")?.classList.toggle("tournament-timer--low", seconds < 300);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);

  document.addEventListener("click", (event) => {
    if (event.target.closest?.("[data-opens-drop]")) document.getElementById("drop-dialog")?.showModal();
  });
})();
