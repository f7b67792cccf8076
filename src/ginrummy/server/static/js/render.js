// Drawing the table from the server's state. Nothing here decides a rule: legality, reasons,
// melds and deadwood all come from the server.

import { backElement, buttonName, byRank, bySuit, cardElement, name, names, shown, symbol } from "./cards.js";

const $ = (id) => document.getElementById(id);

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

/** The hand split into groups to draw: best melds first (sort "melds"), or one sorted row. */
export function handGroups(hand, sort) {
  if (sort === "rank") return [{ kind: "loose", cards: [...hand.cards].sort(byRank) }];
  if (sort === "suit") return [{ kind: "loose", cards: [...hand.cards].sort(bySuit) }];
  const groups = hand.melds.map((m) => ({ kind: "meld", cards: [...m].sort(bySuit) }));
  const loose = [...hand.deadwood_cards].sort(byRank);
  if (loose.length) groups.push({ kind: "loose", cards: loose });
  return groups;
}

/** The other seat's name: the computer, or the other person at a table for two. */
export function opponentName(state) {
  if (state.opponent !== "person" || !state.people) return "Computer";
  return state.people.names[1 - state.seat] || "Your friend";
}

export function optionFor(hand, code) {
  return hand.card_options.find((o) => o.card === code) || null;
}

function renderOpponent(state, anim) {
  const hand = state.hand;
  const count = anim ? anim.oppCount : hand.opponent.card_count;
  $("opp-title").textContent = opponentName(state);
  $("opp-count").textContent = plural(count, "card");
  $("opp-level").textContent = state.opponent === "person" ? "" : `· ${state.level}`;
  const backs = $("opp-backs");
  backs.replaceChildren(...Array.from({ length: count }, () => backElement()));
  // Every discard it picked up; the ones it has thrown back since are dimmed.
  const took = $("opp-took");
  const known = new Set(hand.opponent.known);
  const items = hand.opponent.took.map((c) => {
    const held = known.has(c);
    const el = cardElement(c, { mini: true, label: held ? `${name(c)}, still in its hand` : `${name(c)}, thrown back since` });
    el.setAttribute("role", "listitem");
    if (!held) el.classList.add("gone");
    return el;
  });
  if (!items.length) {
    const none = document.createElement("span");
    none.setAttribute("role", "listitem");
    none.textContent = "nothing yet";
    items.push(none);
  }
  took.replaceChildren(...items);
  $("opp-took-label").textContent = "Took from the discard pile:";
}

function renderPiles(state, anim, busy) {
  const hand = state.hand;
  const stockCount = anim ? anim.stock : hand.stock_count;
  const pile = anim ? anim.pile : hand.discard_pile;
  const stock = $("stock");
  // Only a live turn glows: not while the computer plays, nor in an abandoned match.
  const live = !anim && !busy && state.status === "playing";
  const canDraw = live && hand.actions.draw.enabled;
  stock.setAttribute("aria-label", `Stock, ${plural(stockCount, "card")}. ${canDraw ? "Press to draw." : ""}`.trim());
  stock.setAttribute("aria-disabled", String(!canDraw));
  stock.classList.toggle("can", canDraw);
  stock.querySelector(".card").hidden = stockCount === 0;
  $("stock-count").textContent = `Stock: ${stockCount}`;
  const discard = $("discard-pile");
  const top = pile.length ? pile[pile.length - 1] : null;
  const canTake = live && hand.actions.take.enabled;
  discard.replaceChildren(...(top ? [cardElement(top, { label: false })] : []));
  // Its name starts with the face shown, like a card of the hand ("7♣ C, discard pile, ...").
  const label = top ? `${shown(top)}, discard pile, top card ${name(top)}, ${plural(pile.length, "card")}.` : "Discard pile, empty.";
  discard.setAttribute("aria-label", `${label} ${canTake ? "Press to take it." : ""}`.trim());
  discard.setAttribute("aria-disabled", String(!canTake && !(live && hand.phase === "discard" && hand.your_turn)));
  discard.classList.toggle("can", canTake);
  $("pile-count").textContent = top ? `Discard pile (${pile.length})` : "Discard pile";
}

