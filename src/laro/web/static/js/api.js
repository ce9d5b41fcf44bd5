// The server's HTTP API (docs/protocol.md) and the seats this browser holds.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** A request to the API; `body` is sent as JSON, or as is when it is already JSON text. */
async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (error) {
    throw new ApiError("network", String(error && error.message ? error.message : error), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(error.code || "http_" + response.status, error.message || response.statusText, response.status);
  }
  return data;
}

export const getGames = () => call("GET", "/api/games").then((data) => data.games);
/** The games and the clock profiles: {games, clocks}. */
export const getCatalogue = () => call("GET", "/api/games");
export const listTables = () => call("GET", "/api/tables").then((data) => data.tables);
/** A page of finished games, newest end first: {games, next}; `before` is the `next` of the page before. */
export const listFinished = (before = null) => call("GET", `/api/finished${before ? `?before=${encodeURIComponent(before)}` : ""}`);
export const getTable = (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`);
export const createTable = (body) => call("POST", "/api/tables", body);
export const getRules = (game, lang, edition = null) =>
  call(
    "GET",
    `/api/games/${encodeURIComponent(game)}/rules?lang=${encodeURIComponent(lang)}${edition ? `&edition=${encodeURIComponent(edition)}` : ""}`,
  );
export const getComponents = (game) =>
  call("GET", `/api/games/${encodeURIComponent(game)}/components`).then((data) => data.components);

/** A finished table's game step by step, as `view` ("open", "spectator" or a seat's number) saw it. */
export const getReplay = (id, view) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay?view=${encodeURIComponent(view)}`);
/** A game record step by step, as `view` saw it. `text` is the record's own JSON text, sent as it is: read as
 * JavaScript numbers, a 64-bit seed would come back rounded and the record would no longer replay. */
export const postReplay = (text, view) => call("POST", "/api/replay", `{"record": ${text}, "view": ${JSON.stringify(String(view))}}`);

function seatCall(id, seat, what, body) {
  return call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/${what}`, body);
}
export const requestAnalysis = (id, seat) => call("POST", `/api/tables/${encodeURIComponent(id)}/analysis`, { seat });
export const getAnalysis = (id, seat) => call("GET", `/api/tables/${encodeURIComponent(id)}/analysis?seat=${encodeURIComponent(seat)}`);
export const startRematch = (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token });
export const joinSeat = (id, seat, token, name) => seatCall(id, seat, "join", { token, name });
export const leaveSeat = (id, seat, token) => seatCall(id, seat, "leave", { token });
export const botSeat = (id, seat, token, bot) => seatCall(id, seat, "bot", { token, bot });
/** The server's key for push subscriptions: {key}. */
export const getPushKey = () => call("GET", "/api/push");
/** Keep this browser's push subscription (`PushSubscription.toJSON()`) with the seat, or forget it. */
export const pushSubscribe = (id, seat, token, subscription) => seatCall(id, seat, "push", { token, subscription });
export const pushUnsubscribe = (id, seat, token, endpoint) =>
  call("DELETE", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/push`, { token, endpoint });
/** Hand another seat (away, or without a connection) to its stand-in bot; `token` is the caller's own. */
export const awaySeat = (id, seat, token) => seatCall(id, seat, "away", { token });

// -- accounts: the session lives in an HttpOnly cookie the browser sends by itself -------------------------------

export const signUp = (name, password) => call("POST", "/api/accounts", { name, password });
export const signIn = (name, password) => call("POST", "/api/session", { name, password });
export const signOut = () => call("DELETE", "/api/session");
// quick match (docs/protocol.md, "Quick match")
export const startMatch = (body) => call("POST", "/api/match", body);
export const getMatch = (wait) => call("GET", `/api/match?wait=${encodeURIComponent(wait)}`);
export const leaveMatch = () => call("DELETE", "/api/match");
export const getOnline = () => call("GET", "/api/online");
/** Who is signed in, with their running games ({name, games}); null when nobody is. */
export async function getMe() {
  try {
    return await call("GET", "/api/me");
  } catch (error) {
    if (error instanceof ApiError && error.code === "signed_out") return null;
    throw error;
  }
}

// -- what this browser remembers -------------------------------------------------------------------------

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage may be full or off */
  }
}

/** The seat held at table `id`: {seat, token, name}, or null. */
export const loadSeat = (id) => read(`laro.seat.${id}`);
export const saveSeat = (id, seat) => write(`laro.seat.${id}`, seat);
export const forgetSeat = (id) => write(`laro.seat.${id}`, null);

/** Invite links made for the other human seats of a table we created: [{seat, url}]. */
export const loadInvites = (id) => read(`laro.invites.${id}`) || [];
export const saveInvites = (id, invites) => write(`laro.invites.${id}`, invites);

/** The player's name, remembered for the next table. */
export const loadName = () => read("laro.name") || "";
export const saveName = (name) => write("laro.name", name);

/** The absolute address of an invite path. */
export const inviteUrl = (path) => new URL(path, location.origin).href;

/**
 * Create a table, take `mySeat` in it under `name`, and remember the seat and the other seats' invite links.
 * Returns {id, invites}.
 */
export async function createAndSit(body, mySeat, name) {
  const created = await createTable(body);
  const invites = [];
  let mine = null;
  for (const seat of created.seats) {
    if (seat.seat === mySeat) mine = seat;
    else invites.push({ seat: seat.seat, url: inviteUrl(seat.invite) });
  }
  if (mine) {
    saveSeat(created.id, { seat: mine.seat, token: mine.token, name });
    await joinSeat(created.id, mine.seat, mine.token, name);
  }
  saveInvites(created.id, invites);
  if (name) saveName(name);
  return { id: created.id, invites };
}

/** Copy text to the clipboard (with a fallback for pages where the Clipboard API is unavailable). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}
