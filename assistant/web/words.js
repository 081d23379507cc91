// Words the customer reads: tool names, failure reasons and errors in plain English.
// The protocol speaks in codes (shared/PROTOCOL.md); nobody else should see them.

// What a chip says once the call is done ("Billing ✓")…
const TOOL_LABELS = {
  "crm.getCustomerProfile": "Your account",
  "crm.listUpcomingAppointments": "Appointments",
  "crm.getNextAppointment": "Next appointment",
  "crm.bookAppointment": "Appointment booked",
  "crm.rescheduleAppointment": "Appointment moved",
  "crm.cancelAppointment": "Appointment cancelled",
  "crm.getOpenInvoices": "Billing",
  "crm.listTasks": "Tasks",
  "crm.addTask": "Task added",
  "crm.completeTask": "Task completed",
  "crm.updateTask": "Task updated",
  "crm.deleteTask": "Task deleted",
  "crm.listOpenTickets": "Support cases",
  "crm.createTicket": "Support case opened",
  "crm.updateContactInfo": "Contact details updated",
  "crm.listAppointments": "Your appointments",
  "crm.listInvoices": "Your invoices",
  "crm.listTickets": "Your support cases",
};

// … and while it runs: the waiting hints of config/tools.yaml, as the customer hears them.
const TOOL_PROGRESS = {
  "crm.getCustomerProfile": "Pulling up your account…",
  "crm.listUpcomingAppointments": "Looking up your appointments…",
  "crm.getNextAppointment": "Checking your next appointment…",
  "crm.bookAppointment": "Booking that appointment…",
  "crm.rescheduleAppointment": "Moving your appointment…",
  "crm.cancelAppointment": "Cancelling that appointment…",
  "crm.getOpenInvoices": "Checking your billing…",
  "crm.listTasks": "Checking your tasks…",
  "crm.addTask": "Adding that task…",
  "crm.completeTask": "Marking that task complete…",
  "crm.updateTask": "Updating that task…",
  "crm.deleteTask": "Deleting that task…",
  "crm.listOpenTickets": "Checking your support cases…",
  "crm.createTicket": "Opening a support case…",
  "crm.updateContactInfo": "Updating your contact details…",
  "crm.listAppointments": "Looking through your appointments…",
  "crm.listInvoices": "Looking through your invoices…",
  "crm.listTickets": "Looking through your support cases…",
};

// What the label of a call that did not succeed names: the thing, not "Task deleted".
const TOOL_SUBJECTS = {
  "crm.bookAppointment": "Booking",
  "crm.rescheduleAppointment": "Moving the appointment",
  "crm.cancelAppointment": "Cancelling the appointment",
  "crm.addTask": "Adding the task",
  "crm.completeTask": "Completing the task",
  "crm.updateTask": "Updating the task",
  "crm.deleteTask": "Deleting the task",
  "crm.createTicket": "Opening the case",
  "crm.updateContactInfo": "Updating contact details",
};

// Why a lookup did not come back, as a few words next to its chip.
const TOOL_FAILURES = {
  invalid_arguments: "couldn't understand the request",
  not_found: "not found",
  permission_denied: "not allowed",
  conflict: "changed in the meantime",
  rate_limited: "too busy right now",
  timeout: "took too long",
  unavailable: "not reachable right now",
  circuit_open: "temporarily unavailable",
  round_limit: "skipped",
  cancelled: "stopped",
  internal: "something went wrong",
};