function renderHand(state, ui) {
  const hand = state.hand;
  const box = $("hand");
  const groups = handGroups(hand, ui.sort);
  const order = [];
  const parts = groups.map((g, gi) => {
    const wrap = document.createElement("div");
    wrap.className = `group ${g.kind}`;
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-label", g.kind === "meld" ? `Meld ${gi + 1}` : (ui.sort === "melds" ? "Deadwood" : "Cards"));
    for (const code of g.cards) {
      const el = cardElement(code, { tag: "button" });
      const isNew = code === hand.drawn || code === hand.taken;
      let label = buttonName(code);
      if (isNew) label += code === hand.taken ? ", just taken" : ", just drawn";
      el.setAttribute("aria-label", label);
      el.setAttribute("aria-pressed", String(ui.selected === code));
      el.tabIndex = -1;
      if (isNew) el.classList.add("new");
      if (hand.deadwood_cards.includes(code)) el.classList.add("deadwood-card");
      wrap.append(el);
      order.push(el);
    }
    return wrap;
  });
  box.replaceChildren(...parts);
  if (order.length) {
    const focusAt = Math.min(Math.max(ui.focusIndex, 0), order.length - 1);
    order[focusAt].tabIndex = 0;
  }
  ui.order = order.map((el) => el.dataset.card);
  const limit = hand.knock_limit === 0 ? "gin only this hand" : `knock at ${hand.knock_limit} or less`;
  $("deadwood").textContent = `Deadwood: ${hand.deadwood}` + (hand.phase !== "over" ? ` (${limit})` : "");
  for (const chip of document.querySelectorAll("[data-sort]")) {
    chip.setAttribute("aria-pressed", String(chip.dataset.sort === ui.sort));
  }
  const sel = $("selection");
  if (ui.selected) {
    const opt = optionFor(hand, ui.selected);
    const can = !opt ? "" : opt.gin ? " You can go gin with it!" : opt.knock ? " You can knock with it." : "";
    sel.textContent = opt
      ? `Selected ${symbol(ui.selected)}: discarding it leaves ${opt.deadwood_after} deadwood.${can}`
      : `Selected ${symbol(ui.selected)}.`;
  } else {
    sel.textContent = hand.your_turn && hand.card_options.length ? "Select a card to discard." : "";
  }
}

/** Whether an action button is usable now, and the one-line reason shown when it is not.
 * The reasons are the server's (the engine's own sentences when it refuses a move); the page
 * adds only its own states: busy, no hand yet, no card selected. */
export function actionState(state, ui, act, busy) {
  const hand = state.hand;
  if (busy) return { enabled: false, reason: "Wait: the computer is playing." };
  if (!hand) return { enabled: false, reason: "No hand is dealt yet: deal the first hand." };
  if (state.status === "abandoned") return { enabled: false, reason: "This match was abandoned; start a new game." };
  const general = hand.actions[act];
  if (!["discard", "knock", "gin"].includes(act)) return general;
  if (!general.enabled && !ui.selected) return general;
  if (!ui.selected) {
    const verb = { discard: "Discard", knock: "Knock", gin: "Gin" }[act];
    return { enabled: false, reason: `Select a card first, then press ${verb}.` };
  }
  const opt = optionFor(hand, ui.selected);
  return opt ? opt.actions[act] : general;
}

function renderActions(state, ui, busy) {
  for (const btn of document.querySelectorAll("[data-act]")) {
    const act = btn.dataset.act;
    const st = actionState(state, ui, act, busy);
    btn.setAttribute("aria-disabled", String(!st.enabled));
    btn.title = st.reason;
    btn.classList.toggle("hidden-act", act === "big_gin" && !state.rules.big_gin);
    // Knock, gin and big gin light up whenever they are possible with some discard.
    btn.classList.toggle("ready", !busy && Boolean(state.hand) && state.status === "playing"
      && ["knock", "gin", "big_gin"].includes(act)
      && state.hand.actions[act].enabled);
  }
}

/** A name short enough for a score sheet's column head ("Comp." for the computer). */
export function columnName(name) {
  if (name === "Computer") return "Comp.";
  return name.length > 8 ? `${name.slice(0, 7)}…` : name;
}

export function sheetTable(score, caption, other = "Computer") {
  const table = document.createElement("table");
  table.className = "sheet";
  const cap = document.createElement("caption");
  cap.className = "sr-only";
  cap.textContent = caption;
  table.append(cap);
  const holly = score.games.length > 1;
  const thead = table.createTHead();
  if (holly) {
    const r = thead.insertRow();
    r.append(th("", 2));
    score.games.forEach((g) => r.append(th(`Game ${g.index + 1}`, 2)));
  }
  const head = thead.insertRow();
  head.append(th("Hand"), th("Result"));
  score.games.forEach(() => {
    const them = th(columnName(other));
    if (them.textContent !== other) them.title = other;
    head.append(th("You"), them);
  });
  const body = table.createTBody();
  for (const row of score.rows) {
    const tr = body.insertRow();
    tr.insertCell().textContent = String(row.hand);
    const out = tr.insertCell();
    out.className = "outcome";
    out.textContent = row.outcome;
    row.running.forEach((pair, i) => {
      const a = tr.insertCell(), b = tr.insertCell();
      if (row.entered[i]) { a.textContent = String(pair[0]); b.textContent = String(pair[1]); }
      else { a.textContent = "–"; b.textContent = "–"; }
    });
  }
  const foot = table.createTFoot();
  const anyOver = score.games.some((g) => g.over);
  if (anyOver) {
    const line = (label, pick) => {
      const tr = foot.insertRow();
      tr.append(th(label, 2));
      for (const g of score.games) {
        const v = g.over ? pick(g) : ["", ""];
        const a = tr.insertCell(), b = tr.insertCell();
        a.textContent = String(v[0]); b.textContent = String(v[1]);
      }
    };
    line("Points", (g) => g.points);
    line("Game bonus", (g) => g.game_bonus);
    line("Box bonus", (g) => g.box_bonus);
    if (score.games.some((g) => g.shutout && (g.doubled[0] || g.doubled[1]))) {
      line("Shutout ×2", (g) => g.doubled.map((d) => (d ? `×2` : "")));
    }
    line("Total", (g) => g.totals);
  }
  return table;
}

