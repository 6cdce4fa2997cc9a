/**
 * What one client may hold of the HTTP server, beyond what ./http-guard.ts checks per request:
 * connections, requests in flight, reply bytes nobody reads, and event streams. Each limit
 * answers a way a single hostile client once took the server:
 *
 * - **Pipelined requests.** Node parses every request a socket sends and starts them all, even
 *   while the first reply is unread: 800 pipelined `resources/read` calls on one socket grew the
 *   server to 935 MB. Here a connection has at most one request in flight; a request sent before
 *   the previous reply is refused (429) and the connection closed after it.
 * - **Requests and unread replies server-wide.** At most `maxInFlight` requests run at once, and
 *   no new request starts while `maxQueuedBytes` of replies wait in the sockets' buffers (503,
 *   `Retry-After: 1`).
 * - **Event streams** (`subscriptions/listen`): at most `maxStreams` open, `maxStreamsPerClient`
 *   from one address, each closed after `streamLifetimeMs` (the client listens again). The SDK's
 *   keep-alive every 15 s would otherwise keep each open forever.
 * - **Connections.** Connections that have not yet sent a request that passed the checks (the
 *   token, when one is set) hold at most `maxConnections - reservedConnections` slots; one that
 *   has sent no request at all is closed after `firstRequestTimeoutMs`, while one that has (an
 *   OAuth client's requests carry no token) is left to the keep-alive timeout, as its next request
 *   may be on its way. A new connection beyond a cap closes the oldest such one,
 *   so sockets that trickle header bytes never lock out a client that sends its request at once.
 *   Beyond `maxConnections`, it retires the oldest idle connection of a client (no request in
 *   flight): that one no longer counts, a request that was already on its way there is answered
 *   503, and it is closed after {@link RETIRE_GRACE_MS} idle; the client's next request opens a new
 *   connection. A stranger just opened is retired the same way (its request may be on its way); one
 *   open longer without a request is closed at once. When every connection is busy, the new
 *   connection itself is refused: its request is answered 503. No connection is cut while a
 *   client's request may be on its way, because a reset gives the client no status to act on:
 *   with 20 concurrent clients, 12 % once got ECONNRESET instead of the 503 the others got (the
 *   idle connections that a burst of new ones evicted, and the new ones evicted as strangers
 *   before their request was read). Every refusal (429, 503) closes its connection once the
 *   request's body is read.
 * - **Slow readers.** A connection whose reply bytes have waited unsent for
 *   `socketIdleTimeoutMs` is closed. Node's own socket timeout restarts whenever the kernel takes
 *   a few more bytes, which held a client that stopped reading about twice as long.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { writeJsonRpcError, type HttpLimits } from "./http-guard.js";

/** What is known of one open connection. */
interface Connection {
  /** A request of it passed the checks (and the token): it is a client, not a stranger. */
  trusted: boolean;
  /**
   * A request of it arrived, passing the checks or not (an OAuth client's carry no token): its
   * next one may be on its way at any moment, so it is never cut, only retired, or closed by the
   * keep-alive timeout, which the client is told of.
   */
  requested: boolean;
  readonly opened: number;
  /** Requests of it not yet answered in full (pipelined ones included). */
  inFlight: number;
  /** When its reply bytes started to wait unsent, or undefined while its buffer is empty. */
  stalledSince: number | undefined;
  /** Over the connection cap: no longer counted, and its next request is answered 503. */
  refused: boolean;
  /** The timer that closes a retired connection still idle after {@link RETIRE_GRACE_MS}. */
  retiring: ReturnType<typeof setTimeout> | undefined;
}

/**
 * How long a retired client connection stays open, idle, for a request the client may already
 * have sent on it (it is then answered 503): a few round trips.
 */
const RETIRE_GRACE_MS = 500;

/**
 * The traffic control of one HTTP server; see the module comment.
 *
 * @example
 * const traffic = createTrafficControl(server, HTTP_LIMITS);
 * if (!traffic.begin(req, res)) return; // answered 429 or 503
 */
