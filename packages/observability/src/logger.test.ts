import { describe, expect, it } from 'vitest'
import { createLogger, type LoggerOptions } from './logger.ts'

function capturingLogger(level?: LoggerOptions['level']) {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ ...(level ? { level } : {}), destination: { write: (line: string) => void lines.push(JSON.parse(line)) } })
  return { logger, lines }
}

describe('createLogger', () => {
  it('writes JSON lines with the level, time and message', () => {
    const { logger, lines } = capturingLogger()
    logger.info({ port: 3000 }, 'Site listening')
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'Site listening', port: 3000, time: expect.any(Number) })])
  })

  it('masks e-mail addresses and removes secrets from messages, fields and errors', () => {
    const { logger, lines } = capturingLogger()
    logger.info('mail: wrote "Registration" to thandi@acme.example.com as /data/mail/1.eml')
    logger.error({ err: new Error('could not reach smtps://mailer:hunter2@smtp.example.com for pieter@acme.example.com') }, 'outbox failed')
    logger.warn({ url: '/registrations/ABC-123/c2VjcmV0/pay', yocoKey: 'sk_live_0123456789' }, 'odd request')
    const text = JSON.stringify(lines)
    expect(text).not.toMatch(/thandi@|pieter@|hunter2|c2VjcmV0|0123456789/)
    expect(lines[0]?.msg).toBe('mail: wrote "Registration" to t***@acme.example.com as /data/mail/1.eml')
    expect((lines[1]?.err as { message: string }).message).toBe('could not reach smtps://mailer:[redacted]@smtp.example.com for p***@acme.example.com')
    expect(lines[2]).toMatchObject({ url: '/registrations/ABC-123/[redacted]/pay', yocoKey: 'sk_live_[redacted]' })
  })

  it('censors authorization and cookie headers', () => {
    const { logger, lines } = capturingLogger()
    logger.info({ req: { headers: { authorization: 'Token abc', cookie: 'session=xyz', accept: 'text/html' } } }, 'request')
    expect(lines[0]?.req).toEqual({ headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'text/html' } })
  })

  it('drops lines below its level', () => {
    const { logger, lines } = capturingLogger('warn')
    logger.info('not shown')
    logger.warn('shown')
    expect(lines.map((line) => line.msg)).toEqual(['shown'])
  })
})

describe('createLogger for a terminal (pretty)', () => {
  function prettyLogger() {
    const lines: string[] = []
    const logger = createLogger({ pretty: true, destination: { write: (line: string) => void lines.push(line) } })
    return { logger, lines }
  }

  it('writes the time, the level and the message, without the JSON fields', () => {
    const { logger, lines } = prettyLogger()
    logger.info({ startupMs: { ready: 812 } }, 'Site ready 812 ms after launch')
    logger.warn('Outbox: will retry')
    expect(lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}Site ready 812 ms after launch\n$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d WARN {2}Outbox: will retry\n$/),
    ])
  })

  it('breaks a long message into lines of at most 100 columns, continued under its first word', () => {
    const { logger, lines } = prettyLogger()
    const pending = Array.from({ length: 5 }, (_, index) => `2026-11-29T${10 + index}-a-migration-of-this-release`)
    const message = `Cannot start: the database lacks 5 migration(s) of this release (${pending.join(', ')}): run \`pnpm db:migrate\` first, or start with MIGRATE_ON_START=1`
    logger.fatal(message)
    const [line = ''] = lines
    const printed = line.replace(/\n$/, '').split('\n')
    expect(printed.length).toBeGreaterThan(3)
    for (const part of printed) expect(part.length).toBeLessThanOrEqual(100)
    expect(printed[0]).toMatch(/^\d\d:\d\d:\d\d FATAL Cannot start: the database lacks 5 migration\(s\)/)
    for (const part of printed.slice(1)) expect(part).toMatch(/^ {15}\S/)
    expect(printed.map((part) => part.trim()).join(' ')).toMatch(new RegExp(`FATAL ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  })

  it('writes an answered request as its method, path, status and time', () => {
    const { logger, lines } = prettyLogger()
    logger.info({ req: { id: 'r1', method: 'GET', url: '/conference' }, res: { statusCode: 200 }, responseTime: 14 }, 'request completed')
    expect(lines).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}GET \/conference 200 14 ms\n$/)])
  })

  it('puts an error’s stack under its message, and masks and removes what the JSON form does', () => {
    const { logger, lines } = prettyLogger()
    const error = new Error('could not reach smtps://mailer:hunter2@smtp.example.com for pieter@acme.example.com')
    logger.error({ err: error }, 'outbox failed for thandi@acme.example.com')
    const [line = ''] = lines
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d ERROR outbox failed for t\*\*\*@acme\.example\.com\n {4}Error: could not reach smtps:\/\/mailer:\[redacted\]@smtp\.example\.com for p\*\*\*@acme\.example\.com\n {8}at /,
    )
    expect(line).not.toMatch(/hunter2|thandi@|pieter@/)
  })
})
