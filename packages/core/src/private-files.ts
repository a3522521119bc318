import { constants } from 'node:fs'
import { access, chmod, mkdir, open, writeFile } from 'node:fs/promises'
import path from 'node:path'

// Modes are set with chmod after creating: the mode given to mkdir or open only ever loses bits to the umask.
const PRIVATE_DIRECTORY = 0o700
const PRIVATE_FILE = 0o600

/**
 * Creates a directory, and any missing parents, that only its owner may enter (0700) whatever the umask. A
 * directory that already exists keeps its mode: it is the operator's.
 */
export async function makePrivateDirectory(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY })
  if (firstCreated === undefined) return
  for (let created = path.resolve(dir); ; created = path.dirname(created)) {
    await chmod(created, PRIVATE_DIRECTORY)
    if (created === path.resolve(firstCreated)) return
  }
}

/** DATA_DIR cannot be used as it is; the message says what to change. */
export class DataDirectoryError extends Error {}

/**
 * Makes sure DATA_DIR is a directory this process can write to, creating it private (0700) when missing; throws a
 * DataDirectoryError otherwise.
 */
export async function preparePrivateDataDirectory(dir: string): Promise<void> {
  try {
    await makePrivateDirectory(dir)
    await access(dir, constants.W_OK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new DataDirectoryError(
        `DATA_DIR ${dir} is not a directory (it, or a folder above it, is a file): set DATA_DIR to a directory the server may write to`,
      )
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new DataDirectoryError(`DATA_DIR ${dir} is read-only for this server: make it writable, or set DATA_DIR to a directory the server may write to`)
    }
    throw error
  }
}

/** Writes a file only its owner may read (0600) whatever the umask. */
export async function writePrivateFile(file: string, data: Uint8Array | string): Promise<void> {
  await writeFile(file, data, { mode: PRIVATE_FILE })
  await chmod(file, PRIVATE_FILE)
}

/**
 * Makes a SQLite database file 0600, creating it empty when missing, before SQLite opens it. SQLite creates the
 * -wal and -shm files with the database file's mode; ones left from an earlier run are made 0600 here too.
 */
export async function makeSqliteFilesPrivate(databaseFile: string): Promise<void> {
  const handle = await open(databaseFile, 'a', PRIVATE_FILE)
  try {
    await handle.chmod(PRIVATE_FILE)
  } finally {
    await handle.close()
  }
  for (const companion of [`${databaseFile}-wal`, `${databaseFile}-shm`]) {
    await chmod(companion, PRIVATE_FILE).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
}
