// Words the customer reads: tool names, failure reasons and errors in plain English.
// The protocol speaks in codes (shared/PROTOCOL.md); nobody else should see them.

const TOOL_LABELS = {
  "crm.getCustomerProfile": "Your account",
  "crm.listUpcomingAppointments": "Appointments",
  "crm.getNextAppointment": "Next appointment",
  "crm.bookAppointment": "Booking",
  "crm.rescheduleAppointment": "Rescheduling",
  "crm.cancelAppointment": "Cancelling appointment",
  "crm.getOpenInvoices": "Billing",
  "crm.listTasks": "Tasks",
  "crm.addTask": "Adding task",
  "crm.completeTask": "Completing task",
  "crm.updateTask": "Updating task",
  "crm.deleteTask": "Deleting task",
  "crm.listOpenTickets": "Support cases",
  "crm.createTicket": "Opening support case",
  "crm.updateContactInfo": "Contact details",
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
  down: "Connection lost. Reconnecting…",
  reconnecting: "Reconnecting…",
  reconnected: "Reconnected.",
  expired: "Your session expired. Reconnecting…",
  authFailed: "Your session has ended. Please reload the page to start again.",
  noToken: "This chat needs a sign-in token from the page that embeds it.",
};

export const INTERRUPTED = "The connection dropped before I finished. Please ask again.";
export const CONFIRM_DROPPED = "This question expired when the connection dropped.";
