// The ratings screen (#/ratings): the leaderboard by rating and by wins, the AI levels'
// ratings; and a player's profile (#/players/ID): their stats and their rated deals,
// each a link to its game.
import { h, append, clear } from "./dom.js";
import { ratingText, signed } from "./ratings.js";

const TOP = 20;

function table(id, caption, head, rows, empty) {
  if (!rows.length) return h("p", { class: "empty", id }, empty);
  return h("table", { class: "ratings", id },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))));
}

function playerLink(player) {
  return h("a", { href: `#/players/${player.id}` }, player.username);
}

export function leaderboardScreen(ctx) {
  const { api, root } = ctx;
  const body = h("div", {}, h("p", { class: "empty" }, "Loading\u2026"));
  append(root, h("section", { class: "panel", id: "leaderboard" }, h("h2", {}, "Ratings and leaderboard"),
    h("p", { class: "hint" }, "A rating is its conservative estimate (mu \u2212 3 sigma); it moves when a rated deal ends."),
    body, h("p", {}, h("a", { class: "button", href: "#/" }, "Lobby"))));
  let stopped = false;
  (async () => {
    try {
      const [byRating, byWins, levels] = await Promise.all([
        api.leaderboard({ order: "rating", limit: TOP }),
        api.leaderboard({ order: "wins", limit: TOP }),
        api.ai_levels(),
      ]);
      if (stopped) return;
      clear(body);
      append(body,
        table("by-rating", "Players by rating", ["#", "Player", "Rating", "Rated deals"],
          byRating.results.map((p, i) => [String(i + 1), playerLink(p), ratingText(p.rating), String(p.rating.games)]),
          "Nobody has a rated deal yet."),
        table("by-wins", "Players by games won", ["#", "Player", "Games won", "Deals won", "Points"],
          byWins.results.map((p, i) => [String(i + 1), playerLink(p), String(p.games_won), String(p.deals_won), String(p.points)]),
          "Nobody has finished a game yet."),
        table("ai-levels", "AI levels", ["Level", "Rating"], levels.map((l) => [l.level, ratingText(l.rating)]),
          "No AI levels."));
    } catch (error) {
      if (!stopped) ctx.sayError(error);
    }
  })();
  return { stop() { stopped = true; } };
}

export function profileScreen(ctx, playerId) {
  const { api, root } = ctx;
  const body = h("div", {}, h("p", { class: "empty" }, "Loading\u2026"));
  const title = h("h2", {}, "Player");
  append(root, h("section", { class: "panel", id: "profile" }, title, body,
    h("p", { class: "actions" }, h("a", { class: "button", href: "#/ratings" }, "Leaderboard"),
      h("a", { class: "button", href: "#/" }, "Lobby"))));
  let stopped = false;
  (async () => {
    try {
      const [player, history] = await Promise.all([
        api.players_retrieve({ player_id: playerId }),
        api.players_ratings({ player_id: playerId, limit: 20 }),
      ]);
      if (stopped) return;
      clear(title);
      append(title, player.username);
      clear(body);
      append(body,
        h("p", { id: "profile-stats" },
          `Games played ${player.games_played}, won ${player.games_won}; deals played ${player.deals_played}, won ${player.deals_won}; `,
          player.rating.games ? `rating ${ratingText(player.rating)} after ${player.rating.games} rated deals.` : "no rated deal yet."),
        table("profile-games", "Rated deals, newest first", ["Game", "Deal", "Place", "Change", "Rating"],
          history.results.map((c) => [h("a", { href: `#/games/${c.game}` }, c.game.slice(0, 8)), String(c.deal),
            String(c.place), signed(c.change), ratingText(c)]),
          "No rated deal yet."));
    } catch (error) {
      if (!stopped) ctx.sayError(error);
    }
  })();
  return { stop() { stopped = true; } };
}
