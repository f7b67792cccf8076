// Sealed deals in the page (docs/sealed-deals.md): before each deal the server's commitment and
// a client seed drawn here with crypto.getRandomValues (the player may type their own); after
// the hand the revealed server seed, the record to download, and "Verify this deal", which
// recomputes the deck with the page's own verify.js (WebCrypto) and compares it with the cards
// this page saw.
//
// What the page saw is kept in localStorage as a small "witness" per hand: the commitment shown
// before the deal, the client seed the page sent, the cards dealt to the player and the upcard.
// The check uses the witness, not what the server reports afterwards, wherever it has it.

import { api } from "./api.js";
import { combineClientSeeds, randomClientSeed, verifyHand, VERSION } from "./verify.js";

const $ = (id) => document.getElementById(id);
const WITNESS_KEY = "ginrummy.sealed";

// ---------------------------------------------------------------------------------------------
// The witness.

function readWitness(matchId) {
  try {
    const data = JSON.parse(localStorage.getItem(WITNESS_KEY) || "null");
    if (data && data.match === matchId && data.hands && typeof data.hands === "object") return data;
  } catch { /* a broken entry is replaced */ }
  return { match: matchId, hands: {} };
}

function writeWitness(data) {
  try { localStorage.setItem(WITNESS_KEY, JSON.stringify(data)); } catch { /* storage full: no witness */ }
}

function handWitness(data, number) {
  if (!data.hands[number]) data.hands[number] = {};
  return data.hands[number];
}

/** Note what this state shows: a commitment before its deal, the cards first dealt. */
export function observe(state) {
  const sealed = state && state.meta && state.meta.sealed;
  if (!sealed) return;
  const data = readWitness(state.id);
  if (sealed.next) {
    const w = handWitness(data, sealed.next.hand);
    // The first commitment shown for a hand is the one kept: a later, different one is what
    // the check must catch.
    if (!w.commitment) {
      w.commitment = sealed.next.commitment;
      w.dealerSeat = sealed.next.dealer_seat;
      w.nonce = sealed.next.nonce;
    }
  }
  const hand = state.hand;
  if (hand && sealed.hand && hand.phase !== "over") {
    const w = handWitness(data, hand.number);
    const moved = hand.history.some((m) => m.who === "you");
    if (!w.dealt && !moved) {
      w.dealt = [...hand.cards];
      w.upcard = hand.upcard;
    }
  }
  writeWitness(data);
}

/** Note the client seed this page sends for a hand (the check compares it with the record). */
export function rememberSeed(matchId, number, seed) {
  const data = readWitness(matchId);
  handWitness(data, number).clientSeed = seed;
  writeWitness(data);
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers.

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  const { role, ...rest } = props;
  Object.assign(node, rest);
  if (role) node.setAttribute("role", role);
  node.append(...children);
  return node;
}

function facts(rows) {
  const dl = el("dl", { className: "seal-facts" });
  for (const [label, value, mono] of rows) {
    dl.append(el("dt", { textContent: label }),
      el("dd", {}, mono ? el("code", { textContent: value }) : value));
  }
  return dl;
}

let otherSeatName = "the computer";

function dealerText(sealed, yourSeat) {
  return sealed.dealer_seat === yourSeat ? `you (seat ${sealed.dealer_seat})`
    : `${otherSeatName} (seat ${sealed.dealer_seat})`;
}

const short = (hex) => `${hex.slice(0, 16)}…`;

// ---------------------------------------------------------------------------------------------
// Before a deal: the commitment and the client seed.

let seedBox = null; // the box of the hand waiting to be dealt, kept while the player types

