// Learning at the table: the sample situations (the Learn panel and the lesson banner) and the
// calm first round (a guide box that says what to do next and which control does it).
//
// A situation is drawn by the table's own renderer from the learner's view, and answered with
// the normal controls: app.js hands each move to `hooks.mover`, which sends it to
// POST /api/situations/{id}/answer instead of the match. Nothing here decides a rule: the server
// judges the move and says why.

import { ApiError } from "./api.js";
import { handInMelds, symbol, value } from "./cards.js";

const $ = (id) => document.getElementById(id);
const TOUR_KEY = "ginrummy.tour";
const SOLVED_KEY = "ginrummy.solved";

let table = null;      // what app.js lends us: hooks, show, draw, resume, startMatch
let catalogue = null;  // the situation summaries, in order
let current = null;    // { id, data, answer }
let focusAnswer = false;
let guideKey = "";

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "The server cannot be reached. Is `ginrummy serve` still running?");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.detail) || `The server answered ${response.status}.`);
  return data;
}

function solved() {
  try { return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY)) || []); } catch { return new Set(); }
}

function markSolved(id) {
  const s = solved();
  s.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...s]));
}

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  return e;
}

// ---------------------------------------------------------------------------------------------
// The Learn panel.

// Opens a panel's dialog with its title focused and fetches what it lists once; when that
// fails, the list says why and the answer is null.
async function openPanel(name, url, cached) {
  const dialog = $(`dlg-${name}`);
  for (const b of dialog.querySelectorAll("button.close")) b.onclick = () => dialog.close();
  dialog.showModal();
  $(`${name}-title`).focus();
  try {
    return cached || await call("GET", url);
  } catch (err) {
    $(`${name}-list`).textContent = err.message;
    return null;
  }
}

async function openLearn() {
  catalogue = await openPanel("learn", "/api/situations", catalogue);
  if (!catalogue) return;
  const box = $("learn-list");
  const done = solved();
  const parts = [];
  let list = null;
  let topic = null;
  for (const s of catalogue) {
    if (s.topic !== topic) {
      topic = s.topic;
      parts.push(el("h4", s.topic_title));
      list = el("ul", null, "learn-topic");
      parts.push(list);
    }
    const li = el("li");
    // A neutral heading until the situation is solved: the lesson's title may say the answer.
    const btn = el("button", done.has(s.id) ? s.title : s.heading, "linkish");
    btn.type = "button";
    btn.dataset.situation = s.id;
    btn.onclick = () => { $("dlg-learn").close(); openSituation(s.id); };
    li.append(btn, " ", el("span", s.rules, "muted small"));
    if (done.has(s.id)) {
      const mark = el("span", " ✓ solved", "solved");
      li.append(mark);
    }
    list.append(li);
  }
  box.replaceChildren(...parts);
  const measured = $("learn-measured");
  measured.ontoggle = () => { if (measured.open) showNumbers(); };
}

// ---------------------------------------------------------------------------------------------
// How hands end between two copies of a level, from real self-play runs: behind the Learn
// panel's "how we measured this", loaded when it is opened.

const NUMBER_ROWS = [
  ["knock", "Plain knocks", "share"],
  ["undercut", "Undercuts", "share"],
  ["gin", "Gins", "share"],
  ["big_gin", "Big gins", "share"],
  ["cancelled", "Stock ran out", "share"],
  ["knock_deadwood", "Knocker's deadwood (knocks but gin)", "mean"],
  ["points_per_scored_hand", "Points per scored hand", "mean"],
  ["turns_per_hand", "Turns per hand (both players)", "mean"],
];

function figure(f, kind) {
  if (kind === "share") {
    const pct = (x) => (100 * x).toFixed(1);
    return `${pct(f.value)}% (${pct(f.low)}–${pct(f.high)}%)`;
  }
  return `${f.value.toFixed(1)} (${f.low.toFixed(1)}–${f.high.toFixed(1)})`;
}

