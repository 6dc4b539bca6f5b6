// The table: your hand (sorted by the game's rules), every seat's cards left, the play to
// beat, whose turn and the deadline, scores, results; on your turn, the legal moves from
// the state. A spectator sees the same table without a hand.
import { h, append, clear, uniqueKey, formatSeconds } from "./dom.js";
import { cardElement, cardRow, sortCards, sameCards, cardsName } from "./cards.js";
import { seatLabel, seatName, mySeat, describeGame, tieRule, STATUS_TEXT } from "./game.js";
import { copyButton } from "./copy.js";
import { createSource } from "./updates.js";

const LOG_LENGTH = 12; // moves shown; the page keeps the deal's every move (the trick)

/**
 * The plays of the current trick, oldest first, from the deal's moves: a play opens a
 * new trick when its player made the trick's last play (everyone else passed), or when
 * every other player still holding cards passed since it. Checked against the state's
 * `to_beat` by the caller.
 */
export function currentTrick(moves, counts) {
  const left = [...counts];
  for (const m of moves) if (m.action === "play") left[m.seat] += m.cards.length;
  let trick = [];
  let passes = 0;
  for (const m of moves) {
    if (m.action !== "play") { passes += 1; continue; }
    const last = trick.length ? trick[trick.length - 1].seat : null;
    const others = left.filter((n, seat) => seat !== last && n > 0).length;
    if (last !== null && (m.seat === last || passes >= others)) trick = [];
    trick.push(m);
    left[m.seat] -= m.cards.length;
    passes = 0;
  }
  return trick;
}

