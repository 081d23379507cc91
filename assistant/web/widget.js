// The chat widget: mount(element, options) puts a conversation with the assistant in
// `element`. It speaks shared/PROTOCOL.md over /v1/ws with the browser auth path.
//
//   import { mount } from "https://assistant.example.com/static/widget.js";
//   mount(document.getElementById("assistant"), { getToken: async () => "<token>" });
//
// Options: `token` (a session token) or `getToken({refresh})` (a function returning one,
// called on every connect, so a page can hand out fresh tokens); `url` (the websocket,
// by default /v1/ws on the host that served this file); `title`; `customerName` (shown
// in the status line and the greeting); `storageKey` (one kept conversation per key:
// the visible turns survive a reload of the tab); `onReady(sessionReady)`.
// Importing this module also mounts every `[data-assistant-widget]` element, taking
// `data-token` and `data-url`, and sets `window.AssistantWidget = { mount }`.

import { Connection, defaultSocketUrl } from "./connection.js";
import { Transcript } from "./transcript.js";
import { TurnView } from "./turn.js";
import {
  CAUGHT_UP,
  CONFIRM_DROPPED,
  EXAMPLES,
  INTERRUPTED,
  STATUS,
  errorMessage,
  greeting,
  notDone,
} from "./words.js";

const STYLESHEET = new URL("./widget.css", import.meta.url).href;
let widgetCount = 0;

function ensureStylesheet() {
  const present = [...document.querySelectorAll('link[rel="stylesheet"]')].some(
    (link) => link.href === STYLESHEET,
  );
  if (present) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  document.head.append(link);
}

function tokenSource(options) {
  if (typeof options.getToken === "function") return options.getToken;
  if (options.token) return async () => options.token;
  return null;
}

class Widget {
  constructor(element, options) {
    this.element = element;
    this.options = options;
    this.id = ++widgetCount;
    this.turns = [];
    this.byTurnId = new Map();
    this.messageCount = 0;
    this.limits = {};
    this.confirmTurn = null;
    // The question a message was sent after, until that message's turn.done says
    // whether it was answered yes.
    this.asked = null;
    this.transcript = new Transcript(options.storageKey || options.customerName);
    this._build(options.title || "Chat with us");
    this._restore();
  }

