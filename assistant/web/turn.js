// One turn on screen: the customer's message, then the assistant's acknowledgement(s),
// one chip per tool call, the streamed answer and how the turn ended.

import {
  EXPIRED,
  duration,
  paragraphs,
  toolFailure,
  toolLabel,
  toolProgress,
  toolSubject,
  turnNote,
} from "./words.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class TurnView {
  /**
   * @param {string} text  what the customer sent
   * @param {string} messageId  the `id` sent with it (echoed in turn.started)
   */
  constructor(text, messageId) {
    this.messageId = messageId;
    this.turnId = null;
    this.finished = false;
    this.rounds = new Map();
    this.chips = new Map();
    this.answerText = "";

    this.root = el("li", "aw-turn");
    this.root.dataset.state = "pending";
    const user = el("div", "aw-msg aw-msg-user");
    user.append(el("span", "aw-visually-hidden", "You said: "), el("p", "aw-text", text));
    this.root.append(user);

    this.reply = el("div", "aw-msg aw-msg-assistant");
    this.reply.setAttribute("aria-busy", "true");
    this.reply.append(el("span", "aw-visually-hidden", "Assistant: "));
    this.roundsBox = el("div", "aw-rounds");
    // The answer slot exists from the start with a one-line minimum height, holding a
    // typing indicator, so the first streamed words do not push anything around.
    this.answer = el("p", "aw-answer");
    this.answer.dataset.state = "waiting";
    this.answerBody = el("span", "aw-answer-text");
    const typing = el("span", "aw-typing");
    typing.setAttribute("aria-hidden", "true");
    typing.append(el("span"), el("span"), el("span"));
    this.answer.append(this.answerBody, typing);
    this.note = el("p", "aw-note");
    this.note.hidden = true;
    this.reply.append(this.roundsBox, this.answer, this.note);
    this.root.append(this.reply);
  }

  /** turn.started: the server took the message. */
  start(turnId) {
    this.turnId = turnId;
    this.root.dataset.state = "running";
    this.root.dataset.turnId = turnId;
  }

  _round(round) {
    let box = this.rounds.get(round);
    if (!box) {
      const ack = el("p", "aw-ack");
      ack.hidden = true;
      const chips = el("ul", "aw-chips");
      chips.setAttribute("aria-label", "Lookups");
      chips.hidden = true;
      const node = el("div", "aw-round");
      node.append(ack, chips);
      this.roundsBox.append(node);
      box = { ack, chips, text: "" };
      this.rounds.set(round, box);
    }
    return box;
  }

  ackDelta(round, text) {
    const box = this._round(round);
    box.text += text;
    box.ack.textContent = box.text;
    box.ack.hidden = false;
  }

  ackDone(round, text) {
    const box = this._round(round);
    box.text = text;
    box.ack.textContent = text;
    box.ack.hidden = !text;
  }

  /**
   * A chip says what is being done ("Checking your billing…"), then what was
   * ("Billing ✓"). Both labels share one grid cell, so the chip is as wide as the
   * longer from the start and finishing moves nothing. The time goes to the tooltip.
   */
  toolStarted(event) {
    const box = this._round(event.round);
    const chip = el("li", "aw-chip");
    chip.dataset.state = "running";
    chip.dataset.tool = event.tool;
    const doing = el("span", "aw-chip-doing", toolProgress(event.tool));
    const done = el("span", "aw-chip-done", toolLabel(event.tool));
    const label = el("span", "aw-chip-label");
    label.append(doing, done);
    const detail = el("span", "aw-chip-detail");
    chip.append(label, el("span", "aw-chip-icon"), detail);
    chip.setAttribute("aria-label", doing.textContent);
    box.chips.append(chip);
    box.chips.hidden = false;
    this.chips.set(event.call_id, { chip, detail, done });
  }

  toolFinished(event) {
    let entry = this.chips.get(event.call_id);
    if (!entry) {
      this.toolStarted(event);
      entry = this.chips.get(event.call_id);
    }
    const { chip, detail, done } = entry;
    const took = duration(event.latency_ms);
    if (event.status === "ok") {
      chip.dataset.state = "done";
      chip.title = took ? `Done in ${took}` : "Done";
      chip.setAttribute("aria-label", `${done.textContent}: done`);
    } else {
      chip.dataset.state = event.status === "skipped" ? "skipped" : "failed";
      done.textContent = toolSubject(event.tool);
      const reason = toolFailure(event.status, event.error);
      detail.textContent = reason;
      chip.title = event.attempts > 1 ? `${reason} (tried ${event.attempts} times)` : reason;
      chip.setAttribute("aria-label", `${done.textContent}: ${reason}`);
    }
  }

  answerDelta(text) {
    this.answerText += text;
    this._showAnswer(this.answerText);
    this.answer.dataset.state = "streaming";
  }

  answerDone(text) {
    this.answerText = text;
    this._showAnswer(text);
    this.answer.dataset.state = text ? "done" : "empty";
  }

  /** The answer so far, as short paragraphs when it is long (words.js `paragraphs`). */
  _showAnswer(text) {
    const parts = paragraphs(text);
    const nodes = parts.map((part, index) =>
      // The space keeps the words apart in the text a screen reader or a copy gets.
      el("span", "aw-para", index < parts.length - 1 ? `${part} ` : part),
    );
    this.answerBody.replaceChildren(...nodes);
  }

  /** turn.done: the final state; returns the pending confirmation, if any. */
  done(event) {
    this.finished = true;
    this.root.dataset.state = event.status;
    for (const { chip } of this.chips.values()) {
      // A call the server never reported finished (it should not happen) stops spinning.
      if (chip.dataset.state === "running") chip.dataset.state = "skipped";
    }
    if (!this.answerText) this.answer.dataset.state = "empty";
    else this.answer.dataset.state = "done";
    // An error already told (e.g. the model was unreachable) says more than a status.
    const note = turnNote(event.status, Boolean(this.answerText));
    if (note && this.note.dataset.kind !== "error") this.showNote(note, event.status);
    this.reply.setAttribute("aria-busy", "false");
    return event.awaiting_confirmation || null;
  }

  /** Ends the turn without a turn.done (connection lost, message refused). */
  abandon(note, state) {
    this.finished = true;
    this.root.dataset.state = state;
    if (!this.answerText) this.answer.dataset.state = "empty";
    for (const { chip } of this.chips.values()) {
      if (chip.dataset.state === "running") chip.dataset.state = "skipped";
    }
    this.showNote(note, state);
    this.reply.setAttribute("aria-busy", "false");
  }

  /**
   * A turn abandoned when the connection dropped, completed from what the server kept of
   * it (`last_turn` of a resumed session.ready): its calls and their outcomes, and its
   * answer when it gave one. The note says the view was caught up, not answered live.
   */
  catchUp(last, note) {
    for (const call of last.tool_calls || []) this.toolFinished(call);
    if (last.answer) this.answerDone(last.answer);
    const failed = (last.tool_calls || []).some((call) => call.status !== "ok");
    this.root.dataset.state = failed ? "partial" : "ok";
    this.showNote(note, "caught-up");
  }

  showNote(text, kind) {
    this.note.textContent = text;
    this.note.dataset.kind = kind;
    this.note.hidden = false;
  }

  /** A finished turn kept from before a reload, still asking `group`'s question. */
  static adopt(root, group) {
    const view = Object.create(TurnView.prototype);
    view.root = root;
    view.reply = root.querySelector(".aw-msg-assistant");
    view.note = root.querySelector(".aw-note");
    view.finished = true;
    view.confirmGroup = group;
    try {
      view.pending = JSON.parse(root.dataset.pending);
    } catch {
      view.pending = null;
    }
    return view;
  }

  /**
   * Yes / No buttons under the answer; `onChoose(answer)` sends it. `pending` is
   * turn.done's `awaiting_confirmation` (kept on the turn, for a reload).
   */
  askConfirmation(onChoose, pending) {
    this.pending = pending;
    this.root.dataset.pending = JSON.stringify(pending);
    const group = el("div", "aw-confirm");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Confirm this action");
    group.append(el("button", "aw-button aw-button-primary", "Yes"), el("button", "aw-button", "No"));
    this.reply.append(group);
    this.confirmGroup = group;
    this.rewireConfirmation(onChoose);
    return group.firstChild;
  }

  /** (Re)attaches the buttons' handlers: markup restored after a reload has none. */
  rewireConfirmation(onChoose) {
    const group = this.confirmGroup;
    if (!group) return;
    for (const button of group.querySelectorAll("button")) {
      const answer = button.textContent.toLowerCase();
      button.type = "button";
      button.disabled = false;
      button.onclick = () => {
        if (onChoose(answer)) this.closeConfirmation(answer);
      };
    }
  }

  /** The question was not answered yes: say what was not done; the buttons expire. */
  expireConfirmation(group, note) {
    if (!group) return;
    for (const button of group.querySelectorAll("button")) button.disabled = true;
    group.dataset.state = "expired";
    if (!group.querySelector(".aw-expired")) group.append(el("span", "aw-expired", EXPIRED));
    this.showNote(note, "not-done");
  }

  /** Disables the Yes / No buttons, marking the one chosen (or none). */
  closeConfirmation(chosen, note) {
    const group = this.confirmGroup;
    if (!group) return;
    for (const button of group.querySelectorAll("button")) {
      button.disabled = true;
      if (button.textContent.toLowerCase() === chosen) button.dataset.chosen = "true";
    }
    if (note) this.showNote(note, "expired");
    const closed = this.confirmGroup;
    this.confirmGroup = null;
    return closed;
  }
}
