// How a table learns that its game changed, behind one small interface, so that the
// per-player event feed (GET events / events/stream) can replace the moves long-poll
// without touching the table:
//
//   const source = createSource(api, gameId, { position, onChange });
//   source.start(); ... source.stop();
//
// position(): what the page shows now, {status, deal, seq} (the game's status, the deal's
//   number and its last move's seq), or null before the first read.
// onChange(news): something may have changed; the page re-reads what it shows (and so
//   moves position on). Awaited before the next wait.
// feed, seated(): a seated player learns of their game's changes from their event feed
//   (feed.js); a spectator gets no events (the feed is the seated players'), so watching
//   uses the moves long-poll. So does the waiting room: a seat taken by an invite code
//   is no event to the others, so it is read every 2 s until the game starts.

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  if (signal) signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); });
});

const WAIT_SECONDS = 25;
const WAITING_ROOM_POLL_MS = 2000; // no long-poll before the first deal: poll the game
const RETRY_MS = 3000;

/** The moves long-poll (GET games/{id}/moves?since=SEQ&wait=25). */
export function movesLongPoll(api, gameId, {
  position, onChange, onError = () => {}, feed = null, seated = () => false,
}) {
  let controller = null;
  let unsubscribe = () => {};
  // Set by any event of this game (or a reconnection) until the page has re-read: one
  // that comes while it reads is not lost.
  let pending = false;
  let wake = null;

  async function run(signal) {
    while (!signal.aborted) {
      const at = position();
      try {
        if (at && (at.status === "finished" || at.status === "abandoned")) return;
        if (!at || at.status !== "active" || at.deal === null) {
          await sleep(WAITING_ROOM_POLL_MS, signal);
          if (!signal.aborted) await onChange(null);
          continue;
        }
        if (feed && seated()) {
          if (!pending) {
            await new Promise((resolve) => {
              wake = resolve;
              signal.addEventListener("abort", resolve);
            });
          }
          wake = null;
          if (signal.aborted) return;
          pending = false;
          await onChange(null);
          continue;
        }
        const history = await api.games_moves_list(
          { game_id: gameId, since: at.seq, wait: WAIT_SECONDS }, { signal });
        if (signal.aborted) return;
        // An empty answer (the wait ran out) is a re-read too: seats resign and games
        // end without a move, and they are shown within one wait.
        if (history.deal !== at.deal || history.last_seq !== at.seq || history.finished
            || !history.moves.length) {
          await onChange(history);
          const now = position();
          // A finished deal answers at once: never spin if reading again changed nothing.
          if (history.finished && now && now.deal === at.deal && now.seq === at.seq
              && now.status === at.status) {
            await sleep(RETRY_MS, signal);
          }
        }
      } catch (error) {
        if (signal.aborted || error.name === "AbortError") return;
        onError(error);
        await sleep(RETRY_MS, signal);
      }
    }
  }

  return {
    start() {
      if (controller) return;
      controller = new AbortController();
      if (feed) {
        unsubscribe = feed.subscribe((event) => {
          if (event.type !== "open" && event.game !== gameId) return;
          pending = true;
          if (wake) wake();
        });
      }
      run(controller.signal);
    },
    stop() {
      if (controller) controller.abort();
      controller = null;
      unsubscribe();
    },
  };
}

/** The source a table uses. */
export const createSource = movesLongPoll;
