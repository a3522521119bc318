// Run as a child process by worker.test.ts: a worker that claims the due outbox messages at the given business time,
// says so, and is then killed with SIGKILL in the middle of sending them, leaving its claims behind.
import { openDatabase, type OpenDatabaseOptions } from '../db/open-database.ts'
import { deliverDueMessages } from './worker.ts'

const [optionsJson, nowIso] = process.argv.slice(2)
if (!optionsJson || !nowIso) throw new Error('usage: claim-then-die.fixture.ts <open options JSON> <now ISO>')
const db = await openDatabase(JSON.parse(optionsJson) as OpenDatabaseOptions)
let claimed = 0
await deliverDueMessages({
  db,
  now: () => new Date(nowIso),
  concurrency: 2,
  transport: {
    send() {
      claimed++
      if (claimed === 2) process.stdout.write('claimed\n', () => process.kill(process.pid, 'SIGKILL'))
      return new Promise<void>(() => undefined)
    },
    messageIdDomain: 'example.com',
    close: () => undefined,
  },
})