function th(text, span = 1) {
  const el = document.createElement("th");
  el.textContent = text;
  el.scope = "col";
  if (span > 1) el.colSpan = span;
  return el;
}

function renderScore(state) {
  const score = state.score;
  document.body.classList.toggle("holly", score.games.length > 1);
  const box = $("totals");
  const lines = [];
  const line = (label, you, comp) => {
    const div = document.createElement("div");
    div.className = "total-line";
    div.innerHTML = "";
    const l = document.createElement("span");
    l.textContent = label;
    const v = document.createElement("span");
    v.innerHTML = "";
    const a = document.createElement("strong"); a.textContent = String(you);
    const b = document.createElement("strong"); b.textContent = String(comp);
    v.append("You ", a, ` · ${opponentName(state)} `, b);
    div.append(l, v);
    return div;
  };
  if (score.games.length === 1) {
    const g = score.games[0];
    lines.push(line(g.over ? "Final" : `To ${score.target}`, g.totals[0], g.totals[1]));
  } else {
    for (const g of score.games) {
      const el = line(`Game ${g.index + 1}${g.over ? " (over)" : ""}`, g.totals[0], g.totals[1]);
      el.classList.add("game-block");
      lines.push(el);
      if (g.over && g.outcome) {
        // Each game of Hollywood ends on its own: who won it and by how much, in the engine's words.
        const won = document.createElement("div");
        won.className = "game-outcome small";
        won.dataset.game = String(g.index + 1);
        won.textContent = `${g.outcome}.`;
        lines.push(won);
      }
    }
    lines.push(line("Match", score.totals[0], score.totals[1]));
  }
  if (score.over) {
    const p = document.createElement("p");
    p.className = "prompt match-outcome";
    p.textContent = `${score.outcome}.`;
    lines.push(p);
  }
  box.replaceChildren(...lines);
  const where = state.hand
    ? `hand ${state.hand.number}, ${state.hand.dealer === "you" ? "you dealt"
      : state.opponent === "person" ? `${opponentName(state)} dealt` : "the computer dealt"}`
    : "no hand dealt yet";
  $("rules-line").textContent = `Rules: ${state.rules.name} · ${where}`;
  $("sheet").replaceChildren(score.rows.length ? sheetTable(score, "Score sheet of this match", opponentName(state))
    : Object.assign(document.createElement("p"), { className: "muted small", textContent: "No hand finished yet." }));
  markOverflow($("sheet"), $("sheet-cue"));
}

/** A box that scrolls sideways says so (a cue, and a focusable region for the keyboard). */
export function markOverflow(box, cue) {
  const wide = box.scrollWidth > box.clientWidth + 1 && box.offsetParent !== null;
  box.classList.toggle("overflows", wide);
  if (wide) {
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Score sheet, scrolls sideways");
  } else {
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
  if (cue) cue.hidden = !wide;
}

function renderLog(state) {
  const items = state.hand.history.map((m) => {
    const li = document.createElement("li");
    li.textContent = m.text;
    return li;
  });
  $("log").replaceChildren(...items);
}

function meldRows(seat, laidOffLabel) {
  const out = [];
  seat.melds.forEach((m) => {
    const g = document.createElement("div");
    g.className = "group meld";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `meld: ${names(m)}`);
    m.forEach((c) => g.append(cardElement(c, { label: false })));
    out.push(g);
  });
  if (seat.laid_off.length) {
    const g = document.createElement("div");
    g.className = "group laid";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `${laidOffLabel}: ${names(seat.laid_off)}`);
    seat.laid_off.forEach((c) => g.append(cardElement(c, { label: false })));
    const l = document.createElement("span");
    l.className = "group-label";
    l.textContent = laidOffLabel;
    const wrap = document.createElement("div");
    wrap.append(g, l);
    out.push(wrap);
  }
  if (seat.deadwood_cards.length) {
    const g = document.createElement("div");
    g.className = "group dead";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `deadwood: ${names(seat.deadwood_cards)}`);
    seat.deadwood_cards.forEach((c) => g.append(cardElement(c, { label: false })));
    const l = document.createElement("span");
    l.className = "group-label";
    l.textContent = "deadwood";
    const wrap = document.createElement("div");
    wrap.append(g, l);
    out.push(wrap);
  }
  return out;
}