/** A short label for a tool: the table above, else its name made readable. */
export function toolLabel(tool) {
  if (TOOL_LABELS[tool]) return TOOL_LABELS[tool];
  const bare = String(tool).replace(/^.*\./, "");
  const words = bare.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Checking your billing…": what a running call is doing. */
export function toolProgress(tool) {
  return TOOL_PROGRESS[tool] || `${toolLabel(tool)}…`;
}

/** The label of a call that failed or was skipped. */
export function toolSubject(tool) {
  return TOOL_SUBJECTS[tool] || toolLabel(tool);
}

/** A few words saying why a call failed or was skipped. */
export function toolFailure(status, error) {
  const code = error && error.code;
  if (code && TOOL_FAILURES[code]) return TOOL_FAILURES[code];
  return status === "skipped" ? "skipped" : "something went wrong";
}

/** "41 ms" or "1.2 s". */
export function duration(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The protocol's `error` event, told to a customer. */
export function errorMessage(event, limits) {
  switch (event.code) {
    case "text_too_long": {
      const max = limits && limits.max_text_chars;
      return max
        ? `That message is too long. Please keep it under ${max} characters.`
        : "That message is too long. Please shorten it.";
    }
    case "busy":
      return "I'm still working on your earlier messages. Please wait a moment, then try again.";
    case "rate_limited": {
      const wait = Math.max(1, Math.ceil(Number(event.retry_after_s) || 0));
      return event.retry_after_s
        ? `You're sending messages a little fast. Please wait ${wait} seconds and try again.`
        : "You're sending messages a little fast. Please wait a moment and try again.";
    }
    case "model_unavailable":
      return "The assistant is having trouble right now. Please try again in a moment.";
    case "invalid_message":
      return "Sorry, that message couldn't be sent. Please try again.";
    default:
      return "Something went wrong on our side. Please try again.";
  }
}

/** The note under a finished turn; null when there is nothing to add. */
export function turnNote(status, hasAnswer) {
  switch (status) {
    case "cancelled":
      return "Stopped.";
    case "partial":
      return "Some of your information couldn't be retrieved just now.";
    case "failed":
      return hasAnswer
        ? "I couldn't complete this request."
        : "Sorry, I couldn't answer that. Please try again.";
    default:
      return null;
  }
}

export const STATUS = {
  connecting: "Connecting…",
  ready: (name) => (name ? `Connected as ${name}` : "Connected"),
  // After a reconnect whose session the server no longer had: what came before is shown
  // but the assistant no longer remembers it (a "yes" to an old question does nothing).
  readyAfresh: (name) =>
    name ? `Connected as ${name} · a new conversation` : "Connected · a new conversation",
  down: "Connection lost. Reconnecting…",
  reconnecting: "Reconnecting…",
  expired: "Your session expired. Reconnecting…",
  authFailed: "Your session has ended. Please reload the page to start again.",
  noToken: "This chat needs a sign-in token from the page that embeds it.",
};

export const INTERRUPTED = "The connection dropped before I finished. Please ask again.";
// After a reconnect that kept the conversation: what that turn did, told by the server
// (session.ready's last_turn), in place of "Please ask again" (asking again would do it
// twice, or be told it was done).
export const CAUGHT_UP = "The connection dropped; this is what had been done by then.";
export const CONFIRM_DROPPED =
  "This question expired when the connection was lost; nothing was changed. Ask again if you still want it.";
export const EXPIRED = "Expired";

/** "I didn't delete the task 'Buy groceries'.": a question not answered yes, said plainly. */
export function notDone(pending) {
  const prompt = String((pending && pending.prompt) || "");
  const asked = prompt.match(/^(?:Are you sure you want|Do you want me|Should I) (?:to )?(.+?)\?$/i);
  return asked ? `I didn't ${asked[1]}.` : "I didn't do that: it needed your yes.";
}

/** The greeting of an empty conversation, and three things to try. */
export function greeting(name) {
  const first = name ? String(name).split(/\s+/)[0] : "";
  return `Hi${first ? ` ${first}` : ""}! I can look up and change your appointments, billing, tasks and support cases.`;
}

export const EXAMPLES = [
  "What's my next appointment?",
  "What do I owe?",
  "How am I doing on my tasks?",
];

/**
 * A long answer as short paragraphs: a paragraph ends after two sentences or about
 * 120 characters (a voice answer gives each topic a sentence or two, so topics mostly
 * land in paragraphs of their own). Answers under 200 characters stay whole.
 */
export function paragraphs(text) {
  const clean = String(text || "");
  if (clean.length < 200) return [clean];
  const sentences = clean.split(/(?<=[.!?]["'’”)]?)\s+(?=[A-Z0-9"'‘“(])/);
  const out = [];
  let current = [];
  for (const sentence of sentences) {
    current.push(sentence);
    if (current.length >= 2 || current.join(" ").length >= 120) {
      out.push(current.join(" "));
      current = [];
    }
  }
  if (current.length) out.push(current.join(" "));
  return out;
}
