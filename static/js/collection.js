// The Collection Manager and the opening page.
"use strict";

// Open and Open All send their form once: a second click would only show "already opened".
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (!button || !button.hasAttribute("data-once")) return;
  if (event.target.dataset.sent) {
    event.preventDefault();
    return;
  }
  event.target.dataset.sent = "yes";
  button.setAttribute("aria-disabled", "true");
});

// The reveal: every card turns face down, then over one after another, the rare last (the
// server orders them); Skip (or Escape) turns the rest over at once. A player who asks for
// reduced motion sees every card at once, as without JavaScript.
document.addEventListener("DOMContentLoaded", () => {
  const opening = document.querySelector("[data-reveal]");
  if (!opening) return;
  const cards = Array.from(opening.querySelectorAll(".reveal-card"));
  const skip = opening.querySelector("[data-reveal-skip]");
  if (!cards.length || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;

  // A pack turns over in a few seconds, however many cards; a starter deck a little longer.
  const pause = Math.max(90, Math.min(300, 9000 / cards.length));
  let next = 0;
  let timer = null;

  function finish() {
    window.clearInterval(timer);
    cards.forEach((card) => card.classList.add("is-shown"));
    opening.classList.add("reveal--done");
    skip.hidden = true;
    document.removeEventListener("keydown", onKey);
  }

  function turnNext() {
    if (next >= cards.length) {
      finish();
      return;
    }
    cards[next].classList.add("is-shown");
    next += 1;
  }

  function onKey(event) {
    if (event.key === "Escape") finish();
  }

  opening.classList.add("reveal--playing");
  skip.hidden = false;
  skip.addEventListener("click", finish);
  document.addEventListener("keydown", onKey);
  timer = window.setInterval(turnNext, pause);
});
