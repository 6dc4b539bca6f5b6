// How the generated API module (/app/api.js) reaches the server: the token, JSON, and
// the error envelope. The only file of the client that calls fetch.

const TOKEN_KEY = "pusoy.token";

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message @param {Object} details */
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

export const auth = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  set token(value) {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  },
  /** Called when the server refuses the token (revoked elsewhere): the app shows log-in. */
  onRejected: () => {},
};

function url(operation, params) {
  let path = operation.path;
  for (const name of operation.path_params) {
    if (params[name] === undefined) throw new Error(`missing path parameter ${name}`);
    path = path.replace(`{${name}}`, encodeURIComponent(String(params[name])));
  }
  const query = new URLSearchParams();
  for (const name of operation.query) {
    if (params[name] !== undefined && params[name] !== null) query.set(name, String(params[name]));
  }
  const unknown = Object.keys(params).filter(
    (n) => !operation.path_params.includes(n) && !operation.query.includes(n));
  if (unknown.length) throw new Error(`unknown parameter(s) ${unknown.join(", ")}`);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** One request of an operation of the schema; resolves to the parsed body (null for 204). */
export async function call(operation, params = {}, body = undefined, options = {}) {
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  if (operation.auth && auth.token) headers.Authorization = `Bearer ${auth.token}`;
  const init = { method: operation.method, headers, signal: options.signal };
  if (operation.body) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  let response;
  try {
    response = await fetch(url(operation, params), init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network_error", "The server could not be reached.", {});
  }
  if (response.status === 204) return null;
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = (data?.error) || {};
    if (response.status === 401 && operation.auth) auth.onRejected();
    throw new ApiError(response.status, error.code || "server_error",
      error.message || response.statusText, error.details);
  }
  return data;
}
