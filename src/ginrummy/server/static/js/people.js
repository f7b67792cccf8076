// Tables for two people in the page: the invite (link, code, copy, share), the live event stream
// (fetch + ReadableStream with the bearer header, resumed with Last-Event-ID after a drop), the
// other person's name and presence, the clocks, resign and rematch, and "waiting for <name>'s
// seed" between hands. app.js draws the table as for the computer and calls renderPeople after.

import { api, readEvents } from "./api.js";
import { whenClosed } from "./dialogs.js";
import { endingText } from "./panels.js";
import { observe, rememberSeed } from "./sealed.js";
import { randomClientSeed } from "./verify.js";

const $ = (id) => document.getElementById(id);

let table = null;        // what app.js lends: current(), refresh(), open(id), announce(text)
let live = null;         // the stream being read: {match, abort, lastId}
let presence = null;     // the newest presence data of the watched match
let clock = null;        // {key, at, left, seats, limit}: the clock as last received
let ticker = null;
let openedRematch = null;
// The client seed this page is about to send by itself: {key, due (ms), timer}.
let autoSeed = null;

/** Seconds a finished hand's result stays on the table before this page sends its seed for
 * the next deal by itself (Next hand sends it at once). No clock runs meanwhile. */
export const NEXT_HAND_SECONDS = 10;

export const isPeople = (state) => Boolean(state && state.opponent === "person");

const playing = (state) => isPeople(state) && !["over", "abandoned"].includes(state.status);

/** The other person's name, or "your friend" while the seat is free. */
export function otherName(state) {
  const names = state.people ? state.people.names : [];
  return names[1 - state.seat] || "your friend";
}

export function inviteLink(invite) {
  return `${location.origin}/?invite=${encodeURIComponent(invite)}`;
}

