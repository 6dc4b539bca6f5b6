// The web client: a reference client of the public API, as a mobile app
// would be. Screens by URL fragment: #/ (lobby), #/games/ID (table or watching),
// #/games/ID/deals/N (replay and audit of a finished deal), #/ratings (leaderboard),
// #/players/ID (a profile), #/login.
import * as api from "/app/api.js";
import { auth } from "./http.js";
import { h, append, clear } from "./dom.js";
import { sentence } from "./errors.js";
import { lobbyScreen } from "./lobby.js";
import { tableScreen } from "./table.js";
import { replayScreen } from "./replay.js";
import { leaderboardScreen, profileScreen } from "./leaderboard.js";
import { createFeed } from "./feed.js";

const main = document.getElementById("main");
const status = document.getElementById("status");
const session = { me: null, feed: null };
// Where a logged-out visitor was going (an invite link): kept through "Create account"
// and "Log in", and through a reload of the log-in page.
const NEXT_KEY = "pusoy.next";
let current = null; // the screen on view: {stop()}

/** A message for the player in the page's live region (errors as sentences). */
export function say(text, kind = "info") {
  clear(status);
  if (!text) return;
  append(status, h("p", { class: `message ${kind}` }, text));
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
  append(nav, h("span", { class: "who" }, "Signed in as ", h("strong", {}, session.me.username)),
    h("button", { type: "button", id: "logout", onclick: logout }, "Log out"),
  );
}

async function logout() {
  try {
    await api.auth_logout();
  } catch (_error) {
    // The token is gone either way; a failure here only means it was already revoked.
  }
  signedOut();
  go("#/login");
}

function signedOut() {
  auth.token = null;
  session.me = null;
  if (session.feed) session.feed.stop();
  session.feed = null;
  header();
}

function loginScreen(root, next) {
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  async function submit(operation) {
    say(""); // an old refusal must not stand beside a new attempt
    // The form is novalidate so that both buttons come here (a blocked submit would
    // leave the old message up, and "Create account" would skip the check): the
    // browser's own check of the required fields, then the server.
    if (!form.reportValidity()) return;
    try {
      const answer = await operation({}, { username: username.value, password: password.value });
      auth.token = answer.token;
      session.me = { id: answer.id, username: answer.username };
      header();
      sessionStorage.removeItem(NEXT_KEY);
      go(next || "#/");
    } catch (error) {
      sayError(error);
    }
  }
  const form = h("form", { class: "panel login", novalidate: true,
    onsubmit: (e) => { e.preventDefault(); submit(api.auth_token); } },
    h("h2", {}, "Play Pusoy Dos"),
    next?.includes("?code=")
      ? h("p", { id: "invite-waiting", class: "info" },
        "You have been invited to a game: log in or create an account to see it and join.")
      : null,
    h("label", { for: "username" }, "Username"), username,
    h("label", { for: "password" }, "Password"), password,
    h("div", { class: "actions" },
      h("button", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "register", onclick: () => submit(api.auth_register) }, "Create account"),
    ),
  );
  append(root, form);
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
    if (hash.startsWith("#/games/")) sessionStorage.setItem(NEXT_KEY, hash);
    current = loginScreen(main, hash.startsWith("#/games/") ? hash : sessionStorage.getItem(NEXT_KEY));
    return;
  }
  if (!session.me) {
    try {
      session.me = await api.players_me();
    } catch (error) {
      if (error.status === 401) { auth.token = null; current = loginScreen(main, hash); return; }
      sayError(error);
      return;
    }
    header();
  }
  if (!session.feed) session.feed = createFeed(api, { stream: document.body.dataset.feed === "stream" });
  const ctx = { api, me: session.me, feed: session.feed, root: main, say, sayError, go };
  const replay = hash.match(/^#\/games\/([0-9a-f-]{36})\/deals\/(\d+)$/);
  const table = hash.match(/^#\/games\/([0-9a-f-]{36})(?:\?code=(.*))?$/);
  const profile = hash.match(/^#\/players\/([0-9a-f-]{36})$/);
  if (hash === "#/login") {
    go("#/");
  } else if (hash === "#/ratings") {
    current = leaderboardScreen(ctx);
  } else if (profile) {
    current = profileScreen(ctx, profile[1]);
  } else if (replay) {
    current = replayScreen(ctx, replay[1], Number(replay[2]));
  } else if (table) {
    current = tableScreen(ctx, table[1], table[2] ? decodeURIComponent(table[2]) : null);
  } else {
    current = lobbyScreen(ctx);
  }
}

auth.onRejected = () => {
  signedOut();
  go("#/login");
};
window.addEventListener("hashchange", route);
route();
