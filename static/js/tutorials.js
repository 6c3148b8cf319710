// The Tutorials page: a world clicked on the map (or a tutorial's name in the list) is chosen,
// opened in the list to its lesson, its Play button beside it, without scrolling the page away
// (rulebook, "Tutorials": "Click on one to select it").
(function () {
  "use strict";

  function choose(card) {
    for (const chosen of document.querySelectorAll(".tutorial-card.is-chosen")) chosen.classList.remove("is-chosen");
    card.classList.add("is-chosen");
    card.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest("[data-choose]");
    const card = link && document.getElementById(link.dataset.choose);
    if (!card) return;
    event.preventDefault();
    history.replaceState(null, "", `#${card.id}`);
    choose(card);
    card.querySelector("button[type=submit]").focus({ preventScroll: true });
  });

  // A link from elsewhere to one tutorial (its address's #tutorial-...) chooses it.
  document.addEventListener("DOMContentLoaded", () => {
    const card = location.hash && document.querySelector(`.tutorial-card${CSS.escape(location.hash)}`);
    if (card) choose(card);
  });
})();
