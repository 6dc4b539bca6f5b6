// The lobby: your games (your turn first), open games, games to watch, invitations,
// joining by invite code, creating a game, and ratings.
import { h, append, clear, uniqueKey } from "./dom.js";
import { seatName, describeGame, STATUS_TEXT, enumOf, propertySchema } from "./game.js";
import { ratingsPanel, ratingText } from "./ratings.js";

// Your games and invitations change with an event of your feed (feed.js), read at once;
// other players' open and running games are no event of yours, so the lists are also
// read again every so often while the tab is in view.
const REFRESH_MS = 30000;
const SOON_MS = 200; // events come in bursts (a move, then the AI replies): one read

export function lobbyScreen(ctx) {
  const { api, root } = ctx;
  const lists = h("div", { class: "lists", id: "lobby-lists" },
    h("section", { class: "panel" }, h("h2", {}, "My games"), h("p", { class: "empty" }, "Loading\u2026")));
  const ratings = ratingsPanel(ctx);
  const create = createForm(ctx, ratings.levels);
  append(root, h("h2", { class: "visually-hidden" }, "Lobby"),
    // On a phone the form is screens below: this takes the player there.
    h("div", { class: "actions lobby-bar" },
      h("button", { type: "button", id: "new-game", class: "primary", onclick: () => {
        create.scrollIntoView({ block: "start" });
        create.querySelector("select, input")?.focus({ preventScroll: true });
      } }, "New game"),
      h("a", { class: "button", id: "to-ratings", href: "#/ratings" }, "Ratings and leaderboard")),
    lists,
    h("div", { class: "side" }, joinByCode(ctx), create, ratings.panel),
  );
  let timer = null;
  let stopped = false;

  function gameRow(game, action) {
    const seats = game.seats.map(seatName).join(", ");
    return h("li", { class: "game-row", dataset: { game: game.id } },
      h("div", {},
        h("strong", {}, STATUS_TEXT[game.status] || game.status), " \u00b7 ",
        describeGame(game), h("br"), h("small", {}, seats)),
      action);
  }

  function openButton(game, label) {
    return h("a", { class: "button", href: `#/games/${game.id}` }, label);
  }

  function joinButton(game) {
    return h("button", { type: "button", onclick: async () => {
      try {
        await api.games_join({ game_id: game.id }, {});
        ctx.go(`#/games/${game.id}`);
      } catch (error) { ctx.sayError(error); }
    } }, "Join");
  }

  function section(id, title, items, empty) {
    return h("section", { class: "panel", id },
      h("h2", {}, title),
      items.length ? h("ul", { class: "rows" }, items) : h("p", { class: "empty" }, empty));
  }

  async function refresh() {
    // A hidden tab reads nothing (an event's refresh included): shown again, it reads.
    if (document.hidden && lists.dataset.loaded) return;
    try {
      const [turn, mine, waiting, active, invitations] = await Promise.all([
        api.games_list({ mine: true, my_turn: true, limit: 50 }),
        api.games_list({ mine: true, limit: 50 }),
        api.games_list({ status: "waiting", limit: 50 }),
        api.games_list({ status: "active", limit: 50 }),
        api.invitations_list({ status: "pending", limit: 50 }),
      ]);
      if (stopped) return;
      const myTurn = new Set(turn.results.map((g) => g.id));
      const myIds = new Set(mine.results.map((g) => g.id));
      const focused = document.activeElement?.closest("#lobby-lists");
      clear(lists);
      lists.dataset.loaded = "true";
      append(lists, section("invitations", "Invitations", invitations.results.map((inv) =>
          h("li", { class: "game-row" },
            h("div", {}, `${inv.invited_by.username} invites you to a game (seat ${inv.seat + 1})`),
            h("span", { class: "actions" },
              h("button", { type: "button", onclick: async () => {
                try { await api.invitations_accept({ invitation_id: inv.id }, {}); ctx.go(`#/games/${inv.game}`); }
                catch (error) { ctx.sayError(error); }
              } }, "Accept"),
              h("button", { type: "button", onclick: async () => {
                try { await api.invitations_decline({ invitation_id: inv.id }, {}); refresh(); }
                catch (error) { ctx.sayError(error); }
              } }, "Decline")))), "No invitations."),
        section("my-games", "My games", [
          ...turn.results.map((g) => gameRow(g, openButton(g, "Your turn"))),
          ...mine.results.filter((g) => !myTurn.has(g.id)).map((g) => gameRow(g, openButton(g, "Open"))),
        ], "No games yet: create one."),
        section("open-games", "Open games", waiting.results.filter((g) => !myIds.has(g.id))
          .map((g) => gameRow(g, joinButton(g))), "No open games right now."),
        section("watch-games", "Games being played", active.results.filter((g) => !myIds.has(g.id))
          .map((g) => gameRow(g, openButton(g, "Watch"))), "Nobody else is playing."),
      );
      if (focused) lists.querySelector("a, button")?.focus();
    } catch (error) {
      ctx.sayError(error);
    }
    // One timer at most, whoever called (the loop, Decline, the tab coming back), and
    // none while the tab is hidden: a lobby left open in the background costs nothing.
    clearTimeout(timer);
    if (!stopped && !document.hidden) timer = setTimeout(refresh, REFRESH_MS);
  }
  function onVisibility() {
    if (document.hidden) clearTimeout(timer);
    else if (!stopped) refresh();
  }
  let soon = null;
  const unsubscribe = ctx.feed ? ctx.feed.subscribe(() => {
    clearTimeout(soon);
    if (!stopped && !document.hidden) soon = setTimeout(refresh, SOON_MS);
  }) : () => {};
  document.addEventListener("visibilitychange", onVisibility);
  refresh();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(soon);
      unsubscribe();
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}

