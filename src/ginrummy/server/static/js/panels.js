// The dialogs: new game (rules, options, opponent, every bonus shown before dealing), the
// rules panel, history and statistics with a chart, and display settings.

import { api } from "./api.js";
import { whenClosed } from "./dialogs.js";
import { opponentName, sheetTable } from "./render.js";
import { randomClientSeed } from "./verify.js";

const $ = (id) => document.getElementById(id);
const SETTINGS_KEY = "ginrummy.settings";

const LEVEL_TEXT = {
  easy: ["Easy", "Plays simply: good for learning."],
  medium: ["Medium", "A sound, steady player."],
  hard: ["Hard", "Tracks the discards and plays the odds."],
  expert: ["Expert", "The strongest player here."],
};

/** What ending the unfinished match `state` means, in one sentence (null: nothing ends). */
export function endingText(state, doing) {
  if (!state || ["over", "abandoned"].includes(state.status)) return null;
  if (state.opponent === "person") {
    if (state.status === "waiting") return `${doing} closes your table, which is waiting for someone to join.`;
    const other = state.people && state.people.names[1 - state.seat];
    return `${doing} ends your match against ${other || "the other person"} as a forfeit: ${other || "they"} wins, and it counts as a loss for you.`;
  }
  const totals = state.score && state.score.totals ? ` (${state.score.totals[0]} to ${state.score.totals[1]})` : "";
  return `${doing} ends your match against the computer${totals}: it counts as a loss.`;
}

/** Ask before something ends the match in progress: resolves true for the person's yes. */
export function confirmEnding(title, text, yes) {
  const dialog = $("dlg-confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  let said = false;
  dialog.querySelector("form").onsubmit = (ev) => { ev.preventDefault(); said = true; dialog.close(); };
  $("confirm-no").onclick = () => dialog.close();
  const answer = whenClosed(dialog, () => said);
  dialog.showModal();
  $("confirm-no").focus();
  return answer;
}

function closeButtons(dialog) {
  for (const b of dialog.querySelectorAll("button.close")) {
    b.onclick = () => dialog.close();
  }
}

/** Resolves with the chosen options, or null when cancelled. `current`: the match in
 * progress (its end is said before Start, and Start says it), or null. */
export function openNewGame(options, current) {
  const dialog = $("dlg-new");
  const form = $("new-form");
  const profiles = $("profiles");
  const levels = $("levels");
  if (!profiles.childElementCount) {
    options.profiles.forEach((p) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "profile";
      input.value = p.profile;
      input.checked = p.profile === options.default_profile;
      label.append(input, ` ${p.title}`);
      profiles.append(label);
    });
    options.levels.forEach((l) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "level";
      input.value = l;
      input.checked = l === options.default_level;
      const span = document.createElement("span");
      span.textContent = l === "agent" ? `Agent (${options.agent})` : (LEVEL_TEXT[l] || [l])[0];
      label.append(input, span);
      levels.append(label);
    });
  }
  const update = () => {
    const chosen = form.elements.profile.value || options.default_profile;
    const p = options.profiles.find((x) => x.profile === chosen);
    const holly = $("opt-hollywood").checked;
    const ldc = $("opt-ldc").checked;
    const lines = p.bonuses.map((line) => {
      if (line.startsWith("Hollywood")) return holly ? "Hollywood: three games at once" : "Hollywood: off (one game)";
      if (line.startsWith("Last-discard")) return `Last-discard chance: ${ldc ? "on" : "off"}`;
      return line;
    });
    $("bonus-list").replaceChildren(...lines.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
    const level = form.elements.level.value;
    $("level-text").textContent = level === "agent"
      ? `A trained policy (${options.agent}).` : (LEVEL_TEXT[level] || ["", ""])[1];
  };
  const ending = endingText(current, "Starting a new game");
  const person = () => form.elements.opponent.value === "person";
  const kind = () => {
    $("levels-box").hidden = person();
    $("person-options").hidden = !person();
    $("new-seal").hidden = person();
    const start = person() ? "Create the table" : "Start";
    $("new-start").textContent = ending ? `End my match and ${start.toLowerCase()}` : start;
  };
  form.oninput = () => { update(); kind(); };
  update();
  kind();
  fillLobby();
  // The list is fetched again whenever the join box is opened: tables come and go.
  $("join-box").ontoggle = () => { if ($("join-box").open) fillLobby(); };
  $("new-warning").hidden = !ending;
  $("new-warning").textContent = ending || "";
  $("new-cancel").hidden = false;
  // The first hand's client seed, drawn here in the browser (a new one each time).
  $("new-seed").value = randomClientSeed();
  $("new-seal").open = false;
  let chosen = null;
  form.onsubmit = (ev) => {
    ev.preventDefault();
    chosen = person() ? {
      opponent: "person",
      profile: form.elements.profile.value,
      hollywood: $("opt-hollywood").checked,
      last_discard_chance: $("opt-ldc").checked,
      name: $("opt-name").value.trim(),
      clock: $("opt-clock").value ? Number($("opt-clock").value) : null,
      open: $("opt-open").checked,
      forfeit_current: Boolean(ending),
    } : {
      profile: form.elements.profile.value,
      level: form.elements.level.value,
      hollywood: $("opt-hollywood").checked,
      last_discard_chance: $("opt-ldc").checked,
      forfeit_current: Boolean(ending),
      clientSeed: $("new-seed").value,
    };
    dialog.close();
  };
  $("new-cancel").onclick = () => dialog.close();
  const join = (code) => {
    const text = code.trim();
    if (!text) { $("join-status").textContent = "Type the code your friend read you."; return; }
    chosen = { join: text };
    dialog.close();
  };
  $("join-go").onclick = () => join($("join-code").value);
  $("join-code").onkeydown = (ev) => { if (ev.key === "Enter") { ev.preventDefault(); join($("join-code").value); } };
  $("lobby").onclick = (ev) => {
    const btn = ev.target.closest("button[data-invite]");
    if (btn) join(btn.dataset.invite);
  };
  const answer = whenClosed(dialog, () => chosen);
  dialog.showModal();
  // Focus on Start (Enter starts), with the window read from its title down.
  $("new-start").focus({ preventScroll: true });
  dialog.querySelector(".dlg-scroll").scrollTop = 0;
  return answer;
}

