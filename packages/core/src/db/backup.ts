import { existsSync } from 'node:fs'
import { chmod, copyFile, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { DatabaseSync, backup } from 'node:sqlite'
import { mailDirectoryOf } from '../mail/transport.ts'
import { sqliteFileOf } from './open-database.ts'

// One step copies every page, so the copy is one read snapshot; in smaller steps a write by the running site
// between two steps would make SQLite start the copy over, and a busy site could keep it from ever finishing.
const ALL_PAGES = 2 ** 31 - 1
const PRIVATE_FILE = 0o600
const PRIVATE_DIRECTORY = 0o700

export interface DataBackup {
  databaseFile: string
  mailFiles: number
  registrations: number
}

/** Answers "ok" when SQLite finds the database sound, otherwise what it found wrong. */
export function sqliteIntegrity(database: DatabaseSync): string {
  return database
    .prepare('PRAGMA integrity_check')
    .all()
    .map((row) => String(Object.values(row)[0]))
    .join('; ')
}

/**
 * Copies a data directory while the site runs: the SQLite database with SQLite's online backup (a consistent
 * snapshot, never a file copy of a database in WAL mode), then the e-mails written under mail/. Every file is
 * readable by its owner only. The copy is checked with SQLite's integrity check before this returns.
 */
export async function backupDataDirectory({ dataDir, destination }: { dataDir: string; destination: string }): Promise<DataBackup> {
  const source = sqliteFileOf(dataDir)
  if (!existsSync(source)) throw new Error(`There is no database at ${source}; is DATA_DIR right?`)
  const databaseFile = sqliteFileOf(destination)
  if (existsSync(databaseFile)) throw new Error(`${databaseFile} already exists; choose an empty destination`)
  await mkdir(destination, { recursive: true, mode: PRIVATE_DIRECTORY })
  await chmod(destination, PRIVATE_DIRECTORY)

  const database = new DatabaseSync(source)
  try {
    database.exec('PRAGMA busy_timeout = 5000')
    await backup(database, databaseFile, { rate: ALL_PAGES })
  } finally {
    database.close()
  }
  await chmod(databaseFile, PRIVATE_FILE)
  const copy = new DatabaseSync(databaseFile)
  let registrations: number
  try {
    // The copy keeps the source's WAL mode; as a rollback-journal file it is one self-contained file to keep or restore.
    copy.exec('PRAGMA journal_mode = DELETE')
    const integrity = sqliteIntegrity(copy)
    if (integrity !== 'ok') throw new Error(`The copy at ${databaseFile} failed SQLite's integrity check: ${integrity}`)
    registrations = Number((copy.prepare('SELECT count(*) AS count FROM registrations').get() as { count: number }).count)
  } finally {
    copy.close()
  }

  // E-mails are copied after the database: one the copy still lists as waiting may be sent again after a restore,
  // which rewrites the same file, but none the copy counts as sent can be missing.
  const mailSource = mailDirectoryOf(dataDir)
  const mailTarget = mailDirectoryOf(destination)
  const messages = existsSync(mailSource) ? (await readdir(mailSource)).filter((name) => name.endsWith('.eml')) : []
  await mkdir(mailTarget, { mode: PRIVATE_DIRECTORY })
  for (const name of messages) {
    const target = path.join(mailTarget, name)
    await copyFile(path.join(mailSource, name), target)
    await chmod(target, PRIVATE_FILE)
  }

  return { databaseFile, mailFiles: messages.length, registrations }
}