function field(label, control, hint) {
  control.id = control.id || `f-${control.name}`;
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control,
    hint ? h("small", {}, hint) : null);
}

function select(name, options, value) {
  return h("select", { name },
    options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
}

function joinByCode(ctx) {
  const link = h("input", { name: "join_game", placeholder: "game link or id", required: true });
  const code = h("input", { name: "join_code", placeholder: "invite code" });
  return h("form", { class: "panel", id: "join-form", onsubmit: async (e) => {
    e.preventDefault();
    const id = (link.value.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i) || [])[0];
    const fromLink = link.value.match(/[?&]code=([^&]+)/);
    const inviteCode = code.value.trim() || (fromLink ? decodeURIComponent(fromLink[1]) : "");
    if (!id) { ctx.say("Paste the game's link or id.", "error"); return; }
    try {
      await ctx.api.games_join({ game_id: id }, inviteCode ? { invite_code: inviteCode } : {});
      ctx.go(`#/games/${id}`);
    } catch (error) { ctx.sayError(error); }
  } },
  h("h2", {}, "Join a private game"),
  field("Game", link), field("Invite code", code),
  h("button", { type: "submit" }, "Join"));
}

const OPTION_LABELS = {
  suit_order: "Suit order (low to high)", opening_card: "Opening card", straights: "Straights",
  flush_order: "Flushes", scoring: "Scoring", play_out: "Play out", pass_locks_out: "A pass locks out",
  leftover: "Leftover cards", hand_size: "Cards per hand", triples: "Triples",
};

/** The rule options a creator may override, from the schema of the create request. */
function ruleOptions() {
  const rules = propertySchema("GameCreateRequest", "rules");
  const object = (rules.oneOf || []).find((s) => s.type === "object");
  return object ? object.properties : {};
}

/** Each AI seat option says the level's rating once it is known. */
async function labelLevels(selects, levels) {
  let ratings;
  try {
    ratings = await levels;
  } catch (_error) {
    return; // the ratings panel says they are unavailable; the levels still work
  }
  const byLevel = new Map(ratings.map((l) => [`ai:${l.level}`, l]));
  for (const select of selects) {
    for (const option of select.options) {
      const known = byLevel.get(option.value);
      if (known) option.textContent = `AI: ${known.level} (rating ${ratingText(known.rating)})`;
    }
  }
}

