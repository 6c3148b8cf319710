// Posted trades (templates/trades/posted/): on the board, double-click or Enter on a listing
// opens it; on the Create screen (a special Trade Screen), double-click on a binder card adds
// one copy to You get (Their tab) or They get (Your tab), right-click opens a menu of 1 to 5
// copies, double-click on a line of You get / They get takes it out, and Clear empties both.
(() => {
  "use strict";

  // --- the board -----------------------------------------------------------------------------
  document.addEventListener("dblclick", (event) => {
    const row = event.target.closest?.("[data-posted-open]");
    if (row) window.location.assign(row.dataset.postedOpen);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const row = event.target.closest?.("[data-posted-open]");
    if (row && event.target === row) window.location.assign(row.dataset.postedOpen);
  });

  // --- the Create screen ---------------------------------------------------------------------
  const proposal = () => document.getElementById("posted-proposal");

  function targetList(tile) {
    const tab = tile.closest("#posted-binder")?.dataset.tab;
    return document.getElementById(tab === "your" ? "they-get" : "you-get");
  }

  function lineFor(list, key) {
    return Array.from(list.children).find((line) => line.dataset.item === key);
  }

  function setQuantity(list, key, name, quantity) {
    let line = lineFor(list, key);
    if (quantity <= 0) {
      line?.remove();
      refresh();
      return;
    }
    if (!line) {
      line = document.createElement("li");
      line.className = "proposal__line";
      line.tabIndex = 0;
      line.title = "Double-click to take it out";
      line.dataset.item = key;
      line.dataset.name = name;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = list.dataset.field;
      const count = document.createElement("span");
      count.className = "posted-lines__qty";
      const label = document.createElement("span");
      label.textContent = name;
      line.append(input, count, " ", label);
      list.appendChild(line);
    }
    line.dataset.qty = String(quantity);
    line.querySelector("input").value = `${key}:${quantity}`;
    line.querySelector(".posted-lines__qty").textContent = `${quantity}×`;
    refresh();
  }

  // Adds copies of a binder item, up to what the tab shows (4 of everything on Their tab,
  // what you own on Your tab).
  function addFromTile(tile, copies) {
    const list = targetList(tile);
    if (!list) return;
    const key = tile.dataset.item;
    const current = Number(lineFor(list, key)?.dataset.qty || 0);
    const most = Number(tile.dataset.owned || 0);
    const wanted = Math.max(0, Math.min(most, current + copies));
    setQuantity(list, key, tile.dataset.name, wanted);
    if (current + copies > most && copies > 0) flash(tile);
  }

  function flash(tile) {
    tile.classList.add("trade-tile--full");
    setTimeout(() => tile.classList.remove("trade-tile--full"), 600);
  }

  function refresh() {
    document.querySelectorAll(".proposal__list").forEach((list) => {
      list.classList.toggle("proposal__list--empty", list.children.length === 0);
    });
    document.getElementById("proposal-error")?.remove();
    markTiles();
  }

  // Each binder item shows how many of it the proposal already holds.
  function markTiles() {
    document.querySelectorAll("#posted-binder .trade-tile").forEach((tile) => {
      const list = targetList(tile);
      const quantity = list ? Number(lineFor(list, tile.dataset.item)?.dataset.qty || 0) : 0;
      let badge = tile.querySelector(".trade-tile__in");
      if (!quantity) {
        badge?.remove();
        return;
      }
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "trade-tile__in";
        tile.appendChild(badge);
      }
      badge.textContent = `${quantity} in trade`;
    });
  }

  document.addEventListener("htmx:afterSwap", () => {
    if (proposal()) markTiles();
  });

  document.addEventListener("dblclick", (event) => {
    const tile = event.target.closest?.("#posted-binder .trade-tile");
    if (tile) {
      event.preventDefault();
      addFromTile(tile, 1);
      return;
    }
    const line = event.target.closest?.(".proposal__line");
    if (line) {
      line.remove();
      refresh();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== "Delete") return;
    const tile = event.target.closest?.("#posted-binder .trade-tile");
    if (tile && event.key === "Enter") {
      event.preventDefault();
      addFromTile(tile, 1);
    }
    const line = event.target.closest?.(".proposal__line");
    if (line) {
      event.preventDefault();
      line.remove();
      refresh();
    }
  });

  // The right-click menu: add 1 to 5 copies, or remove one.
  let menuTile = null;
  const menu = () => document.getElementById("copies-menu");

  document.addEventListener("contextmenu", (event) => {
    const tile = event.target.closest?.("#posted-binder .trade-tile");
    if (!tile || !menu()) return;
    event.preventDefault();
    menuTile = tile;
    const box = menu();
    box.hidden = false;
    const x = Math.min(event.clientX, window.innerWidth - box.offsetWidth - 8);
    const y = Math.min(event.clientY, window.innerHeight - box.offsetHeight - 8);
    box.style.left = `${x + window.scrollX}px`;
    box.style.top = `${y + window.scrollY}px`;
    box.querySelector("button")?.focus();
  });

  document.addEventListener("click", (event) => {
    const choice = event.target.closest?.("#copies-menu [data-copies]");
    if (choice && menuTile) addFromTile(menuTile, Number(choice.dataset.copies));
    if (menu()) menu().hidden = true;
    menuTile = null;
    if (event.target.closest?.("[data-proposal-clear]")) {
      document.querySelectorAll(".proposal__list").forEach((list) => list.replaceChildren());
      refresh();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu() && !menu().hidden) {
      menu().hidden = true;
      menuTile?.focus();
      menuTile = null;
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    if (proposal()) refresh();
  });
})();
