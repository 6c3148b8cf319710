// The Playmat menu (rulebook, THE GAME SCREEN, "The Playmat"): right-clicking the open playmat
// opens it, as its Menu button does; a choice or a click elsewhere closes it.
(function () {
  "use strict";

  document.addEventListener("contextmenu", (event) => {
    if (!event.target.closest?.(".playmat") || event.target.closest(".mat-card, a, button")) return;
    const menu = document.querySelector("[data-playmat-menu]");
    if (!menu) return;
    event.preventDefault();
    menu.open = true;
    menu.querySelector("[role=menuitem]")?.focus();
  });

  // The socket swaps the whole screen in at every change: an open menu stays open.
  let menuWasOpen = false;
  document.addEventListener("htmx:wsBeforeMessage", () => {
    menuWasOpen = Boolean(document.querySelector("[data-playmat-menu][open]"));
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    const menu = document.querySelector("[data-playmat-menu]");
    if (menuWasOpen && menu) menu.open = true;
  });

  // Settings (the Game/Playmat preferences), a tutorial's victory conditions and its Review
  // Dialogs open in windows outside the redrawn screen.
  document.addEventListener("click", (event) => {
    const opener = event.target.closest?.("[data-opens-playmat-settings], [data-opens-dialog]");
    if (opener) {
      const id = opener.dataset.opensDialog || "playmat-settings";
      document.getElementById(id)?.showModal();
      return;
    }
    event.target.closest?.(".match-dialog [data-close-dialog]")?.closest("dialog").close();
  });

  document.addEventListener("click", (event) => {
    const menu = document.querySelector("[data-playmat-menu][open]");
    if (!menu) return;
    if (!menu.contains(event.target) || event.target.closest("[role=menuitem]")) menu.open = false;
  });

  document.addEventListener("keydown", (event) => {
    const menu = document.querySelector("[data-playmat-menu][open]");
    if (menu && event.key === "Escape") {
      menu.open = false;
      menu.querySelector("summary")?.focus();
    }
  });

  // The pause between two games counts down; from zero the page asks the server, each
  // second until it comes, to begin the next game (the periodic sweep would otherwise, a few
  // seconds later). The server decides: an early ask changes nothing.
  setInterval(() => {
    for (const countdown of document.querySelectorAll("[data-next-game-ms]")) {
      const left = Math.max(0, Number(countdown.dataset.nextGameMs) - 1000);
      countdown.dataset.nextGameMs = String(left);
      countdown.textContent = String(Math.ceil(left / 1000));
      if (left === 0) document.getElementById("clock-out")?.click();
    }
  }, 1000);
})();
