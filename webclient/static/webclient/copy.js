// A button that copies a text (an invite link or code) for pasting into a message.
import { h } from "./dom.js";

export function copyButton(id, label, text, say) {
  return h("button", { type: "button", id, class: "copy", onclick: async () => {
    try {
      await navigator.clipboard.writeText(text());
      say("Copied.");
    } catch {
      // No clipboard (an insecure origin, or refused): select it for a manual copy.
      say(`Copy it by hand: ${text()}`);
    }
  } }, label);
}
