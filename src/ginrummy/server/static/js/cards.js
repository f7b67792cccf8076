// Cards as the page shows them: engine text ("7h", "Th") to names, symbols and elements.

const RANKS = "A23456789TJQK";
const RANK_SHOWN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
  "ten", "jack", "queen", "king"];
const SUITS = "cdhs";
const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SUIT_LETTERS = ["C", "D", "H", "S"];

export function parse(code) {
  const rank = RANKS.indexOf(code[0].toUpperCase());
  const suit = SUITS.indexOf(code[1].toLowerCase());
  return { code, rank, suit, index: suit * 13 + rank };
}

export function name(code) {
  const c = parse(code);
  return `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}`;
}

export function symbol(code) {
  const c = parse(code);
  return `${RANK_SHOWN[c.rank]}${SUIT_SYMBOLS[c.suit]}`;
}

/** The text a card face shows: its rank and suit in the corner and its suit letter ("7♣ C",
 * "10♦ D"). A card button's accessible name starts with it (WCAG 2.5.3, Label in Name: a
 * person using speech input says what they see), then names the card in words. */
export function shown(code) {
  const c = parse(code);
  return `${RANK_SHOWN[c.rank]}${SUIT_SYMBOLS[c.suit]} ${SUIT_LETTERS[c.suit]}`;
}

/** A card button's accessible name: the face's text, then the card in words ("7♣ C, seven of
 * clubs"). */
export function buttonName(code) {
  return `${shown(code)}, ${name(code)}`;
}

export function value(code) {
  const r = parse(code).rank;
  return r >= 9 ? 10 : r + 1;
}

export function names(codes) {
  if (!codes.length) return "none";
  return codes.map(name).join(", ");
}

export function bySuit(a, b) { return parse(a).index - parse(b).index; }
export function byRank(a, b) {
  const x = parse(a), y = parse(b);
  return x.rank - y.rank || x.suit - y.suit;
}

/** A card face (a button when `tag` is "button"), named for screen readers. */
export function cardElement(code, { tag = "span", mini = false, label = null } = {}) {
  const c = parse(code);
  const el = document.createElement(tag);
  el.className = `card suit-${SUITS[c.suit]}${mini ? " mini" : ""}`;
  el.dataset.card = code;
  if (tag === "button") el.type = "button";
  if (tag === "button") {
    el.setAttribute("aria-label", label || buttonName(code));
  } else if (label !== false) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label || name(code));
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = RANK_SHOWN[c.rank];
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = SUIT_SYMBOLS[c.suit];
  corner.append(rank, pip);
  const center = document.createElement("span");
  center.className = "center";
  center.setAttribute("aria-hidden", "true");
  center.textContent = SUIT_SYMBOLS[c.suit];
  const letter = document.createElement("span");
  letter.className = "letter";
  letter.setAttribute("aria-hidden", "true");
  letter.textContent = SUIT_LETTERS[c.suit];
  el.append(corner, center, letter);
  return el;
}

export function backElement(extra = "") {
  const el = document.createElement("span");
  el.className = `card back ${extra}`.trim();
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** A hand laid out as its melds then its deadwood, one group each, read out as one list:
 * `hand` has `.cards`, `.melds` and `.deadwood_cards`; `owner` starts the spoken label. */
export function handInMelds(hand, owner, className = "meld-rows") {
  const rows = document.createElement("div");
  rows.className = className;
  rows.setAttribute("role", "list");
  rows.setAttribute("aria-label", `${owner} cards: ${hand.cards.map(name).join(", ")}`);
  const group = (cards, kind) => {
    const g = document.createElement("div");
    g.className = `group ${kind}`;
    cards.forEach((c) => g.append(cardElement(c, { label: false })));
    rows.append(g);
  };
  for (const meld of hand.melds) group(meld, "meld");
  if (hand.deadwood_cards.length) group(hand.deadwood_cards, "dead");
  return rows;
}
