// The web table's controller: loads the player's match, sends moves, plays the computer's
// replies back one by one, and keeps keyboard focus where the player expects it.

import { api, ensurePlayer } from "./api.js";
import { backElement, cardElement, name, symbol } from "./cards.js";
import { actionState, optionFor, render } from "./render.js";
import { confirmEnding, endingText, openHistory, openNewGame, openRules, setupSettings, reducedMotion } from "./panels.js";
import { clientSeedFor, observe, rememberSeed, renderSealed, showSeedError } from "./sealed.js";
import { randomClientSeed } from "./verify.js";
import { setupLearn } from "./learn.js";
import { setupCoach } from "./coach.js";
import { chooseKnockMelds } from "./knockmelds.js";
import { askName, askToJoin, inviteFromUrl, renderPeople, setupPeople } from "./people.js";

const $ = (id) => document.getElementById(id);
const SORT_KEY = "ginrummy.sort";

const ui = {
  selected: null,
  sort: localStorage.getItem(SORT_KEY) || "melds",
  focusIndex: 0,
  order: [],
};
let state = null;
let busy = true;
let options = null;
// This browser's player's name ("You" until they give one for a table for two people).
let myName = "You";
// The client seed typed for a first deal the server refused: kept in the deal panel's field.
let refusedSeed = null;
const WAIT = "Wait: the computer is playing.";
// Hooks for learn.js: `mover` answers a move instead of the match (a sample situation);
// `afterDraw` runs after every drawing of the table (the first round's guide).
// Hooks for coach.js: `afterMove(state, info)` runs once a new state has been played back
// (info.own: the person just moved; info.mover: the move went to a mover, not the match);
// `onLessonAnswer(situation, move, answer)` runs after a sample situation is answered.
const hooks = { mover: null, afterDraw: null, afterMove: null, onLessonAnswer: null };

function afterMove(own, mover) {
  if (hooks.afterMove && state) hooks.afterMove(state, { own, mover });
}

// Show a state that did not come from the person's own move (a new match, a deal, a join, a
// live update), and tell the hooks.
async function arrive(next) {
  await load(next);
  afterMove(false, false);
}

let reasonTimer = null;

// A live event announced a newer version while this page was busy: fetched once it is not.
let refreshPending = false;

function setBusy(value) {
  busy = value;
  if (!value && refreshPending) { refreshPending = false; window.setTimeout(refreshLive, 0); }
  document.body.dataset.busy = String(value);
  // "Wait" answered a press made while busy (a double click): it is stale once the wait is over.
  if (!value && $("reason").dataset.text === WAIT) showReason("");
}

// A request was refused: the page is no longer busy, and says why.
function refused(err) {
  setBusy(false);
  showReason(err.message);
}

function showReason(text) {
  const el = $("reason");
  // Re-announce the same sentence when it is asked for twice.
  el.textContent = "";
  el.dataset.text = text;
  window.clearTimeout(reasonTimer);
  reasonTimer = text ? window.setTimeout(() => { reasonTimer = null; el.textContent = text; }, 30) : null;
}

function announce(text) {
  const el = $("announcer");
  el.textContent = "";
  window.setTimeout(() => { el.textContent = text; }, 60);
}

function draw(extra = {}) {
  if (!state) return;
  const active = document.activeElement;
  const focusCard = active && active.closest && active.closest("#hand") ? active.dataset.card : null;
  document.body.dataset.table = "match";
  $("start-panel").hidden = true;
  render(state, ui, { busy, ...extra });
  if (!extra.anim) renderSealed(state, nextHand, refusedSeed);
  if (!extra.anim) renderPeople(state);
  document.body.dataset.version = String(state.version);
  document.body.dataset.match = state.id;
  document.body.dataset.status = state.status;
  document.body.dataset.phase = state.hand ? state.hand.phase : "deal";
  document.body.dataset.hand = String(state.hand ? state.hand.number : 0);
  if (focusCard) {
    const el = $("hand").querySelector(`[data-card="${focusCard}"]`)
      || $("hand").querySelectorAll(".card")[Math.min(ui.focusIndex, ui.order.length - 1)];
    if (el) { el.tabIndex = 0; el.focus(); }
  }
  if (hooks.afterDraw) hooks.afterDraw(state, ui, busy);
}

