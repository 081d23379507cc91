// The visible conversation, kept in the tab's sessionStorage so that a reload shows it
// again (and can ask the server to resume the same session). Only this tab sees it, and
// it is gone when the tab closes. What is kept is what was on screen: the turns' markup,
// which the widget built with textContent only.

const PREFIX = "assistant.widget.";
const VERSION = 1;
const MAX_TURNS = 40;

export class Transcript {
  /** @param {string} key  one conversation per key (the demo page uses the customer id) */
  constructor(key) {
    this.key = PREFIX + (key || "default");
  }

  /** {html, sessionId} or null; anything unreadable counts as nothing kept. */
  load() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
      if (!saved || saved.v !== VERSION || typeof saved.html !== "string") return null;
      return { html: saved.html, sessionId: saved.sessionId || null };
    } catch {
      return null;
    }
  }

  /** Keeps the last turns of `log` and the session id; quietly does nothing when full. */
  save(log, sessionId) {
    const turns = [...log.querySelectorAll(":scope > .aw-turn")].slice(-MAX_TURNS);
    const html = turns.map((turn) => turn.outerHTML).join("");
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ v: VERSION, html, sessionId }));
    } catch {
      // Storage full or disabled: the conversation still works, it just won't survive a reload.
    }
  }
}
