import { OPERATOR_LINE_WIDTH, wrapLines } from './wrap.ts'

/** pino's numeric levels by name, as a person reads them. */
const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }

interface LogRecord {
  level?: number
  time?: number
  msg?: string
  req?: { method?: string; url?: string }
  res?: { statusCode?: number }
  responseTime?: number
  err?: { stack?: string; message?: string }
}

function timeOfDay(time: number | undefined): string {
  const at = new Date(time ?? Date.now())
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':')
}

/**
 * One JSON log line as a person at a terminal reads it: the local time, the level and the message, broken into lines
 * of at most 100 columns; an answered request as its method, path, status and time; an error's stack indented below. The other fields are for log searches and
 * are left to the JSON form.
 */
export function prettyLine(jsonLine: string): string {
  let record: LogRecord
  try {
    record = JSON.parse(jsonLine) as LogRecord
  } catch {
    return jsonLine
  }
  const level = (LEVEL_NAMES[record.level ?? 30] ?? String(record.level)).padEnd(5)
  const request =
    record.req && record.res
      ? `${record.req.method ?? ''} ${record.req.url ?? ''} ${record.res.statusCode ?? ''}${record.responseTime === undefined ? '' : ` ${record.responseTime} ms`}`
      : undefined
  const text = request && /^request (completed|errored)$/.test(record.msg ?? '') ? request : (record.msg ?? request ?? '')
  const stack = record.err?.stack ?? record.err?.message
  const below = stack ? `\n${stack.replace(/^/gm, '    ')}` : ''
  const prefix = `${timeOfDay(record.time)} ${level} `
  // A long message (the list of migrations a database lacks) continues on lines of its own under its first word.
  const wrapped = wrapLines(text, OPERATOR_LINE_WIDTH - prefix.length).replaceAll('\n', `\n${' '.repeat(prefix.length)}`)
  return `${prefix}${wrapped}${below}\n`
}