// The spoken form of a move for the live region: the server's sentence (m.text, the one
// narration the terminal shares) with the card's name in place of its symbol.
function spoken(m) {
  const sym = m.card ? symbol(m.card) : "";
  const at = sym ? m.text.indexOf(sym) : -1;
  if (at < 0) return `${m.text}.`;
  const before = m.text.slice(0, at);
  const article = /(upcard|last discard) $/.test(before) ? "" : "the ";
  return `${before}${article}${name(m.card)}${m.text.slice(at + sym.length)}.`;
}

// The person's own move in a new state: the history entry just before the computer's replies.
function ownMove(next) {
  const history = next.hand ? next.hand.history : [];
  const m = history[history.length - next.computer_moves.length - 1];
  return m && m.who === "you" ? m : null;
}

// Undo the computer's moves on the final piles: where the animation starts from.
function rewind(next) {
  const hand = next.hand;
  const anim = { stock: hand.stock_count, pile: [...hand.discard_pile], oppCount: hand.opponent.card_count };
  const moves = next.computer_moves;
  for (let i = moves.length - 1; i >= 0; i -= 1) {
    const m = moves[i];
    if (m.kind === "draw") { anim.stock += 1; anim.oppCount -= 1; }
    else if (m.kind === "take") { anim.pile.push(m.card); anim.oppCount -= 1; }
    else if (m.kind === "discard") { anim.pile.pop(); anim.oppCount += 1; }
    else if (m.kind === "knock") { anim.oppCount += 1; }
  }
  return anim;
}

function forward(anim, m) {
  if (m.kind === "draw") { anim.stock -= 1; anim.oppCount += 1; }
  else if (m.kind === "take") { anim.pile.pop(); anim.oppCount += 1; }
  else if (m.kind === "discard") { anim.pile.push(m.card); anim.oppCount -= 1; }
  else if (m.kind === "knock") { anim.oppCount -= 1; }
}

const pause = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

async function fly(m) {
  const from = { draw: "stock", take: "discard-pile", discard: "opp-backs", knock: "opp-backs" }[m.kind];
  const to = { draw: "opp-backs", take: "opp-backs", discard: "discard-pile", knock: "discard-pile" }[m.kind];
  if (!from) { $("discard-pile").classList.add("pulse"); await pause(380); $("discard-pile").classList.remove("pulse"); return; }
  const a = $(from).getBoundingClientRect();
  const b = $(to).getBoundingClientRect();
  const el = m.card && m.kind !== "knock" ? cardElement(m.card, { label: false }) : backElement();
  el.style.left = `${a.left + a.width / 2 - 30}px`;
  el.style.top = `${a.top + a.height / 2 - 42}px`;
  $("flyer-layer").append(el);
  el.getBoundingClientRect();
  el.style.transform = `translate(${b.left - a.left + (b.width - a.width) / 2}px, ${b.top - a.top + (b.height - a.height) / 2}px)`;
  await pause(340);
  el.remove();
}

async function playBack(next, own) {
  const moves = next.computer_moves;
  const still = reducedMotion();
  const mine = own ? ownMove(next) : null;
  const speech = mine ? [spoken(mine)] : [];
  if (moves.length) {
    const anim = rewind(next);
    setBusy(true);
    draw({ anim });
    for (const m of moves) {
      $("last-move").textContent = m.text;
      if (!still) await fly(m); else await pause(90);
      forward(anim, m);
      draw({ anim });
      if (!still) await pause(160);
      speech.push(spoken(m));
    }
  }
  setBusy(false);
  draw();
  if (!next.hand) {
    speech.push("Deal the first hand.");
  } else if (next.hand.result) {
    speech.push(next.hand.result.explanation);
    if (next.status === "over") speech.push(`${next.score.outcome}.`);
    showResult();
  } else if (next.hand.your_turn) {
    speech.push(next.hand.prompt);
  }
  announce(speech.join(" "));
}

