// The coach at the table: a remark after each of your decisions (when the Coach toggle is on),
// the review of each finished hand with its costliest decisions, and any decision of a finished
// hand reopened to play again ("Revisit"), with every alternative the coach weighed.
//
// Nothing here judges a move: the server's coach does, from what your seat knew at the time,
// and only after the move's own answer has arrived, so the computer's reply is never delayed.
// A remark is shown for a while in the polite live region under the buttons, never in the way.

import { api } from "./api.js";
import { handInMelds } from "./cards.js";

const $ = (id) => document.getElementById(id);
const COACH_KEY = "ginrummy.coach";
const SHOW_MS = 15000;

let table = null;      // what app.js lends: hooks, show, draw, resume, announce
let on = false;
let asked = 0;         // the latest remark request (older answers are dropped)
let hideTimer = null;
let reviewFor = "";    // "match/hand" whose review is shown
let revisit = null;    // { match, hand, index, data }
let focusAnswer = false;

const RATING_WORDS = { good: "Good", inaccuracy: "Inaccuracy", mistake: "Mistake" };

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function badge(rating) {
  const b = el("span", RATING_WORDS[rating] || rating, `coach-badge ${rating}`);
  b.dataset.rating = rating;
  return b;
}

function points(loss) {
  const n = Math.round(loss);
  return n <= 0 ? "less than a point" : n === 1 ? "about 1 point" : `about ${n} points`;
}

function betterLine(remark) {
  if (remark.best === remark.move || remark.rating === "good") return null;
  return el("span", ` Better: ${remark.best_words} (${points(remark.loss)} more on average).`, "coach-better");
}

// ---------------------------------------------------------------------------------------------
// The toggle and the live remark.

function setOn(value) {
  on = value;
  localStorage.setItem(COACH_KEY, on ? "on" : "off");
  const btn = $("coach-toggle");
  btn.setAttribute("aria-pressed", String(on));
  btn.textContent = on ? "Coach: on" : "Coach: off";
  document.body.dataset.coach = on ? "on" : "off";
  if (!on) clearRemark();
  else showNote("The coach is on: it comments on each of your decisions, and reviews each hand.");
}

function clearRemark() {
  window.clearTimeout(hideTimer);
  const slot = $("coach-slot");
  slot.replaceChildren();
  delete slot.dataset.rating;
}

function showNote(text) {
  clearRemark();
  $("coach-slot").append(el("span", text, "coach-note"));
  hideTimer = window.setTimeout(clearRemark, SHOW_MS / 2);
}

function showRemark(remark) {
  clearRemark();
  const slot = $("coach-slot");
  slot.dataset.rating = remark.rating;
  slot.dataset.move = remark.move;
  const head = el("strong", "Coach: ");
  slot.append(head, badge(remark.rating), " ", el("span", remark.reason, "coach-reason"));
  const better = betterLine(remark);
  if (better) slot.append(better);
  hideTimer = window.setTimeout(clearRemark, SHOW_MS);
}

async function fetchRemark(state) {
  const ticket = ++asked;
  try {
    const answer = await api.coachLatest(state.id);
    if (ticket !== asked || !on || !answer.remark) return;
    showRemark(answer.remark);
  } catch {
    // The coach is an extra: a failed remark changes nothing at the table.
  }
}

