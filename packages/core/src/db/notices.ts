import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { postgresClientConfig } from './open-database.ts'

const RECONNECT_DELAY_MS = 1000

export interface NoticeChannelOptions {
  databaseUrl: string
  /** The PostgreSQL channel name (LISTEN/NOTIFY). */
  channel: string
  /**
   * Another instance published a notice; also called after the listening connection came back from a loss, since
   * notices sent meanwhile were missed.
   */
  onNotice(): void
  /** A lost or refused connection, or a notice that could not be sent; the channel keeps trying. */
  onProblem(message: string): void
}

export interface NoticeChannel {
  /** Tells every other instance listening on the channel. */
  publish(): Promise<void>
  close(): Promise<void>
}

/**
 * One PostgreSQL connection of its own that LISTENs on a channel, so instances sharing the database tell each other
 * about a change (NOTIFY). A lost connection is replaced every second until it is back; it never ends the process.
 */
export async function openNoticeChannel({ databaseUrl, channel, onNotice, onProblem }: NoticeChannelOptions): Promise<NoticeChannel> {
  // Each instance ignores its own notices: it has acted on the change already.
  const instanceId = randomUUID()
  let listener: pg.Client | undefined
  let closed = false
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined

  function reconnectSoon(): void {
    if (closed || reconnectTimer) return
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined
      void listen(true)
    }, RECONNECT_DELAY_MS)
  }

  async function listen(afterLoss: boolean): Promise<void> {
    const client = new pg.Client(postgresClientConfig(databaseUrl))
    let lost = false
    const lose = (message: string) => {
      if (lost) return
      lost = true
      if (listener === client) listener = undefined
      if (!closed) onProblem(message)
      client.end().catch(() => undefined)
      reconnectSoon()
    }
    client.on('error', (error) => lose(`Notice channel ${channel}: connection lost: ${error.message}`))
    client.on('end', () => lose(`Notice channel ${channel}: connection ended`))
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== instanceId) onNotice()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`)
    } catch (error) {
      lose(`Notice channel ${channel}: cannot listen: ${(error as Error).message}`)
      return
    }
    if (closed) {
      await client.end()
      return
    }
    listener = client
    if (afterLoss) onNotice()
  }

  await listen(false)

  return {
    async publish() {
      const client = listener ?? new pg.Client(postgresClientConfig(databaseUrl))
      // A one-off connection's failure is this call's to report, never an unhandled 'error' event.
      if (client !== listener) client.on('error', () => undefined)
      try {
        if (client !== listener) await client.connect()
        await client.query('select pg_notify($1, $2)', [channel, instanceId])
      } catch (error) {
        onProblem(`Notice channel ${channel}: could not notify the other instances: ${(error as Error).message}`)
      } finally {
        if (client !== listener) await client.end().catch(() => undefined)
      }
    },
    async close() {
      closed = true
      clearTimeout(reconnectTimer)
      const client = listener
      listener = undefined
      await client?.end()
    },
  }
}
