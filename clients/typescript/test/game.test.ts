/**
 * What an app does, through the generated client against a live server (PUSOY_BASE_URL):
 * sign up, play a whole match against three AI players by always making the first legal
 * move, wait for each turn on the event feed's long-poll, and audit every deal's record.
 * tests/clients/test_typescript.py runs this from pytest.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";

import {
  ApiError,
  createPusoyClient,
  type PusoyClient,
  type Schemas,
  unwrap,
} from "../src/index.js";

const baseUrl = process.env.PUSOY_BASE_URL ?? "http://127.0.0.1:8000";
const anonymous = createPusoyClient({ baseUrl });

async function signUp(): Promise<PusoyClient> {
  const account = await unwrap(
    anonymous.POST("/api/v1/auth/register", {
      body: {
        username: `ts_${randomUUID().slice(0, 8)}`,
        password: "correct-horse-battery-staple",
      },
    }),
  );
  return createPusoyClient({ baseUrl, token: account.token });
}

/**
 * The caller's view once it is their turn or the game is over. An event is only a reason
 * to read the state again, so none can be missed: `since` moves past what was read.
 */
async function myTurn(
  api: PusoyClient,
  gameId: string,
  feed: { since: number },
): Promise<Schemas["PlayerState"]> {
  for (;;) {
    const state = await unwrap(
      api.GET("/api/v1/games/{game_id}/state", { params: { path: { game_id: gameId } } }),
    );
    assert.equal(state.view, "player");
    if (state.status !== "active" || state.deal?.turn === state.seat) {
      return state;
    }
    const events = await unwrap(
      api.GET("/api/v1/events", { params: { query: { since: feed.since, wait: 25 } } }),
    );
    feed.since = events.last_id;
  }
}

test("a match against three AI players, played to its end, every deal verified", async () => {
  const api = await signUp();
  const ai = { type: "ai", level: "random" } as const;
  const game = await unwrap(
    api.POST("/api/v1/games", {
      body: { seats: [{ type: "human" }, ai, ai, ai], target_deals: 2 },
    }),
  );
  const feed = { since: 0 };
  const commitments = new Map<number, string>();
  let replayChecked = false;
  let state = await myTurn(api, game.id, feed);
  while (state.status === "active") {
    const deal = state.deal;
    assert.ok(deal, "an active game has a deal");
    commitments.set(deal.number, deal.commitment);
    const [move] = deal.legal_moves;
    assert.ok(move, "it is our turn: there is a legal move");
    const body: Schemas["MoveSubmitRequest"] =
      move.action === "pass"
        ? { action: "pass", expected_seq: deal.seq }
        : { action: "play", cards: move.cards, expected_seq: deal.seq };
    // The key names this move (game, deal, seq), so a retry of it carries the same key.
    const post = () =>
      api.POST("/api/v1/games/{game_id}/moves", {
        params: {
          path: { game_id: game.id },
          header: { "Idempotency-Key": `${game.id}-${deal.number}-${deal.seq}` },
        },
        body,
      });
    const accepted = await unwrap(post());
    assert.equal(accepted.move.seq, deal.seq + 1);
    if (!replayChecked) {
      const again = await post();
      assert.equal(again.response.headers.get("Idempotent-Replayed"), "true");
      assert.deepEqual(again.data, accepted);
      replayChecked = true;
    }
    state = await myTurn(api, game.id, feed);
  }
  assert.equal(state.status, "finished");

  const detail = await unwrap(
    api.GET("/api/v1/games/{game_id}", { params: { path: { game_id: game.id } } }),
  );
  assert.deepEqual(
    detail.deals.map((d) => d.number),
    [1, 2],
  );
  for (const { number } of detail.deals) {
    const path = { game_id: game.id, number };
    const record = await unwrap(
      api.GET("/api/v1/games/{game_id}/deals/{number}/record", { params: { path } }),
    );
    // The commitment the deal showed before its first card is the one its seed must match.
    assert.equal(record.commitment, commitments.get(number));
    const verdict = await unwrap(anonymous.POST("/api/v1/records/verify", { body: record }));
    assert.deepEqual({ valid: verdict.valid, code: verdict.code }, { valid: true, code: null });
  }
});

test("an error answer is an ApiError carrying the envelope's code", async () => {
  const api = await signUp();
  const nowhere = { params: { path: { game_id: randomUUID() } } };
  await assert.rejects(
    unwrap(api.GET("/api/v1/games/{game_id}/state", nowhere)),
    (error: unknown) =>
      error instanceof ApiError && error.status === 404 && error.code === "not_found",
  );
  await assert.rejects(
    unwrap(anonymous.GET("/api/v1/players/me")),
    (error: unknown) => error instanceof ApiError && error.code === "not_authenticated",
  );
});
