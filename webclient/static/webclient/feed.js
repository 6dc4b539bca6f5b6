// The player's event feed (docs/api.md, "Events"): what tells the lobby and a seated
// player's table that something changed, instead of timers. One per logged-in page:
//
//   const feed = createFeed(api, { stream: true });
//   const off = feed.subscribe((event) => ...);  // every event, and {type: "open"}
//   feed.stop();
//
// The stream (GET events/stream, Server-Sent Events, with a ticket: an EventSource
// cannot send the token) when the server can stream; else, or when the stream keeps
// failing, the long-poll GET events?since=&wait=. {type: "open"} is sent on every
// (re)connection: events may have been missed in between, so listeners re-read.

import { operations } from "/app/api.js";

const WAIT_SECONDS = 25;
const RETRY_MS = 3000;
const PAGE = 100; // GET events answers at most this many at once
const STREAM_FAILURES = 3; // in a row, never opened: the long-poll from then on
const TYPES = [
  "game_started", "your_turn", "move", "deal_finished", "game_finished", "invited",
  "invitation_answered", "deadline_soon", "resigned", "abandoned",
];

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); });
});

export function createFeed(api, { stream = true } = {}) {
  const listeners = new Set();
  const controller = new AbortController();
  let lastId = null; // null: from now on
  let source = null;
  let failures = 0;
  let retry = null;

  function notify(event) {
    for (const listener of [...listeners]) listener(event);
  }

  function deliver(event) {
    if (lastId !== null && event.id <= lastId) return; // a replay after a reconnection
    lastId = event.id;
    notify(event);
  }

  async function openStream() {
    if (controller.signal.aborted) return;
    let ticket;
    try {
      ({ ticket } = await api.events_ticket({}, {}));
    } catch (error) {
      if (error.status === 401) return; // logged out: the app shows log-in
      retry = setTimeout(openStream, RETRY_MS);
      return;
    }
    if (controller.signal.aborted) return;
    const query = new URLSearchParams({ ticket });
    if (lastId !== null) query.set("since", String(lastId));
    source = new EventSource(`${operations.events_stream.path}?${query}`);
    let opened = false;
    source.onopen = () => {
      opened = true;
      failures = 0;
      notify({ type: "open" });
    };
    const onEvent = (message) => deliver(JSON.parse(message.data));
    for (const type of TYPES) source.addEventListener(type, onEvent);
    source.onmessage = onEvent;
    // EventSource would reconnect with the spent ticket: close it, reconnect with a new
    // one from the last id seen (the server ends every stream after a while).
    source.onerror = () => {
      source.close();
      source = null;
      if (controller.signal.aborted) return;
      if (!opened) failures += 1;
      if (failures >= STREAM_FAILURES) longPoll();
      else retry = setTimeout(openStream, opened ? 0 : RETRY_MS);
    };
  }

  async function longPoll() {
    const { signal } = controller;
    while (!signal.aborted) {
      try {
        if (lastId === null) {
          // From now on: the events so far only tell where "now" is.
          let page;
          let since = 0;
          do {
            page = await api.events_list({ since, wait: 0 }, { signal });
            since = page.last_id;
          } while (page.events.length === PAGE);
          lastId = since;
          notify({ type: "open" });
          continue;
        }
        const page = await api.events_list({ since: lastId, wait: WAIT_SECONDS }, { signal });
        for (const event of page.events) deliver(event);
        lastId = Math.max(lastId, page.last_id);
      } catch (error) {
        if (signal.aborted || error.name === "AbortError" || error.status === 401) return;
        await sleep(RETRY_MS, signal);
      }
    }
  }

  if (stream && typeof EventSource === "function") openStream();
  else longPoll();

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      controller.abort();
      clearTimeout(retry);
      if (source) source.close();
      listeners.clear();
    },
  };
}
