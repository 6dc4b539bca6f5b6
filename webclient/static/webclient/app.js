// The web client: a reference client of the public API, as a mobile app
// would be. Screens by URL fragment: #/ (lobby), #/games/ID (table or watching),
// #/games/ID/deals/N (replay and audit of a finished deal), #/login.
import * as api from "/app/api.js";
import { auth } from "./http.js";
import { h, clear } from "./dom.js";
import { sentence } from "./errors.js";
import { lobbyScreen } from "./lobby.js";
import { tableScreen } from "./table.js";
import { replayScreen } from "./replay.js";

const main = document.getElementById("main");
const status = document.getElementById("status");
const session = { me: null };
let current = null; // the screen on view: {stop()}

/** A message for the player in the page's live region (errors as sentences). */
export function say(text, kind = "info") {
  clear(status);
  if (!text) return;
  status.append(h("p", { class: `message ${kind}` }, text));
}

export function sayError(error) {
  say(sentence(error), "error");
}

export function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function header() {
  const nav = document.getElementById("account");
  clear(nav);
  if (!session.me) return;
  nav.append(
    h("span", { class: "who" }, "Signed in as ", h("strong", {}, session.me.username)),
    h("button", { type: "button", id: "logout", onclick: logout }, "Log out"),
  );
}

async function logout() {
  try {
    await api.auth_logout();
  } catch (error) {
    // The token is gone either way; a failure here only means it was already revoked.
  }
  auth.token = null;
  session.me = null;
  header();
  go("#/login");
}

function loginScreen(root) {
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  async function submit(operation) {
    say("");
    try {
      const answer = await operation({}, { username: username.value, password: password.value });
      auth.token = answer.token;
      session.me = { id: answer.id, username: answer.username };
      header();
      go("#/");
    } catch (error) {
      sayError(error);
    }
  }
  const form = h("form", { class: "panel login", onsubmit: (e) => { e.preventDefault(); submit(api.auth_token); } },
    h("h2", {}, "Play Pusoy Dos"),
    h("label", { for: "username" }, "Username"), username,
    h("label", { for: "password" }, "Password"), password,
    h("div", { class: "actions" },
      h("button", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "register", onclick: () => submit(api.auth_register) }, "Create account"),
    ),
  );
  root.append(form);
  username.focus();
  return { stop() {} };
}

async function route() {
  if (current) current.stop();
  current = null;
  say("");
  clear(main);
  const hash = location.hash || "#/";
  if (!auth.token) {
    current = loginScreen(main);
    return;
  }
  if (!session.me) {
    try {
      session.me = await api.players_me();
    } catch (error) {
      if (error.status === 401) { auth.token = null; current = loginScreen(main); return; }
      sayError(error);
      return;
    }
    header();
  }
  const ctx = { api, me: session.me, root: main, say, sayError, go };
  let match;
  if (hash === "#/login") {
    go("#/");
  } else if ((match = hash.match(/^#\/games\/([0-9a-f-]{36})\/deals\/(\d+)$/))) {
    current = replayScreen(ctx, match[1], Number(match[2]));
  } else if ((match = hash.match(/^#\/games\/([0-9a-f-]{36})(?:\?code=(.*))?$/))) {
    current = tableScreen(ctx, match[1], match[2] ? decodeURIComponent(match[2]) : null);
  } else {
    current = lobbyScreen(ctx);
  }
}

auth.onRejected = () => {
  auth.token = null;
  session.me = null;
  header();
  go("#/login");
};
window.addEventListener("hashchange", route);
route();