// The result of a hand (and of the match) where the person is looking: the panel's top at the
// top of the window, its button focused without scrolling it away.
function showResult() {
  $("btn-next").focus({ preventScroll: true });
  $("hand-end").scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

async function load(next, own = false) {
  const number = (st) => (st.hand ? st.hand.number : 0);
  const handChanged = !state || state.id !== next.id || number(state) !== number(next);
  state = next;
  observe(state);
  if (handChanged) { ui.selected = null; ui.focusIndex = 0; }
  if (ui.selected && !(state.hand && state.hand.cards.includes(ui.selected))) ui.selected = null;
  $("last-move").textContent = "";
  await playBack(next, own);
}

function moveFor(act) {
  if (act === "discard") return `discard ${ui.selected}`;
  if (act === "knock" || act === "gin") return `knock ${ui.selected}`;
  if (act === "big_gin") return "big gin";
  return act;
}

async function perform(act) {
  if (!state) return;
  const st = actionState(state, ui, act, busy);
  if (!st.enabled) { showReason(st.reason); return; }
  let move = moveFor(act);
  if (act === "knock" && !hooks.mover) {
    // Several groupings leave the same deadwood: the person picks the melds to lay down.
    move = await chooseKnockMelds(optionFor(state.hand, ui.selected));
    if (!move) return;
  }
  showReason("");
  setBusy(true);
  draw();
  try {
    const viaMover = Boolean(hooks.mover);
    const next = viaMover ? await hooks.mover(move) : await api.move(state.id, move, state.version);
    ui.selected = null;
    await load(next, true);
    afterMove(true, viaMover);
  } catch (err) {
    setBusy(false);
    await recover(err);
  }
}

// The match moved elsewhere (the other person, another tab): fetch it and show what changed.
async function refreshLive() {
  if (!state || hooks.mover) return;
  if (busy) { refreshPending = true; return; }
  const id = state.id;
  let next;
  try { next = await api.state(id); } catch { return; }
  if (!state || state.id !== id || busy) { if (busy) refreshPending = true; return; }
  if (next.version === state.version && next.status === state.status) return;
  await arrive(next);
  // The other person's latest move, in words, where the computer's replies are shown.
  const history = next.hand ? next.hand.history : [];
  const last = history[history.length - 1];
  if (last && last.who === "computer" && !next.hand.result) {
    $("last-move").textContent = last.text;
    draw();
  }
}

async function recover(err) {
  showReason(err.message);
  if (err.status === 409 && state) {
    try { state = await api.state(state.id); observe(state); } catch { /* keep the old state */ }
  }
  draw();
  await checkReplaced();
}

// Another tab (or window) started a new match: this one is abandoned. Offer the match that is
// now current, not a new game (which would abandon that one too).
async function checkReplaced() {
  const notice = $("notice");
  if (!state || state.status !== "abandoned" || hooks.mover) { notice.hidden = true; return; }
  let current = null;
  try { current = (await api.me()).current_match; } catch { /* offline: say what is known */ }
  if (current && current !== state.id) {
    $("notice-text").textContent = "A new game was started in another tab or window, so this match was left. Nothing was lost: continue with that game here.";
    $("notice-action").textContent = "Go to the current game";
    $("notice-action").onclick = async () => {
      notice.hidden = true;
      showReason("");
      lent.show(await api.state(current));
      focusHand();
    };
  } else {
    $("notice-text").textContent = "This match was abandoned.";
    $("notice-action").textContent = "Start a new game";
    $("notice-action").onclick = () => { notice.hidden = true; startNewGame(); };
  }
  showReason("");
  notice.hidden = false;
  $("notice-action").focus();
}

async function nextHand() {
  if (hooks.mover) return;  // a sample situation has no next hand
  const btn = $("btn-next");
  if (state && state.hand && btn.dataset.mode === "new") { startNewGame(); return; }
  if (!state || busy) return;
  const seed = clientSeedFor(state);
  setBusy(true);
  try {
    const next = await api.nextHand(state.id, state.version, seed);
    refusedSeed = null;
    await arrive(next);
    // The last hand's result was scrolled into view; the new deal is shown from the top, as
    // the first one is (on a phone a turn fits on one screen), and focusing a card keeps it so.
    window.scrollTo(0, 0);
    focusHand();
  } catch (err) {
    setBusy(false);
    // A refused client seed is explained beside its field, which keeps what was typed.
    if (err.status === 400 && seed !== null) { draw(); showSeedError(err.message); return; }
    await recover(err);
  }
}

function focusHand() {
  const cards = $("hand").querySelectorAll(".card");
  if (!cards.length) return;
  const el = cards[Math.min(ui.focusIndex, cards.length - 1)];
  el.tabIndex = 0;
  el.focus();
}

function selectCard(code) {
  ui.selected = ui.selected === code ? null : code;
  ui.focusIndex = Math.max(0, ui.order.indexOf(code));
  showReason("");
  draw();
}

function onHandKey(ev) {
  const cards = [...$("hand").querySelectorAll(".card")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  let j = null;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(i + 1, cards.length - 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(i - 1, 0);
  else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = cards.length - 1;
  if (j === null) return;
  ev.preventDefault();
  cards[i].tabIndex = -1;
  cards[j].tabIndex = 0;
  cards[j].focus();
  ui.focusIndex = j;
}

const SHORTCUTS = { d: "draw", t: "take", p: "pass", x: "discard", k: "knock", g: "gin", b: "big_gin" };

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (SHORTCUTS[key]) { ev.preventDefault(); perform(SHORTCUTS[key]); return; }
  if (key === "h") { ev.preventDefault(); focusHand(); return; }
  if (key === "n") {
    ev.preventDefault();
    if (!$("hand-end").hidden || !$("deal-panel").hidden) nextHand();
    return;
  }
  if (key === "m" || key === "r" || key === "s") {
    ev.preventDefault();
    setSort({ m: "melds", r: "rank", s: "suit" }[key]);
    return;
  }
  if (key === "?") { ev.preventDefault(); openRules(state, options); }
}

function setSort(sort) {
  ui.sort = sort;
  localStorage.setItem(SORT_KEY, sort);
  draw();
}

/** The person's match in progress (the state of it), or null: what starting or joining
 * another would end, said before it is done. */
async function currentMatch() {
  const unfinished = (st) => st && !["over", "abandoned"].includes(st.status);
  if (state && !hooks.mover && !(state.meta && (state.meta.situation || state.meta.revisit))) {
    return unfinished(state) ? state : null;
  }
  try {
    const me = await api.me();
    if (!me.current_match) return null;
    const st = await api.state(me.current_match);
    return unfinished(st) ? st : null;
  } catch { return null; }
}

async function startNewGame() {
  const choice = await openNewGame(options, await currentMatch());
  if (!choice) { if (!state) showEmpty(); return; }
  if (choice.join) {
    await joinTable(choice.join);
    return;
  }
  if (choice.opponent === "person") { await startPeople(choice); return; }
  await startMatch(choice);
}

/** No match at all (the first New game window was cancelled): an empty table, one way on. */
function showEmpty() {
  document.body.dataset.table = "empty";
  $("start-panel").hidden = false;
  $("prompt").textContent = "";
  $("btn-start").focus();
}

async function startMatch(choice) {
  setBusy(true);
  $("notice").hidden = true;
  let created = null;
  const { clientSeed, ...opts } = choice;
  try {
    // The server seals the first hand (its commitment reaches this page and is noted), then
    // the hand is dealt at once with the client seed drawn in this browser (or typed).
    created = await api.newMatch({ ...opts, deal: false });
    state = null;
    refusedSeed = null;
    observe(created);
    const upcoming = created.meta && created.meta.sealed && created.meta.sealed.next;
    if (created.hand || !upcoming) {
      await arrive(created);
      focusHand();
      return created;
    }
    const seed = clientSeed || randomClientSeed();
    rememberSeed(created.id, upcoming.hand, seed);
    let next;
    try {
      next = await api.nextHand(created.id, created.version, seed);
    } catch (err) {
      // A typed seed the rules refuse: the deal panel keeps it, with the reason beside it.
      if (err.status === 400) refusedSeed = seed;
      await arrive(created);
      if (err.status === 400) showSeedError(err.message);
      else { showReason(err.message); $("btn-deal").focus(); }
      return created;
    }
    await arrive(next);
    focusHand();
    return next;
  } catch (err) {
    refused(err);
    if (!state) showEmpty();
    return null;
  }
}

// A table for two people: made with its invite; the first deal waits for the other person.
async function rename(name) {
  if (!name || name === myName) return;
  try { myName = (await api.rename(name)).name; } catch (err) { showReason(err.message); }
}

async function startPeople(choice) {
  setBusy(true);
  $("notice").hidden = true;
  const { name, ...opts } = choice;
  try {
    await rename(name || (myName === "You" ? await askName() : ""));
    const created = await api.newMatch(opts);
    state = null;
    refusedSeed = null;
    await arrive(created);
    $("invite-copy").focus();
  } catch (err) {
    refused(err);
    if (!state) showEmpty();
  }
}

// Take the free seat of a table by its invite or short code: its terms first, and the
// person's yes (which says what of theirs it ends) before anything changes.
async function joinTable(code) {
  let answer;
  try {
    answer = await askToJoin(code, await currentMatch());
  } catch (err) {
    refused(err);
    if (state) draw(); else showEmpty();
    return false;
  }
  if (!answer) { setBusy(false); if (state) draw(); else showEmpty(); return false; }
  if (answer.mine) {
    try { lent.show(await api.state(answer.mine)); return true; } catch (err) { showReason(err.message); return false; }
  }
  // Whoever takes a seat at a table for two is named there: asked once, after their yes.
  if (myName === "You") await rename(await askName());
  setBusy(true);
  $("notice").hidden = true;
  try {
    const joined = await api.join(code, answer);
    state = null;
    refusedSeed = null;
    await arrive(joined);
    focusHand();
    return true;
  } catch (err) {
    refused(err);
    if (state) draw(); else showEmpty();
    return false;
  }
}

// What learn.js may do with the table.
const lent = {
  hooks,
  // The guided round starts a match of its own: it asks first when one is in progress.
  async startMatch(choice, title = "Start the guided round?") {
    const ending = endingText(await currentMatch(), "Starting it");
    if (ending && !(await confirmEnding(title, ending, "End my match and start"))) return null;
    hooks.mover = null;
    return startMatch({ ...choice, forfeit_current: Boolean(ending) });
  },
  draw: () => draw(),
  announce: (text) => announce(text),
  show(next) {
    state = next;
    observe(state);
    ui.selected = null;
    ui.focusIndex = 0;
    $("last-move").textContent = "";
    setBusy(false);
    draw();
    if (!hooks.mover) afterMove(false, false);
  },
  async resume() {
    try {
      const me = await api.me();
      if (me.current_match) {
        lent.show(await api.state(me.current_match));
        focusHand();
        return;
      }
    } catch (err) {
      showReason(err.message);
    }
    startNewGame();
  },
};

// Dragging a card onto the discard pile discards it (mouse and pen; optional: tapping and the
// buttons do everything). Touch keeps its scrolling.
let drag = null;
let suppressClick = false;

function overPile(ev) {
  const r = $("discard-pile").getBoundingClientRect();
  return ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
}

function wireDrag() {
  $("hand").addEventListener("pointerdown", (ev) => {
    const card = ev.target.closest(".card");
    if (!card || busy || ev.button !== 0 || ev.pointerType === "touch") return;
    drag = { code: card.dataset.card, x: ev.clientX, y: ev.clientY, el: card, ghost: null, id: ev.pointerId };
  });
  document.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 12) return;
      drag.ghost = cardElement(drag.code, { label: false });
      drag.ghost.classList.add("ghost");
      $("flyer-layer").append(drag.ghost);
      drag.el.classList.add("dragging");
    }
    drag.ghost.style.left = `${ev.clientX - 30}px`;
    drag.ghost.style.top = `${ev.clientY - 42}px`;
    $("discard-pile").classList.toggle("drop", overPile(ev));
  });
  const end = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return; // a plain click: the click handler selects
    d.ghost.remove();
    d.el.classList.remove("dragging");
    $("discard-pile").classList.remove("drop");
    suppressClick = true;
    window.setTimeout(() => { suppressClick = false; }, 0);
    if (ev.type === "pointerup" && overPile(ev)) {
      ui.selected = d.code;
      perform("discard");
    }
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);
}