async function showNumbers() {
  const box = $("learn-numbers");
  if (box.dataset.loaded) return;
  let data;
  try {
    data = await call("GET", "/api/learn/numbers");
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  const table = el("table", null, "numbers");
  const note = el("p", data.note, "muted small");
  const head = el("tr");
  head.append(el("th", "How hands ended"));
  for (const run of data.runs) {
    const th = el("th", `${run.level} vs ${run.level}`);
    th.scope = "col";
    head.append(th);
  }
  const rows = NUMBER_ROWS.map(([key, label, kind]) => {
    const tr = el("tr");
    const th = el("th", label);
    th.scope = "row";
    tr.append(th);
    for (const run of data.runs) {
      const td = el("td", figure(run[key], kind));
      td.dataset.figure = `${run.level}-${key}`;
      tr.append(td);
    }
    return tr;
  });
  table.setAttribute("aria-describedby", "learn-numbers-note");
  note.id = "learn-numbers-note";
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  table.tBodies[0].append(...rows);
  const how = el("p", "medium knocks at its first chance; hard holds out for gin and plays for undercuts. Made by:", "muted small");
  const cmds = el("ul", null, "numbers-commands");
  cmds.replaceChildren(...data.runs.map((run) => {
    const li = el("li");
    li.append(el("code", run.command));
    return li;
  }));
  box.replaceChildren(note, table, how, cmds);
  box.dataset.loaded = "1";
}

// ---------------------------------------------------------------------------------------------
// One situation.

async function openSituation(id) {
  let data;
  try {
    data = await call("GET", `/api/situations/${encodeURIComponent(id)}`);
  } catch (err) {
    $("reason").textContent = err.message;
    return;
  }
  current = { id, data, answer: null };
  table.hooks.mover = answerMove;
  document.body.dataset.mode = "learn";
  document.body.dataset.situation = id;
  delete document.body.dataset.answered;
  $("lesson-topic").textContent = data.topic_title;
  $("lesson-rules").textContent = `Rules: ${data.rules}`;
  $("lesson-title").textContent = data.heading;  // the lesson's title once answered
  $("lesson-question").textContent = data.question;
  $("lesson-how").hidden = false;
  $("lesson-answer").hidden = true;
  $("lesson-answer").replaceChildren();
  $("lesson").hidden = false;
  $("guide").hidden = true;
  table.show(data.table);
  $("lesson-title").focus();
}

async function answerMove(move) {
  const result = await call("POST", `/api/situations/${encodeURIComponent(current.id)}/answer`, { move });
  current.answer = result;
  $("lesson-title").textContent = current.data.title;
  if (result.correct) markSolved(current.id);
  renderAnswer(result);
  if (table.hooks.onLessonAnswer) table.hooks.onLessonAnswer(current.id, move, result);
  focusAnswer = true;
  document.body.dataset.answered = result.correct ? "right" : "wrong";
  return result.table;
}

function lineItem(label, line) {
  const div = el("div", null, "lesson-line");
  div.append(el("strong", `${label}, ${line.words}: `), line.text);
  return div;
}

function renderAnswer(r) {
  const box = $("lesson-answer");
  const parts = [];
  const head = el("h3", r.correct ? "Right!" : "Not this time", `verdict ${r.correct ? "ok" : "no"}`);
  parts.push(head, el("p", r.verdict));
  parts.push(lineItem("Your move", r.yours));
  if (r.taught) parts.push(lineItem("The lesson's answer", r.taught));
  parts.push(el("h4", "Why"), el("p", r.why));
  if (r.facts.length) {
    parts.push(el("h4", "Checked by the rules engine"));
    const ul = el("ul", null, "lesson-facts");
    for (const f of r.facts) {
      const li = el("li");
      li.append(el("strong", `${f.words[0].toUpperCase()}${f.words.slice(1)}: `), f.text);
      if (f.note) li.append(el("span", ` (${f.note.replace(/\.$/, "")})`, "muted"));
      ul.append(li);
    }
    parts.push(ul);
  }
  parts.push(el("h4", `Your opponent held (deadwood ${r.opponent.deadwood})`));
  parts.push(handInMelds(r.opponent, "Your opponent's", "meld-rows lesson-opp"));
  const take = el("p", null, "takeaway");
  take.append(el("strong", "Takeaway: "), r.takeaway);
  parts.push(take, el("p", r.proof_text, "muted small"));
  box.replaceChildren(...parts);
  box.hidden = false;
  $("lesson-how").hidden = true;
}

function nextSituation() {
  if (!catalogue || !current) { openLearn(); return; }
  const i = catalogue.findIndex((s) => s.id === current.id);
  const next = catalogue[(i + 1) % catalogue.length];
  openSituation(next.id);
}

function leaveLesson() {
  table.hooks.mover = null;
  current = null;
  delete document.body.dataset.mode;
  delete document.body.dataset.situation;
  delete document.body.dataset.answered;
  $("lesson").hidden = true;
}

async function exitLearn() {
  leaveLesson();
  await table.resume();
}

// ---------------------------------------------------------------------------------------------
// The calm first round.

function tour() {
  try { return JSON.parse(localStorage.getItem(TOUR_KEY)); } catch { return null; }
}

function setTour(value) {
  localStorage.setItem(TOUR_KEY, JSON.stringify(value));
}

async function startTour() {
  if (current) leaveLesson();
  guideKey = "";
  const st = await table.startMatch({
    profile: "traditional", level: "easy", hollywood: false, last_discard_chance: false,
  });
  if (!st) return;
  setTour({ match: st.id, on: true });
  updateTourOffer();
  table.draw();
}

function stopTour(reason) {
  const t = tour() || {};
  setTour({ ...t, on: false, ended: reason });
  clearTargets();
  $("guide").hidden = true;
  guideKey = "";
  table.announce(reason === "done" ? "The guide is finished." : "The guide is off. Press ? for the rules and keys.");
}

function clearTargets() {
  for (const e of document.querySelectorAll(".guide-target")) e.classList.remove("guide-target");
}

function best(options, pick) {
  const usable = options.filter(pick);
  if (!usable.length) return null;
  return usable.reduce((a, b) => (b.deadwood_after < a.deadwood_after
    || (b.deadwood_after === a.deadwood_after && value(b.card) > value(a.card)) ? b : a));
}

const cardSel = (code) => `#hand .card[data-card="${code}"]`;

/** The guide's step for this moment: what to do, and the controls that do it (first = suggested). */
export function guideStep(state, ui, busy) {
  const hand = state.hand;
  if (!hand) {
    // Only when the first hand was not dealt at Start: a client seed typed in the New game
    // window was refused (or the deal did not go through).
    return { step: "deal", text: "Your first hand is not dealt yet: if you typed your own client seed, the reason it was refused is beside the field. Change it, or press New random seed, then press Deal (or N). The deck was sealed before your seed is used, so you can check the deal when the hand is over.", targets: ["#btn-deal"] };
  }
  const top = hand.discard_pile.length ? symbol(hand.discard_pile[hand.discard_pile.length - 1]) : "";
  if (hand.result) {
    return { step: "done", text: `The hand is over: both hands are laid out in melds and the line above explains the score. That was your first round! Press Next hand (N) to play on, or open Learn for sample situations.`, targets: ["#btn-next"] };
  }
  if (busy || !hand.your_turn) {
    return { step: "wait", text: "The computer is playing its turn: watch the stock and the discard pile.", targets: [] };
  }
  const opts = hand.card_options;
  switch (hand.phase) {
    case "opening":
      return { step: "opening", text: `The upcard ${top} is offered to you first. If it makes a meld with your cards (three of a kind, or three in a row of one suit), press Take (T) or click the discard pile; if not, press Pass (P).`, targets: ['[data-act="pass"]', '[data-act="take"]'] };
    case "opening_draw":
      return { step: "draw", text: "Both players passed the upcard, so you start: click the stock (or press D) to draw its top card.", targets: ["#stock"] };
    case "draw":
      return { step: "draw", text: `Start your turn with a draw: click the stock (D) for an unseen card, or the discard pile (T) to take the ${top} if it makes a meld for you.`, targets: ["#stock", "#discard-pile"] };
    case "last_chance":
      return { step: "last-chance", text: "The stock is nearly empty: take the last discard (T) only if it lets you knock; Pass (P) ends the hand with no score.", targets: ['[data-act="pass"]'] };
    default:
      break;
  }
  const gin = best(opts, (o) => o.gin);
  const knock = gin || best(opts, (o) => o.knock);
  if (knock) {
    const act = knock.gin ? "gin" : "knock";
    const label = knock.gin ? "Gin" : "Knock";
    if (ui.selected === knock.card) {
      // Several groupings leave the same deadwood: Knock opens the window that picks one.
      const choose = !knock.gin && (knock.arrangements || []).length > 1
        ? ` Your cards group into melds in ${knock.arrangements.length} ways that leave the same deadwood: a window shows them, with the first one chosen; press Knock in it to lay that one down.`
        : "";
      return { step: act, text: `Now press ${label} (${label[0]}): the ${symbol(knock.card)} goes face down and you lay out your melds${knock.gin ? " with no deadwood at all" : ` with ${knock.deadwood_after} deadwood`}.${choose}`, targets: [`[data-act="${act}"]`] };
    }
    return { step: `select-${act}`, text: `The ${label} button lit up: you can end the hand${knock.gin ? " with gin" : ` with ${knock.deadwood_after} deadwood`}. Select the ${symbol(knock.card)} in your hand (click it, or H, arrows and Enter), then press ${label}.`, targets: [cardSel(knock.card)] };
  }
  const throwIt = best(opts, (o) => o.discard);
  if (!throwIt) return { step: "wait", text: "", targets: [] };
  if (ui.selected) {
    return { step: "discard", text: `Press Discard (X) to throw the ${symbol(ui.selected)}, or click the discard pile. To change your mind, select another card.`, targets: ['[data-act="discard"]'] };
  }
  return { step: "select", text: `Now throw one card. Cards in the light boxes are melds; the rest is deadwood. Select a card by clicking it (or H, arrows and Enter). A good choice is the ${symbol(throwIt.card)}: throwing it leaves the least deadwood (${throwIt.deadwood_after}).`, targets: [cardSel(throwIt.card)] };
}

// The guide's counter counts the person's decisions (their moves in the hand: take or pass,
// draw, discard, knock), not the clicks and redraws between them: selecting a card and then
// pressing Discard is one decision.
function decisionCount(state, step) {
  if (!state.hand) return "";
  const made = state.hand.history.filter((m) => m.who === "you").length;
  if (step === "done") return `· ${made} ${made === 1 ? "decision" : "decisions"}`;
  if (step === "wait") return made ? `· ${made} ${made === 1 ? "decision" : "decisions"} so far` : "";
  return `· decision ${made + 1}`;
}

function renderGuide(state, ui, busy) {
  const t = tour();
  const box = $("guide");
  if (!t || !t.on || !state || state.id !== t.match || document.body.dataset.mode === "learn") {
    if (!box.hidden) { box.hidden = true; clearTargets(); }
    return;
  }
  if ((state.hand && state.hand.number > 1) || state.status === "abandoned") {
    stopTour("done");
    return;
  }
  const g = guideStep(state, ui, busy);
  const key = `${g.step}|${state.version}|${ui.selected || ""}|${busy}`;
  clearTargets();
  for (const sel of g.targets) {
    const target = document.querySelector(sel);
    if (target) target.classList.add("guide-target");
  }
  if (key === guideKey) return;
  guideKey = key;
  box.hidden = false;
  box.dataset.step = g.step;
  box.dataset.target = g.targets[0] || "";
  box.dataset.key = key;
  $("guide-text").textContent = g.text;
  $("guide-count").textContent = decisionCount(state, g.step);
  $("guide-skip").textContent = g.step === "done" ? "Finish the guide" : "Skip the guide (Esc)";
}

// ---------------------------------------------------------------------------------------------
// Wiring.

function afterDraw(state, ui, busy) {
  if (document.body.dataset.mode === "learn") {
    $("opp-title").textContent = "Opponent";
    $("opp-level").textContent = "";
    if (focusAnswer && !$("lesson-answer").hidden) {
      focusAnswer = false;
      $("lesson-answer").focus();
    }
  }
  renderGuide(state, ui, busy);
}

function updateTourOffer() {
  const t = tour();
  $("tour-offer").hidden = Boolean(t);
}

// ---------------------------------------------------------------------------------------------
// Strategy: the tips, each with its situation and its self-play figure in one line.

let strategy = null;

async function openStrategy() {
  strategy = await openPanel("strategy", "/api/learn/strategy", strategy);
  if (!strategy) return;
  $("strategy-about").textContent = strategy.about;
  const parts = strategy.tips.map((tip, i) => {
    const sec = el("section", null, "strategy-tip");
    sec.dataset.tip = tip.key;
    sec.append(el("h3", `${i + 1}. ${tip.title}`), el("p", tip.tip));
    const see = el("p", "Try it: ");
    const btn = el("button", tip.situation.title, "linkish");
    btn.type = "button";
    btn.dataset.situation = tip.situation.id;
    btn.onclick = () => { $("dlg-strategy").close(); openSituation(tip.situation.id); };
    see.append(btn);
    const figure = el("p", tip.line, "muted small strategy-figure");
    sec.append(see, figure);
    return sec;
  });
  $("strategy-list").replaceChildren(...parts);
}

export function setupLearn(lent) {
  table = lent;
  table.hooks.afterDraw = afterDraw;
  updateTourOffer();
  $("btn-learn").addEventListener("click", openLearn);
  $("btn-strategy").addEventListener("click", openStrategy);
  $("learn-tour").addEventListener("click", () => { $("dlg-learn").close(); startTour(); });
  $("new-tour").addEventListener("click", () => { $("dlg-new").close(); startTour(); });
  $("lesson-retry").addEventListener("click", () => current && openSituation(current.id));
  $("lesson-next").addEventListener("click", nextSituation);
  $("lesson-all").addEventListener("click", openLearn);
  $("lesson-exit").addEventListener("click", exitLearn);
  $("guide-skip").addEventListener("click", () => {
    stopTour($("guide").dataset.step === "done" ? "done" : "skipped");
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || $("guide").hidden || document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    stopTour("skipped");
  });
}
