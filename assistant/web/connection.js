// The websocket session: browser auth (`session.start` as the first frame), reconnects
// with exponential backoff and jitter, and a fresh token on each connect. Once it has a
// session id it asks to continue that session (`session.resume`, PROTOCOL.md); a server
// that answers `resumed: false` gives a new one, and a server that does not know the
// frame (it closes with 1008) is asked with `session.start` from then on.
//
// Events (CustomEvent, `detail`):
//   "connecting"  {attempt}
//   "ready"       the server's session.ready frame, plus {reconnected, resumed: boolean}
//   "frame"       every later server frame, parsed
//   "down"        {retryInMs, attempt, code, reason}  the socket closed; a retry is scheduled
//   "expired"     {reason}                            the session's token (or lifetime) ran
//                                                     out: reconnecting at once, fresh token
//   "auth-failed" {code, reason}                      the token was refused twice; given up

const BACKOFF_INITIAL_MS = 500;
const BACKOFF_MAX_MS = 10_000;
// session.ready should follow session.start at once; a server that stays silent is broken.
const READY_TIMEOUT_MS = 10_000;
const CLOSE_POLICY = 1008;
// The server ends a session on time with these reasons (PROTOCOL.md, "Expiry and overload").
const SESSION_OVER = new Set(["session token expired", "session lifetime reached"]);

export class Connection extends EventTarget {
  /**
   * @param {{url: string, getToken: (opts: {refresh: boolean}) => Promise<string>}} options
   */
  constructor({ url, getToken, sessionId = null }) {
    super();
    this.url = url;
    this.getToken = getToken;
    this.sessionId = sessionId;
    this.resumeUnsupported = false;
    this.resuming = false;
    this.socket = null;
    this.ready = false;
    this.stopped = false;
    this.attempt = 0;
    this.authFailures = 0;
    this.everReady = false;
    this.needFreshToken = false;
    this.retryTimer = null;
    this.readyTimer = null;
    this._onOnline = () => this._retryNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener("online", this._onOnline);
    this._connect();
  }

  /** Closes for good: no more retries. */
  stop() {
    this.stopped = true;
    window.removeEventListener("online", this._onOnline);
    clearTimeout(this.retryTimer);
    clearTimeout(this.readyTimer);
    if (this.socket) this.socket.close(1000, "client closed");
    this.socket = null;
    this.ready = false;
  }

  /** Sends one frame; false when the session is not ready (nothing is queued). */
  send(frame) {
    if (!this.ready || !this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  async _connect() {
    if (this.stopped) return;
    this.attempt += 1;
    this._emit("connecting", { attempt: this.attempt });
    let token;
    try {
      // After a refused or expired token, ask for a new one rather than the same again.
      token = await this.getToken({ refresh: this.authFailures > 0 || this.needFreshToken });
      this.needFreshToken = false;
    } catch (err) {
      this._scheduleRetry(0, `token: ${err && err.message}`);
      return;
    }
    if (this.stopped) return;
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (err) {
      this._scheduleRetry(0, String(err));
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.resuming = Boolean(this.sessionId) && !this.resumeUnsupported;
      const first = this.resuming
        ? { type: "session.resume", session_id: this.sessionId, token }
        : { type: "session.start", token };
      socket.send(JSON.stringify(first));
      this.readyTimer = setTimeout(() => socket.close(4000, "no session.ready"), READY_TIMEOUT_MS);
    });
    socket.addEventListener("message", (message) => this._onMessage(socket, message));
    socket.addEventListener("close", (event) => this._onClose(socket, event));
  }

  _onMessage(socket, message) {
    if (socket !== this.socket) return;
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return; // not ours to show; the protocol only sends JSON text frames
    }
    if (!this.ready && frame.type === "session.ready") {
      clearTimeout(this.readyTimer);
      this.ready = true;
      this.attempt = 0;
      this.authFailures = 0;
      const reconnected = this.everReady;
      this.everReady = true;
      const resumed = this.resuming && frame.resumed === true;
      this.sessionId = frame.session_id || null;
      this._emit("ready", { ...frame, reconnected, resumed });
      return;
    }
    this._emit("frame", frame);
  }

  _onClose(socket, event) {
    if (socket !== this.socket) return;
    clearTimeout(this.readyTimer);
    const wasReady = this.ready;
    this.ready = false;
    this.socket = null;
    if (this.stopped) return;
    if (event.code === CLOSE_POLICY && wasReady && SESSION_OVER.has(event.reason)) {
      // Not a failure: the session ran its time. Reconnect now with a fresh token.
      this.needFreshToken = true;
      this._emit("expired", { reason: event.reason });
      clearTimeout(this.retryTimer);
      this._connect();
      return;
    }
    if (event.code === CLOSE_POLICY && !wasReady && this.resuming) {
      // A server without session.resume refuses it as a first frame: start afresh.
      this.resumeUnsupported = true;
      this.resuming = false;
      this.attempt = 0;
      this._connect();
      return;
    }
    if (event.code === CLOSE_POLICY && !wasReady) {
      this.authFailures += 1;
      if (this.authFailures >= 2) {
        this._emit("auth-failed", { code: event.code, reason: event.reason });
        return;
      }
    }
    this._scheduleRetry(event.code, event.reason);
  }

  _scheduleRetry(code, reason) {
    if (this.stopped) return;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** Math.max(0, this.attempt - 1));
    // Jitter, so that many pages dropped by one restart do not all come back at once.
    const retryInMs = Math.round(base * (0.8 + Math.random() * 0.4));
    this._emit("down", { retryInMs, attempt: this.attempt, code, reason });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this._connect(), retryInMs);
  }

  _retryNow() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this._connect();
  }
}

/** The websocket URL of the service that served `moduleUrl` (ws: or wss:). */
export function defaultSocketUrl(moduleUrl) {
  const base = new URL(moduleUrl);
  const scheme = base.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${base.host}/v1/ws`;
}
