// Tells faults of the database itself (unreachable, restarting, out of disk) from mistakes in a query, so the site
// can answer "try again shortly" for the first and keep treating the second as a bug.

// Node's socket errors when the server cannot be reached at all.
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
])

// pg's own errors when a connection is lost or never made; they carry no code.
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]

// SQLSTATE classes of a server that is unavailable rather than of a wrong query: 08 connection exception,
// 53 insufficient resources, 57 operator intervention (shutdown, restart, terminated backend), 58 system error.
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08', '53', '57', '58'])

// SQLite primary result codes of the file or the machine rather than the query: BUSY, LOCKED, NOMEM, READONLY,
// IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
const SQLITE_FAULT_CODES = new Set([5, 6, 7, 8, 10, 11, 13, 14, 15, 26])

interface ErrorFacts {
  code?: unknown
  errcode?: unknown
  message?: unknown
  errors?: unknown
}

function facts(error: unknown): ErrorFacts | undefined {
  return typeof error === 'object' && error !== null ? (error as ErrorFacts) : undefined
}

/** Whether the error says the PostgreSQL server could not be reached or dropped the connection. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const details = facts(error)
  if (!details) return false
  // Connecting to a host with several addresses fails with an AggregateError of one error per address.
  if (Array.isArray(details.errors) && details.errors.some(isDatabaseUnreachable)) return true
  const code = typeof details.code === 'string' ? details.code : ''
  if (NETWORK_ERROR_CODES.has(code)) return true
  if (code.length === 5 && (code.startsWith('08') || code.startsWith('57P'))) return true
  const message = typeof details.message === 'string' ? details.message : ''
  return LOST_CONNECTION_MESSAGES.some((text) => message.includes(text))
}

/**
 * Whether the error is a fault of the database rather than of the query: PostgreSQL unreachable, restarting or
 * out of resources, or SQLite unable to read or write its file. Such a request may succeed when tried again later.
 */
export function isDatabaseFault(error: unknown): boolean {
  if (isDatabaseUnreachable(error)) return true
  const details = facts(error)
  if (!details) return false
  if (details.code === 'ERR_SQLITE_ERROR' && typeof details.errcode === 'number') {
    // Extended result codes keep the primary code in their low byte (SQLITE_IOERR_WRITE is 778 = 3 << 8 | 10).
    return SQLITE_FAULT_CODES.has(details.errcode & 0xff)
  }
  const code = typeof details.code === 'string' ? details.code : ''
  return code.length === 5 && UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2))
}
