// Ratings in the lobby: yours and its latest changes, the AI levels' (so you can pick
// opponents of your strength) and the best rated players. Ratings move only when a
// rated deal ends, so the panel loads once per visit to the lobby, not on every refresh.
import { h, append, clear } from "./dom.js";

const HISTORY = 5;
const TOP = 5;

/** A rating's conservative estimate, as the leaderboard orders by it. */
export function ratingText(rating) {
  return rating.display.toFixed(1);
}

export function signed(change) {
  return `${change > 0 ? "+" : change < 0 ? "\u2212" : "\u00b1"}${Math.abs(change).toFixed(1)}`;
}

function table(caption, head, rows) {
  return h("table", { class: "ratings" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))));
}

/** The panel, filled when its requests answer; ``levels`` resolves to the AI levels'
 * ratings (the create form labels its AI seats with them). */
export function ratingsPanel(ctx) {
  const { api, me } = ctx;
  const body = h("div", {}, h("p", { class: "empty" }, "Loading\u2026"));
  const panel = h("section", { class: "panel", id: "ratings" }, h("h2", {}, "Ratings"), body);
  const levels = api.ai_levels();
  (async () => {
    try {
      const [mine, history, ai, best] = await Promise.all([
        api.players_me(), // (not ctx.me: read at log-in, its rating may be old)
        api.players_ratings({ player_id: me.id, limit: HISTORY }),
        levels,
        api.leaderboard({ order: "rating", limit: TOP }),
      ]);
      clear(body);
      const rating = mine.rating;
      append(body, h("p", { id: "my-rating" }, rating.games
          ? ["Your rating: ", h("strong", {}, ratingText(rating)),
             ` after ${rating.games} rated deal${rating.games === 1 ? "" : "s"}.`]
          : "You have no rated deal yet: every deal of a rated game moves your rating."),
        history.results.length
          ? table("Your latest rated deals", ["Place", "Change", "Rating"], history.results.map((c) =>
            [String(c.place), signed(c.change), ratingText(c)]))
          : null,
        table("AI levels", ["Level", "Rating"], ai.map((l) => [l.level, ratingText(l.rating)])),
        best.results.length
          ? table("Best rated players", ["Player", "Rating"], best.results.map((p) =>
            [p.username, ratingText(p.rating)]))
          : null,
      );
    } catch (_error) {
      clear(body);
      append(body, h("p", { class: "empty" }, "Ratings are not available right now."));
    }
  })();
  return { panel, levels };
}