  _build(title) {
    const inputId = `aw-input-${this.id}`;
    const root = document.createElement("section");
    root.className = "aw";
    root.setAttribute("aria-label", title);
    root.innerHTML = `
      <header class="aw-header">
        <h2 class="aw-title"></h2>
        <p class="aw-status" role="status" aria-live="polite" data-state="connecting"></p>
      </header>
      <div class="aw-scroller">
        <div class="aw-welcome" hidden>
          <p class="aw-greeting"></p>
          <ul class="aw-examples" aria-label="Questions to try"></ul>
        </div>
        <ol class="aw-log" role="log" aria-live="polite" aria-label="Conversation"></ol>
      </div>
      <form class="aw-composer" novalidate>
        <label class="aw-visually-hidden" for="${inputId}">Message</label>
        <textarea id="${inputId}" class="aw-input" role="textbox" rows="1"
          enterkeyhint="send" autocomplete="off"
          placeholder="Ask a question"></textarea>
        <button type="submit" class="aw-button aw-button-primary aw-send">Send</button>
        <button type="button" class="aw-button aw-stop" hidden>Stop</button>
      </form>
      <p class="aw-hint" id="${inputId}-hint">Enter to send · Shift+Enter for a new line · Esc to stop</p>`;
    root.querySelector(".aw-title").textContent = title;
    this.root = root;
    this.status = root.querySelector(".aw-status");
    this.scroller = root.querySelector(".aw-scroller");
    this.log = root.querySelector(".aw-log");
    this.form = root.querySelector(".aw-composer");
    this.input = root.querySelector(".aw-input");
    this.input.setAttribute("aria-describedby", `${inputId}-hint`);
    this.sendButton = root.querySelector(".aw-send");
    this.stopButton = root.querySelector(".aw-stop");
    this.welcome = root.querySelector(".aw-welcome");
    root.querySelector(".aw-greeting").textContent = greeting(this.options.customerName);
    this.examples = EXAMPLES.map((text) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "aw-example";
      button.textContent = text;
      button.addEventListener("click", () => {
        if (this.send(text)) this.input.focus();
      });
      item.append(button);
      root.querySelector(".aw-examples").append(item);
      return button;
    });

    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      } else if (event.key === "Escape" && this.running()) {
        event.preventDefault();
        this.cancel();
      }
    });
    this.input.addEventListener("input", () => this._fitInput());
    this.stopButton.addEventListener("click", () => this.cancel());
    this.element.replaceChildren(root);
  }

  start() {
    const getToken = tokenSource(this.options);
    if (!getToken) {
      this._setStatus("failed", STATUS.noToken);
      this._setConnected(false);
      return this;
    }
    const url = this.options.url || defaultSocketUrl(import.meta.url);
    this.connection = new Connection({ url, getToken, sessionId: this.keptSessionId });
    this.connection.addEventListener("connecting", (e) => this._onConnecting(e.detail));
    this.connection.addEventListener("ready", (e) => this._onReady(e.detail));
    this.connection.addEventListener("frame", (e) => this._onFrame(e.detail));
    this.connection.addEventListener("down", (e) => this._onDown(e.detail));
    this.connection.addEventListener("expired", () => this._onExpired());
    this.connection.addEventListener("auth-failed", () => this._onAuthFailed());
    this._setConnected(false);
    this.connection.start();
    return this;
  }

  destroy() {
    if (this.connection) this.connection.stop();
    clearInterval(this.countdown);
    this.element.replaceChildren();
  }

  // --- connection state -----------------------------------------------------------------

  /** The status line; `countdown` is shown but not read out (it changes every second). */
  _setStatus(state, text, countdown = "") {
    this.status.dataset.state = state;
    if (this.status.firstChild?.nodeValue !== text || this.status.childNodes.length !== 2) {
      const seconds = document.createElement("span");
      seconds.setAttribute("aria-hidden", "true");
      this.status.replaceChildren(document.createTextNode(text), seconds);
    }
    this.status.lastChild.textContent = countdown;
  }

  _setConnected(connected) {
    this.root.dataset.connection = connected ? "up" : "down";
    this.sendButton.disabled = !connected;
    for (const example of this.examples) example.disabled = !connected;
  }

  // --- the kept conversation --------------------------------------------------------------

  /** Shows the turns kept from before a reload; a question among them waits for ready. */
  _restore() {
    const kept = this.transcript.load();
    this.keptSessionId = kept ? kept.sessionId : null;
    if (kept && kept.html) {
      const template = document.createElement("template");
      template.innerHTML = kept.html;
      for (const node of template.content.querySelectorAll(".aw-turn")) {
        node.dataset.restored = "true";
        this.log.append(node);
      }
      const asking = [...this.log.querySelectorAll(".aw-turn[data-pending]")].pop();
      const group = asking && asking.querySelector(".aw-confirm:not([data-state])");
      if (group) this.confirmTurn = TurnView.adopt(asking, group);
    }
    this._updateWelcome();
  }

  _save() {
    this.transcript.save(this.log, this.connection ? this.connection.sessionId : null);
  }

  _updateWelcome() {
    this.welcome.hidden = this.log.children.length > 0;
  }

  _onConnecting({ attempt }) {
    clearInterval(this.countdown);
    const again = attempt > 1 || this.wasDown;
    const text = this.expired ? STATUS.expired : STATUS.reconnecting;
    this._setStatus("connecting", again ? text : STATUS.connecting);
  }

  _onReady(ready) {
    this.limits = ready.limits || {};
    if (this.limits.max_text_chars) this.input.maxLength = this.limits.max_text_chars;
    // The page may name the customer; an id alone would read like a debug line. One
    // status: connected, and whether the assistant still has the conversation shown.
    const name = this.options.customerName || ready.customer_name;
    if (!this.options.customerName && ready.customer_name) {
      this.root.querySelector(".aw-greeting").textContent = greeting(ready.customer_name);
    }
    const afresh = !ready.resumed && this.log.children.length > 0;
    this._setStatus("ready", afresh ? STATUS.readyAfresh(name) : STATUS.ready(name));
    // A new session does not know the question on screen: a "yes" would do nothing.
    if (!ready.resumed) this._dropConfirmation();
    else if (this.confirmTurn) this.confirmTurn.rewireConfirmation((a) => this._answer(a));
    if (ready.resumed && ready.last_turn) this._catchUp(ready.last_turn);
    this.wasDown = false;
    this.expired = false;
    this._setConnected(true);
    this._save();
    if (typeof this.options.onReady === "function") this.options.onReady(ready);
  }

  /**
   * The turn the dropped connection cut off, shown as the server says it ended: a write
   * that landed is seen to have landed, and a question it asked can be answered.
   */
  _catchUp(last) {
    const turn = this.turns.find(
      (t) => t.messageId === last.message_id && t.root.dataset.state === "interrupted",
    );
    if (!turn) return;
    const told = Boolean(last.answer) || (last.tool_calls || []).length > 0;
    if (told) turn.catchUp(last, CAUGHT_UP);
    if (last.awaiting_confirmation) {
      this.confirmTurn = turn;
      turn.askConfirmation((answer) => this._answer(answer), last.awaiting_confirmation);
    }
  }

  _onDown({ retryInMs }) {
    this._lost();
    const until = Date.now() + retryInMs;
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      this._setStatus("down", STATUS.down, seconds > 0 ? ` (${seconds} s)` : "");
    };
    clearInterval(this.countdown);
    tick();
    this.countdown = setInterval(tick, 500);
  }

  /** The session ran its time (token expiry): it reconnects at once with a fresh token. */
  _onExpired() {
    this._lost();
    this.expired = true;
    clearInterval(this.countdown);
    this._setStatus("connecting", STATUS.expired);
  }

  _lost() {
    this.wasDown = true;
    this._setConnected(false);
    // The server's session (its history, a pending confirmation) is gone with the socket.
    for (const turn of this.turns) {
      if (!turn.finished) turn.abandon(INTERRUPTED, "interrupted");
    }
    // A question still asked stays until the server says whether it kept the session.
    this.asked = null;
    this._updateRunning();
    this._save();
  }

  _onAuthFailed() {
    clearInterval(this.countdown);
    this._setConnected(false);
    this._setStatus("failed", STATUS.authFailed);
  }

  // --- sending --------------------------------------------------------------------------

  running() {
    return this.turns.some((turn) => !turn.finished);
  }

  /** Sends what is in the text box; true when it went out. */
  submit() {
    const text = this.input.value.trim();
    if (!text) return false;
    if (!this.send(text)) return false;
    this.input.value = "";
    this._fitInput();
    return true;
  }

  /** Sends one user.message and shows it (as `shown`, if given); false when offline. */
  send(text, shown = text) {
    const id = `m${++this.messageCount}`;
    // Offline, nothing is sent and the text stays in the box; the status line already
    // says that the connection is down and when it will be tried again.
    if (!this.connection || !this.connection.send({ type: "user.message", id, text })) {
      return false;
    }
    // Any message answers a pending confirmation: the server drops it unless it says yes.
    if (this.confirmTurn) {
      const group = this.confirmTurn.closeConfirmation(text.toLowerCase());
      this.asked = { turn: this.confirmTurn, group, messageId: id };
    }
    this.confirmTurn = null;
    const turn = new TurnView(shown, id);
    this.turns.push(turn);
    this._append(turn.root);
    this._updateWelcome();
    this._updateRunning();
    this._save();
    return true;
  }

  /** Yes or No pressed under a question. */
  _answer(answer) {
    const sent = this.send(answer, answer === "yes" ? "Yes" : "No");
    if (sent) this.input.focus();
    return sent;
  }

  /** After the turn that followed a question: unless it did what was asked, say so. */
  _settleQuestion(turn, done) {
    const asked = this.asked;
    if (!asked || asked.messageId !== turn.messageId) return;
    this.asked = null;
    const pending = asked.turn.pending || {};
    const wanted = (pending.calls || [pending]).map((call) => call.tool);
    const ran = (done.tool_calls || []).some(
      (call) => wanted.includes(call.tool) && call.status === "ok",
    );
    if (!ran) asked.turn.expireConfirmation(asked.group, notDone(pending));
  }

  /** turn.cancel for the turn in progress. */
  cancel() {
    if (!this.running() || !this.connection) return;
    const current = this.turns.find((turn) => turn.turnId && !turn.finished);
    const frame = { type: "turn.cancel" };
    if (current) frame.turn_id = current.turnId;
    this.connection.send(frame);
  }

  // --- server frames --------------------------------------------------------------------

  _onFrame(frame) {
    if (frame.type === "error") {
      this._onError(frame);
      return;
    }
    if (frame.type === "turn.started") {
      const turn =
        this.turns.find((t) => t.messageId === frame.message_id && !t.turnId) ||
        this.turns.find((t) => !t.turnId && !t.finished);
      if (!turn) return;
      turn.start(frame.turn_id);
      this.byTurnId.set(frame.turn_id, turn);
      this._updateRunning();
      return;
    }
    const turn = this.byTurnId.get(frame.turn_id);
    if (!turn || turn.finished) return;
    const stick = this._atBottom();
    switch (frame.type) {
      case "ack.delta":
        turn.ackDelta(frame.round, frame.text);
        break;
      case "ack.done":
        turn.ackDone(frame.round, frame.text);
        break;
      case "tool.started":
        turn.toolStarted(frame);
        break;
      case "tool.finished":
        turn.toolFinished(frame);
        break;
      case "answer.delta":
        turn.answerDelta(frame.text);
        break;
      case "answer.done":
        turn.answerDone(frame.text);
        break;
      case "turn.done": {
        const pending = turn.done(frame);
        this._settleQuestion(turn, frame);
        if (pending) {
          this.confirmTurn = turn;
          turn.askConfirmation((answer) => this._answer(answer), pending);
        }
        this._updateRunning();
        this._save();
        break;
      }
      default:
        return; // a newer event type: the protocol may add some; ignore it
    }
    if (stick) this._scrollToBottom();
  }

  _onError(frame) {
    const text = errorMessage(frame, this.limits);
    const turn = frame.turn_id ? this.byTurnId.get(frame.turn_id) : null;
    if (turn) {
      // The turn goes on (it ends with turn.done); say what went wrong meanwhile.
      turn.showNote(text, "error");
      return;
    }
    // Refusals without a turn (busy, too long, rate limited) concern the latest message
    // that has not started: the server answers them at once, in order.
    const refused = [...this.turns].reverse().find((t) => !t.turnId && !t.finished);
    if (refused) {
      refused.abandon(text, "refused");
      this._updateRunning();
      this._save();
    } else {
      this._setStatus(this.status.dataset.state, text);
    }
  }

  _dropConfirmation() {
    const turn = this.confirmTurn;
    this.confirmTurn = null;
    if (turn) turn.expireConfirmation(turn.closeConfirmation(null), CONFIRM_DROPPED);
  }

  // --- layout ---------------------------------------------------------------------------

  _updateRunning() {
    const running = this.running();
    this.stopButton.hidden = !running;
    this.root.dataset.busy = running ? "true" : "false";
  }

  _append(node) {
    this.log.append(node);
    this._scrollToBottom();
  }

  _atBottom() {
    const { scrollTop, scrollHeight, clientHeight } = this.scroller;
    return scrollHeight - scrollTop - clientHeight < 48;
  }

  _scrollToBottom() {
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  _fitInput() {
    // Grow with the text up to a few lines; the CSS caps the height.
    this.input.style.height = "";
    if (!this.input.value) return;
    this.input.style.height = "auto";
    this.input.style.height = `${this.input.scrollHeight}px`;
  }
}

/**
 * Mounts the chat widget in `element` and connects. Returns a handle with `destroy()`
 * and `send(text)`.
 */
export function mount(element, options = {}) {
  ensureStylesheet();
  const widget = new Widget(element, options).start();
  return {
    send: (text) => widget.send(text),
    cancel: () => widget.cancel(),
    destroy: () => widget.destroy(),
  };
}

function autoMount() {
  for (const element of document.querySelectorAll("[data-assistant-widget]")) {
    if (element.dataset.assistantMounted) continue;
    element.dataset.assistantMounted = "true";
    mount(element, {
      token: element.dataset.token,
      url: element.dataset.url,
      title: element.dataset.title,
    });
  }
}

window.AssistantWidget = { mount };
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", autoMount, { once: true });
} else {
  autoMount();
}
