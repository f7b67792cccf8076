// Sealed deals, checked in the browser: an ES module with no dependencies.
//
// It recomputes a hand's deck with WebCrypto (crypto.subtle HMAC-SHA256 and SHA-256) from the
// same inputs as the server, so a player need not trust the server's own code. The algorithm
// is "ginrummy-shuffle-v1", specified byte for byte in docs/sealed-deals.md; the Python twin is
// src/ginrummy/engine/shuffle.py and the test suite checks both against the published test vectors.
// crypto.subtle exists only in secure contexts (https:, or http://localhost).
//
// API (every card is written as in match records: rank A23456789TJQK + suit cdhs, e.g. "Th"):
//
//   VERSION                                  "ginrummy-shuffle-v1"
//   CARD_TEXT                                the 52 cards in engine order, Ac 2c ... Ks
//   clientSeedProblem(seed) -> string|null   why a client seed is refused, or null if it is fine
//   randomClientSeed() -> string             16 random hex digits, offered to the player
//   await combineClientSeeds(seat0, seat1) -> string
//                                            two people's seeds combined (ginrummy-two-party-v1)
//   await commitmentOf(serverSeedHex, nonce, dealer) -> string
//                                            the commitment (64 hex digits) these inputs give
//   await shuffleDeck(serverSeedHex, clientSeed, nonce) -> string[]
//                                            the deck, index 0 on top (52 cards)
//   dealFromDeck(deck, dealer) -> {hands: [seat0[], seat1[]], upcard, stock}
//                                            the fixed deal order: the non-dealer gets deck
//                                            cards 0, 2, ..., 18, the dealer 1, 3, ..., 19;
//                                            card 20 is the upcard; stock[0] (card 21) is drawn
//                                            first
//   await verifyHand({serverSeed, clientSeed, nonce, dealer, commitment,
//                     version?, deck?, hands?, upcard?, draws?})
//       -> {ok, deck, checks: [{check, ok, detail}]}
//       Recomputes the deck and checks, each reported by name:
//         "inputs"      the inputs are well formed (nothing else is checked if not);
//         "version"     the version is this algorithm's (when given);
//         "commitment"  SHA-256 of the server seed, nonce and dealer is the commitment the page
//                       received before the deal;
//         "deck"        the deck the server reports (when given) is the recomputed one;
//         "hands"       the cards each seat was dealt (when given: [seat0[], seat1[]], any order;
//                       null for a seat whose cards the page did not see) are the sealed ones;
//         "upcard"      the upcard (when given) is card 20;
//         "draws"       the cards drawn from the stock, in order (when given), are cards 21, ...
//       ok is true when every check passed. Cards may be "Th", "10h", "10♥" or indices 0..51;
//       the details name cards as the page shows them ("9♦", "10♥").
//       nonce may be a Number (a safe integer) or a BigInt.

export const VERSION = "ginrummy-shuffle-v1";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
export const CARD_TEXT = Object.freeze(
  Array.from({ length: 52 }, (_, i) => RANKS[i % 13] + SUITS[Math.floor(i / 13)]),
);

const SERVER_SEED_BYTES = 32;
const MAX_CLIENT_SEED_BYTES = 256;
const MAX_NONCE = (1n << 64n) - 1n;
const encoder = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