const KIND_TITLES = {
  knock: "knocked", undercut: "undercut", gin: "gin", big_gin: "big gin", cancelled: "cancelled",
};

function renderHandEnd(state) {
  const panel = $("hand-end");
  const result = state.hand.result;
  const show = Boolean(result);
  panel.hidden = !show;
  $("middle").hidden = show;
  // The hand's end lays out both hands: the computer's backs and the action buttons step aside.
  document.body.dataset.ended = String(show);
  if (!show) return;
  const other = state.opponent === "person" ? opponentName(state) : "the computer";
  const who = result.knocker === "you" ? "You" : opponentName(state);
  const title = result.kind === "cancelled" ? `Hand ${state.hand.number}: cancelled`
    : result.kind === "undercut" ? `Hand ${state.hand.number}: ${who} knocked and ${result.winner === "you" ? "you" : other} undercut`
    : `Hand ${state.hand.number}: ${who} ${KIND_TITLES[result.kind] === "knocked" ? "knocked" : `went ${KIND_TITLES[result.kind]}`}`;
  $("end-title").textContent = title;
  $("end-text").textContent = result.explanation;
  $("end-you").replaceChildren(...meldRows(result.you, "laid off"));
  $("end-comp").replaceChildren(...meldRows(result.computer, "laid off"));
  $("end-you-dw").textContent = result.kind === "cancelled" ? "" : `(deadwood ${result.you.deadwood})`;
  $("end-comp-dw").textContent = result.kind === "cancelled" ? "" : `(deadwood ${result.computer.deadwood})`;
  const matchEnd = $("end-match");
  matchEnd.hidden = state.status !== "over" || !state.score.outcome;
  matchEnd.textContent = matchEnd.hidden ? "" : `The match is over. ${state.score.outcome}.`;
  const next = $("btn-next");
  if (state.status === "over") {
    next.textContent = "New game";
    next.dataset.mode = "new";
  } else if (state.status === "abandoned") {
    next.textContent = "New game";
    next.dataset.mode = "new";
  } else {
    next.textContent = "Next hand";
    next.dataset.mode = "next";
  }
}

/** The table before the first deal (or a match that ended before one): no cards anywhere,
 * no stock and no pile, only the score panel. */
function renderNoHand(state, ui, busy) {
  const free = state.opponent === "person" && state.people && !state.people.names[1 - state.seat];
  $("opp-title").textContent = free ? "Waiting for someone to join" : opponentName(state);
  $("opp-count").textContent = "";
  $("opp-level").textContent = "";
  $("opp-backs").replaceChildren();
  $("opp-took").replaceChildren();
  $("opp-took-label").textContent = "";
  $("discard-pile").replaceChildren();
  $("discard-pile").setAttribute("aria-label", "Discard pile, empty.");
  $("pile-count").textContent = "";
  $("stock").querySelector(".card").hidden = true;
  $("stock").setAttribute("aria-label", "Stock: no hand dealt.");
  $("stock-count").textContent = "";
  $("hand").replaceChildren();
  ui.order = [];
  $("deadwood").textContent = "";
  $("selection").textContent = "";
  $("log").replaceChildren();
  $("hand-end").hidden = true;
  $("middle").hidden = false;
  document.body.dataset.ended = "false";
  renderActions(state, ui, busy);
  renderScore(state);
  $("prompt").textContent = state.status === "abandoned"
    ? "This match was abandoned. Start a new game."
    : state.status === "over" ? "The match is over."
      : state.opponent === "person" ? "Dealing the first hand…" : "Deal the first hand.";
}

/** Draw everything. `anim` holds the piles and counts while the computer's moves play out. */
export function render(state, ui, { busy = false, anim = null } = {}) {
  if (!state.hand) { renderNoHand(state, ui, busy); return; }
  renderOpponent(state, anim);
  renderPiles(state, anim, busy);
  renderHand(state, ui);
  renderActions(state, ui, busy);
  renderScore(state);
  renderLog(state);
  if (!anim) renderHandEnd(state);
  $("prompt").textContent = busy ? (state.opponent === "person" ? "Sending…" : "The computer is playing…") : statusPrompt(state);
}

export function statusPrompt(state) {
  if (state.status === "abandoned") return "This match was abandoned. Start a new game.";
  if (state.status === "over") return "The match is over.";
  return state.hand.prompt;
}
