// A few DOM helpers: the client builds its screens with plain elements, no framework.

/** h("button", {class: "x", onclick: f, "aria-label": "y"}, "text", child, ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name in el && typeof value !== "string") {
      el[name] = value;
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  return append(el, ...children);
}

/**
 * Adds children to `el`; the only way the client puts content on a page. Nothing
 * (null, undefined, false) adds nothing: the DOM's own append would write "null".
 * A value that has no text of its own (NaN, an object) is a bug, so it throws rather
 * than show "NaN" or "[object Object]" to a player.
 */
export function append(el, ...children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof Node) el.append(child);
    else if (typeof child === "string") el.append(document.createTextNode(child));
    else if (typeof child === "number" && Number.isFinite(child)) el.append(document.createTextNode(String(child)));
    else throw new TypeError(`not something to show: ${Object.prototype.toString.call(child)} ${String(child)}`);
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** A unique key for Idempotency-Key headers. */
export function uniqueKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function formatSeconds(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}