/** The invite in this page's address (`/?invite=…` or `/join/…`), or null. */
export function inviteFromUrl() {
  const query = new URLSearchParams(location.search).get("invite");
  if (query) return query;
  const m = location.pathname.match(/^\/join\/([^/]+)$/);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Ask a newcomer for a name (the name dialog); resolves with the name typed. */
export function askName() {
  const dialog = $("dlg-name");
  const input = $("name-input");
  return new Promise((resolve) => {
    $("name-form").onsubmit = (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      dialog.close();
      resolve(name);
    };
    dialog.addEventListener("cancel", (ev) => ev.preventDefault());
    dialog.showModal();
    input.focus();
  });
}

// ---------------------------------------------------------------------------------------------
// The live stream.

function stopLive() {
  if (live) live.abort.abort();
  live = null;
  presence = null;
}

async function follow(matchId) {
  const me = { match: matchId, abort: new AbortController(), lastId: null };
  live = me;
  let delay = 500;
  while (live === me) {
    try {
      await readEvents(matchId, me.lastId, me.abort.signal, (ev) => {
        delay = 500;
        if (live !== me) return;
        document.body.dataset.live = "open";
        const data = JSON.parse(ev.data);
        if (ev.event === "version") {
          if (ev.id !== null) me.lastId = ev.id;
          const st = table.current();
          if (st && st.id === matchId && data.version > st.version) table.refresh();
        } else if (ev.event === "presence") {
          presence = data;
          const st = table.current();
          if (st && st.id === matchId) drawPresence(st);
        }
      });
    } catch (err) {
      if (live !== me || me.abort.signal.aborted) return;
      // 404: the match is no longer this person's; nothing to follow.
      if (err.status === 404 || err.status === 401) { if (live === me) live = null; return; }
    }
    if (live !== me) return;
    document.body.dataset.live = "reconnecting";
    // After a drop: wait a little (longer each time, up to 15 s), then resume from the last
    // version seen; a refetch catches anything missed in between.
    await new Promise((resolve) => { window.setTimeout(resolve, delay); });
    delay = Math.min(delay * 2, 15000);
    if (live === me) table.refresh();
  }
}

function watch(state) {
  const want = isPeople(state) && state.status !== "abandoned" ? state.id : null;
  if (live && live.match === want) return;
  stopLive();
  if (want) follow(want);
}

// ---------------------------------------------------------------------------------------------
// Presence and clocks.

function ago(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

function drawPresence(state) {
  const out = $("people-presence");
  const other = 1 - state.seat;
  const name = otherName(state);
  if (!state.people.names[other]) { out.textContent = ""; out.dataset.here = ""; return; }
  const row = presence && presence.match === state.id
    ? presence.seats.find((s) => s.seat === other) : null;
  let here = row ? row.here : Boolean(state.people.present && state.people.present[other]);
  let text = here ? `${name} is here` : `${name} is away`;
  if (row && !row.here) text = row.last_seen ? `${name} left ${ago(row.last_seen)}` : `${name} has not opened the table yet`;
  if (!row) here = Boolean(here);
  out.textContent = `· ${text}`;
  out.dataset.here = String(here);
}

function drawClock() {
  const state = table && table.current();
  const out = $("people-clock");
  if (!state || !clock || clock.key !== `${state.id}/${state.version}` || !clock.seats.length || !playing(state)) {
    out.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(clock.left - (performance.now() - clock.at) / 1000));
  const mine = clock.seats.includes(state.seat);
  const theirs = clock.seats.includes(1 - state.seat);
  const who = mine && theirs ? "Both clocks" : mine ? "Your clock" : `${otherName(state)}'s clock`;
  out.hidden = false;
  out.textContent = `${who}: ${left} s`;
  out.dataset.mine = String(mine);
  out.dataset.left = String(left);
}

// ---------------------------------------------------------------------------------------------
// The panel.

const ENDED = {
  resigned: ["resigned", "resigned"],
  time: ["ran out of time", "ran out of time"],
  left: ["left the table", "left the table"],
};

function endedText(state) {
  const p = state.people;
  if (!p.ended) return state.status === "over" && state.score.outcome ? `The match is over. ${state.score.outcome}.` : "";
  const loser = p.winner === null || p.winner === undefined ? null : 1 - p.winner;
  const what = (ENDED[p.ended] || [p.ended])[0];
  if (loser === null) return `The match is over with no winner: both ${p.ended === "time" ? "clocks ran out" : "seats left"}.`;
  return loser === state.seat
    ? `The match is over: you ${what}, so ${otherName(state)} wins (a forfeit).`
    : `The match is over: ${otherName(state)} ${what}, so you win (a forfeit).`;
}

function drawRematch(state) {
  const btn = $("btn-rematch");
  const over = ["over", "abandoned"].includes(state.status) && Boolean(state.people.names[1 - state.seat]);
  btn.hidden = !over;
  if (!over) return;
  const offer = state.people.rematch_offer;
  if (state.people.rematch) {
    btn.textContent = "Go to the rematch";
    btn.disabled = false;
  } else if (offer === state.seat) {
    btn.textContent = `Rematch offered: waiting for ${otherName(state)}`;
    btn.disabled = true;
  } else if (offer === 1 - state.seat) {
    btn.textContent = `Accept ${otherName(state)}'s rematch`;
    btn.disabled = false;
  } else {
    btn.textContent = "Offer a rematch";
    btn.disabled = false;
  }
}

function drawSeeds(state) {
  const wait = $("people-wait");
  const p = state.people;
  const between = state.status === "between_hands" && p.names[1 - state.seat];
  const mineIn = Boolean(between && p.seeds_in[state.seat]);
  const theirsIn = Boolean(between && p.seeds_in[1 - state.seat]);
  const soon = autoSeed && autoSeed.key === seedKey(state)
    ? Math.max(0, Math.ceil((autoSeed.due - Date.now()) / 1000)) : null;
  wait.hidden = !between || !state.hand;
  wait.textContent = wait.hidden ? ""
    : mineIn ? `Dealing as soon as ${otherName(state)} is ready…`
      : soon !== null ? `Next hand in ${soon} s${theirsIn ? ` (${otherName(state)} is ready)` : ""}: press Next hand to deal now.`
        : "Dealing the next hand…";
  wait.dataset.waiting = String(mineIn);
  // A seed once sent cannot change: the field shows it, and the deal buttons step aside.
  const input = $("client-seed");
  if (input && mineIn && p.your_seed !== null) { input.value = p.your_seed; input.readOnly = true; }
  $("btn-deal").hidden = mineIn;
  $("btn-next").hidden = mineIn;
}

function seedKey(state) {
  const next = state.meta && state.meta.sealed && state.meta.sealed.next;
  return next ? `${state.id}/${next.hand}` : null;
}

function cancelAutoSeed() {
  if (autoSeed) window.clearTimeout(autoSeed.timer);
  autoSeed = null;
}

/** Send this page's client seed for the hand waiting to be dealt: at once before the first
 * hand (nothing to read yet), after NEXT_HAND_SECONDS once a hand is over (the person reads
 * its result; Next hand sends it sooner). No person ever has to press Deal. */
function scheduleSeed(state) {
  const p = state.people;
  const key = seedKey(state);
  const owed = key && ["waiting", "between_hands"].includes(state.status) && !p.seeds_in[state.seat];
  if (!owed) { cancelAutoSeed(); return; }
  if (autoSeed && autoSeed.key === key) return;
  cancelAutoSeed();
  const delay = state.hand ? NEXT_HAND_SECONDS * 1000 : 0;
  const mine = { key, due: Date.now() + delay, timer: 0 };
  mine.timer = window.setTimeout(() => {
    if (autoSeed !== mine) return;
    const st = table.current();
    if (!st || seedKey(st) !== key) return;
    if (st.hand) table.deal(); else sendFirstSeed(st, mine);
  }, delay);
  autoSeed = mine;
}

async function sendFirstSeed(state, mine) {
  const next = state.meta.sealed.next;
  const seed = randomClientSeed();
  rememberSeed(state.id, next.hand, seed);
  try {
    table.show(await api.nextHand(state.id, state.version, seed));
  } catch (err) {
    if (autoSeed === mine) autoSeed = null;  // tried again on the next drawing
    if (err.status !== 409) $("people-status").textContent = err.message;
  }
}

// The server's sentences name the other seat "Computer" (its Who fields are from your side):
// at a table for two the page says the other person's name instead.
const NAMED = ["prompt", "last-move", "end-title", "end-text", "end-match", "totals", "log", "reason", "sheet"];

function nameTheOther(state) {
  const name = otherName(state);
  const swap = (text) => text.replace(/\b[Tt]he computer\b|\b[Cc]omputer\b/g, name);
  for (const id of NAMED) {
    const root = $(id);
    if (!root) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = swap(node.nodeValue);
      if (text !== node.nodeValue) node.nodeValue = text;
    }
  }
}

/** Draw the people parts of the table (called after every drawing of the table). */
export function renderPeople(state) {
  const people = isPeople(state);
  document.body.dataset.opponent = people ? "person" : "computer";
  document.body.dataset.peopleLive = String(playing(state));
  $("people").hidden = !people;
  for (const id of ["btn-learn", "btn-strategy"]) {
    $(id).disabled = playing(state);
    $(id).title = playing(state) ? "The learning tools wait until the match against a person is over." : "";
  }
  watch(state);
  if (!people) {
    clock = null;
    cancelAutoSeed();
    $("btn-deal").hidden = false;
    $("btn-next").hidden = false;
    return;
  }
  const p = state.people;
  const waiting = state.status === "waiting";
  $("invite-box").hidden = !waiting;
  if (waiting) {
    $("invite-link").value = inviteLink(state.invite);
    $("invite-code").textContent = p.code;
    $("invite-share").hidden = typeof navigator.share !== "function";
    $("prompt").textContent = "Waiting for your friend to join.";
  }
  $("people-bar").hidden = waiting;
  $("people-you").textContent = `${p.names[state.seat]} (you)`;
  $("people-other").textContent = otherName(state);
  drawPresence(state);
  const key = `${state.id}/${state.version}`;
  if (!clock || clock.key !== key) {
    clock = p.clock && p.clock.seats ? { key, at: performance.now(), left: p.clock.seconds_left || 0, seats: p.clock.seats } : null;
  }
  drawClock();
  scheduleSeed(state);
  drawSeeds(state);
  const ended = [endedText(state), p.unrated_why || ""].filter(Boolean).join(" ");
  $("people-ended").hidden = !ended;
  $("people-ended").textContent = ended;
  $("btn-resign").hidden = !playing(state) || waiting;
  drawRematch(state);
  // Names in place of "Computer" where the table names the other seat.
  const end = document.querySelector("#hand-end .end-seat:last-child h3");
  if (end && end.firstChild) end.firstChild.textContent = `${otherName(state)}'s hand `;
  if (state.status === "over" && !state.hand) $("prompt").textContent = "The match is over.";
  nameTheOther(state);
  if (p.rematch && openedRematch !== p.rematch) {
    openedRematch = p.rematch;
    table.open(p.rematch);
  }
}

// ---------------------------------------------------------------------------------------------
// Taking a seat: the table's terms first, and the person's yes before anything of theirs ends.

const CLOCKS = { 30: "30 seconds a move", 60: "60 seconds a move", 120: "2 minutes a move" };

/** Read the table of `code` and ask whether to take its seat. Resolves with the join's body
 * ({client_seed, forfeit_current}) for a yes, {mine: match id} when the person sits there
 * already, or null; throws the server's error (an unknown invite). `current`: the person's
 * match in progress, whose end the window says before the button does. */
export async function askToJoin(code, current) {
  const terms = await api.invite(code);
  if (terms.seat !== "free") return { mine: terms.match_id };
  // The first hand's commitment is shown before this page chooses its seed: kept as seen.
  observe({ id: terms.match_id, meta: { sealed: terms.sealed }, hand: null });
  const dialog = $("dlg-join");
  const rows = [
    ["Opponent", terms.creator],
    ["Rules", terms.rules.name],
    ["Clock", terms.clock ? CLOCKS[terms.clock] || `${terms.clock} s a move` : "none: take your time"],
  ];
  $("join-title").textContent = `Join ${terms.creator}'s table?`;
  $("join-terms").replaceChildren(...rows.flatMap(([label, value]) => [
    Object.assign(document.createElement("dt"), { textContent: label }),
    Object.assign(document.createElement("dd"), { textContent: value }),
  ]));
  const ending = terms.current
    ? endingText(current, "Joining") || `Joining ends your match in progress. ${terms.current.ends}` : null;
  $("join-warning").hidden = !ending;
  $("join-warning").textContent = ending || "";
  $("join-yes").textContent = ending ? "End my match and join" : "Join";
  $("join-error").textContent = "";
  let said = false;
  $("join-form").onsubmit = (ev) => { ev.preventDefault(); said = true; dialog.close(); };
  $("join-no").onclick = () => dialog.close();
  const seed = randomClientSeed();
  const hand = terms.sealed && terms.sealed.next ? terms.sealed.next.hand : 1;
  const answer = whenClosed(dialog, () => {
    if (!said) return null;
    rememberSeed(terms.match_id, hand, seed);
    return { client_seed: seed, forfeit_current: Boolean(terms.current) };
  });
  dialog.showModal();
  $("join-title").focus();
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Wiring.

async function copyLink() {
  const link = $("invite-link").value;
  try {
    await navigator.clipboard.writeText(link);
    $("invite-status").textContent = "The link is copied.";
  } catch {
    $("invite-link").select();
    $("invite-status").textContent = "Copy the selected link (Ctrl+C).";
  }
}

async function shareLink() {
  const state = table.current();
  try {
    await navigator.share({ title: "Gin rummy", text: `Play gin rummy with me (code ${state.people.code})`, url: $("invite-link").value });
  } catch { /* cancelled */ }
}

async function resign() {
  const state = table.current();
  if (!playing(state)) return;
  if (!window.confirm(`Resign this match? ${otherName(state)} wins, and it counts in both histories.`)) return;
  try {
    table.show(await api.resign(state.id));
  } catch (err) {
    $("people-status").textContent = err.message;
  }
}

async function rematch() {
  const state = table.current();
  if (state.people.rematch) { table.open(state.people.rematch); return; }
  try {
    table.show(await api.rematch(state.id));
  } catch (err) {
    $("people-status").textContent = err.message;
  }
}

export function setupPeople(lent) {
  table = lent;
  $("invite-copy").addEventListener("click", copyLink);
  $("invite-share").addEventListener("click", shareLink);
  $("btn-resign").addEventListener("click", resign);
  $("btn-rematch").addEventListener("click", rematch);
  ticker = window.setInterval(() => {
    drawClock();
    if (autoSeed && table.current()) drawSeeds(table.current());
    const state = table.current();
    if (isPeople(state) && !$("people-bar").hidden) drawPresence(state);
  }, 1000);
  return ticker;
}