const CLOCK_TEXT = { 30: "30 s a move", 60: "60 s a move", 120: "2 min a move" };

/** The open tables (anyone may join), each with a Join button. */
async function fillLobby() {
  const list = $("lobby");
  $("join-status").textContent = "";
  let tables = [];
  try { tables = await api.lobby(); } catch { /* offline: an empty list */ }
  const items = tables.map((t) => {
    const li = document.createElement("li");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.invite = t.invite;
    btn.textContent = "Join";
    btn.setAttribute("aria-label", `Join ${t.creator}'s table`);
    const clock = t.clock ? CLOCK_TEXT[t.clock] || `${t.clock} s a move` : "no clock";
    li.append(`${t.creator}: ${t.name}, ${clock} `, btn);
    return li;
  });
  if (!items.length) items.push(Object.assign(document.createElement("li"), { className: "muted small", textContent: "No open table right now." }));
  list.replaceChildren(...items);
}

/** Fill the rules panel with one rule set's cheat sheet (the same sheet as `ginrummy rules`). */
export function renderRulesSheet(rules) {
  $("rules-profile").textContent = `Gin rummy cheat sheet: ${rules.name}`;
  const parts = [];
  for (const section of rules.sheet) {
    const box = document.createElement("section");
    box.className = "sheet-section";
    const h = document.createElement("h3");
    h.textContent = section.title;
    const dl = document.createElement("dl");
    dl.className = "sheet-lines";
    for (const line of section.lines) {
      const dt = document.createElement("dt");
      dt.textContent = line.label;
      const dd = document.createElement("dd");
      dd.textContent = line.text;
      dl.append(dt, dd);
    }
    box.append(h, dl);
    parts.push(box);
  }
  $("rules-list").replaceChildren(...parts);
  document.body.dataset.rulesProfile = rules.profile;
}