function subtle() {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new Error("WebCrypto is not available here (it needs https: or localhost)");
  return s;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function bigEndian(value, size) {
  const out = new Uint8Array(size);
  let v = BigInt(value);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function hexToBytes(hex, size, what) {
  if (typeof hex !== "string" || hex.length !== 2 * size || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`${what} must be ${2 * size} hex digits`);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function checkNonce(nonce) {
  const ok =
    (typeof nonce === "bigint" && nonce >= 0n && nonce <= MAX_NONCE) ||
    (typeof nonce === "number" && Number.isSafeInteger(nonce) && nonce >= 0);
  if (!ok) throw new Error(`a nonce is a whole number from 0 to 2**64-1, not ${String(nonce)}`);
  return BigInt(nonce);
}

function checkDealer(dealer) {
  if (dealer !== 0 && dealer !== 1) throw new Error(`the dealer is seat 0 or 1, not ${dealer}`);
  return dealer;
}

export function clientSeedProblem(seed) {
  if (typeof seed !== "string") return "a client seed is text";
  if (LONE_SURROGATE.test(seed)) return "the client seed is not valid Unicode text";
  const size = encoder.encode(seed).length;
  if (size === 0) return "the client seed is empty; type at least one character";
  if (size > MAX_CLIENT_SEED_BYTES) {
    return `the client seed is ${size} bytes of UTF-8; the limit is ${MAX_CLIENT_SEED_BYTES}`;
  }
  const control = seed.match(CONTROL);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `the client seed contains a control character (U+${code})`;
  }
  if (seed.startsWith(" ") || seed.endsWith(" ")) {
    return "the client seed may not begin or end with a space";
  }
  return null;
}

export function randomClientSeed() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return bytesToHex(bytes);
}

const VERSION_BYTES = encoder.encode(VERSION);

export async function commitmentOf(serverSeedHex, nonce, dealer) {
  const seed = hexToBytes(serverSeedHex, SERVER_SEED_BYTES, "the server seed");
  const data = concat(
    VERSION_BYTES,
    new Uint8Array([0]),
    seed,
    bigEndian(checkNonce(nonce), 8),
    new Uint8Array([checkDealer(dealer)]),
  );
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", data)));
}

export const TWO_PARTY = "ginrummy-two-party-v1";

/** The client seed of a hand between two people (docs/sealed-deals.md, "The combination"):
 * hex(SHA-256(TWO_PARTY || 0x00 || u16(len A) || A || u16(len B) || B)), A and B the UTF-8
 * bytes of seat 0's and seat 1's seeds. */
export async function combineClientSeeds(seat0, seat1) {
  for (const seed of [seat0, seat1]) {
    const problem = clientSeedProblem(seed);
    if (problem) throw new Error(problem);
  }
  const a = encoder.encode(seat0);
  const b = encoder.encode(seat1);
  const data = concat(encoder.encode(TWO_PARTY), new Uint8Array([0]),
    bigEndian(BigInt(a.length), 2), a, bigEndian(BigInt(b.length), 2), b);
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", data)));
}

export async function shuffleDeck(serverSeedHex, clientSeed, nonce) {
  const seed = hexToBytes(serverSeedHex, SERVER_SEED_BYTES, "the server seed");
  const problem = clientSeedProblem(clientSeed);
  if (problem) throw new Error(problem);
  const c = encoder.encode(clientSeed);
  const message = concat(
    VERSION_BYTES,
    new Uint8Array([0]),
    bigEndian(c.length, 2),
    c,
    bigEndian(checkNonce(nonce), 8),
  );
  const key = await subtle().importKey(
    "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
  let block = new Uint8Array(0);
  let at = 0;
  let counter = 0;
  async function nextByte() {
    if (at === block.length) {
      const data = concat(message, bigEndian(counter, 4));
      block = new Uint8Array(await subtle().sign("HMAC", key, data));
      counter += 1;
      at = 0;
    }
    return block[at++];
  }
  const order = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let b = await nextByte();
    while (b >= limit) b = await nextByte();
    const j = b % n;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((k) => CARD_TEXT[k]);
}

export function dealFromDeck(deck, dealer) {
  checkDealer(dealer);
  const cards = deck.map(cardText);
  const nonDealer = [];
  const dealt = [];
  for (let i = 0; i < 20; i += 2) {
    nonDealer.push(cards[i]);
    dealt.push(cards[i + 1]);
  }
  const hands = dealer === 0 ? [dealt, nonDealer] : [nonDealer, dealt];
  return { hands, upcard: cards[20], stock: cards.slice(21) };
}

function cardText(card) {
  if (typeof card === "number" && Number.isInteger(card) && card >= 0 && card < 52) {
    return CARD_TEXT[card];
  }
  const m = typeof card === "string" && card.trim().match(/^(10|[2-9TJQKA])([cdhs♣♦♥♠])$/i);
  if (!m) throw new Error(`${JSON.stringify(card)} is not a card`);
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  const suit = m[2].toLowerCase();
  return rank + ("♣♦♥♠".includes(suit) ? SUITS["♣♦♥♠".indexOf(suit)] : suit);
}

const SYMBOLS = "♣♦♥♠";

/** A card as the page shows it everywhere else: "9♦", "10♥" (the check's sentences use it). */
function shown(card) {
  const text = cardText(card);
  const rank = text[0] === "T" ? "10" : text[0];
  return rank + SYMBOLS[SUITS.indexOf(text[1])];
}

function sameCards(a, b) {
  const x = a.map(cardText).sort();
  const y = b.map(cardText).sort();
  return x.length === y.length && x.every((c, i) => c === y[i]);
}

export async function verifyHand({
  serverSeed, clientSeed, nonce, dealer, commitment, version, deck, hands, upcard, draws,
}) {
  const checks = [];
  const add = (check, ok, detail) => checks.push({ check, ok, detail });
  let sealed;
  let actual;
  try {
    if (version !== undefined) {
      add("version", version === VERSION, version === VERSION
        ? `the shuffle is ${VERSION}`
        : `shuffle version ${JSON.stringify(version)} is not known (this page checks ${VERSION})`);
      if (version !== VERSION) return { ok: false, deck: null, checks };
    }
    hexToBytes(commitment, 32, "the commitment");
    actual = await commitmentOf(serverSeed, nonce, dealer);
    sealed = await shuffleDeck(serverSeed, clientSeed, nonce);
  } catch (error) {
    add("inputs", false, error.message);
    return { ok: false, deck: null, checks };
  }
  const claimed = commitment.toLowerCase();
  add("commitment", actual === claimed, actual === claimed
    ? "the revealed server seed matches the commitment"
    : `SHA-256 of the revealed server seed with nonce ${nonce} and dealer seat ${dealer} is ` +
      `${actual}, but the commitment is ${claimed}`);
  try {
    if (deck !== undefined && deck !== null) {
      const given = deck.map(cardText);
      const diff = sealed.map((c, i) => i).filter((i) => given[i] !== sealed[i]);
      if (given.length !== 52) {
        add("deck", false, `the reported deck has ${given.length} cards, not 52`);
      } else {
        add("deck", diff.length === 0, diff.length === 0
          ? "the deck recomputed from the seeds is the deck reported"
          : `the reported deck differs from the sealed deck at ${diff.length} position(s), ` +
            `first at position ${diff[0]} (reported ${shown(given[diff[0]])}, sealed ${shown(sealed[diff[0]])})`);
      }
    }
    const deal = dealFromDeck(sealed, dealer);
    if (hands !== undefined && hands !== null) {
      const bad = [0, 1].filter((s) => hands[s] != null && !sameCards(hands[s], deal.hands[s]));
      add("hands", bad.length === 0, bad.length === 0
        ? "the cards dealt match"
        : bad.map((s) => `seat ${s} was dealt ${hands[s].map(shown).join(" ")}; the sealed ` +
            `deck deals it ${deal.hands[s].map(shown).join(" ")}`).join("; "));
    }
    if (upcard !== undefined && upcard !== null) {
      const ok = cardText(upcard) === deal.upcard;
      add("upcard", ok, ok
        ? `the upcard ${shown(deal.upcard)} matches`
        : `the upcard was ${shown(upcard)}; the sealed deck turns up ${shown(deal.upcard)}`);
    }
    if (draws !== undefined && draws !== null) {
      const wrong = draws
        .map((card, k) => [k, cardText(card)])
        .filter(([k, card]) => card !== deal.stock[k])
        .map(([k, card]) => `draw ${k + 1} was ${shown(card)}; the sealed deck has ` +
          `${shown(deal.stock[k])} there (position ${21 + k})`);
      add("draws", wrong.length === 0, wrong.length === 0
        ? `all ${draws.length} cards drawn from the stock match`
        : wrong[0] + (wrong.length > 1 ? `; ${wrong.length - 1} more draw(s) differ` : ""));
    }
  } catch (error) {
    add("inputs", false, error.message);
  }
  return { ok: checks.every((c) => c.ok), deck: sealed, checks };
}
