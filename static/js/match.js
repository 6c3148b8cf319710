// The match page (templates/game/match.html): its socket swaps the screen and the Chat Log in;
// this file shows a refused button's reason, keeps the log at its newest line, and gives the
// playmat's cards their mouse, touch and keyboard handling and their short animations.
(function () {
  "use strict";

  document.addEventListener("htmx:responseError", (event) => {
    const error = document.getElementById("match-error");
    if (!error || !event.target.closest?.(".match-page")) return;
    error.textContent = event.detail.xhr.responseText || "That could not be done.";
    error.hidden = false;
  });

  document.addEventListener("htmx:wsAfterMessage", () => {
    const log = document.getElementById("match-log");
    if (log) log.scrollTop = log.scrollHeight;
  });

  // The Chat Log's filter (rulebook, THE GAME SCREEN, "Chat Log Options"): all messages,
  // player chat only, game messages only, in turn.
  const FILTERS = [
    ["all", "Showing chat and game messages"],
    ["chat", "Showing player chat only"],
    ["game", "Showing game messages only"],
  ];
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-log-filter]");
    if (!button) return;
    const chat = button.closest(".match-chat");
    const next = (FILTERS.findIndex(([name]) => name === chat.dataset.filter) + 1) % FILTERS.length;
    chat.dataset.filter = FILTERS[next][0];
    button.textContent = FILTERS[next][1];
  });

  // The running game clock counts down between the server's updates.
  setInterval(() => {
    for (const clock of document.querySelectorAll("[data-clock-running]")) {
      const left = Math.max(0, Number(clock.dataset.clockMs) - 1000);
      clock.dataset.clockMs = String(left);
      const seconds = Math.floor(left / 1000);
      clock.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      // The server decides whose flag fell; a page that sees zero asks it to look, each
      // second until it answers: this count may reach zero a little before the server's
      // clock does, and an early ask changes nothing.
      if (left === 0) document.getElementById("clock-out")?.click();
    }
  }, 1000);

  // Keyboard (rulebook, COMBAT): F5 passes now; F6 queues a pass for your next decision
  // that allows one, made as soon as it comes; F7 undoes the queued pass.
  let passQueued = false;
  const passButton = () =>
    document.querySelector('.prompt__actions [data-action-kind="pass"]');
  function showQueued() {
    const note = document.getElementById("queued-pass");
    if (note) note.hidden = !passQueued;
  }
  function passIfQueued() {
    const button = passQueued && passButton();
    if (!button) return;
    passQueued = false;
    showQueued();
    button.click();
  }
  document.addEventListener("keydown", (event) => {
    if (!document.querySelector(".playmat") || !["F5", "F6", "F7"].includes(event.key)) return;
    event.preventDefault();
    if (event.key === "F5") {
      passButton()?.click();
    } else {
      passQueued = event.key === "F6";
      showQueued();
      passIfQueued();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", passIfQueued);

  // A card's actions are the Prompt's buttons that name it (data-action-card); a unit's play
  // also names its quest (data-action-quest).
  const PLAYS = ["play", "play_tactic"];
  const cardButtons = (id) => [
    ...document.querySelectorAll(`.prompt__actions [data-action-card="${id}"]`),
  ];
  const autoSelect = () => document.getElementById("playmat-settings-form")?.dataset.autoSelect === "1";

  function closeCardActions() {
    const menu = document.getElementById("card-actions");
    if (menu) {
      menu.hidden = true;
      menu.replaceChildren();
    }
  }

  // Do what a card can do now: its one action, the first of several with Auto-Select First
  // Action on (Preferences), otherwise a menu of them beside the card. Actions that differ in
  // where they go (a unit's quests) are never chosen for the player.
  const oneDestination = (buttons) =>
    new Set(buttons.map((button) => button.dataset.actionQuest ?? "")).size === 1;
  function act(card, buttons) {
    if (buttons.length === 0) return;
    if (buttons.length === 1 || (autoSelect() && oneDestination(buttons))) {
      buttons[0].click();
      return;
    }
    const menu = document.getElementById("card-actions");
    menu.replaceChildren(
      ...buttons.map((button) => {
        const item = document.createElement("button");
        item.type = "button";
        item.className = "card-actions__entry";
        item.setAttribute("role", "menuitem");
        item.textContent = button.textContent;
        item.addEventListener("click", () => {
          closeCardActions();
          button.click();
        });
        return item;
      }),
    );
    // Below the card, or above it where the window ends (a card of the hand).
    menu.hidden = false;
    const place = card.getBoundingClientRect();
    const below = place.bottom + 4 + menu.offsetHeight <= window.innerHeight;
    const top = below ? place.bottom + 4 : place.top - menu.offsetHeight - 4;
    menu.style.left = `${Math.round(Math.min(place.left, window.innerWidth - menu.offsetWidth))}px`;
    menu.style.top = `${Math.round(Math.max(0, top))}px`;
    menu.querySelector("button")?.focus();
  }

  // Double-click, or Enter (or Space) on a focused card.
  document.addEventListener("dblclick", (event) => {
    const card = event.target.closest?.(".playmat .mat-card[data-card]");
    if (card) act(card, cardButtons(card.dataset.card));
  });
  document.addEventListener("keydown", (event) => {
    const card = event.target.closest?.(".playmat .mat-card--actionable");
    if (!card || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    act(card, cardButtons(card.dataset.card));
  });
  document.addEventListener("click", (event) => {
    if (!event.target.closest?.("#card-actions")) closeCardActions();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeCardActions();
  });
  document.addEventListener("htmx:wsAfterMessage", closeCardActions);

  // A tactic just played is shown oversized and fades by itself; any click (which still
  // reaches the playmat under it) or Escape puts it away at once.
  function putTacticAway() {
    for (const shown of document.querySelectorAll(".tactic-shown")) shown.hidden = true;
  }
  document.addEventListener("click", putTacticAway, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") putTacticAway();
  });

  // Pointing at a card's button in the Prompt points at the card on the playmat.
  document.addEventListener("mouseover", (event) => {
    const button = event.target.closest?.(".prompt__actions [data-action-card]");
    const id = button?.dataset.actionCard;
    for (const card of document.querySelectorAll(".playmat .mat-card.is-pointed")) {
      if (card.dataset.card !== id) card.classList.remove("is-pointed");
    }
    const card = id && document.querySelector(`.playmat__board .mat-card[data-card="${id}"]`);
    card?.classList.add("is-pointed");
  });

  // Drag a card from the hand: onto a quest for the play at that quest, onto the rest of the
  // board for its play (as a double-click would choose it).
  let dragged = null;
  const playButtons = (id) =>
    cardButtons(id).filter((button) => PLAYS.includes(button.dataset.actionKind));
  function dropTarget(event) {
    if (!dragged) return null;
    const quest = event.target.closest?.(".mat-quest.is-drop-ok");
    if (quest) return quest;
    return event.target.closest?.(".playmat__board");
  }
  function clearDrag() {
    document.querySelector(".playmat.is-dragging")?.classList.remove("is-dragging");
    for (const marked of document.querySelectorAll(".is-drop-ok, .is-drop-over, .is-dragged")) {
      marked.classList.remove("is-drop-ok", "is-drop-over", "is-dragged");
    }
    dragged = null;
  }
  document.addEventListener("dragstart", (event) => {
    const card = event.target.closest?.(".playmat .mat-card[draggable=true]");
    if (!card) return;
    dragged = card;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", card.dataset.card);
    card.classList.add("is-dragged");
    card.closest(".playmat").classList.add("is-dragging");
    const plays = playButtons(card.dataset.card);
    const quests = new Set(plays.map((button) => button.dataset.actionQuest));
    for (const quest of document.querySelectorAll(".playmat .mat-quest[data-quest]")) {
      if (quests.has(quest.dataset.quest)) quest.classList.add("is-drop-ok");
    }
  });
  document.addEventListener("dragover", (event) => {
    const target = dropTarget(event);
    for (const over of document.querySelectorAll(".is-drop-over")) {
      if (over !== target) over.classList.remove("is-drop-over");
    }
    if (!target) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    target.classList.add("is-drop-over");
  });
  document.addEventListener("drop", (event) => {
    const target = dropTarget(event);
    if (!target) return;
    event.preventDefault();
    const card = dragged;
    const buttons = playButtons(card.dataset.card);
    clearDrag();
    const quest = target.dataset.quest;
    const atQuest = buttons.filter((button) => button.dataset.actionQuest === quest);
    act(card, quest ? atQuest : buttons);
  });
  document.addEventListener("dragend", clearDrag);

  // Right-click or a long press magnifies any card of the playmat (rulebook, "Your Hand");
  // a click or Escape closes it.
  let openedAt = 0;
  function zoomDialog() {
    let dialog = document.getElementById("card-zoom");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.id = "card-zoom";
      dialog.className = "card-zoom";
      // Not the click that ends the long press that opened it.
      dialog.addEventListener("click", () => {
        if (Date.now() > openedAt + 400) dialog.close();
      });
      document.body.append(dialog);
    }
    return dialog;
  }
  // The magnified card: its face when the page has it, else its title in large print.
  function showInZoom(dialog, title, zoom, captionText) {
    let face;
    if (zoom) {
      face = document.createElement("img");
      face.src = zoom;
      face.alt = title;
    } else {
      face = document.createElement("p");
      face.className = "card-zoom__text";
      face.textContent = title;
    }
    const caption = document.createElement("p");
    caption.className = "card-zoom__caption";
    caption.textContent = captionText;
    dialog.replaceChildren(face, caption);
    dialog.setAttribute("aria-label", title);
  }
  function magnify(card) {
    const dialog = zoomDialog();
    if (dialog.open && dialog.dataset.card === card.dataset.card) return;
    const title =
      card.querySelector("img")?.alt || card.querySelector(".mat-card__text strong")?.textContent;
    showInZoom(dialog, title, card.dataset.zoom, card.title);
    dialog.dataset.card = card.dataset.card;
    if (!dialog.open) {
      openedAt = Date.now();
      dialog.showModal();
    }
  }
  document.addEventListener("contextmenu", (event) => {
    const card = event.target.closest?.(".playmat .mat-card[data-card]");
    if (!card) return;
    event.preventDefault();
    magnify(card);
  });
  let press = null;
  function endPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }
  document.addEventListener("pointerdown", (event) => {
    const card = event.target.closest?.(".playmat .mat-card[data-card]");
    if (!card || event.pointerType === "mouse") return;
    endPress();
    press = {
      x: event.clientX,
      y: event.clientY,
      timer: setTimeout(() => {
        press = null;
        magnify(card);
      }, 500),
    };
  });
  document.addEventListener("pointermove", (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 10) endPress();
  });
  for (const type of ["pointerup", "pointercancel", "dragstart"]) {
    document.addEventListener(type, endPress);
  }

  // A card named in the Chat Log magnifies as a card of the playmat does (rulebook, THE GAME
  // SCREEN, "Game Messages": click an underlined name); in a replay too. The server names only
  // the cards its reader may see, and gives their faces.
  document.addEventListener("click", (event) => {
    const name = event.target.closest?.(".match-log .log-card");
    if (!name) return;
    const dialog = zoomDialog();
    showInZoom(dialog, name.textContent, name.dataset.zoom, name.textContent);
    delete dialog.dataset.card;
    if (!dialog.open) dialog.showModal();
  });

  // Card Warnings (Preferences, Game/Playmat): the play of a card whose restriction would
  // destroy one the player has in play (the server names it in data-warning, for a player
  // whose preference is on) asks first, in the site's own window; Cancel plays nothing.
  // A double-click, a drag, Enter and the card's menu all click the play's button: it is
  // asked here, before the button sends the play.
  let confirmedPlay = null;
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target.closest?.(".prompt__actions [data-warning]");
      const dialog = document.getElementById("confirm-dialog");
      if (!button || button === confirmedPlay || !dialog) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      dialog.querySelector(".confirm-dialog__question").textContent = button.dataset.warning;
      dialog.querySelector("[data-confirm-yes]").textContent = "Play it";
      dialog.returnValue = "";
      const play = button.getAttribute("hx-vals");
      dialog.addEventListener(
        "close",
        () => {
          if (dialog.returnValue !== "yes") return;
          // The socket may have redrawn the Prompt meanwhile: the same play's button, as long
          // as the play is still offered at the same point of the game.
          confirmedPlay = [...document.querySelectorAll(".prompt__actions [data-warning]")].find(
            (each) => each.getAttribute("hx-vals") === play,
          );
          confirmedPlay?.click();
          confirmedPlay = null;
        },
        { once: true },
      );
      dialog.showModal();
    },
    true,
  );

  // A quest's units fan out when crowded, each card over the one before it (static/css/match.css);
  // so many that one would show less than half its width are drawn smaller until each shows
  // half (issue 33: no slivers, no hidden attack/defense badges). The row's width is what
  // the board gives that quest. On a phone the row goes on in a second line instead.
  const SHOWN = 0.52;
  // A team game's quest fans the units of each side's two players together (.mat-side).
  function fitUnits() {
    const rows = [...document.querySelectorAll(".playmat .mat-units, .playmat .mat-side")].filter(
      (row) => !row.matches(".mat-side > .mat-units"),
    );
    for (const row of rows) {
      row.style.removeProperty("--card-w");
      row.style.removeProperty("--card-h");
      row.classList.remove("mat-units--packed");
    }
    const fits = rows.map((row) => {
      const style = getComputedStyle(row);
      const cards = [...row.querySelectorAll(":scope > li > .mat-card, :scope > ul > li > .mat-card")];
      if (cards.length < 2 || style.flexWrap === "wrap") return null;
      // A team game's fan shows each unit half its upright width, exerted or not (match.css).
      const widths = cards.map((card) =>
        row.matches(".mat-side") ? card.querySelector(".mat-card__face").offsetWidth : card.offsetWidth,
      );
      const fanned = cards.at(-1).offsetWidth + SHOWN * widths.slice(0, -1).reduce((a, b) => a + b, 0);
      const room = row.clientWidth - parseFloat(style.columnGap) * (cards.length - 1);
      const width = cards[0].querySelector(".mat-card__face").offsetWidth;
      return room < fanned ? (width * room) / fanned : null;
    });
    rows.forEach((row, n) => {
      if (fits[n] === null) return;
      row.classList.add("mat-units--packed");
      row.style.setProperty("--card-w", `${Math.floor(fits[n])}px`);
      row.style.setProperty("--card-h", `${Math.floor(fits[n] * 1.4)}px`);
    });
  }
  fitUnits();
  window.addEventListener("resize", fitUnits);
  document.addEventListener("htmx:wsAfterMessage", fitUnits);
  document.addEventListener("htmx:afterSwap", fitUnits);

  // Animations: before the socket swaps the playmat, note each card's place and state; after
  // it, mark what changed: a card drawn into the hand, a card played, a card dealt damage, a
  // card exerted, and the counts that moved. The CSS runs each mark once.
  function snapshot() {
    const cards = new Map();
    for (const card of document.querySelectorAll(".playmat .mat-card[data-card]")) {
      cards.set(card.dataset.card, {
        zone: card.closest("[data-zone]")?.dataset.zone,
        exerted: card.dataset.exerted === "1",
        damage: Number(card.dataset.damage),
      });
    }
    const counts = new Map();
    for (const count of document.querySelectorAll(".playmat [data-watch]")) {
      counts.set(count.dataset.watch, count.textContent);
    }
    return { cards, counts };
  }
  function mark(element, name) {
    element.classList.add(name);
    element.addEventListener("animationend", () => element.classList.remove(name), { once: true });
  }
  let before = null;
  document.addEventListener("htmx:wsBeforeMessage", () => {
    before = document.querySelector(".playmat") ? snapshot() : null;
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    if (!before) return;
    const now = snapshot();
    for (const [id, seen] of now.cards) {
      const was = before.cards.get(id);
      const card = document.querySelector(`.playmat [data-zone] .mat-card[data-card="${id}"]`);
      if (!card || !seen.zone) continue;
      if (!was || was.zone !== seen.zone) {
        mark(card, seen.zone === "hand" ? "is-drawn" : "is-played");
      } else if (seen.damage > was.damage) {
        mark(card, "is-hit");
      } else if (seen.exerted && !was.exerted) {
        mark(card, "is-exerting");
      }
    }
    for (const count of document.querySelectorAll(".playmat [data-watch]")) {
      const was = before.counts.get(count.dataset.watch);
      if (was !== undefined && was !== count.textContent) mark(count, "is-changed");
    }
    before = null;
  });

  // A team game's playmat zooms (rulebook, MULTIPLAYER GAMES, "Zooming" and "Mini-Map"): a
  // player or a quest of the mini-map recenters it on that area, zoomed in; the mouse wheel
  // over it zooms in toward the pointer (forward) and back out to the whole playmat
  // (backward), as does the mini-map's "Whole playmat". The zoom belongs to the page: it
  // outlives the socket's swaps. ``x`` and ``y``: where the field's top-left corner is drawn.
  const ZOOMED_IN = 1.8;
  const MOST_ZOOM = 2.5;
  const ZOOM_STEP = 0.25;
  let zoom = { scale: 1, x: 0, y: 0 };
  const zoomField = () => document.querySelector(".playmat--team [data-mat-field]");
  function applyZoom() {
    const field = zoomField();
    if (!field) return;
    const content = field.firstElementChild;
    field.classList.toggle("is-zoomed", zoom.scale > 1);
    if (zoom.scale <= 1) {
      zoom = { scale: 1, x: 0, y: 0 };
      content.style.removeProperty("transform");
      return;
    }
    // Never past the field's edges: the zoomed field always fills its frame.
    const width = field.clientWidth;
    const height = field.clientHeight;
    zoom.x = Math.min(0, Math.max(width - width * zoom.scale, zoom.x));
    zoom.y = Math.min(0, Math.max(height - height * zoom.scale, zoom.y));
    content.style.transform = `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})`;
  }
  // Where an element of the field lies in it, unzoomed (layout offsets ignore transforms, and
  // a transition under way).
  function placeInField(element, content) {
    let x = element.offsetWidth / 2;
    let y = element.offsetHeight / 2;
    for (let node = element; node && node !== content; node = node.offsetParent) {
      x += node.offsetLeft;
      y += node.offsetTop;
    }
    return { x, y };
  }
  function zoomOnto(id) {
    const field = zoomField();
    const target = field && document.getElementById(id);
    if (!target || !field.contains(target)) return;
    const centre = placeInField(target, field.firstElementChild);
    const scale = Math.max(zoom.scale, ZOOMED_IN);
    zoom = {
      scale,
      x: field.clientWidth / 2 - centre.x * scale,
      y: field.clientHeight / 2 - centre.y * scale,
    };
    applyZoom();
  }
  document.addEventListener("click", (event) => {
    const onto = event.target.closest?.(".mini-map [data-zoom-to]");
    if (onto) zoomOnto(onto.dataset.zoomTo);
    if (event.target.closest?.(".mini-map [data-zoom-out]")) {
      zoom = { scale: 1, x: 0, y: 0 };
      applyZoom();
    }
  });
  document.addEventListener(
    "wheel",
    (event) => {
      const field = event.target.closest?.(".playmat--team [data-mat-field]");
      if (!field || event.deltaY === 0) return;
      event.preventDefault();
      const step = event.deltaY < 0 ? ZOOM_STEP : -ZOOM_STEP;
      const scale = Math.min(MOST_ZOOM, Math.max(1, zoom.scale + step));
      // The point under the pointer stays under it.
      const frame = field.getBoundingClientRect();
      const pointerX = event.clientX - frame.left;
      const pointerY = event.clientY - frame.top;
      zoom = {
        scale,
        x: pointerX - ((pointerX - zoom.x) / zoom.scale) * scale,
        y: pointerY - ((pointerY - zoom.y) / zoom.scale) * scale,
      };
      applyZoom();
    },
    { passive: false },
  );
  // Zoomed in, the playmat follows the action ("Normally, the playmat scrolls to the location
  // of the action"): when another player comes to decide, onto the combat's quest if one is
  // fought, else onto that player's area.
  const decidingSeat = () => document.querySelector(".mini-map__player.is-deciding")?.dataset.seat;
  let followed = decidingSeat();
  document.addEventListener("htmx:wsAfterMessage", () => {
    const seat = decidingSeat();
    if (zoom.scale > 1 && seat !== undefined && seat !== followed) {
      const combat = document.querySelector(".playmat--team .mat-quest--combat");
      zoomOnto(combat ? combat.id : `mat-row-seat${seat}`);
    } else {
      applyZoom();
    }
    followed = seat;
  });
  window.addEventListener("resize", applyZoom);

  // A tutorial's dialog stands beside the part of the playmat it speaks of (its
  // data-points-at), which glows, always inside the window. It covers neither that part nor
  // the others it speaks of (data-speaks-of), nor where the player answers it (the Prompt, the
  // hand): of the places inside the window, the one that covers least of them, then the
  // nearest to its part; below or above it, with the arrow, where that is as good.
  const GAP = 12;
  const STEP = 8;
  const ANSWERED_IN = ".prompt, [data-zone='hand']";
  function overlap(a, b) {
    const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return width > 0 && height > 0 ? width * height : 0;
  }
  function distance(a, b) {
    const dx = Math.max(0, b.left - a.right, a.left - b.right);
    const dy = Math.max(0, b.top - a.bottom, a.top - b.bottom);
    return Math.hypot(dx, dy);
  }
  function dialogPlace(aim, kept, width, height) {
    const maxLeft = Math.max(GAP, window.innerWidth - width - GAP);
    const maxTop = Math.max(GAP, window.innerHeight - height - GAP);
    const clampedLeft = Math.max(GAP, Math.min(maxLeft, aim.left));
    const rect = (left, top, side) => ({ left, top, right: left + width, bottom: top + height, side });
    const places = [];
    if (aim.bottom + GAP + height <= window.innerHeight) places.push(rect(clampedLeft, aim.bottom + GAP, "below"));
    if (aim.top - GAP - height >= 0) places.push(rect(clampedLeft, aim.top - GAP - height, "above"));
    for (let top = GAP; top <= maxTop; top += STEP) {
      for (let left = GAP; left <= maxLeft; left += STEP) places.push(rect(left, top, "beside"));
    }
    let best = null;
    for (const place of places) {
      const covered = kept.reduce((sum, part) => sum + overlap(place, part), 0);
      const cost = [covered, Math.max(GAP, distance(place, aim))];
      if (!best || cost[0] < best.cost[0] || (cost[0] === best.cost[0] && cost[1] < best.cost[1])) {
        best = { place, cost };
      }
    }
    return best.place;
  }
  function placeTutorialDialog() {
    for (const old of document.querySelectorAll(".tutorial-target")) old.classList.remove("tutorial-target");
    // The Prompt's buttons a dialog asks for (put first by the server) glow like its part.
    for (const asked of document.querySelectorAll(".prompt [data-asked]")) asked.classList.add("tutorial-target");
    const dialog = document.querySelector(".tutorial-dialog[data-points-at]");
    if (!dialog) return;
    const target = document.querySelector(dialog.dataset.pointsAt);
    dialog.classList.add("is-placed");
    if (!target) return;
    target.classList.add("tutorial-target");
    const keptSelector = [dialog.dataset.pointsAt, dialog.dataset.speaksOf, ANSWERED_IN].filter(Boolean).join(", ");
    const kept = [...document.querySelectorAll(keptSelector)]
      .filter((part) => part.getClientRects().length)
      .map((part) => part.getBoundingClientRect());
    const box = dialog.getBoundingClientRect();
    const place = dialogPlace(target.getBoundingClientRect(), kept, box.width, box.height);
    dialog.style.top = `${Math.round(place.top)}px`;
    dialog.style.left = `${Math.round(place.left)}px`;
    dialog.dataset.side = place.side;
  }
  document.addEventListener("DOMContentLoaded", placeTutorialDialog);
  document.addEventListener("htmx:wsAfterMessage", placeTutorialDialog);
  window.addEventListener("resize", placeTutorialDialog);
})();

// Links and targets (rulebook, glossary "target": "you can mouse over that card or the card
// that targets it to see a link icon appear on the other card"): pointing at, or focusing, a
// card marked with others lights them (game.fragments._indicators names them).
(function () {
  "use strict";

  function light(event, on) {
    const marked = event.target.closest?.(".mat-card")?.querySelector("[data-marked-with]");
    if (!marked) return;
    for (const other of marked.dataset.markedWith.split(" ")) {
      document.querySelector(`.playmat .mat-card[data-card="${other}"]`)?.classList.toggle("is-marked-partner", on);
    }
  }
  for (const [type, on] of [["mouseover", true], ["mouseout", false], ["focusin", true], ["focusout", false]]) {
    document.addEventListener(type, (event) => light(event, on));
  }
})();