/** The "Show the rules of" chooser: this table's rules, then every profile. */
function fillRulesChooser(state, options, shown) {
  const select = $("rules-choose");
  const choices = [];
  if (state) choices.push({ key: "table", label: `This table (${state.rules.name})`, rules: state.rules });
  for (const p of (options ? options.profiles : [])) choices.push({ key: p.profile, label: p.title, rules: p });
  select.replaceChildren(...choices.map((c) => Object.assign(document.createElement("option"), {
    value: c.key, textContent: c.label,
  })));
  select.value = state ? "table" : (shown ? shown.profile : "");
  select.onchange = () => {
    const chosen = choices.find((c) => c.key === select.value);
    if (chosen) renderRulesSheet(chosen.rules);
  };
  $("rules-print").onclick = () => window.print();
}

export function openRules(state, options) {
  const dialog = $("dlg-rules");
  let rules = state ? state.rules : null;
  if (!rules && options) rules = options.profiles.find((p) => p.profile === options.default_profile);
  fillRulesChooser(state, options, rules);
  if (rules) renderRulesSheet(rules);
  closeButtons(dialog);
  dialog.showModal();
  $("rules-title").focus();  // start reading at the top, not at the Close button
  dialog.scrollTop = 0;
}

function figure(label, value) {
  const div = document.createElement("div");
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.textContent = value;
  div.append(dt, dd);
  return div;
}

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Final totals of recent matches as paired bars (you, computer), with a text alternative. */
export function chart(recent) {
  const box = document.createElement("div");
  if (!recent.length) {
    box.textContent = "Finish a match to see your results here.";
    return box;
  }
  const w = 560, h = 200, pad = 30;
  const max = Math.max(...recent.flatMap((r) => [r.you, r.computer]), 1);
  const slot = (w - pad - 10) / recent.length;
  const bar = Math.max(3, Math.min(18, slot / 2 - 2));
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h + 30}`, role: "img", "aria-labelledby": "chart-title" });
  svg.append(svgEl("title", { id: "chart-title" }, `Final totals of your last ${recent.length} matches: green bars are yours, grey the computer's.`));
  svg.append(svgEl("line", { x1: pad, y1: h, x2: w - 5, y2: h, stroke: "#555" }));
  svg.append(svgEl("text", { x: 2, y: 12, "font-size": 11, fill: "#333" }, String(max)));
  svg.append(svgEl("text", { x: 2, y: h, "font-size": 11, fill: "#333" }, "0"));
  recent.forEach((r, i) => {
    const x = pad + i * slot + slot / 2 - bar;
    const hy = (r.you / max) * (h - 10), hc = (r.computer / max) * (h - 10);
    svg.append(svgEl("rect", { x, y: h - hy, width: bar, height: hy, fill: "#1f6b45" }));
    svg.append(svgEl("rect", { x: x + bar + 1, y: h - hc, width: bar, height: hc, fill: "#9a9a9a" }));
    svg.append(svgEl("text", { x: x + bar, y: h + 14, "font-size": 10, "text-anchor": "middle", fill: "#333" }, String(i + 1)));
  });
  svg.append(svgEl("rect", { x: pad, y: h + 19, width: 10, height: 10, fill: "#1f6b45" }));
  svg.append(svgEl("text", { x: pad + 14, y: h + 28, "font-size": 11, fill: "#333" }, "You"));
  svg.append(svgEl("rect", { x: pad + 50, y: h + 19, width: 10, height: 10, fill: "#9a9a9a" }));
  svg.append(svgEl("text", { x: pad + 64, y: h + 28, "font-size": 11, fill: "#333" }, "Computer"));
  box.append(svg);
  return box;
}

