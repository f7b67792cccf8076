// The knocker chooses the melds: when knocking with the selected card leaves several
// least-deadwood groupings (the server lists them per card option, the default first), a small
// window lets the person pick one before the knock is sent. Each grouping shows its melds, its
// deadwood and the spots where cards could be laid off on it (the cards that would extend each
// meld, judged by the server from the person's own cards and the discard pile only).
//
// Radio buttons carry the keyboard (arrows choose, Enter knocks, Escape cancels), touch and
// the mouse; each is named in words for screen readers.

import { cardElement, name, names, parse, symbol } from "./cards.js";
import { whenClosed } from "./dialogs.js";

let dialog = null;

function build() {
  const dlg = document.createElement("dialog");
  dlg.id = "dlg-melds";
  dlg.setAttribute("aria-labelledby", "melds-title");
  dlg.setAttribute("aria-describedby", "melds-intro");
  const form = document.createElement("form");
  form.method = "dialog";
  const title = document.createElement("h2");
  title.id = "melds-title";
  title.textContent = "Lay down your melds";
  const intro = document.createElement("p");
  intro.id = "melds-intro";
  intro.className = "muted";
  const set = document.createElement("fieldset");
  set.className = "melds-choices";
  const legend = document.createElement("legend");
  legend.textContent = "Your melds";
  set.append(legend);
  const actions = document.createElement("div");
  actions.className = "dlg-actions";
  // The knock button comes first: Enter in a radio button submits with it.
  const knock = document.createElement("button");
  knock.className = "primary";
  knock.value = "knock";
  knock.id = "melds-knock";
  knock.textContent = "Knock";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.id = "melds-cancel";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => dlg.close("cancel"));
  actions.append(knock, cancel);
  form.append(title, intro, set, actions);
  dlg.append(form);
  document.body.append(dlg);
  return dlg;
}

function spotsText(arr) {
  const spots = arr.spots.flat();
  return spots.length ? spots.map(symbol).join(" ") : "none";
}

/** One grouping as a radio button with its melds, deadwood and layoff spots. */
function choice(arr, index) {
  const label = document.createElement("label");
  label.className = "melds-choice";
  const input = document.createElement("input");
  input.type = "radio";
  input.name = "arrangement";
  input.value = String(index);
  input.checked = arr.default;
  input.dataset.move = arr.move;
  const melds = arr.melds.map((m) => names(m)).join("; ");
  const spots = arr.spots.flat();
  input.setAttribute("aria-label",
    `${arr.default ? "Default: " : ""}melds ${melds}; deadwood ${arr.deadwood}`
    + (arr.deadwood_cards.length ? ` (${names(arr.deadwood_cards)})` : "")
    + `; cards that could be laid off: ${spots.length ? spots.map(name).join(", ") : "none"}`);
  const body = document.createElement("span");
  body.className = "melds-body";
  const rows = document.createElement("span");
  rows.className = "melds-rows";
  arr.melds.forEach((m, i) => {
    const g = document.createElement("span");
    g.className = "melds-meld";
    m.forEach((c) => g.append(cardElement(c, { mini: true, label: false })));
    // Each spot where it would go: below a run's lowest card, or after the meld.
    for (const s of arr.spots[i]) {
      const spot = cardElement(s, { mini: true, label: false });
      spot.classList.add("spot");
      if (parse(s).index < parse(m[0]).index && parse(s).suit === parse(m[0]).suit) g.prepend(spot);
      else g.append(spot);
    }
    rows.append(g);
  });
  const facts = document.createElement("span");
  facts.className = "melds-facts";
  facts.setAttribute("aria-hidden", "true");
  facts.textContent = `${arr.default ? "Default · " : ""}could be laid off: ${spotsText(arr)}`
    + ` · deadwood ${arr.deadwood}`;
  body.append(rows, facts);
  label.append(input, body);
  return label;
}

/**
 * The move that knocks with `option` (a card option of the state): at once `knock 7h` when
 * there is nothing to choose, else the grouping the person picks (`knock 7h with ...`), or
 * null when they cancel.
 */
export function chooseKnockMelds(option) {
  const arrangements = option.arrangements || [];
  if (arrangements.length < 2) return Promise.resolve(`knock ${option.card}`);
  if (!dialog) dialog = build();
  const set = dialog.querySelector(".melds-choices");
  set.querySelectorAll(".melds-choice").forEach((el) => el.remove());
  arrangements.forEach((arr, i) => set.append(choice(arr, i)));
  dialog.querySelector("#melds-intro").textContent =
    `Knocking with the ${symbol(option.card)} leaves ${option.deadwood_after} deadwood `
    + `whichever way you group your cards. The grouping decides where the computer could lay `
    + `off cards (shown lighter beside each meld).`;
  dialog.returnValue = "";
  const answer = whenClosed(dialog, () => {
    const picked = dialog.querySelector("input[name=arrangement]:checked");
    return dialog.returnValue === "knock" && picked ? picked.dataset.move : null;
  });
  dialog.showModal();
  const checked = dialog.querySelector("input[name=arrangement]:checked");
  if (checked) checked.focus();
  return answer;
}
