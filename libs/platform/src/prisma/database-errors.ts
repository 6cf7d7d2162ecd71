/**
 * Which database errors mean "the database is not answering right now" (a Postgres restart or
 * failover, the pool exhausted) rather than a fault of the request or of the code: those are
 * answered 503 with Retry-After (RpcError 'unavailable'), not 500. Shapes as Prisma 7 over
 * @prisma/adapter-pg and node-postgres report them (measured against a restarted cluster):
 * - Prisma model queries: PrismaClientKnownRequestError P1001 "Can't reach database server",
 *   `meta.driverAdapterError.cause.kind = 'DatabaseNotReachable'`;
 * - Prisma raw queries: P2010 with `meta.driverAdapterError.cause = {kind: 'postgres', code: '57P01'}`
 *   (idle connections terminated by the shutdown);
 * - a query in flight at the stop: a plain Error "Connection terminated unexpectedly";
 * - node-postgres directly (the pool's bulk writes): `code: 'ECONNREFUSED'` and the SQLSTATEs below.
 */

/** Prisma error codes of an unreachable or overloaded database (https://www.prisma.io/docs/orm/reference/error-reference). */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
/** Driver-adapter error kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket errors of a database connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres messages for a connection lost or never made. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|Can't reach database server/i;

/**
 * SQLSTATE of a connection-class failure: class 08 (connection exception), 57P01–57P03
 * (admin/crash shutdown, cannot connect now: the server is stopping or starting), 53300 (too many connections).
 */
export function isConnectionSqlState(code: unknown): boolean {
  return typeof code === 'string' && /^(08[0-9A-Z]{3}|57P0[123]|53300)$/.test(code);
}

/** True when `error` (or one of its causes) says the database is unreachable, restarting or out of connections. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const e = current as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      kind?: unknown;
      meta?: { driverAdapterError?: { cause?: unknown } };
      cause?: unknown;
    };
    if (e.name === 'PrismaClientInitializationError') return true;
    if (typeof e.code === 'string' && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || isConnectionSqlState(e.code))) return true;
    if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message) && !PRISMA_SCHEMA_CODE.test(String(e.code ?? ''))) return true;
    current = e.meta?.driverAdapterError?.cause ?? e.meta?.driverAdapterError ?? e.cause;
  }
  return false;
}

/** Prisma codes of request/schema faults (P2xxx other than the pool/connection ones above): never "unavailable" by message alone. */
const PRISMA_SCHEMA_CODE = /^P2(?!024|037)/;

export const DATABASE_UNAVAILABLE_MESSAGE = 'the database is not answering (restarting or overloaded); retry shortly';