export async function openHistory() {
  const dialog = $("dlg-history");
  closeButtons(dialog);
  $("match-sheet").replaceChildren();
  dialog.showModal();
  $("history-title").focus();
  dialog.scrollTop = 0;
  try {
    const [stats, matches] = await Promise.all([api.stats(), api.matches()]);
    const avg = stats.average_knock_deadwood === null ? "—" : stats.average_knock_deadwood.toFixed(1);
    $("stats").replaceChildren(
      figure("Matches (won–lost)", `${stats.matches} (${stats.matches_won}–${stats.matches_lost})`),
      figure("Forfeits (counted as lost)", String(stats.forfeits)),
      figure("Hands won", `${stats.hands_won} of ${stats.hands}`),
      figure("Gins", String(stats.gins)),
      figure("Undercuts made / suffered", `${stats.undercuts_made} / ${stats.undercuts_suffered}`),
      figure("Knocks", String(stats.knocks)),
      figure("Average deadwood at knock", avg),
    );
    $("chart").replaceChildren(chart(stats.recent));
    if (!matches.length) {
      $("matches").textContent = "No finished or forfeited matches yet.";
      return;
    }
    const table = document.createElement("table");
    table.className = "matches";
    table.createTHead().insertRow().append(...["Ended", "Rules", "Opponent", "Result", ""].map((t) => {
      const th = document.createElement("th"); th.textContent = t; th.scope = "col"; return th;
    }));
    const body = table.createTBody();
    for (const m of matches) {
      const tr = body.insertRow();
      tr.insertCell().textContent = new Date(m.updated_at).toLocaleString();
      tr.insertCell().textContent = m.rules + (m.hollywood ? ", Hollywood" : "");
      tr.insertCell().textContent = m.level;
      // An abandoned match is a forfeit: a loss, whatever the score when it was left.
      const res = m.status === "abandoned" ? "forfeit (lost)"
        : m.winner === "you" ? "won" : m.winner ? "lost" : "tie";
      tr.insertCell().textContent = `${res} ${m.totals[0]}–${m.totals[1]}`;
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "linkish";
      btn.textContent = "Score sheet";
      btn.setAttribute("aria-label", `Score sheet of the match ${m.status === "abandoned" ? "forfeited" : "finished"} ${new Date(m.updated_at).toLocaleString()}`);
      btn.onclick = async () => {
        const st = await api.state(m.id);
        const h = document.createElement("h3");
        h.textContent = `Score sheet: ${st.rules.name}, ${res} ${m.totals[0]}–${m.totals[1]}`;
        h.tabIndex = -1;
        $("match-sheet").replaceChildren(h, sheetTable(st.score, "Score sheet", opponentName(st)));
        h.focus();
      };
      tr.insertCell().append(btn);
    }
    $("matches").replaceChildren(table);
  } catch (err) {
    $("matches").textContent = err.message;
  }
}

function loadSettings() {
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}; } catch { return {}; }
}

export function reducedMotion() {
  return document.body.classList.contains("still")
    || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function setupSettings(onChange) {
  const settings = loadSettings();
  const apply = () => {
    document.body.classList.toggle("four", Boolean(settings.four));
    document.body.classList.toggle("large", Boolean(settings.large));
    document.body.classList.toggle("still", Boolean(settings.still));
  };
  const boxes = { four: $("set-four"), large: $("set-large"), still: $("set-still") };
  for (const [key, box] of Object.entries(boxes)) {
    box.checked = Boolean(settings[key]);
    box.addEventListener("change", () => {
      settings[key] = box.checked;
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      apply();
      onChange();
    });
  }
  closeButtons($("dlg-settings"));
  apply();
  setupAccount();
}

/** The Settings window's account section: transfer codes and signing out everywhere. */
function setupAccount() {
  const status = $("account-status");
  const say = (text) => { status.textContent = text; };
  $("account-code").addEventListener("click", async () => {
    try {
      const made = await api.transferCode();
      $("account-code-out").textContent = made.code;
      say(`Type ${made.code} on the other browser, in Settings, within 10 minutes (until `
        + `${new Date(made.expires_at).toLocaleTimeString()}). It works once.`);
    } catch (err) { say(err.message); }
  });
  $("account-claim").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("account-claim-code");
    const code = input.value.trim();
    if (!code) { say("Type the code shown on the other browser."); input.focus(); return; }
    try {
      await api.claim(code);
      say("Signed in: opening your matches…");
      window.location.reload();
    } catch (err) {
      input.setAttribute("aria-invalid", "true");
      say(err.message);
      input.focus();
    }
  });
  $("account-claim-code").addEventListener("input", (ev) => ev.target.removeAttribute("aria-invalid"));
  $("account-signout").addEventListener("click", async () => {
    if (!window.confirm("Sign out every other browser? This one stays signed in; the others "
      + "will need a transfer code to open your matches again.")) return;
    try {
      await api.signOutEverywhere();
      $("account-code-out").textContent = "";
      say("Every other browser is signed out; this one has a new sign-in.");
    } catch (err) { say(err.message); }
  });
}
