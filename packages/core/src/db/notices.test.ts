import { createServer } from 'node:net'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { openNoticeChannel, type NoticeChannel } from './notices.ts'
import { postgresClientConfig } from './open-database.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []

const opened: NoticeChannel[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((channel) => channel.close()))
})

async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** A channel that counts the notices it gets and collects its problems. */
async function counting(databaseUrl: string, channel: string) {
  let notices = 0
  const problems: string[] = []
  const handle = await openNoticeChannel({ databaseUrl, channel, onNotice: () => (notices += 1), onProblem: (message) => problems.push(message) })
  opened.push(handle)
  return { handle, notices: () => notices, problems }
}

describe('openNoticeChannel without a database', () => {
  it('reports that it cannot listen or notify, and neither throws nor ends the process', async () => {
    const channel = await counting(`postgres://events@127.0.0.1:${await closedPort()}/events`, 'content_changed')
    expect(channel.problems[0]).toMatch(/^Notice channel content_changed: cannot listen: /)
    await channel.handle.publish()
    expect(channel.problems.at(-1)).toMatch(/^Notice channel content_changed: could not notify the other instances: /)
    expect(channel.notices()).toBe(0)
  })
})

describe.each(POSTGRES_URLS)('openNoticeChannel on PostgreSQL (%s)', (databaseUrl) => {
  it('tells the other instances on the channel, not the one that published, nor another channel', async () => {
    const name = `notices_${Date.now().toString(36)}`
    const [first, second, elsewhere] = await Promise.all([counting(databaseUrl, name), counting(databaseUrl, name), counting(databaseUrl, `${name}_other`)])
    await first.handle.publish()
    await expect.poll(second.notices).toBe(1)
    await second.handle.publish()
    await expect.poll(first.notices).toBe(1)
    expect(second.notices()).toBe(1)
    expect(elsewhere.notices()).toBe(0)
  })

  it('listens again after its connection is terminated, counting the loss as a change it may have missed', async () => {
    const name = `notices_${Date.now().toString(36)}_lost`
    const [publisher, listener] = await Promise.all([counting(databaseUrl, name), counting(databaseUrl, name)])
    const admin = new pg.Client(postgresClientConfig(databaseUrl))
    await admin.connect()
    try {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where query = $1', [`LISTEN "${name}"`])
      expect(rows.length).toBe(2)
      // Both listeners go; the publisher's too, so it reconnects and publishes over its new connection.
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where query = $1', [`LISTEN "${name}"`])
    } finally {
      await admin.end()
    }
    await expect.poll(listener.notices, { timeout: 5000 }).toBe(1)
    expect(listener.problems.some((problem) => problem.includes('connection'))).toBe(true)
    await expect.poll(publisher.notices, { timeout: 5000 }).toBe(1)
    await publisher.handle.publish()
    await expect.poll(listener.notices).toBe(2)
  })
})
