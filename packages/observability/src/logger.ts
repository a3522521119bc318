import pino, { type DestinationStream, type Level, type Logger } from 'pino'
import { prettyLine } from './pretty.ts'
import { REDACTED, scrubSecrets } from './redact.ts'

export type { Logger } from 'pino'

export interface LoggerOptions {
  level?: Level | 'silent'
  /** Where the JSON lines go; standard output by default. */
  destination?: DestinationStream
  /** Lines for a person at a terminal (prettyLine) instead of JSON: the server asks for them when stdout is one. */
  pretty?: boolean
}

/**
 * The process's JSON-lines logger (or, asked for `pretty`, lines for a terminal). Every line is scrubbed on its way out (e-mail addresses masked, registration
 * secrets, keys and URL passwords removed), so a message or an error that quotes one cannot leak it.
 */
export function createLogger({ level = 'info', destination = pino.destination({ dest: 1, sync: true }), pretty = false }: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      // Defence in depth for objects logged with headers: their values never reach the scrubber.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie'],
        censor: REDACTED,
      },
    },
    { write: (line: string) => destination.write(pretty ? prettyLine(scrubSecrets(line)) : scrubSecrets(line)) },
  )
}
