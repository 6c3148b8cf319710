// The Deck Builder's small helpers; htmx makes every request, the server decides.
(function () {
  "use strict";

  // How many copies of each card the deck under construction holds, read from its entries.
  function deckCounts() {
    const counts = {};
    document.querySelectorAll('#deck-container input[name="entry"]').forEach((input) => {
      const [card, copies] = input.value.split("x");
      counts[card] = (counts[card] || 0) + Number(copies);
    });
    return counts;
  }

  // Keep the collection container's "in deck / owned" numbers and its + and − buttons in
  // step with the deck, so it never offers more copies than the player owns.
  function syncCollection() {
    const counts = deckCounts();
    document.querySelectorAll("#collection-results .tile[data-card]").forEach((tile) => {
      const inDeck = counts[tile.dataset.card] || 0;
      const left = Math.max(Number(tile.dataset.owned) - inDeck, 0);
      tile.querySelector(".js-in-deck").textContent = inDeck;
      tile.querySelector('[data-op="add"]').disabled = left === 0;
      tile.querySelector('[data-op="remove"]').disabled = inDeck === 0;
      tile.classList.toggle("tile--used", left === 0);
    });
  }

  function openTool() {
    const dialog = document.getElementById("tool-dialog");
    document.dispatchEvent(new CustomEvent("dropdowns:close"));
    if (dialog && !dialog.open) dialog.showModal();
  }

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.id === "tool-content") openTool();
    syncCollection();
  });
  document.addEventListener("htmx:oobAfterSwap", syncCollection);
  document.addEventListener("open-tool", openTool);

  // The large preview of the card under the pointer or the keyboard focus.
  function preview(event) {
    const holder = event.target.closest("[data-face]");
    const image = document.getElementById("card-preview");
    if (!holder || !image || image.dataset.src === holder.dataset.face) return;
    image.dataset.src = holder.dataset.face;
    image.src = holder.dataset.face;
    image.alt = holder.querySelector("img")?.alt || holder.querySelector(".tile__title, .deck-line__title")?.textContent || "";
    image.hidden = false;
    document.querySelector(".preview__hint")?.setAttribute("hidden", "");
  }
  document.addEventListener("mouseover", preview);
  document.addEventListener("focusin", preview);

  // Right-click a card to choose a number of copies (rulebook): focus its copies box.
  document.addEventListener("contextmenu", (event) => {
    const tile = event.target.closest("#collection-results .tile");
    if (!tile) return;
    event.preventDefault();
    const box = tile.querySelector(".copies__number");
    box.focus();
    box.select();
  });

  // In a copies box, Enter adds that many and Shift+Enter removes them.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches(".copies__number")) return;
    event.preventDefault();
    const group = event.target.closest(".copies");
    group.querySelector(`[data-op="${event.shiftKey ? "remove" : "add"}"]`).click();
  });

  // Leaving the page (New Deck, Open Deck, ...) with unsaved changes asks first.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-leave]");
    const container = document.getElementById("deck-container");
    if (!link || !container || container.dataset.dirty !== "true") return;
    if (!window.confirm("Your deck has unsaved changes. Leave without saving?")) event.preventDefault();
  });

  // Export's Copy button.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const field = document.querySelector(button.dataset.copy);
    field.select();
    navigator.clipboard?.writeText(field.value).then(() => { button.textContent = "Copied"; });
  });

  // The Limited Deck Builder's timer, counted down from the seconds the server sent.
  function startCountdown() {
    const timer = document.querySelector(".countdown[data-seconds]");
    if (!timer) return;
    const end = Date.now() + Number(timer.dataset.seconds) * 1000;
    const shown = timer.querySelector(".countdown__time");
    function tick() {
      const left = Math.max(Math.round((end - Date.now()) / 1000), 0);
      const hours = Math.floor(left / 3600);
      const minutes = Math.floor((left % 3600) / 60);
      const seconds = String(left % 60).padStart(2, "0");
      shown.textContent = hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
      timer.classList.toggle("countdown--urgent", left < 120);
      if (left === 0) {
        timer.classList.add("countdown--over");
        shown.textContent = "Time is up";
        return;
      }
      window.setTimeout(tick, 1000);
    }
    tick();
  }

  document.addEventListener("DOMContentLoaded", () => {
    syncCollection();
    startCountdown();
  });
})();
