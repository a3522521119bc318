import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { temporaryDirectory } from '../test-support.ts'
import { openDatabase } from './open-database.ts'

const FIXTURE = fileURLToPath(new URL('./register-then-crash.fixture.ts', import.meta.url))

function runUntilKilled(dataDir: string): Promise<{ stdout: string; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (_code, signal) => resolve({ stdout, signal, stderr }))
  })
}

describe('SQLite durability', () => {
  it('keeps a registration that was answered with 201 when the process is killed with SIGKILL right after', async () => {
    const { dir, remove } = temporaryDirectory()
    try {
      const { stdout, signal, stderr } = await runUntilKilled(dir)
      expect(stderr.replace(/^.*ExperimentalWarning.*$\n?|^\(Use `node --trace-warnings.*$\n?/gm, '')).toBe('')
      expect(signal).toBe('SIGKILL')
      const receipt = JSON.parse(stdout) as { reference: string }

      const db = await openDatabase({ dataDir: dir })
      try {
        const row = await db.kysely.selectFrom('registrations').select(['reference', 'total_cents']).executeTakeFirst()
        expect(row).toEqual({ reference: receipt.reference, total_cents: 2067700 })
        const mails = await db.kysely.selectFrom('outbox_messages').select('status').execute()
        expect(mails.map((mail) => mail.status)).toEqual(['pending', 'pending', 'pending', 'pending'])
      } finally {
        await db.close()
      }
    } finally {
      remove()
    }
  })
})