// With the coach off, each of your decisions is still assessed (and kept) while you think
// about the next one, so the hand's review is ready when you ask for it. Nothing is shown.
function assessAhead(state) {
  api.coachAhead(state.id).catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// The review at the end of a hand.

function remarkItem(remark, matchId, withRevisit) {
  const li = el("li", null, "coach-item");
  li.dataset.index = String(remark.index);
  li.append(el("strong", `Turn ${remark.turn}: you chose to ${remark.words}. `), badge(remark.rating), " ", remark.reason);
  const better = betterLine(remark);
  if (better) li.append(better);
  if (withRevisit) {
    const btn = el("button", "Revisit", "linkish coach-revisit");
    btn.type = "button";
    btn.setAttribute("aria-label", `Revisit turn ${remark.turn}: ${remark.words}`);
    btn.addEventListener("click", () => openRevisit(matchId, remark.hand, remark.index));
    li.append(" ", btn);
  }
  return li;
}

async function showReview(state) {
  const box = $("coach-review");
  const body = $("coach-review-body");
  const key = `${state.id}/${state.hand.number}`;
  box.hidden = false;
  if (!on) {
    reviewFor = "";
    const btn = el("button", "Review this hand with the coach", "linkish");
    btn.type = "button";
    btn.id = "coach-review-ask";
    btn.addEventListener("click", () => { reviewFor = ""; loadReview(state, key); });
    body.replaceChildren(btn);
    return;
  }
  if (reviewFor === key) return;
  loadReview(state, key);
}

// The review arrives as it is made (most decisions were assessed ahead, while the hand was
// played): every decision is listed at once, each verdict fills in as it comes, and the
// summary with the costliest decisions replaces the list when the last one is in.
async function loadReview(state, key) {
  const body = $("coach-review-body");
  reviewFor = key;
  const progress = el("p", "The coach is going over your decisions…", "muted small coach-progress");
  body.replaceChildren(progress);
  const items = new Map();
  let total = 0;
  let done = 0;
  const onEvent = (event) => {
    if (reviewFor !== key) return;
    if (event.event === "start") {
      total = event.pending.length;
      const ol = el("ol", null, "coach-list coach-pending");
      for (const p of event.pending) {
        const li = el("li", null, "coach-item");
        li.dataset.index = String(p.index);
        li.dataset.pending = "true";
        li.append(el("strong", `Turn ${p.turn}: you chose to ${p.words}. `), el("span", "weighing…", "muted small"));
        items.set(p.index, li);
        ol.append(li);
      }
      progress.textContent = total ? `The coach is going over your ${total} decision${total > 1 ? "s" : ""}…` : "";
      body.replaceChildren(progress, ol);
    } else if (event.event === "decision") {
      const old = items.get(event.remark.index);
      if (old) old.replaceWith(remarkItem(event.remark, state.id, false));
      done += 1;
      progress.textContent = `The coach is going over your decisions… ${done} of ${total} done.`;
    } else if (event.event === "review") {
      showWholeReview(state, event.review);
    }
  };
  try {
    await api.coachReviewStream(state.id, state.hand.number, onEvent);
  } catch (err) {
    if (reviewFor !== key) return;
    body.replaceChildren(el("p", err.message, "muted small"));
    reviewFor = "";
  }
}

function showWholeReview(state, review) {
  const body = $("coach-review-body");
  const parts = [el("p", review.summary, "coach-summary")];
  if (review.costliest.length) {
    parts.push(el("h4", review.costliest.length > 1 ? "The costliest decisions" : "The costliest decision"));
    const ol = el("ol", null, "coach-list");
    review.costliest.forEach((r) => ol.append(remarkItem(r, state.id, true)));
    parts.push(ol);
  }
  if (review.decisions.length) {
    const details = el("details", null, "coach-all");
    details.append(el("summary", `Every decision (${review.decisions.length})`));
    const ol = el("ol", null, "coach-list");
    review.decisions.forEach((r) => ol.append(remarkItem(r, state.id, true)));
    details.append(ol);
    parts.push(details);
  }
  body.replaceChildren(...parts);
}

function hideReview() {
  $("coach-review").hidden = true;
  $("coach-review-body").replaceChildren();
  reviewFor = "";
}

// ---------------------------------------------------------------------------------------------
// Revisiting a decision: the table as you saw it then; your new move goes to the coach.

async function openRevisit(matchId, hand, index) {
  let data;
  try {
    data = await api.revisit(matchId, hand, index);
  } catch (err) {
    $("reason").textContent = err.message;
    return;
  }
  revisit = { match: matchId, hand, index, data };
  table.hooks.mover = answerRevisit;
  document.body.dataset.mode = "revisit";
  delete document.body.dataset.answered;
  clearRemark();
  // The question names the hand and the turn ("Hand 2, your turn 2: you chose to ..."); the
  // title says what to do, so the banner says each once.
  $("revisit-title").textContent = "Play this decision again";
  $("revisit-question").textContent = data.question;
  $("revisit-answer").hidden = true;
  $("revisit-answer").replaceChildren();
  $("revisit").hidden = false;
  $("lesson").hidden = true;
  hideReview();
  table.show(data.table);
  $("revisit-title").focus();
}

async function answerRevisit(move) {
  const r = await api.revisitAnswer(revisit.match, revisit.hand, revisit.index, move);
  renderRevisitAnswer(r);
  document.body.dataset.answered = r.remark.rating;
  focusAnswer = true;
  return r.table;
}

function alternativesTable(remark) {
  const t = el("table", null, "coach-alts");
  const cap = el("caption", "What the coach weighed (expected points for you by the end of the hand)");
  const head = el("tr");
  ["Move", "Points", "You win", "Deadwood after"].forEach((h) => {
    const th = el("th", h);
    th.scope = "col";
    head.append(th);
  });
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const a of remark.alternatives) {
    const tr = el("tr");
    if (a.move === remark.move) tr.className = "yours";
    if (a.move === remark.best) tr.classList.add("best");
    const label = a.move === remark.move ? `${a.words} (your move)` : a.words;
    const th = el("th", label);
    th.scope = "row";
    tr.append(th, el("td", (a.value >= 0 ? "+" : "") + a.value.toFixed(1)),
      el("td", `${Math.round(a.win_chance * 100)}%`), el("td", a.deadwood === null ? "" : String(a.deadwood)));
    tbody.append(tr);
  }
  t.append(cap, thead, tbody);
  return t;
}

