// What the screens say about a game: seat names, statuses, options from the schema.
import { components } from "/app/api.js";

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** A name that tells every seat of a game apart: AI seats of one level differ by seat. */
export function seatName(seat) {
  if (seat.player) return seat.player.username;
  if (seat.type === "ai") return `${capital(seat.level)} (seat ${seat.position + 1})`;
  return `Open seat ${seat.position + 1}`;
}

/** How the final ranking orders seats (games/services/deals.py match_ranking). */
export function tieRule(game) {
  const most = game.rules.scoring === "cards-left" ? "fewest points" : "most points";
  return `Ranked by ${most}; a tie goes to more deals won, then the lower seat. Seats that resigned come last.`;
}

export function seatLabel(game, position, me) {
  const seat = game.seats[position];
  const name = seatName(seat);
  const mine = me && seat.player && seat.player.id === me.id;
  const resigned = seat.status === "resigned" ? " (resigned: AI plays)" : "";
  return `${name}${mine ? " (you)" : ""}${resigned}`;
}

export function mySeat(game, me) {
  const seat = game.seats.find((s) => s.player && s.player.id === me.id);
  return seat ? seat.position : null;
}

export function describeGame(game) {
  const target = game.target_deals
    ? `${game.target_deals} deal${game.target_deals > 1 ? "s" : ""}`
    : game.target_score ? `to ${game.target_score} points` : "1 deal";
  return `${game.rules.preset} rules, ${game.seats.length} seats, ${target}` +
    (game.visibility === "private" ? ", private" : "");
}

export const STATUS_TEXT = {
  waiting: "Waiting for players",
  active: "Playing",
  finished: "Finished",
  abandoned: "Abandoned",
};

function resolve(schema) {
  while (schema?.$ref) schema = components[schema.$ref.split("/").pop()];
  return schema;
}

/** A property's schema in a component, `$ref`s and single `allOf`s followed. */
export function propertySchema(component, property) {
  let schema = resolve(components[component].properties[property]);
  if (schema?.allOf && schema.allOf.length === 1) schema = resolve(schema.allOf[0]);
  return schema;
}

/** The values the schema allows for a component's property (its enum). */
export function enumOf(component, property) {
  const schema = propertySchema(component, property);
  return ((schema?.enum) || []).filter((v) => v !== null);
}
