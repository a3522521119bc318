import { describe, expect, it } from 'vitest'
import { wrapLines } from './wrap.ts'

describe('wrapLines', () => {
  it('breaks the missing-migrations refusal into lines of at most 100 characters, losing no word', () => {
    const names = Array.from({ length: 6 }, (_, index) => `2026-11-29T${10 + index}-a-migration-of-this-release`)
    const message = `Cannot start: the database lacks 6 migration(s) of this release (${names.join(', ')}): run \`pnpm db:migrate\` first, or start with MIGRATE_ON_START=1`
    const wrapped = wrapLines(message)
    const lines = wrapped.split('\n')
    expect(lines.length).toBeGreaterThan(3)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100)
    expect(lines[0]).toMatch(/^Cannot start: the database lacks 6 migration\(s\)/)
    expect(wrapped.replaceAll('\n', ' ')).toBe(message)
  })

  it('keeps a word longer than a line whole, on a line of its own', () => {
    const path = `/srv/events/${'very-long-folder/'.repeat(8)}events.sqlite`
    expect(wrapLines(`the database is in ${path} now`, 40)).toBe(`the database is in\n${path}\nnow`)
  })

  it('keeps a short message and the lines a message already has as they are', () => {
    expect(wrapLines('port 3000 is already in use')).toBe('port 3000 is already in use')
    expect(wrapLines('first line\nsecond line that is long', 12)).toBe('first line\nsecond line\nthat is long')
    expect(wrapLines('')).toBe('')
  })
})