function createForm(ctx, levelRatings) {
  const presets = enumOf("Rules", "preset");
  const levels = enumOf("AiSeatRequest", "level");
  const preset = select("preset", presets.map((p) => [p, p]), presets[0]);
  const options = Object.entries(ruleOptions()).filter(([name, s]) => name !== "preset" && (s.enum || s.type === "boolean"));
  const optionControls = options.map(([name, s]) => {
    const values = s.enum || [true, false];
    return [name, s, select(`rule_${name}`, [["", "as the preset"], ...values.map((v) => [JSON.stringify(v), String(v)])], "")];
  });
  const seatCount = select("seat_count", [["2", "2"], ["3", "3"], ["4", "4"]], "4");
  const seatKinds = [["human", "A person"], ...levels.map((l) => [`ai:${l}`, `AI: ${l}`])];
  const seatSelects = [1, 2, 3].map((i) => select(`seat_${i}`, seatKinds, `ai:${levels[0]}`));
  const seatFields = seatSelects.map((s, i) => field(`Seat ${i + 2}`, s));
  function showSeats() {
    const n = Number(seatCount.value);
    seatFields.forEach((f, i) => { f.hidden = i + 2 > n; });
  }
  seatCount.addEventListener("change", showSeats);
  labelLevels(seatSelects, levelRatings);
  const targetKind = select("target_kind", [["one", "One deal"], ["deals", "A number of deals"], ["score", "First to a score"]], "one");
  const targetValue = h("input", { name: "target_value", type: "number", min: "1", max: "10000", value: "3" });
  const targetField = field("Deals or score", targetValue);
  function showTarget() {
    targetField.hidden = targetKind.value === "one";
    targetField.querySelector("label").textContent = targetKind.value === "score" ? "Points to reach" : "Number of deals";
  }
  targetKind.addEventListener("change", showTarget);
  const timeout = h("input", { name: "turn_timeout", type: "number", min: "10", placeholder: "no limit" });
  const visibility = select("visibility", enumOf("GameCreateRequest", "visibility").map((v) => [v, v]), "public");
  const invite = h("input", { name: "invite", placeholder: "usernames, comma separated" });
  const hints = h("input", { name: "hints", type: "checkbox" });

  const form = h("form", { class: "panel", id: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const overrides = {};
    for (const [name, , control] of optionControls) {
      if (control.value !== "") overrides[name] = JSON.parse(control.value);
    }
    const body = {
      rules: Object.keys(overrides).length ? { preset: preset.value, ...overrides } : preset.value,
      seats: [{ type: "human" }, ...seatSelects.slice(0, Number(seatCount.value) - 1).map((s) =>
        s.value === "human" ? { type: "human" } : { type: "ai", level: s.value.slice(3) })],
      visibility: visibility.value,
      invite: invite.value.split(",").map((u) => u.trim()).filter(Boolean),
    };
    if (targetKind.value === "deals") body.target_deals = Number(targetValue.value);
    if (targetKind.value === "score") body.target_score = Number(targetValue.value);
    if (timeout.value) body.turn_timeout = Number(timeout.value);
    if (hints.checked) body.hints = true;
    try {
      const game = await ctx.api.games_create({}, body, { headers: { "Idempotency-Key": uniqueKey() } });
      ctx.go(`#/games/${game.id}`);
    } catch (error) { ctx.sayError(error); }
  } },
  h("h2", {}, "New game"),
  field("Rules", preset),
  h("details", {}, h("summary", {}, "Rule options"),
    optionControls.map(([name, , control]) => field(OPTION_LABELS[name] || name, control))),
  field("Seats", seatCount, "You take the first seat."),
  ...seatFields,
  field("Match", targetKind), targetField,
  field("Seconds per move", timeout, "At least 10; empty for no limit."),
  field("Visibility", visibility),
  field("Invite", invite, "Reserves the next seats for these players (make those seats people)."),
  field("Hints", hints, "A hint on each turn; a game with hints is not rated."),
  h("button", { type: "submit", id: "create-game" }, "Create game"));
  showSeats();
  showTarget();
  return form;
}
