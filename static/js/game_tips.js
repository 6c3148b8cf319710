// The game screen's Player Tips (templates/game/_game_tips.html): each shows while the
// playmat's cues (#mat-cues, redrawn by the match's socket) name its moment, and hides after.
// Hiding one for good is the tip's own form (Preferences keep it).
(function () {
  "use strict";

  function showDueTips() {
    const cues = document.getElementById("mat-cues");
    document.querySelectorAll("[data-game-tip]").forEach((holder) => {
      const due = cues?.querySelector(`[data-tip-cue="${holder.dataset.gameTip}"]`) != null;
      holder.hidden = !due || holder.querySelector(".tips") == null;
    });
  }

  document.addEventListener("DOMContentLoaded", showDueTips);
  document.addEventListener("htmx:wsAfterMessage", showDueTips);
  document.addEventListener("htmx:afterSwap", showDueTips);
})();
