// Behaviour every page may need, written here rather than in the templates: the
// Content-Security-Policy (tcgsite/security.py) runs no inline code, no hx-on and no eval,
// so htmx trigger filters such as keydown[key=='Enter'] are replaced by the events below.
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

  // A button with data-check-all ticks every box of its fieldset.
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-check-all]");
    if (!button) return;
    button.closest("fieldset").querySelectorAll("input[type=checkbox]").forEach((box) => {
      box.checked = true;
    });
  });
})();
