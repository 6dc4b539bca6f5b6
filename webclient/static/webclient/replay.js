// Replay and audit of a finished deal from its record (GET games/{id}/deals/{n}/record):
// every hand as dealt, stepped move by move (buttons, a slider, the arrow keys), the
// seed commitment and the revealed seed, the server's verdict on the record
// (POST records/verify), a check of the commitment in the browser, and the record as
// a file.
import { h, append, clear } from "./dom.js";
import { cardRow, sortCards } from "./cards.js";
import { seatName } from "./game.js";
import { currentTrick } from "./table.js";

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The hands after the first `step` moves of the record. */
export function handsAt(record, step) {
  const hands = record.hands.map((hand) => [...hand]);
  for (const move of record.moves.slice(0, step)) {
    if (move.play) hands[move.seat] = hands[move.seat].filter((c) => !move.play.includes(c));
  }
  return hands;
}

/** The plays of the trick on the table after the first `step` moves. */
function trickAt(record, step) {
  const moves = record.moves.slice(0, step).map((m) => ({
    seat: m.seat, action: m.play ? "play" : "pass", cards: m.play || [], play: m.play }));
  const counts = handsAt(record, step).map((hand) => hand.length);
  const trick = currentTrick(moves, counts);
  // After everyone passed, the trick is over though no new play has opened the next.
  let passes = 0;
  for (let i = moves.length - 1; i >= 0 && moves[i].action === "pass"; i--) passes += 1;
  const last = trick[trick.length - 1];
  const others = last ? counts.filter((n, seat) => seat !== last.seat && n > 0).length : 0;
  return last && passes >= others ? [] : trick;
}

export function replayScreen(ctx, gameId, number) {
  const { api, root } = ctx;
  let record = null;
  let step = 0;
  let stopped = false;
  const view = h("section", { id: "replay", class: "replay", "aria-label": `Replay of deal ${number}` });
  append(root, view);
  const board = h("div", { id: "replay-board" });
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", value: "0", "aria-label": "Move" });
  const position = h("p", { id: "replay-position", "aria-live": "polite" });

  function name(seat) {
    const named = record.players?.[seat];
    // The record names AI seats by level only ("AI (random)"); two of a level differ by seat.
    const ai = named?.match(/^AI \((.+)\)$/);
    if (ai) return seatName({ type: "ai", level: ai[1], position: seat });
    return named || `Seat ${seat + 1}`;
  }

  function show() {
    slider.value = String(step);
    const total = record.moves.length;
    const move = step > 0 ? record.moves[step - 1] : null;
    clear(position);
    append(position, `Move ${step} of ${total}: `, move
      ? [`${name(move.seat)} `, move.pass ? "passes" : ["plays ", cardRow(move.play)]]
      : "the deal as dealt");
    const hands = handsAt(record, step);
    const trick = trickAt(record, step);
    clear(board);
    append(board, h("div", { id: "last-play" }, trick.length
        ? [h("p", {}, "This trick:"), h("ol", { class: "trick", id: "replay-trick" }, trick.map((m) =>
          h("li", {}, `${name(m.seat)}: `, cardRow(m.play))))]
        : h("p", {}, step ? "The trick is over: the next play leads." : "No play yet.")),
      h("ol", { class: "replay-hands" }, hands.map((hand, seat) =>
        h("li", { class: `replay-hand${move && move.seat === seat ? " to-play" : ""}`, dataset: { seat: String(seat), cards: sortCards(hand, record.rules).join(" ") } },
          h("strong", {}, `${name(seat)} (${hand.length})`), " ", cardRow(hand, record.rules)))),
      h("ol", { class: "replay-moves", id: "replay-moves" }, record.moves.map((m, i) =>
        h("li", { class: i === step - 1 ? "current" : "", "aria-current": i === step - 1 ? "step" : null },
          h("span", { class: "move-number" }, `${i + 1}.`), ` ${name(m.seat)}: `,
          m.pass ? "passes" : cardRow(m.play)))),
    );
    for (const [id, disabled] of [["first", step === 0], ["prev", step === 0], ["next", step === total], ["last", step === total]]) {
      view.querySelector(`#replay-${id}`).disabled = disabled;
    }
  }

  function go(to) {
    step = Math.max(0, Math.min(record.moves.length, to));
    show();
  }

  function keys(event) {
    if (event.target.closest?.("input, select, textarea") && event.target !== slider) return;
    const moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: record ? record.moves.length : 0 };
    if (record && event.key in moves && event.target !== slider) {
      event.preventDefault();
      go(moves[event.key]);
    }
  }

  async function verify() {
    const out = view.querySelector("#verdict");
    try {
      const verdict = await api.records_verify({}, record);
      out.textContent = verdict.valid
        ? "Verified by the server: the seed gives these hands, matches the commitment, every move is legal and the result follows."
        : `The server refuses this record: ${verdict.message}`;
      out.className = verdict.valid ? "ok" : "error";
    } catch (error) {
      ctx.sayError(error);
    }
    const local = view.querySelector("#local-check");
    if (globalThis.crypto && crypto.subtle && record.seed) {
      const hash = await sha256Hex(hexToBytes(record.seed));
      local.textContent = hash === record.commitment
        ? "Checked in this browser: SHA-256(seed) equals the commitment."
        : "Checked in this browser: SHA-256(seed) does NOT equal the commitment.";
    }
  }

  async function load() {
    try {
      record = await api.games_deal_record({ game_id: gameId, number });
    } catch (error) {
      ctx.sayError(error);
      append(view, h("p", {}, h("a", { href: `#/games/${gameId}` }, "Back to the game")));
      return;
    }
    if (stopped) return;
    slider.max = String(record.moves.length);
    slider.addEventListener("input", () => go(Number(slider.value)));
    const file = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
    const download = h("a", { class: "button", id: "download-record", href: URL.createObjectURL(file),
      download: `pusoy-record-${gameId}-deal-${number}.json` }, "Download the record (JSON)");
    append(view, h("header", {}, h("h2", {}, `Replay of deal ${number}`),
        h("p", {}, h("a", { href: `#/games/${gameId}` }, "Back to the game"))),
      h("div", { class: "replay-controls actions" },
        h("button", { type: "button", id: "replay-first", onclick: () => go(0) }, "\u00ab First"),
        h("button", { type: "button", id: "replay-prev", onclick: () => go(step - 1) }, "\u25c0 Previous"),
        h("button", { type: "button", id: "replay-next", onclick: () => go(step + 1) }, "Next \u25b6"),
        h("button", { type: "button", id: "replay-last", onclick: () => go(record.moves.length) }, "Last \u00bb")),
      slider, position, h("p", { class: "hint" }, "Arrow keys step through the moves."),
      board,
      h("section", { class: "panel audit", id: "audit" }, h("h3", {}, "Audit"),
        h("p", {}, "Commitment (published when the deal began): ", h("code", { id: "commitment" }, record.commitment)),
        h("p", {}, "Seed (revealed when it ended): ", h("code", { id: "seed" }, record.seed)),
        h("p", { id: "verdict", role: "status" }, "Verifying\u2026"),
        h("p", { id: "local-check" }),
        download),
    );
    show();
    verify();
  }

  document.addEventListener("keydown", keys);
  load();
  return {
    stop() {
      stopped = true;
      document.removeEventListener("keydown", keys);
    },
  };
}