function buildSeedBox(key, upcoming, yourSeat, seed = null) {
  const input = el("input", {
    id: "client-seed", type: "text", autocomplete: "off", spellcheck: false,
    value: seed === null ? randomClientSeed() : seed,
  });
  input.setAttribute("aria-describedby", "seed-help seed-error");
  input.setAttribute("autocapitalize", "off");
  const again = el("button", { type: "button", id: "seed-random", className: "chip", textContent: "New random seed" });
  again.addEventListener("click", () => {
    input.value = randomClientSeed();
    showSeedError("");
  });
  const box = el("section", { className: "seal-next", id: "seal-next" },
    el("h3", { id: "seal-next-title", textContent: `Hand ${upcoming.hand}: your part of the shuffle` }),
    el("p", { className: "small", textContent: "Before shuffling, the server has committed to its secret seed with this hash. " +
      "The deck will come from its seed and yours together; its seed is shown when the hand is over, so you can check the deal." }),
    facts([
      ["Commitment", upcoming.commitment, true],
      ["Dealer", dealerText(upcoming, yourSeat)],
      ["Nonce", String(upcoming.nonce)],
      ["Algorithm", upcoming.version],
    ]),
    el("label", { htmlFor: "client-seed", className: "seed-label", textContent: "Your client seed" }),
    el("div", { className: "seed-row" }, input, again),
    el("p", { id: "seed-help", className: "small muted", textContent: "Drawn at random in your browser. Keep it, or type your own " +
      "(1 to 256 bytes, no space at either end)." }),
    el("p", { id: "seed-error", className: "reason", role: "alert" }));
  box.setAttribute("aria-labelledby", "seal-next-title");
  box.dataset.key = key;
  box.dataset.commitment = upcoming.commitment;
  return box;
}

/** The client seed to deal with: the field's text, or null when the deal is not sealed. */
export function clientSeedFor(state) {
  const sealed = state && state.meta && state.meta.sealed;
  const input = $("client-seed");
  if (!sealed || !sealed.next || !input) return null;
  rememberSeed(state.id, sealed.next.hand, input.value);
  return input.value;
}