function renderRevisitAnswer(r) {
  const box = $("revisit-answer");
  const remark = r.remark;
  const parts = [];
  const head = el("h3", null, `verdict ${remark.rating === "good" ? "ok" : "no"}`);
  head.append(badge(remark.rating), ` You chose to ${remark.words}.`);
  parts.push(head, el("p", remark.reason));
  const better = betterLine(remark);
  if (better) parts.push(el("p", better.textContent.trim()));
  parts.push(el("p", `What follows: ${r.outcome}`, "muted"));
  const played = el("p", null, "coach-played");
  played.append(el("strong", "In the game: "), `you chose to ${r.played.words} `, badge(r.played.rating), ` ${r.played.reason}`);
  parts.push(played, alternativesTable(remark));
  parts.push(el("h4", `The computer held (deadwood ${r.opponent.deadwood})`));
  parts.push(handInMelds(r.opponent, "The computer's", "meld-rows lesson-opp"));
  box.replaceChildren(...parts);
  box.hidden = false;
}

async function exitRevisit() {
  table.hooks.mover = null;
  revisit = null;
  delete document.body.dataset.mode;
  delete document.body.dataset.answered;
  $("revisit").hidden = true;
  await table.resume();
}

// ---------------------------------------------------------------------------------------------
// A sample situation's answer: the coach's view of the learner's move.

async function lessonCoach(situation, move) {
  const box = $("lesson-answer");
  const holder = el("div", null, "coach-lesson");
  holder.append(el("h4", "The coach's view"), el("p", "The coach is weighing the alternatives…", "muted small"));
  box.append(holder);
  try {
    const remark = await api.lessonCoach(situation, move);
    const p = el("p");
    p.append(badge(remark.rating), " ", remark.reason);
    const better = betterLine(remark);
    if (better) p.append(better);
    holder.replaceChildren(holder.firstChild, p);
  } catch (err) {
    holder.replaceChildren(holder.firstChild, el("p", err.message, "muted small"));
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring.

function afterMove(state, info) {
  if (info.mover || document.body.dataset.mode) return;
  // At a table for two people the coach is off while the match is played (the server says
  // 409); after it, each hand's review covers this person's own decisions.
  const people = state.opponent === "person";
  if (people && !["over", "abandoned"].includes(state.status)) { hideReview(); clearRemark(); return; }
  // No hand yet (the first deal waits for the client seed): nothing to review.
  const over = Boolean(state.hand && state.hand.result);
  if (!over) hideReview();
  if (state.status === "abandoned") { clearRemark(); return; }
  if (on && info.own) fetchRemark(state);
  else if (info.own && !over) assessAhead(state);
  if (!info.own) clearRemark();
  if (over) showReview(state);
}

function afterDraw() {
  if (document.body.dataset.mode !== "revisit" && !$("revisit").hidden) {
    // Another mode (a sample situation) took the table over.
    $("revisit").hidden = true;
    revisit = null;
  }
  if (focusAnswer && !$("revisit-answer").hidden) {
    focusAnswer = false;
    $("revisit-answer").focus();
  }
}

export function setupCoach(lent) {
  table = lent;
  table.hooks.afterMove = afterMove;
  table.hooks.onLessonAnswer = lessonCoach;
  const learnAfterDraw = table.hooks.afterDraw;
  table.hooks.afterDraw = (state, ui, busy) => {
    if (learnAfterDraw) learnAfterDraw(state, ui, busy);
    afterDraw();
  };
  on = localStorage.getItem(COACH_KEY) === "on";
  const btn = $("coach-toggle");
  btn.setAttribute("aria-pressed", String(on));
  btn.textContent = on ? "Coach: on" : "Coach: off";
  document.body.dataset.coach = on ? "on" : "off";
  btn.addEventListener("click", () => setOn(!on));
  $("revisit-retry").addEventListener("click", () => revisit && openRevisit(revisit.match, revisit.hand, revisit.index));
  $("revisit-exit").addEventListener("click", exitRevisit);
}