export function tableScreen(ctx, gameId, inviteCode) {
  const { api, me, root } = ctx;
  let game = null;
  let state = null;
  let log = { deal: null, moves: [] };
  let selected = new Set();
  let busy = false;
  let confirmResign = false;
  let stopped = false;
  let clock = null;

  const view = h("section", { id: "table", class: "table", "aria-label": "Game table" });
  // The phone tray's height, for the page to leave room below its last line.
  const trayHeight = new ResizeObserver((entries) => {
    const height = entries.length ? entries[entries.length - 1].borderBoxSize?.[0]?.blockSize : 0;
    document.documentElement.style.setProperty("--tray", `${Math.ceil(height || 0)}px`);
  });
  append(root, view);

  const source = createSource(api, gameId, {
    position: () => (state ? {
      status: state.status,
      deal: state.deal ? state.deal.number : null,
      seq: state.deal ? state.deal.seq : 0,
    } : null),
    onChange: async (history) => {
      if (history && history.deal === log.deal) addMoves(history.moves);
      await load();
    },
    onError: (error) => ctx.sayError(error),
    feed: ctx.feed,
    seated: () => state?.view === "player",
  });

  function addMoves(moves) {
    const known = new Set(log.moves.map((m) => m.seq));
    log.moves.push(...moves.filter((m) => !known.has(m.seq)));
    log.moves.sort((a, b) => a.seq - b.seq);
  }

  async function load() {
    if (stopped) return;
    try {
      // Two reads, so a write can fall between them (the last resignation abandons the
      // game after the game was read and before the state was): the page shows the
      // game's status and waits by the state's, so read again until they agree.
      for (let tries = 0; ; tries += 1) {
        [game, state] = await Promise.all([
          api.games_retrieve({ game_id: gameId }),
          api.games_state({ game_id: gameId }),
        ]);
        if (game.status === state.status || tries >= 3) break;
      }
      if (state.deal && state.deal.number !== log.deal) {
        const history = await api.games_moves_list({ game_id: gameId });
        log = { deal: history.deal, moves: history.moves };
      } else if (state.deal) {
        // Moves the page has not seen (its own, and the AI replies made meanwhile).
        const seen = log.moves.length ? log.moves[log.moves.length - 1].seq : 0;
        if (state.deal.seq > seen) {
          const history = await api.games_moves_list({ game_id: gameId, deal: log.deal, since: seen });
          addMoves(history.moves);
        }
      }
    } catch (error) {
      if (stopped) return;
      if (error.status === 404 && !game) return notFound();
      ctx.sayError(error);
      return;
    }
    if (!stopped) render();
  }

  /** Nothing to show: said once, and the page stops asking (a game that is not there
   * will not appear by polling). With an invite code, the invitation instead. */
  async function notFound() {
    stopped = true;
    source.stop();
    clear(view);
    if (inviteCode) {
      try {
        const preview = await api.games_retrieve({ game_id: gameId, invite_code: inviteCode });
        append(view, h("div", { class: "panel invited", id: "invited" },
          h("h2", {}, `You're invited to ${describeGame(preview)} by ${preview.created_by.username}`),
          h("p", {}, STATUS_TEXT[preview.status] || preview.status, " \u00b7 ",
            preview.seats.map(seatName).join(", ")),
          h("button", { type: "button", id: "join-with-code", class: "primary", onclick: async () => {
            try {
              await api.games_join({ game_id: gameId }, { invite_code: inviteCode });
              stopped = false;
              await load();
              if (!stopped) source.start();
            } catch (error) { ctx.sayError(error); }
          } }, "Join")));
        return;
      } catch (_error) {
        // Spent, wrong or for a game that is gone: the same words as for no game.
      }
    }
    append(view, h("div", { class: "panel", id: "not-found" },
      h("h2", {}, "No game here"),
      h("p", {}, inviteCode
        ? "This invitation is no longer valid: the game has started, ended or was cancelled."
        : "This game does not exist, or it is private and you have no seat in it."),
      h("p", {}, h("a", { class: "button", href: "#/" }, "Back to the lobby"))));
  }

  async function act(operation, after) {
    if (busy) return;
    busy = true;
    ctx.say("");
    updateButtons();
    try {
      const answer = await operation();
      if (after) after(answer);
      busy = false;
      await load();
    } catch (error) {
      busy = false;
      ctx.sayError(error);
      if (error.code === "stale_seq" || error.code === "not_your_turn") await load();
      else if (state) render();
    }
  }

  function legalMoves() {
    return (state && state.view === "player" && state.deal && state.deal.legal_moves) || [];
  }

  function selectionIsLegal() {
    const cards = [...selected];
    return cards.length > 0 && legalMoves().some((m) => m.action === "play" && sameCards(m.cards, cards));
  }

  function move(body) {
    return act(() => api.games_moves_create({ game_id: gameId },
      { ...body, expected_seq: state.deal.seq },
      { headers: { "Idempotency-Key": uniqueKey() } }), (answer) => {
      selected = new Set();
      if (answer.ended_deal) {
        const result = answer.ended_deal.result;
        ctx.say(`Deal ${answer.ended_deal.number} is over: ${seatName(game.seats[result.winner])} went out first.`);
      }
    });
  }

  /** A hint (games created with hints): its cards are selected, its reason shown. */
  async function hint() {
    if (busy) return;
    busy = true;
    updateButtons();
    try {
      const answer = await api.games_hint({ game_id: gameId });
      selected = new Set(answer.move.cards || []);
      for (const c of view.querySelectorAll("#hand .card")) {
        c.setAttribute("aria-pressed", String(selected.has(c.dataset.card)));
      }
      updateButtons();
      ctx.say(`Hint: ${answer.move.action === "pass" ? "pass" : "play the selected cards"}. ${answer.reason}`);
    } catch (error) {
      ctx.sayError(error);
    } finally {
      busy = false;
      updateButtons();
    }
  }

  function updateButtons() {
    const play = view.querySelector("#play");
    if (play) play.disabled = busy || !selectionIsLegal();
    const pass = view.querySelector("#pass");
    if (pass) pass.disabled = busy || !legalMoves().some((m) => m.action === "pass");
    const hintButton = view.querySelector("#hint");
    if (hintButton) hintButton.disabled = busy;
    const chosen = view.querySelector("#selection");
    if (chosen) chosen.textContent = selected.size ? `Selected: ${cardsName(sortCards([...selected], game.rules))}` : "Select cards to play.";
  }

  function toggle(card, button) {
    if (selected.has(card)) selected.delete(card);
    else selected.add(card);
    button.setAttribute("aria-pressed", String(selected.has(card)));
    updateButtons();
  }

  function handKeys(event) {
    const cards = [...view.querySelectorAll("#hand .card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      const next = cards[(i + (event.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
      next.focus();
    }
  }

  function seatsList(deal) {
    return h("ol", { class: "seats", id: "seats" }, game.seats.map((seat) => {
      const i = seat.position;
      const turn = deal && !deal.is_over && deal.turn === i;
      const passed = deal?.passed.includes(i);
      return h("li", { class: `seat${turn ? " to-play" : ""}`, dataset: { seat: String(i) } },
        h("span", { class: "seat-name" }, seatLabel(game, i, me)),
        deal ? h("span", { class: "count", dataset: { count: String(deal.card_counts[i]) } },
          `${deal.card_counts[i]} card${deal.card_counts[i] === 1 ? "" : "s"}`) : null,
        h("span", { class: "score" }, `${state.scores[i]} pts`),
        turn ? h("span", { class: "badge" }, "to play") : null,
        passed ? h("span", { class: "badge muted" }, "passed") : null);
    }));
  }

  function toBeat(deal) {
    if (!deal || deal.is_over) return null;
    if (!deal.to_beat) {
      const lead = `${seatLabel(game, deal.turn, me)} leads`;
      return h("div", { class: "to-beat", id: "to-beat" }, lead,
        deal.required_card ? h("span", { id: "required-card" }, ": the play must include ",
          cardRow([deal.required_card])) : null, ".");
    }
    const top = h("div", { class: "to-beat", id: "to-beat" }, "To beat: ", cardRow(deal.to_beat.cards),
      ` ${deal.to_beat.combination} by ${seatLabel(game, deal.to_beat.seat, me)}`);
    const trick = log.deal === deal.number ? currentTrick(log.moves, deal.card_counts) : [];
    const last = trick[trick.length - 1];
    // Shown only when the moves agree with the state (else the top alone is right).
    if (trick.length < 2 || !last || last.seat !== deal.to_beat.seat
        || !sameCards(last.cards, deal.to_beat.cards)) return top;
    return h("div", { class: "trick-box" }, top,
      h("details", { class: "trick" }, h("summary", {}, `This trick: ${trick.length} plays`),
        h("ol", { id: "trick" }, trick.map((m) => h("li", {}, `${seatName(game.seats[m.seat])}: `,
          cardRow(m.cards), ` ${m.combination}`)))));
  }

  function turnLine(deal) {
    if (!deal || deal.is_over) return null;
    const mine = state.view === "player" && deal.turn === state.seat;
    const line = h("p", { class: `turn${mine ? " mine" : ""}`, id: "turn" },
      mine ? "Your turn." : `Waiting for ${seatLabel(game, deal.turn, me)}.`);
    if (deal.deadline) {
      const deadline = h("span", { id: "deadline" });
      const tick = () => {
        deadline.textContent = ` Time left: ${formatSeconds((Date.parse(deal.deadline) - Date.now()) / 1000)}`;
      };
      tick();
      clock = setInterval(tick, 1000);
      append(line, deadline);
    }
    return line;
  }

  function hand(deal) {
    if (state.view !== "player" || !deal) return null;
    const mine = !deal.is_over && deal.turn === state.seat && legalMoves().length > 0;
    const cards = sortCards(deal.hand, game.rules);
    selected = new Set([...selected].filter((c) => cards.includes(c)));
    const row = h("div", { id: "hand", class: "hand", role: "group", "aria-label": "Your hand", onkeydown: handKeys },
      cards.map((card) => {
        const el = cardElement(card, { button: true, selected: selected.has(card) });
        // Kept focusable off turn (aria-disabled, not disabled), so the hand can be read.
        if (!mine) el.setAttribute("aria-disabled", "true");
        el.addEventListener("click", () => { if (mine) toggle(card, el); });
        return el;
      }));
    const canPass = legalMoves().some((m) => m.action === "pass");
    return h("div", { class: "my-hand" },
      h("h3", {}, `Your hand (${cards.length})`), row,
      mine ? h("p", { id: "selection", class: "hint" }) : null,
      mine ? h("div", { class: "actions" },
        h("button", { type: "button", id: "play", class: "primary", disabled: true,
          onclick: () => move({ action: "play", cards: sortCards([...selected], game.rules) }) }, "Play"),
        h("button", { type: "button", id: "pass", disabled: !canPass || busy, onclick: () => move({ action: "pass" }) }, "Pass"),
        game.hints ? h("button", { type: "button", id: "hint", onclick: hint }, "Hint") : null,
        h("button", { type: "button", id: "clear", onclick: () => {
          selected = new Set();
          for (const c of view.querySelectorAll("#hand .card")) c.setAttribute("aria-pressed", "false");
          updateButtons();
        } }, "Clear")) : null);
  }

  function moveLog() {
    if (!log.moves.length) return null;
    return h("section", { class: "panel log" }, h("h3", {}, `Deal ${log.deal}: latest moves`),
      h("ol", { id: "moves", class: "numbered" }, log.moves.slice(-LOG_LENGTH).reverse().map((m) =>
        h("li", { dataset: { seq: String(m.seq) } }, h("span", { class: "move-number" }, `${m.seq}.`),
          " ", `${seatLabel(game, m.seat, me)}: `,
          m.action === "pass" ? "passes" : h("span", {}, "plays ", cardRow(m.cards), ` ${m.combination}`),
          m.actor !== "player" && !m.actor.startsWith("ai") ? ` (${m.actor})` : ""))));
  }

  function results() {
    const finished = (game.deals || []).filter((d) => d.result);
    const parts = [];
    if (game.status === "finished" || game.status === "abandoned") {
      const ranking = game.ranking || [];
      parts.push(h("div", { id: "match-result", class: "panel result" },
        h("h3", {}, game.status === "finished" ? "Match over" : "Game abandoned"),
        game.winner_seat !== null ? h("p", {}, `Winner: ${seatLabel(game, game.winner_seat, me)}`) : null,
        ranking.length ? h("ol", {}, ranking.map((s) => h("li", {}, `${seatLabel(game, s, me)}: ${state.scores[s]} pts`))) : null,
        ranking.length ? h("p", { class: "hint", id: "tie-rule" }, tieRule(game)) : null));
    }
    if (finished.length) {
      parts.push(h("section", { class: "panel", id: "deal-results" }, h("h3", {}, "Deals"),
        h("ul", {}, finished.map((d) => h("li", {},
          `Deal ${d.number}: ${seatName(game.seats[d.result.winner])} went out first; points `,
          d.result.points.join(" / "), " ",
          h("a", { href: `#/games/${game.id}/deals/${d.number}`, class: "replay-link" }, "Replay and verify"))))));
    }
    return parts;
  }

  function gameActions() {
    const seat = mySeat(game, me);
    const creator = game.created_by.id === me.id;
    const buttons = [];
    const button = (id, text, operation, after) =>
      h("button", { type: "button", id, onclick: () => act(operation, after) }, text);
    if (game.status === "waiting") {
      if (seat === null) {
        const body = inviteCode ? { invite_code: inviteCode } : {};
        buttons.push(button("join", "Take a seat", () => api.games_join({ game_id: gameId }, body)));
      } else if (!creator) {
        buttons.push(button("leave", "Leave", () => api.games_leave({ game_id: gameId }), () => ctx.go("#/")));
      }
      if (creator) buttons.push(button("cancel", "Cancel game", () => api.games_cancel({ game_id: gameId })));
    }
    if (game.status === "active" && seat !== null && game.seats[seat].status === "playing") {
      if (!confirmResign) {
        buttons.push(h("button", { type: "button", id: "resign", onclick: () => { confirmResign = true; render(); } }, "Resign"));
      } else {
        buttons.push(button("resign-confirm", "Yes, resign (an AI plays my seat)",
          () => api.games_resign({ game_id: gameId })),
        h("button", { type: "button", onclick: () => { confirmResign = false; render(); } }, "Keep playing"));
      }
    }
    if ((game.status === "finished" || game.status === "abandoned") && seat !== null) {
      if (game.rematch) buttons.push(h("a", { class: "button", id: "rematch-link", href: `#/games/${game.rematch}` }, "Go to the rematch"));
      else if (game.status === "finished") {
        buttons.push(button("rematch", "Rematch", () => api.games_rematch({ game_id: gameId }),
          (next) => ctx.go(`#/games/${next.id}`)));
      }
    }
    buttons.push(h("a", { class: "button", href: "#/" }, "Lobby"));
    return h("div", { class: "actions game-actions", id: "game-actions" }, buttons);
  }

  function inviteBox() {
    const link = `${location.origin}/#/games/${game.id}?code=${encodeURIComponent(game.invite_code)}`;
    return h("div", { id: "invite", class: "invite" },
      h("p", {}, "Invite code: ", h("code", { id: "invite-code" }, game.invite_code), " ",
        copyButton("copy-code", "Copy code", () => game.invite_code, ctx.say)),
      h("p", {}, "Link: ", h("code", { id: "invite-link" }, link), " ",
        copyButton("copy-link", "Copy link", () => link, ctx.say)));
  }

  function render() {
    if (clock) clearInterval(clock);
    clock = null;
    const focused = document.activeElement;
    const focusCard = focused?.closest?.("#hand") ? focused.dataset.card : null;
    const focusId = focused && view.contains(focused) ? focused.id : null;
    const deal = state.deal;
    clear(view);
    const watching = state.view === "spectator";
    append(view, h("header", { class: "table-head" },
        h("h2", {}, watching ? "Watching" : "Your table", " \u00b7 ", STATUS_TEXT[game.status] || game.status),
        h("p", {}, describeGame(game), deal ? ` \u00b7 deal ${deal.number}` : ""),
        game.invite_code && game.status === "waiting" ? inviteBox() : null,
        deal?.face_up_card ? h("p", { id: "face-up" }, "Dealt face up: ",
          cardRow([deal.face_up_card.card]), ` to ${seatLabel(game, deal.face_up_card.seat, me)}`) : null,
        deal ? h("details", { class: "commitment" }, h("summary", {}, "Shuffle commitment"),
          h("code", {}, deal.commitment)) : null),
      seatsList(deal),
      game.status === "finished" || game.status === "abandoned" ? null
        : h("p", { class: "hint", id: "tie-rule" }, tieRule(game)),
      deal && !deal.is_over ? h("div", { class: `tray${state.view === "player" ? " mine" : ""}`, id: "tray" },
        turnLine(deal), toBeat(deal), hand(deal)) : hand(deal),
      ...results(),
      gameActions(),
      moveLog(),
    );
    updateButtons();
    trayHeight.disconnect();
    const tray = view.querySelector("#tray");
    if (tray) trayHeight.observe(tray);
    else document.documentElement.style.removeProperty("--tray");
    if (focusCard) view.querySelector(`#hand [data-card="${focusCard}"]`)?.focus();
    else if (focusId) document.getElementById(focusId)?.focus();
  }

  load().then(() => { if (!stopped) source.start(); });
  return {
    stop() {
      stopped = true;
      source.stop();
      if (clock) clearInterval(clock);
      trayHeight.disconnect();
      document.documentElement.style.removeProperty("--tray");
    },
  };
}