/** Show why a client seed was refused beside the field (returns false if there is none). */
export function showSeedError(text) {
  const out = $("seed-error");
  const input = $("client-seed");
  if (!out || !input) return false;
  out.textContent = text;
  input.setAttribute("aria-invalid", String(Boolean(text)));
  if (text) {
    const details = input.closest("details");
    if (details) details.open = true;
    input.focus();
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// After the hand: the revealed seal, the record, and the check.

function revealedBlock(state, sealed) {
  const s = sealed.hand;
  const download = el("button", { type: "button", id: "btn-record", className: "chip seal-btn", textContent: "Download the record" });
  download.addEventListener("click", () => downloadRecord(state));
  const box = el("section", { className: "seal-revealed" },
    el("h3", { id: "seal-done-title", textContent: `Hand ${s.hand}: the server seed is revealed` }),
    facts([
      ["Commitment", s.commitment, true],
      ["Server seed", s.server_seed, true],
      ...(s.client_seeds ? [
        ["Your client seed", s.client_seeds[sealed.your_seat], true],
        ["The other person's seed", s.client_seeds[1 - sealed.your_seat], true],
        ["Both combined", s.client_seed, true],
      ] : [["Client seed", s.client_seed, true]]),
      ["Nonce", String(s.nonce)],
      ["Dealer", dealerText(s, sealed.your_seat)],
      ["Algorithm", s.version],
    ]),
    el("div", { className: "seal-actions" }, download),
    el("p", { className: "small muted", textContent: "Check it offline too: ginrummy verify RECORD." }));
  box.setAttribute("aria-labelledby", "seal-done-title");
  return box;
}

async function downloadRecord(state) {
  const out = $("seal-status");
  try {
    const text = await api.record(state.id, state.hand.number);
    const url = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    const a = el("a", { href: url, download: `ginrummy-${state.id}-hands-1-${state.hand.number}.toml` });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10000);
    if (out) out.textContent = "The record is downloaded.";
  } catch (err) {
    if (out) out.textContent = err.message;
  }
}

// The hand's check, run once in this browser when the hand is over: its verdict is the quiet
// line "Fair deal ✓ — verify" (the details and every check are a click away).
const verdicts = new Map(); // key -> {checks, failed, notes, data} or "running"

function verdictKey(state) {
  const s = state.meta.sealed.hand;
  return `${state.id}/${s.hand}/${s.server_seed}/${(s.deck || []).join("")}`;
}

function showVerdict(state) {
  const out = $("seal-verdict");
  if (!out) return;
  const v = verdicts.get(verdictKey(state));
  if (!v || v === "running") {
    out.textContent = "Fair deal: checking…";
    out.dataset.ok = "";
  } else if (!v.failed.length) {
    out.textContent = "Fair deal ✓";
    out.dataset.ok = "true";
  } else {
    out.textContent = `Fair deal ✗ ${v.failed.length} of ${v.checks.length} checks failed`;
    out.dataset.ok = "false";
  }
}

function checkInBackground(state) {
  const key = verdictKey(state);
  if (verdicts.has(key)) { showVerdict(state); return; }
  verdicts.set(key, "running");
  showVerdict(state);
  runChecks(state).then((v) => {
    verdicts.set(key, v);
    const shown = $("seal-verdict");
    if (shown && shown.dataset.key === key) showVerdict(state);
  });
}

function quietLine(state) {
  const verify = el("button", { type: "button", id: "btn-verify", className: "linkish seal-btn", textContent: "verify" });
  verify.setAttribute("aria-label", "Verify this deal: every check in your browser");
  verify.addEventListener("click", () => openVerify(state));
  const more = el("button", { type: "button", id: "seal-more", className: "linkish seal-btn", textContent: "details" });
  more.setAttribute("aria-expanded", "false");
  more.setAttribute("aria-controls", "seal-details");
  more.addEventListener("click", () => {
    const box = $("seal-details");
    box.hidden = !box.hidden;
    more.setAttribute("aria-expanded", String(!box.hidden));
  });
  const verdict = el("span", { id: "seal-verdict", className: "seal-verdict" });
  verdict.dataset.key = verdictKey(state);
  return el("p", { className: "seal-summary" }, verdict, " — ", verify, " · ", more);
}

/** Draw the sealed parts of the table: the first deal's panel, the hand-end seal, the line. */
export function renderSealed(state, onDeal, firstSeed = null) {
  otherSeatName = state.opponent === "person" && state.people
    ? state.people.names[1 - state.seat] || "the other person" : "the computer";
  if (state.meta && (state.meta.situation || state.meta.revisit)) {
    // A sample situation (Learn panel) or a decision reopened by the coach (Revisit) is a
    // position, not a dealt hand: nothing is sealed.
    $("deal-panel").hidden = true;
    $("hand-meta").replaceChildren();
    $("deal-seal").replaceChildren();
    $("seal-line").textContent = "";
    return;
  }
  const sealed = state.meta && state.meta.sealed;
  const hand = state.hand;
  const waiting = state.status === "between_hands" && sealed && sealed.next;
  const panel = $("deal-panel");
  // A first deal waits for a press only when a seed typed in the New game window was refused;
  // at a table for two each page sends its seed by itself (people.js).
  const first = !hand && Boolean(waiting) && state.opponent !== "person";
  panel.hidden = !first;
  if (first) $("middle").hidden = true;
  $("btn-deal").onclick = onDeal;

  // The box of the next deal lives in the first-deal panel or, folded, at the hand's end.
  if (waiting) {
    const key = `${state.id}/${sealed.next.hand}`;
    if (!seedBox || seedBox.dataset.key !== key) {
      seedBox = buildSeedBox(key, sealed.next, sealed.your_seat, first ? firstSeed : null);
      seedBox.querySelector("input").addEventListener("keydown", (ev) => {
        if (ev.key === "Enter") { ev.preventDefault(); onDeal(); }
      });
    }
  } else {
    seedBox = null;
  }
  // A hand's seal is revealed and checked once the hand is over or, cut short by the match's
  // end (a resignation, a forfeit), once the match is: the quiet line and its details then sit
  // at the hand's end or, when the hand has no end of its own, in the score panel's seal line.
  const revealed = Boolean(sealed && sealed.hand && sealed.hand.server_seed);
  const cutShort = Boolean(hand && !hand.result && revealed);
  const meta = $("hand-meta");
  if (hand && hand.result) {
    const parts = [];
    if (!sealed) {
      parts.push(el("p", { className: "small", textContent: "This match was started before sealed deals: its hands are not sealed." }));
    }
    meta.replaceChildren(...parts, ...revealedParts(state, revealed, seedBox));
  } else {
    meta.replaceChildren();
  }
  $("deal-seal").replaceChildren(...(first && seedBox ? [seedBox] : []));

  const line = $("seal-line");
  line.title = "";
  if (cutShort) {
    line.replaceChildren(
      el("p", { className: "small", textContent: `Hand ${hand.number} was cut short by the end of the match; its deal is revealed.` }),
      ...revealedParts(state, true, null));
  } else if (sealed && hand && sealed.hand && !hand.result) {
    // One plain sentence; the commitment and the seed are one tap away.
    const yours = sealed.hand.client_seeds ? sealed.hand.client_seeds[sealed.your_seat] : sealed.hand.client_seed;
    const more = el("details", { className: "seal-line-more", id: "seal-line-more" },
      el("summary", { textContent: "details" }),
      el("span", { textContent: `Sealed deal: commitment ${short(sealed.hand.commitment)}, your seed “${yours}”.` }));
    const wasOpen = $("seal-line-more") ? $("seal-line-more").open : false;
    more.open = wasOpen;
    more.title = sealed.hand.commitment;
    line.replaceChildren(el("span", { textContent: "Fair deal: these cards were fixed before the deal, and nobody can change them. " }), more);
  } else {
    line.textContent = "";
  }
  if (revealed && hand && (hand.result || cutShort)) checkInBackground(state);
  const more = $("seal-more");
  if (more) more.setAttribute("aria-expanded", String(!$("seal-details").hidden));
}

/** The revealed hand's quiet line and its folded details (kept open across redraws), with the
 * next deal's seed box when there is one. */
function revealedParts(state, revealed, box) {
  const parts = [];
  const open = $("seal-details") ? !$("seal-details").hidden : false;
  const details = el("div", { id: "seal-details", className: "seal-details" });
  details.hidden = !open;
  if (revealed) {
    parts.push(quietLine(state));
    details.append(revealedBlock(state, state.meta.sealed), el("p", { id: "seal-status", className: "small", role: "status" }));
  }
  if (box) details.append(box);
  if (details.childElementCount) parts.push(details);
  return parts;
}

// ---------------------------------------------------------------------------------------------
// "Verify this deal".

const LABELS = {
  seen: "Commitment shown before the deal",
  seed: "Your client seed",
  combined: "Both seeds combined",
  nonce: "Nonce",
  inputs: "Inputs",
  version: "Algorithm",
  commitment: "Commitment",
  deck: "Deck",
  hands: "Your dealt cards",
  upcard: "Upcard",
  draws: "Cards drawn from the stock",
};

/** The inputs of the check, preferring what this page saw to what the server reports now. */
export async function verifyInputs(state) {
  const sealed = state.meta.sealed;
  const s = sealed.hand;
  const hand = state.hand;
  const w = readWitness(state.id).hands[hand.number] || {};
  const extra = [];
  const notes = [];
  const yourSeat = sealed.your_seat;
  const dealerSeat = hand.dealer === "you" ? yourSeat : 1 - yourSeat;
  if (w.commitment) {
    const same = w.commitment === s.commitment;
    extra.push({ check: "seen", ok: same, detail: same
      ? "the commitment reported now is the one this page showed before the deal"
      : `this page was shown ${w.commitment} before the deal, but the server now reports ${s.commitment}` });
  } else {
    notes.push("This browser did not keep the commitment shown before this deal (the hand was dealt elsewhere, or the storage was cleared): the commitment checked is the one the server reports.");
  }
  const own = s.client_seeds ? s.client_seeds[yourSeat] : s.client_seed;
  let clientSeed = w.clientSeed !== undefined ? w.clientSeed : s.client_seed;
  if (s.client_seeds) {
    // Two people: this page's own seed, the other's as revealed, combined here.
    const mine = w.clientSeed !== undefined ? w.clientSeed : own;
    const pair = yourSeat === 0 ? [mine, s.client_seeds[1]] : [s.client_seeds[0], mine];
    try {
      clientSeed = await combineClientSeeds(pair[0], pair[1]);
      const same = clientSeed === s.client_seed;
      extra.push({ check: "combined", ok: same, detail: same
        ? "both people's seeds, combined in this browser, give the seed the deck was shuffled with"
        : `both seeds combine to ${clientSeed}, but the server reports ${s.client_seed}` });
    } catch (err) {
      extra.push({ check: "combined", ok: false, detail: err.message });
    }
  }
  if (w.clientSeed !== undefined) {
    const same = w.clientSeed === own;
    extra.push({ check: "seed", ok: same, detail: same
      ? `the deal used the client seed this page sent, “${w.clientSeed}”`
      : `this page sent “${w.clientSeed}”, but the server reports “${own}”` });
  } else {
    notes.push("This browser did not send this hand's client seed: the seed checked is the one the server reports.");
  }
  const nonceOk = s.nonce === hand.number;
  extra.push({ check: "nonce", ok: nonceOk, detail: nonceOk
    ? `the nonce is the hand's number, ${hand.number}`
    : `the nonce is ${s.nonce}, but this is hand ${hand.number}` });
  if (!w.dealt) notes.push("This browser did not see this hand's first cards, so your dealt cards are checked only through the deck.");
  const dealt = w.dealt || null;
  const data = {
    serverSeed: s.server_seed,
    clientSeed,
    nonce: hand.number,
    dealer: dealerSeat,
    commitment: w.commitment || s.commitment,
    version: s.version,
    deck: s.deck,
    upcard: w.upcard || hand.upcard,
    draws: hand.history.filter((m) => m.kind === "draw").map((m) => m.card),
  };
  if (dealt) data.hands = yourSeat === 0 ? [dealt, null] : [null, dealt];
  return { data, extra, notes };
}

/** Every check of the hand, run in this browser: what the page saw against what was revealed. */
export async function runChecks(state) {
  const { data, extra, notes } = await verifyInputs(state);
  let result;
  try {
    result = await verifyHand(data);
  } catch (err) {
    result = { ok: false, checks: [{ check: "inputs", ok: false, detail: err.message }] };
  }
  const checks = [...extra, ...result.checks];
  return { checks, failed: checks.filter((c) => !c.ok), notes, data };
}

/** Run the check in this browser and show every check, passed or failed. */
export async function openVerify(state) {
  const dialog = $("dlg-verify");
  const summary = $("verify-summary");
  const list = $("verify-checks");
  summary.textContent = "Checking…";
  list.replaceChildren();
  dialog.dataset.result = "running";
  for (const b of dialog.querySelectorAll("button.close")) b.onclick = () => dialog.close();
  if (!dialog.open) dialog.showModal();
  $("verify-title").focus();
  const { checks, failed, notes, data } = await runChecks(state);
  list.replaceChildren(...checks.map((c) => {
    const li = el("li", { className: c.ok ? "pass" : "fail" },
      el("span", { className: "verdict", textContent: c.ok ? "✓ Passed" : "✗ Failed" }), " ",
      el("strong", { textContent: LABELS[c.check] || c.check }), `: ${c.detail}.`);
    li.dataset.check = c.check;
    li.dataset.ok = String(c.ok);
    return li;
  }));
  const number = state.hand.number;
  // One plain sentence first; the checks themselves are one tap away (opened by a failure).
  summary.textContent = failed.length === 0
    ? `Yes. The cards of hand ${number} were fixed before the deal began, and nobody could change them: your browser checked it itself (${checks.length} checks passed).`
    : `No: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => LABELS[c.check] || c.check).join(", ")}. Hand ${number} was not dealt as sealed.`;
  $("verify-more").open = failed.length > 0;
  if (notes.length) summary.append(...notes.map((n) => el("span", { className: "note", textContent: ` ${n}` })));
  $("verify-data").replaceChildren(...facts([
    ["Algorithm", data.version || VERSION],
    ["Server seed", data.serverSeed, true],
    ["Client seed", data.clientSeed, true],
    ["Nonce", String(data.nonce)],
    ["Dealer seat", String(data.dealer)],
    ["Commitment", data.commitment, true],
    ["Your dealt cards", data.hands ? (data.hands[0] || data.hands[1]).join(" ") : "not seen here"],
    ["Upcard", data.upcard],
    ["Stock draws", data.draws.join(" ") || "none"],
    ["Deck reported", (data.deck || []).join(" ")],
  ]).childNodes);
  dialog.dataset.result = failed.length === 0 ? "pass" : "fail";
}
