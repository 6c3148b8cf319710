// Behaviour every page shares: the filter dropdowns (details.dropdown) of the Card Browser,
// the Collection and the Deck Builder.
(function () {
  "use strict";

  // An open dropdown closes on a click outside it, on Escape, and when something else asks.
  function closeDropdowns(except) {
    document.querySelectorAll("details.dropdown[open]").forEach((menu) => {
      if (menu !== except) menu.removeAttribute("open");
    });
  }
  document.addEventListener("click", (event) => closeDropdowns(event.target.closest("details.dropdown")));
  document.addEventListener("dropdowns:close", () => closeDropdowns(null));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const menu = event.target.closest?.("details.dropdown[open]");
    closeDropdowns(null);
    // Keyboard users stay where they were: on the dropdown's own button.
    if (menu) menu.querySelector("summary").focus();
  });

  // A dropdown's light is on while any of its filters is chosen, from the moment it is chosen.
  document.addEventListener("change", (event) => {
    const menu = event.target.closest("details.dropdown");
    if (!menu || !menu.querySelector(".light")) return;
    menu.classList.toggle("dropdown--on", menu.querySelector("input:checked") !== null);
  });
})();
