// The JSON API with the player's token (kept in localStorage so a reload resumes the match).

const TOKEN_KEY = "ginrummy.token";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function call(method, path, body) {
  const headers = { "Accept": "application/json" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "The server cannot be reached. Is `ginrummy serve` still running?");
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `The server answered ${response.status}.`;
    throw new ApiError(response.status, String(detail));
  }
  return data;
}

// A GET answered with NDJSON: onEvent(object) for each line as soon as it arrives.
async function stream(path, onEvent) {
  const headers = { "Accept": "application/x-ndjson" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method: "GET", headers });
  } catch (err) {
    throw new ApiError(0, "The server cannot be reached. Is `ginrummy serve` still running?");
  }
  if (!response.ok) {
    let detail = `The server answered ${response.status}.`;
    try { detail = (await response.json()).detail || detail; } catch { /* not JSON */ }
    throw new ApiError(response.status, String(detail));
  }
  const lines = (text) => text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  if (!response.body || !response.body.getReader) {
    lines(await response.text()).forEach(onEvent);
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    rest += decoder.decode(value || new Uint8Array(), { stream: !done });
    const cut = rest.lastIndexOf("\n");
    if (cut >= 0) {
      lines(rest.slice(0, cut)).forEach(onEvent);
      rest = rest.slice(cut + 1);
    }
    if (done) break;
  }
  lines(rest).forEach(onEvent);
}

/** The player of this browser; a newcomer is made one, named by `askName()` when given. */
export async function ensurePlayer(askName = null) {
  if (localStorage.getItem(TOKEN_KEY)) {
    try {
      return await call("GET", "/api/me");
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
    }
  }
  const name = askName ? await askName() : "You";
  const made = await call("POST", "/api/players", { name: name || "You" });
  localStorage.setItem(TOKEN_KEY, made.token);
  return call("GET", "/api/me");
}

// This browser's sign-in replaced by the one in an answer that holds a token.
function keepToken(answer) {
  localStorage.setItem(TOKEN_KEY, answer.token);
  return answer;
}

/**
 * Read a match's live events (text/event-stream) with the bearer header: onEvent({event, id,
 * data}) for each event as it arrives. Resolves when the server ends the stream; throws an
 * ApiError for an answer that is not 200. `signal` stops it.
 */
export async function readEvents(matchId, lastId, signal, onEvent) {
  const headers = { "Accept": "text/event-stream" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (lastId !== null && lastId !== undefined) headers["Last-Event-ID"] = String(lastId);
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/events`,
    { method: "GET", headers, signal, cache: "no-store" });
  if (!response.ok) {
    let detail = `The server answered ${response.status}.`;
    try { detail = (await response.json()).detail || detail; } catch { /* not JSON */ }
    throw new ApiError(response.status, String(detail));
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  const dispatch = (block) => {
    const ev = { event: "message", id: null, data: "" };
    const data = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (!line || line.startsWith(":")) continue;
      const at = line.indexOf(":");
      const field = at < 0 ? line : line.slice(0, at);
      let value = at < 0 ? "" : line.slice(at + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") ev.event = value;
      else if (field === "id") ev.id = value;
      else if (field === "data") data.push(value);
    }
    if (!data.length) return;
    ev.data = data.join("\n");
    onEvent(ev);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
    const blocks = rest.split(/\r\n\r\n|\n\n|\r\r/);
    rest = blocks.pop();
    blocks.forEach(dispatch);
  }
}

export const api = {
  // Tables for two people: take a seat by invite or code, the open tables, resign, rematch.
  rename: (name) => call("POST", "/api/me/name", { name }),
  // A table's terms, read before taking its seat (changes nothing).
  invite: (invite) => call("GET", `/api/invites/${encodeURIComponent(invite)}`),
  join: (invite, body = {}) => call("POST", `/api/invites/${encodeURIComponent(invite)}`, body),
  lobby: () => call("GET", "/api/lobby"),
  resign: (id) => call("POST", `/api/matches/${encodeURIComponent(id)}/resign`),
  rematch: (id) => call("POST", `/api/matches/${encodeURIComponent(id)}/rematch`),
  // The account (Settings): a one-time code for another browser, signing in with one, and
  // revoking every browser's sign-in but this one's (which gets a fresh token).
  transferCode: () => call("POST", "/api/me/transfer-code"),
  claim: async (code) => keepToken(await call("POST", "/api/players/claim", { code })),
  signOutEverywhere: async () => keepToken(await call("POST", "/api/me/sign-out-everywhere")),
  options: () => call("GET", "/api/options"),
  me: () => call("GET", "/api/me"),
  newMatch: (opts) => call("POST", "/api/matches", opts),
  state: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}`),
  move: (id, move, version) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/moves`, { move, version }),
  nextHand: (id, version, clientSeed = null) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/next-hand`,
      clientSeed === null ? { version } : { version, client_seed: clientSeed }),
  // The record (TOML text) of the match's first `hands` hands, which must all be over.
  record: (id, hands) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/record?hands=${encodeURIComponent(hands)}`),
  matches: () => call("GET", "/api/matches"),
  stats: () => call("GET", "/api/stats"),
  // The coach (coach.js): remarks, a hand's review, a decision revisited.
  coachLatest: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}/coach/latest`),
  coachReview: (id, hand) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}`),
  // Assess ahead (the review is then ready at the hand's end); answers only counts.
  coachAhead: (id) => call("POST", `/api/matches/${encodeURIComponent(id)}/coach/ahead`),
  // The review as it is made: onEvent(object) for each NDJSON line (start, decision, review).
  coachReviewStream: (id, hand, onEvent) =>
    stream(`/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}/stream`, onEvent),
  revisit: (id, hand, index) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}/decisions/${index}`),
  revisitAnswer: (id, hand, index, move) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}/decisions/${index}/answer`, { move }),
  lessonCoach: (situation, move) =>
    call("POST", `/api/situations/${encodeURIComponent(situation)}/coach`, { move }),
};
