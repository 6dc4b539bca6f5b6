// Error codes of the API (docs/api.md, "Errors") as sentences for players. The server's
// message is for developers and may change; the code is stable.

const SENTENCES = {
  invalid_input: "Some of what was sent is not valid.",
  malformed_request: "The request could not be read.",
  bad_request: "The request could not be understood.",
  invalid_card: "That is not a card.",
  invalid_action: "A move is either a play or a pass.",
  invalid_rules: (d) => `That rule setting is not allowed${d.option ? ` (${d.option})` : ""}.`,
  invalid_seats: "A game needs 2 to 4 seats, each a person or an AI player.",
  not_authenticated: "Please log in.",
  authentication_failed: "You have been logged out. Please log in again.",
  invalid_credentials: "Wrong username or password.",
  not_a_participant: "You have no seat in this game.",
  permission_denied: "You are not allowed to do that.",
  not_the_creator: "Only the player who created the game can do that.",
  not_found: "That game or page does not exist (or is private).",
  invalid_seq: "That move is not in this deal.",
  not_your_turn: "It is not your turn.",
  stale_seq: "Someone moved before you: the table has been updated, try again.",
  game_not_active: "The game is not being played right now.",
  seat_taken: "That seat has just been taken.",
  game_not_open: "That game no longer takes players.",
  already_joined: "You already have a seat in this game.",
  username_taken: "That username is taken. Choose another.",
  deal_in_progress: "The deal is still being played; its record comes when it ends.",
  game_full: "Every free seat of that game is reserved for invited players.",
  game_not_waiting: "That is only possible before the game starts.",
  game_not_finished: "A rematch is possible once the game has finished.",
  seat_resigned: "You resigned from this game: an AI plays your seat.",
  already_invited: "That player is already invited.",
  invitation_closed: (d) => `That invitation is no longer open${d.status ? ` (${d.status})` : ""}.`,
  cards_not_in_hand: "You do not hold those cards.",
  not_a_combination: "Those cards do not make a combination you can play.",
  must_include_opening_card: "The first play of the game must include the opening card.",
  wrong_size: "Play the same number of cards as the play on the table.",
  does_not_beat: "That play does not beat the one on the table.",
  cannot_pass_on_lead: "You lead this trick, so you cannot pass.",
  duplicate_cards: "The same card is in the play twice.",
  no_human_seat: "A game needs at least one seat for a person.",
  invalid_seat: "That seat does not exist in this game.",
  unknown_player: (d) => `There is no player called "${d.username ?? "?"}".`,
  invalid_invitee: "You cannot invite yourself, a player twice, or more players than open seats.",
  rated_with_hints: "A game with hints cannot be rated.",
  hints_off: "This game was created without hints.",
  invalid_ticket: "The live-updates ticket is spent or expired; reconnecting.",
  webhook_scope_forbidden: "Only staff may subscribe a webhook to every game.",
  webhook_limit_reached: "You have as many webhooks as allowed.",
  webhook_url_refused: "That webhook address is not allowed.",
  weak_password: (d) =>
    `That password is too weak${d.reasons?.length ? `: ${d.reasons.join(" ")}` : "."}`,
  invalid_username: "Usernames are letters, digits and @ . + - _ of one script.",
  wrong_password: "That password is not right.",
  guest_account: "A guest account has no password yet: choose a name and password to keep it.",
  not_a_guest: "This account already has a name and password.",
  invalid_device: "This device could not be registered for notifications.",
  push_unavailable: "This server does not send notifications to this kind of device.",
  push_endpoint_refused: "This browser's notification service is not one the server sends to.",
  device_limit_reached: "You have notifications on as many devices as allowed: remove one first.",
  idempotency_key_reused: "That request was already sent with different content.",
  throttled: (d) => `Too many attempts. Try again in ${d.retry_after ?? "a few"} seconds.`,
  payload_too_large: "That is too large to send.",
  method_not_allowed: "That action is not available here.",
  not_acceptable: "The server cannot answer in a form this page reads.",
  unsupported_media_type: "The server could not read what was sent.",
  service_unavailable: "The server is busy or down for a moment. Try again shortly.",
  // The client's own: fetch failed before any answer.
  network_error: "The server could not be reached. Check your connection.",
  server_error: "Something went wrong on the server.",
};

/** A sentence for an ApiError (or any error). */
export function sentence(error) {
  const known = error && SENTENCES[error.code];
  if (typeof known === "function") return known(error.details || {});
  if (known) return known;
  return (error?.message) || "Something went wrong.";
}

export const KNOWN_CODES = Object.keys(SENTENCES);