function wire() {
  wireDrag();
  for (const btn of document.querySelectorAll("[data-act]")) {
    btn.addEventListener("click", () => perform(btn.dataset.act));
  }
  $("hand").addEventListener("click", (ev) => {
    const card = ev.target.closest(".card");
    if (card && !busy && !suppressClick) selectCard(card.dataset.card);
  });
  $("hand").addEventListener("keydown", onHandKey);
  $("stock").addEventListener("click", () => perform("draw"));
  $("discard-pile").addEventListener("click", () => {
    if (state && state.hand && ui.selected && ["discard", "last_chance_knock"].includes(state.hand.phase)) perform("discard");
    else perform("take");
  });
  for (const chip of document.querySelectorAll("[data-sort]")) {
    chip.addEventListener("click", () => setSort(chip.dataset.sort));
  }
  $("btn-next").addEventListener("click", nextHand);
  $("btn-new").addEventListener("click", startNewGame);
  $("btn-start").addEventListener("click", startNewGame);
  $("btn-rules").addEventListener("click", () => openRules(state, options));
  $("btn-history").addEventListener("click", () => openHistory());
  $("btn-settings").addEventListener("click", () => $("dlg-settings").showModal());
  document.addEventListener("keydown", onKey);
  document.querySelector(".skip").addEventListener("click", (ev) => { ev.preventDefault(); focusHand(); });
}