interface TrafficControl {
  /**
   * Admits a request, or answers it (429 for a pipelined one, 503 when the server is full) and
   * returns false. Call it first for every request.
   */
  begin(req: IncomingMessage, res: ServerResponse): boolean;
  /** Marks the request's connection as a client's: its request passed the checks. */
  trust(req: IncomingMessage): void;
  /**
   * Turns an admitted request into an event stream, or answers 429 and returns false when the
   * stream caps are reached. A stream no longer counts as a request in flight.
   */
  openStream(req: IncomingMessage, res: ServerResponse): boolean;
  /** Stops the timer. */
  close(): void;
}

/**
 * Sets up {@link TrafficControl} on `server` (before it listens). `server.maxConnections` is a
 * backstop at twice `limits.maxConnections`, plus one: the cap itself is kept here, where the
 * oldest idle connection can make room for a new one, and where a connection over it is answered
 * 503 rather than cut; retired and refused connections, which no longer count, fit under it.
 *
 * @example
 * const traffic = createTrafficControl(createServer(handler), HTTP_LIMITS);
 */
export function createTrafficControl(server: Server, limits: HttpLimits): TrafficControl {
  const now = Date.now;
  const connections = new Map<Socket, Connection>();
  let inFlight = 0;
  let streams = 0;
  const streamsByAddress = new Map<string, number>();
  /** How an admitted request stops counting as one in flight when it becomes a stream. */
  const streamEnds = new WeakMap<ServerResponse, () => void>();

  server.maxConnections = 2 * limits.maxConnections + 1;
  server.on("connection", (socket: Socket) => {
    const opened: Connection = { trusted: false, requested: false, opened: now(), inFlight: 0, stalledSince: undefined, refused: false, retiring: undefined };
    connections.set(socket, opened);
    socket.once("close", () => {
      clearTimeout(opened.retiring);
      connections.delete(socket);
    });
    let untrusted = 0;
    let counted = 0;
    for (const connection of connections.values()) {
      if (connection.refused) continue;
      counted += 1;
      if (!connection.trusted) untrusted += 1;
    }
    const strangersOver = untrusted > limits.maxConnections - limits.reservedConnections;
    if (!strangersOver && counted <= limits.maxConnections) return;
    // Make room: the oldest idle stranger, else (over the total only) the oldest idle client,
    // whose next request simply opens a new connection; else the new connection is refused.
    const victim = oldestIdle(socket, false) ?? (strangersOver ? undefined : oldestIdle(socket, true));
    if (victim === undefined) opened.refused = true;
    else retire(victim);
  });

  /**
   * Takes a connection out of the count. One open for {@link RETIRE_GRACE_MS} or more without
   * any request trickles, or sends nothing: it is closed at once.
   * Any other may have a request on its way: it is answered 503 if one comes, and closed once
   * idle for {@link RETIRE_GRACE_MS}.
   */
  function retire(socket: Socket): void {
    const connection = connections.get(socket);
    if (connection === undefined) return;
    if (!connection.requested && now() - connection.opened >= RETIRE_GRACE_MS) {
      socket.destroy();
      connections.delete(socket);
      return;
    }
    connection.refused = true;
    connection.retiring = setTimeout(() => socket.destroy(), RETIRE_GRACE_MS);
    connection.retiring.unref();
  }

  /** The connection open longest with nothing in flight and not refused, other than `except`, trusted or not. */
  function oldestIdle(except: Socket, trusted: boolean): Socket | undefined {
    for (const [socket, connection] of connections) {
      if (socket !== except && connection.trusted === trusted && connection.inFlight === 0 && !connection.refused) return socket;
    }
    return undefined;
  }

  // One sweep for the two timed limits; its period is a fraction of the shorter one.
  const period = Math.max(50, Math.min(1000, limits.firstRequestTimeoutMs / 4, limits.socketIdleTimeoutMs / 4));
  const sweep = setInterval(() => {
    const at = now();
    for (const [socket, connection] of connections) {
      if (!connection.requested && at - connection.opened >= limits.firstRequestTimeoutMs) {
        socket.destroy();
        continue;
      }
      if (socket.writableLength === 0) connection.stalledSince = undefined;
      else if (connection.stalledSince === undefined) connection.stalledSince = at;
      else if (at - connection.stalledSince >= limits.socketIdleTimeoutMs) socket.destroy();
    }
  }, period);
  sweep.unref();

  /** Bytes of replies written but not yet taken by the kernel, on every connection. */
  function queuedBytes(): number {
    let total = 0;
    for (const socket of connections.keys()) total += socket.writableLength;
    return total;
  }

  return {
    begin(req, res) {
      const connection = connections.get(req.socket);
      if (connection !== undefined) connection.requested = true;
      if (connection !== undefined && connection.inFlight > 0) {
        // Sent before the previous reply: answered in turn, after it, and the connection closed.
        return answer(req, res, 429, "Too many requests: one request at a time per connection; wait for each reply before sending the next.", limits.maxBodyBytes);
      }
      if (connection?.refused === true || inFlight >= limits.maxInFlight || queuedBytes() >= limits.maxQueuedBytes) {
        // A refused connection's request is read and answered; the timer must not cut it first.
        if (connection !== undefined) clearTimeout(connection.retiring);
        res.setHeader("retry-after", "1");
        return answer(req, res, 503, "The server is busy: too many requests at once or too many unread replies; retry in a second.", limits.maxBodyBytes);
      }
      inFlight += 1;
      if (connection !== undefined) connection.inFlight += 1;
      let counted = true;
      res.once("close", () => {
        if (connection !== undefined) connection.inFlight -= 1;
        if (counted) inFlight -= 1;
      });
      streamEnds.set(res, () => {
        counted = false;
        inFlight -= 1;
      });
      return true;
    },
    trust(req) {
      const connection = connections.get(req.socket);
      if (connection !== undefined) connection.trusted = true;
    },
    openStream(req, res) {
      const address = req.socket.remoteAddress ?? "";
      const fromAddress = streamsByAddress.get(address) ?? 0;
      if (streams >= limits.maxStreams || fromAddress >= limits.maxStreamsPerClient) {
        return answer(req, res, 429, `Too many event streams: at most ${limits.maxStreams} open, ${limits.maxStreamsPerClient} from one address.`, limits.maxBodyBytes);
      }
      streamEnds.get(res)?.();
      streams += 1;
      streamsByAddress.set(address, fromAddress + 1);
      const lifetime = setTimeout(() => res.destroy(), limits.streamLifetimeMs);
      lifetime.unref();
      res.once("close", () => {
        clearTimeout(lifetime);
        streams -= 1;
        const left = (streamsByAddress.get(address) ?? 1) - 1;
        if (left === 0) streamsByAddress.delete(address);
        else streamsByAddress.set(address, left);
      });
      return true;
    },
    close() {
      clearInterval(sweep);
    },
  };
}

/**
 * A refusal, and the end of its connection: a refused client holds no slot. The reply is sent
 * once the request's body has been read (and dropped), never before. Node closes a `connection:
 * close` socket as soon as its reply is flushed; a body that arrives after that, or still waits
 * unread in the kernel, makes the kernel answer with a TCP reset, and the reset discards the
 * refusal the client had not read yet: with 20 concurrent clients, 12 % of the refused ones got
 * ECONNRESET instead of their 503. A body longer than `maxBodyBytes` is not waited for: its
 * connection is closed unanswered, as ./http-guard.ts closes any body over the cap. A body that
 * never ends is bounded by the server's `requestTimeout`, and a stranger's connection by the
 * first-request sweep.
 */
function answer(req: IncomingMessage, res: ServerResponse, status: number, message: string, maxBodyBytes: number): false {
  const send = () => {
    if (res.destroyed || res.writableEnded) return;
    writeJsonRpcError(res, status, { code: -32000, message }, { close: true });
  };
  if (req.complete) {
    send();
    return false;
  }
  let read = 0;
  req.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > maxBodyBytes) req.socket.destroy();
  });
  req.once("end", send);
  req.resume();
  return false;
}
