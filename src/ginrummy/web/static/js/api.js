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

export async function ensurePlayer() {
  if (localStorage.getItem(TOKEN_KEY)) {
    try {
      return await call("GET", "/api/me");
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
    }
  }
  const made = await call("POST", "/api/players", { name: "You" });
  localStorage.setItem(TOKEN_KEY, made.token);
  return call("GET", "/api/me");
}

export const api = {
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
  revisit: (id, hand, index) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}/decisions/${index}`),
  revisitAnswer: (id, hand, index, move) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/coach/hands/${hand}/decisions/${index}/answer`, { move }),
  lessonCoach: (situation, move) =>
    call("POST", `/api/situations/${encodeURIComponent(situation)}/coach`, { move }),
};
