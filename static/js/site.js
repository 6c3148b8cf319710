// Behaviour every page shares, written here rather than in the templates: the
// Content-Security-Policy (tcgsite/security.py) runs no inline code, no hx-on and no eval,
// so htmx trigger filters such as keydown[key=='Enter'] are replaced by the events below;
// and the filter dropdowns (details.dropdown) of the Card Browser, the Collection and the
// Deck Builder.
(function () {
  "use strict";

  // data-request-key="Delete" with hx-trigger="request-key": that key sends the request.
  document.addEventListener("keydown", (event) => {
    const holder = event.target.closest?.("[data-request-key]");
    if (holder && event.key === holder.dataset.requestKey) htmx.trigger(holder, "request-key");
  });

  // <details data-load-on-open hx-trigger="opened">: its menu loads each time it opens.
  // A details element's toggle event does not bubble, hence the capture.
  document.addEventListener(
    "toggle",
    (event) => {
      const details = event.target;
      if (details.matches?.("details[data-load-on-open]") && details.open) htmx.trigger(details, "opened");
    },
    true,
  );

  // Numeric filters' "Add filter": a number that became a filter is cleared; one the server
  // explained (data-errors-in names where its explanation lands) stays to be corrected.
  document.addEventListener("htmx:afterRequest", (event) => {
    const adder = event.detail.elt;
    if (!adder.matches?.("[data-errors-in]") || !event.detail.successful) return;
    if (document.querySelector(`${adder.dataset.errorsIn} .filter-errors`)) return;
    adder.querySelector("[name=num_value]").value = "";
  });

  // htmx swaps no error response: a request the server refused as busy (503, no database
  // connection free in time; nothing was changed) or could not serve says so at the top.
  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr.status;
    if (status < 500) return;
    let notice = document.getElementById("server-notice");
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "server-notice";
      notice.className = "server-notice";
      notice.setAttribute("role", "alert");
      document.body.prepend(notice);
    }
    notice.textContent =
      status === 503
        ? "The site is busy; try again in a moment. Nothing was changed."
        : "Something went wrong. The error has been logged; please try again in a moment.";
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful) document.getElementById("server-notice")?.remove();
  });

  // hx-confirm asks in the site's window (templates/base.html), its Yes button named by the
  // element's data-confirm-yes ("Concede"), Cancel chosen unless the player says yes.
  document.addEventListener("htmx:confirm", (event) => {
    const question = event.detail.question;
    const dialog = document.getElementById("confirm-dialog");
    if (!question || !dialog) return;
    event.preventDefault();
    const asked = dialog.querySelector(".confirm-dialog__question");
    asked.textContent = question;
    dialog.querySelector("[data-confirm-yes]").textContent =
      event.detail.elt.closest("[data-confirm-yes]")?.dataset.confirmYes || "OK";
    dialog.returnValue = "";
    // While the window is open the page may redraw the element (a match's socket redraws the
    // playmat at every change): the question follows the redrawn one's, so it never speaks
    // of what has passed meanwhile (a teammate said to play on who has left).
    const attribute = `hx-${event.detail.verb}`;
    const twin = `[hx-confirm][${attribute}="${CSS.escape(event.detail.elt.getAttribute(attribute) || "")}"]`;
    const redrawn = new MutationObserver(() => {
      if (document.body.contains(event.detail.elt)) return;
      const now = document.querySelector(twin)?.getAttribute("hx-confirm");
      if (now && now !== asked.textContent) asked.textContent = now;
    });
    redrawn.observe(document.body, { childList: true, subtree: true });
    dialog.addEventListener(
      "close",
      () => {
        redrawn.disconnect();
        if (dialog.returnValue !== "yes") return;
        const { elt, verb, path } = event.detail;
        if (document.body.contains(elt)) {
          event.detail.issueRequest(true);
          return;
        }
        // The page redrew the element while the window was open (a match's socket redraws
        // the playmat at every change): the same request, with the element's values, sent
        // from the page (the redrawn twin would ask again).
        const values = JSON.parse(elt.getAttribute("hx-vals") || "{}");
        htmx.ajax(verb.toUpperCase(), path, { source: document.body, swap: "none", values });
      },
      { once: true },
    );
    dialog.showModal();
  });
})();

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

(function () {
  "use strict";

  // A slider's value, written beside it (templates/accounts/_field.html), follows it as it moves.
  document.addEventListener("input", (event) => {
    const slider = event.target;
    if (!slider.matches?.("input[type=range]")) return;
    const shown = document.querySelector(`output[for="${CSS.escape(slider.id)}"]`);
    if (shown) shown.textContent = slider.value;
  });
})();
