// The Trade Screen (templates/trades/live/screen.html; rulebook, "Trade Screen"). The server
// keeps the offer and sends it, as HTML, to both players; this file turns what a player does
// with the cards into requests: a double-click adds one copy (or, in the offer, takes one out),
// a drag to You get or They get adds one, right-click or a long press opens a menu of 1 to 5
// copies, Enter and Delete do the same from the keyboard. It also opens the confirmation
// dialog and the delivery window when the server's offer says so.
(function () {
  "use strict";

  const LONG_PRESS_MS = 550;
  const MAX_COPIES = 5;
  const screen = () => document.getElementById("trade-screen");
  const menu = () => document.getElementById("trade-menu");

  function itemOf(element) {
    return element?.closest?.(".trade-item, .trade-line");
  }

  function change(item, delta) {
    const root = screen();
    if (!root || !item) return;
    const values = { giver: item.dataset.giver, delta: String(delta) };
    if (item.dataset.card) values.card = item.dataset.card;
    if (item.dataset.foil) values.foil = item.dataset.foil;
    if (item.dataset.product) values.product = item.dataset.product;
    htmx.ajax("POST", root.dataset.offerUrl, { values, swap: "none", source: root });
  }

  function leave() {
    const root = screen();
    if (root) htmx.ajax("POST", root.dataset.leaveUrl, { swap: "none", source: root });
  }

  // Double-click: one more copy from the binder, one fewer from the offer.
  document.addEventListener("dblclick", (event) => {
    const item = itemOf(event.target);
    if (!item || !screen()) return;
    event.preventDefault();
    change(item, item.classList.contains("trade-line") ? -1 : 1);
  });

  document.addEventListener("keydown", (event) => {
    const item = itemOf(event.target);
    if (!item || !screen()) return;
    if (event.key === "Enter" && item.classList.contains("trade-item")) change(item, 1);
    else if ((event.key === "Delete" || event.key === "Backspace") && item.classList.contains("trade-line")) change(item, -1);
    else if (event.key === "ContextMenu") {
      const box = item.getBoundingClientRect();
      openMenu(item, box.left, box.bottom);
    } else return;
    event.preventDefault();
  });

  // Drag a card of the binder to the area of the offer that matches whose card it is: the
  // partner's to You get, the player's own to They get.
  let dragged = null;
  document.addEventListener("dragstart", (event) => {
    const item = event.target.closest?.(".trade-item");
    if (!item) return;
    dragged = item;
    event.dataTransfer.effectAllowed = "copy";
    event.dataTransfer.setData("text/plain", item.dataset.title);
    document.querySelectorAll(`.trade-area[data-drop-giver="${item.dataset.giver}"]`).forEach((area) => area.classList.add("trade-area--target"));
  });
  document.addEventListener("dragend", () => {
    dragged = null;
    document.querySelectorAll(".trade-area--target, .trade-area--over").forEach((area) => area.classList.remove("trade-area--target", "trade-area--over"));
  });
  function dropArea(event) {
    const area = event.target.closest?.(".trade-area");
    return dragged && area && area.dataset.dropGiver === dragged.dataset.giver ? area : null;
  }
  document.addEventListener("dragover", (event) => {
    const area = dropArea(event);
    if (!area) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    area.classList.add("trade-area--over");
  });
  document.addEventListener("dragleave", (event) => {
    event.target.closest?.(".trade-area")?.classList.remove("trade-area--over");
  });
  document.addEventListener("drop", (event) => {
    const area = dropArea(event);
    if (!area) return;
    event.preventDefault();
    change(dragged, 1);
  });

  // The menu: 1 to 5 copies of a card, or Return to Lobby on a blank space.
  function menuEntry(label, action) {
    const entry = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "menuitem");
    button.textContent = label;
    button.addEventListener("click", () => {
      closeMenu();
      action();
    });
    entry.appendChild(button);
    return entry;
  }

  function openMenu(item, x, y) {
    const list = menu();
    if (!list) return;
    list.replaceChildren();
    if (item) {
      const title = document.createElement("li");
      title.className = "trade-menu__title";
      title.textContent = item.dataset.title;
      list.appendChild(title);
      const inOffer = item.classList.contains("trade-line");
      const available = Number(item.dataset.available || MAX_COPIES);
      if (!inOffer) {
        for (let n = 1; n <= Math.min(MAX_COPIES, available); n += 1) {
          list.appendChild(menuEntry(`Add ${n} ${n === 1 ? "copy" : "copies"}`, () => change(item, n)));
        }
      }
      const line = inOffer ? item : offerLineFor(item);
      if (line) {
        const quantity = Number(line.querySelector(".trade-line__qty")?.textContent.replace(/\D/g, "") || 1);
        for (let n = 1; n <= Math.min(MAX_COPIES, quantity); n += 1) {
          list.appendChild(menuEntry(`Remove ${n} ${n === 1 ? "copy" : "copies"}`, () => change(line, -n)));
        }
      }
    } else {
      list.appendChild(menuEntry("Return to Lobby", leave));
    }
    list.hidden = false;
    list.style.left = `${Math.max(4, Math.min(x, window.innerWidth - list.offsetWidth - 4))}px`;
    list.style.top = `${Math.max(4, Math.min(y, window.innerHeight - list.offsetHeight - 4))}px`;
    list.querySelector("[role=menuitem]")?.focus();
  }

  function offerLineFor(item) {
    // A card's foil copies and its plain ones are separate lines of the offer.
    const finish = item.dataset.foil ? "[data-foil]" : ":not([data-foil])";
    const key = item.dataset.card ? `[data-card="${item.dataset.card}"]${finish}` : `[data-product="${item.dataset.product}"]`;
    return document.querySelector(`.trade-line[data-giver="${item.dataset.giver}"]${key}`);
  }

  function closeMenu() {
    const list = menu();
    if (list) list.hidden = true;
  }

  document.addEventListener("contextmenu", (event) => {
    const root = screen();
    if (!root || !root.contains(event.target)) return;
    if (event.target.closest("input, select, textarea, a, summary, .dropdown__menu, #trade-menu")) return;
    event.preventDefault();
    openMenu(itemOf(event.target), event.clientX, event.clientY);
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest?.("#trade-menu")) closeMenu();
    const close = event.target.closest?.("[data-dialog-close]");
    if (close) close.closest("dialog")?.close();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMenu();
  });

  // A long press on a touch screen opens the same menu.
  let pressTimer = null;
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    const item = itemOf(event.target);
    if (!item) return;
    pressTimer = setTimeout(() => openMenu(item, event.clientX, event.clientY), LONG_PRESS_MS);
  });
  ["pointerup", "pointercancel", "pointermove"].forEach((type) =>
    document.addEventListener(type, () => clearTimeout(pressTimer)),
  );

  // The offer says which window is due: the delivery first, then the confirmation.
  function openDueDialog() {
    const delivery = document.getElementById("trade-delivery");
    const confirm = document.getElementById("trade-confirm");
    if (delivery && delivery.hasAttribute("data-due")) {
      delivery.removeAttribute("data-due");
      document.querySelectorAll("dialog[open]").forEach((open) => open.close());
      delivery.showModal();
      // What changed hands changes both binders: show them as they are now.
      const filters = document.getElementById("card-filters");
      if (filters) htmx.trigger(filters, "submit");
    } else if (confirm && !confirm.open && !document.querySelector("dialog[open]")) {
      // Once put aside with "Back to the offer", it waits for Confirm… (or a new offer).
      const version = document.getElementById("trade-offer")?.dataset.offerVersion;
      if (version !== putAside) confirm.showModal();
    }
  }
  let putAside = null;
  document.addEventListener("click", (event) => {
    if (event.target.closest?.("#trade-confirm [data-dialog-close]")) {
      putAside = document.getElementById("trade-offer")?.dataset.offerVersion ?? null;
    } else if (event.target.closest?.("[data-open-confirm]")) {
      document.getElementById("trade-confirm")?.showModal();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", openDueDialog);
  document.addEventListener("htmx:afterSettle", openDueDialog);
  document.addEventListener("htmx:oobAfterSwap", openDueDialog);
  document.addEventListener("DOMContentLoaded", openDueDialog);
  document.addEventListener("close", (event) => {
    // The delivery closed: a confirmation still due opens now.
    if (event.target.id === "trade-delivery") setTimeout(openDueDialog, 0);
  }, true);
})();