async function boot() {
  setupSettings(() => draw());
  wire();
  setupLearn(lent);
  setupCoach(lent);
  setupPeople({
    current: () => state,
    refresh: () => refreshLive(),
    deal: () => nextHand(),
    announce: (text) => announce(text),
    show: (next) => lent.show(next),
    open: async (id) => { try { lent.show(await api.state(id)); } catch (err) { showReason(err.message); } },
  });
  const invite = inviteFromUrl();
  try {
    const me = await ensurePlayer();
    myName = me.name;
    $("opt-name").value = me.name === "You" ? "" : me.name;
    options = await api.options();
    if (invite) {
      // The address is the invite: take the seat once, then the address is the table's own.
      history.replaceState(null, "", "/");
      setBusy(false);
      document.body.dataset.ready = "true";
      if (await joinTable(invite)) return;
      if (!me.current_match) { startNewGame(); return; }
    }
    if (me.current_match) {
      state = await api.state(me.current_match);
      observe(state);
      setBusy(false);
      draw();
      announce(state.hand ? state.hand.prompt : "Deal the first hand.");
      afterMove(false, false);
      checkReplaced();
    } else {
      setBusy(false);
      $("prompt").textContent = "Choose your table to start.";
      document.body.dataset.table = "empty";
      document.body.dataset.ready = "true";
      startNewGame();
      return;
    }
  } catch (err) {
    setBusy(false);
    $("prompt").textContent = err.message;
  }
  document.body.dataset.ready = "true";
}

boot();
