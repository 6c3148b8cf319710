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

  // A tool opens when the player picks it from the Tools menu, at once, saying it is loading.
  // Its answer, and any later one (Draw, Import), only fills it: a tool the player closed
  // while an answer was on its way stays closed.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.detail.elt.closest(".tools .dropdown__menu")) return;
    document.getElementById("tool-content").innerHTML = '<p class="muted" role="status">Loading…</p>';
    openTool();
  });
  document.addEventListener("htmx:afterSwap", syncCollection);
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

  // Unsaved changes. The deck under construction lives in the page (the container's entries
  // and the name box), so a draft of it is kept in this browser, per deck, until it is saved
  // or discarded: a reload, a crash or a visit elsewhere loses nothing. Leaving still asks.
  const DRAFT_PREFIX = "deck-builder-draft:";
  let loadedKey = null;
  let leaving = false;

  function container() {
    return document.getElementById("deck-container");
  }
  function nameBox() {
    return document.getElementById("deck-name");
  }
  function draftKey() {
    const box = container();
    const pool = box.querySelector('input[name="pool"]');
    if (pool) return `${DRAFT_PREFIX}pool-${pool.value}`;
    return DRAFT_PREFIX + (box.querySelector('input[name="deck"]').value || "new");
  }
  function entries() {
    return Array.from(container().querySelectorAll('input[name="entry"]'), (input) => input.value);
  }
  function hasUnsavedChanges() {
    const box = container();
    const name = nameBox();
    return Boolean(box) && (box.dataset.dirty === "true" || (name && name.value !== name.defaultValue));
  }

  function keepDraft() {
    if (!container() || loadedKey === null) return;
    if (hasUnsavedChanges()) {
      localStorage.setItem(draftKey(), JSON.stringify({ entries: entries(), name: nameBox()?.value ?? "" }));
    } else {
      localStorage.removeItem(draftKey());
      localStorage.removeItem(loadedKey);
    }
  }

  // Ask the server for the deck container holding ``deckEntries``, in the current view.
  function showEntries(deckEntries, dirty) {
    const box = container();
    const query = new URLSearchParams();
    box.querySelectorAll('input[type="hidden"]:not([name="entry"]):not([name="dirty"])').forEach((input) => {
      query.append(input.name, input.value);
    });
    deckEntries.forEach((entry) => query.append("entry", entry));
    if (dirty) query.set("dirty", "1");
    const view = box.querySelector('input[name="deck_view"]:checked');
    if (view) query.set("deck_view", view.value);
    const sort = box.querySelector('select[name="deck_sort"]');
    if (sort) query.set("deck_sort", sort.value);
    return htmx.ajax("GET", `${box.dataset.reloadUrl}?${query}`, { target: "#deck-container", swap: "outerHTML" });
  }

  function restoreDraft() {
    const box = container();
    if (!box) return;
    loadedKey = draftKey();
    // A deck handed over by another tool (already unsaved) wins over an older draft.
    const stored = box.dataset.dirty === "true" ? null : localStorage.getItem(loadedKey);
    if (!stored) return;
    let draft;
    try {
      draft = JSON.parse(stored);
    } catch {
      localStorage.removeItem(loadedKey);
      return;
    }
    const name = nameBox();
    const saved = { entries: entries(), name: name ? name.value : "" };
    if (!Array.isArray(draft.entries)) return;
    showEntries(draft.entries, true);
    if (name && typeof draft.name === "string") name.value = draft.name;
    const notice = document.getElementById("draft-notice");
    notice.hidden = false;
    notice.querySelector("[data-discard-draft]").addEventListener("click", () => {
      localStorage.removeItem(loadedKey);
      if (name) name.value = saved.name;
      showEntries(saved.entries, false);
      notice.hidden = true;
    }, { once: true });
  }

  document.addEventListener("htmx:afterSwap", keepDraft);
  document.addEventListener("htmx:oobAfterSwap", keepDraft);
  document.addEventListener("input", (event) => {
    if (event.target.id === "deck-name") keepDraft();
  });
  // A saved deck's name is the one the page now holds.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt.id !== "deck-form" || !event.detail.successful) return;
    if (container()?.dataset.dirty === "false" && nameBox()) nameBox().defaultValue = nameBox().value;
    keepDraft();
  });

  // Leaving with unsaved changes asks first: any link to another page (the Navigator, New
  // Deck, Open Deck...), Exit and the other plain forms, a reload, closing the tab.
  const LEAVE_QUESTION = "Your deck has unsaved changes. Leave without saving? (This browser keeps them as a draft.)";
  const NEW_DECK_QUESTION = "Your deck has unsaved changes. Drop them and start a new deck?";
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || !hasUnsavedChanges()) return;
    if (link.hasAttribute("hx-get") || link.target === "_blank" || link.getAttribute("href").startsWith("#")) return;
    const startsAfresh = link.dataset.leave === "new";
    if (!window.confirm(startsAfresh ? NEW_DECK_QUESTION : LEAVE_QUESTION)) {
      event.preventDefault();
      return;
    }
    leaving = true;
    if (startsAfresh) localStorage.removeItem(draftKey());
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.closest(".builder") || form.matches("[hx-post], [hx-get]") || !hasUnsavedChanges()) return;
    if (window.confirm(LEAVE_QUESTION)) leaving = true;
    else event.preventDefault();
  });
  window.addEventListener("beforeunload", (event) => {
    if (leaving || !hasUnsavedChanges()) return;
    event.preventDefault();
    event.returnValue = "";
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
    restoreDraft();
  });
})();
