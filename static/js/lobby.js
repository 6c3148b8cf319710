// The chat windows and User Lists of the lobbies (templates/lobbies/_chat.html), and the pings
// every page can receive. The server sends HTML that htmx's websocket extension swaps in; this
// file adds what a person expects of a chat window around it: the input clears after sending,
// Up and Down recall what you typed, the log follows new lines, a ping sounds, a name's menu
// opens on right-click or with its button.
(function () {
  "use strict";

  const MAX_LINES = 300;
  const sent = [];
  let recalled = 0;

  const chatLog = () => document.getElementById("chat-log");
  const chatInput = () => document.querySelector("[data-chat-input]");

  function setStatus(text) {
    const status = document.getElementById("chat-status");
    if (!status) return;
    status.textContent = text;
    status.hidden = text === "";
  }

  // Sending: remember the line, clear the input.
  document.addEventListener("htmx:wsAfterSend", (event) => {
    const input = chatInput();
    if (!input || !event.target.closest?.("#chat-form")) return;
    if (input.value.trim() !== "") sent.push(input.value);
    recalled = sent.length;
    input.value = "";
  });

  // Up and Down arrows: the messages you typed in this window.
  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!input.matches?.("[data-chat-input]") || sent.length === 0) return;
    if (event.key === "ArrowUp") {
      recalled = Math.max(0, recalled - 1);
    } else if (event.key === "ArrowDown") {
      recalled = Math.min(sent.length, recalled + 1);
    } else {
      return;
    }
    event.preventDefault();
    input.value = recalled < sent.length ? sent[recalled] : "";
    input.setSelectionRange(input.value.length, input.value.length);
  });

  let followLog = true;
  document.addEventListener("htmx:wsBeforeMessage", () => {
    const log = chatLog();
    if (log) followLog = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  });

  document.addEventListener("htmx:wsAfterMessage", () => {
    const log = chatLog();
    if (log) {
      while (log.children.length > MAX_LINES) log.firstElementChild.remove();
      if (followLog) log.scrollTop = log.scrollHeight;
    }
    sortUserList();
    const ping = document.getElementById("chat-ping");
    if (ping && ping.dataset.ping) {
      delete ping.dataset.ping;
      // The site's sounds play it (static/js/sounds.js), at the player's volume; a muted
      // page has none to play.
      document.dispatchEvent(new CustomEvent("sound:play", { detail: { name: "ping" } }));
    }
    document.querySelectorAll("#toasts .toast:not([data-timed])").forEach((toast) => {
      toast.dataset.timed = "1";
      if (!toast.querySelector("[data-sticky]")) setTimeout(() => toast.remove(), 8000);
    });
    // A command's answer that opens something (/joingame, /observegame, /resume) opens it
    // once: a window in the lobby's match window where there is one, else the page.
    document.querySelectorAll("a[data-chat-opens]:not([data-opened])").forEach((link) => {
      link.dataset.opened = "1";
      openWindowOrPage(link.href, link.dataset.chatOpens === "window");
    });
  });

  function openWindowOrPage(url, asWindow) {
    if (asWindow && document.getElementById("match-dialog-body")) {
      htmx.ajax("GET", url, { target: "#match-dialog-body", swap: "innerHTML" });
    } else {
      window.location.assign(url);
    }
  }

  // A toast's link to a window (Accept a Challenge) opens it in the lobby's match window
  // where there is one; a toast's Close button removes it.
  document.addEventListener("click", (event) => {
    const close = event.target.closest?.("[data-toast-close]");
    if (close) {
      close.closest(".toast")?.remove();
      return;
    }
    const link = event.target.closest?.("a[data-opens-window]");
    if (!link || !document.getElementById("match-dialog-body")) return;
    event.preventDefault();
    link.closest(".toast")?.remove();
    openWindowOrPage(link.href, true);
  });

  function sortUserList() {
    const list = document.getElementById("user-list");
    if (!list) return;
    const rows = Array.from(list.children);
    const sorted = rows.slice().sort((a, b) =>
      a.dataset.username.localeCompare(b.dataset.username, undefined, { sensitivity: "base" }),
    );
    if (sorted.some((row, index) => row !== rows[index])) sorted.forEach((row) => list.appendChild(row));
    const count = document.getElementById("user-count");
    if (count) count.textContent = `(${rows.length})`;
  }

  document.addEventListener("htmx:wsOpen", (event) => {
    if (event.target.id === "lobby-chat") setStatus("");
  });
  document.addEventListener("htmx:wsClose", (event) => {
    // 4401: the session ended (tcgsite/realtime.py); the login page says what to do.
    if (event.detail.event.code === 4401) {
      window.location.assign(`/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`);
      return;
    }
    if (event.target.id === "lobby-chat") setStatus("Connection lost; reconnecting…");
  });

  // A name's menu: right-click, or its button (keyboard and touch).
  function openMenu(name, x, y, opener) {
    const chat = document.getElementById("lobby-chat");
    const menu = document.getElementById("user-menu");
    if (!chat || !menu) return;
    const url = `/lobbies/${chat.dataset.lobby}/players/${encodeURIComponent(name)}/menu/`;
    htmx.ajax("GET", url, { target: menu, swap: "innerHTML" }).then(() => {
      menu.hidden = false;
      const box = chat.getBoundingClientRect();
      menu.style.left = `${Math.max(0, Math.min(x - box.left, box.width - menu.offsetWidth))}px`;
      menu.style.top = `${Math.max(0, y - box.top)}px`;
      menu.opener = opener;
      menu.querySelector("[role=menuitem]")?.focus();
    });
  }

  function closeMenu(returnFocus) {
    const menu = document.getElementById("user-menu");
    if (!menu || menu.hidden) return;
    menu.hidden = true;
    if (returnFocus && menu.opener) menu.opener.focus();
  }

  document.addEventListener("contextmenu", (event) => {
    const opener = event.target.closest?.("[data-user-menu]");
    if (!opener) return;
    event.preventDefault();
    openMenu(opener.dataset.userMenu, event.clientX, event.clientY, opener);
  });
  document.addEventListener("click", (event) => {
    const opener = event.target.closest?.("[data-user-menu]");
    if (opener) {
      const box = opener.getBoundingClientRect();
      openMenu(opener.dataset.userMenu, box.left, box.bottom, opener);
      return;
    }
    if (!event.target.closest?.("#user-menu")) closeMenu(false);
  });
  document.addEventListener("keydown", (event) => {
    const menu = document.getElementById("user-menu");
    if (!menu || menu.hidden) return;
    if (event.key === "Escape") {
      closeMenu(true);
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const items = Array.from(menu.querySelectorAll("[role=menuitem]"));
    const at = items.indexOf(document.activeElement);
    const next = event.key === "ArrowDown" ? at + 1 : at - 1;
    items[(next + items.length) % items.length]?.focus();
    event.preventDefault();
  });

  // Get info opens its answer in a dialog; a list change's sentence closes the menu soon.
  document.addEventListener("htmx:afterSwap", (event) => {
    const trigger = event.detail.requestConfig?.elt;
    const dialogId = trigger?.dataset?.opensDialog;
    if (dialogId) {
      closeMenu(false);
      document.getElementById(dialogId)?.showModal();
    } else if (event.target.id === "user-menu" && event.target.querySelector(".list-change")) {
      setTimeout(() => closeMenu(true), 1600);
    }
  });

  // Right-click Quick Join for its settings (rulebook, Casual Lobby, "Quick Join").
  document.addEventListener("contextmenu", (event) => {
    if (!event.target.closest?.("[data-quick-join]")) return;
    event.preventDefault();
    document.querySelector("[data-quick-join-settings]")?.click();
  });

  // A refused Practice Game or Quick Join, or a form of the match window, says why under the
  // medallions.
  document.addEventListener("htmx:responseError", (event) => {
    const refusal = document.getElementById("casual-refusal");
    if (!refusal || !event.target.closest?.("#casual-matches, #match-dialog")) return;
    refusal.textContent = event.detail.xhr.responseText;
    refusal.hidden = false;
  });

  // The Casual Lobby's windows (Create, Join Match, Match Info) open once their form is in.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.target.id !== "match-dialog-body") return;
    const dialog = document.getElementById("match-dialog");
    if (dialog && !dialog.open) dialog.showModal();
    dialog?.querySelector("input, select, button:not([aria-label=Close])")?.focus();
  });
})();
