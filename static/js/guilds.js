// The Guilds window: the Create button opens its dialog (open again after a refused name),
// and leaving or kicking asks first.
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const opener = event.target.closest?.("[data-opens-dialog-id]");
    if (!opener) return;
    document.getElementById(opener.dataset.opensDialogId)?.showModal();
  });

  document.addEventListener("submit", (event) => {
    const question = event.target.dataset?.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("dialog[data-open-on-load]").forEach((dialog) => dialog.showModal());
  });
})();
