// The site's sounds (Preferences, Sound; templates/_sounds.html). This script and the sounds'
// addresses are on the page only while the player's sound is on: a muted page loads none.
// A sound plays for a cue the page gains (an element with data-sound-cue, once per
// data-sound-key: the playmat's #mat-cues, a whisper's chat line) or on a "sound:play" event
// (a ping; static/js/lobby.js). The cues already there when the page opens are old news.
// The game screen loops its music, from the first click or key (browsers play no sound
// before one).
(function () {
  "use strict";

  const settings = document.currentScript.dataset;
  const sounds = JSON.parse(settings.sounds || "{}");
  const volume = Number(settings.volume || 0) / 100;
  const heard = new Set();

  function play(name) {
    const address = sounds[name];
    if (!address) return;
    const sound = new Audio(address);
    sound.volume = volume;
    // Refused before the player's first click or key on the page: that cue stays silent.
    sound.play().catch(() => {});
  }

  function takeCues(playing) {
    document.querySelectorAll("[data-sound-cue]").forEach((cue) => {
      const key = cue.dataset.soundKey;
      if (heard.has(key)) return;
      heard.add(key);
      if (playing) play(cue.dataset.soundCue);
    });
  }

  document.addEventListener("DOMContentLoaded", () => takeCues(false));
  document.addEventListener("htmx:wsAfterMessage", () => takeCues(true));
  document.addEventListener("sound:play", (event) => play(event.detail.name));

  function loopMusic() {
    if (!settings.music || !document.querySelector(".match-page[ws-connect]")) return;
    const music = new Audio(settings.music);
    music.loop = true;
    music.volume = Number(settings.musicVolume || 0) / 100;
    const start = () => {
      music
        .play()
        .then(() => {
          document.removeEventListener("pointerdown", start);
          document.removeEventListener("keydown", start);
        })
        .catch(() => {});
    };
    document.addEventListener("pointerdown", start);
    document.addEventListener("keydown", start);
    start();
  }
  document.addEventListener("DOMContentLoaded", loopMusic);
})();
