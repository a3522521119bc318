import { postgresClientConfig } from '@events/core'
import pg from 'pg'

/**
 * A connection to the PostgreSQL server a test's URL names, as its user (or, like libpq, the operating-system user),
 * to the URL's database or to `database`.
 */
export async function connectPostgres(databaseUrl: string, database?: string): Promise<pg.Client> {
  const client = new pg.Client({ ...postgresClientConfig(databaseUrl), ...(database ? { database } : {}) })
  await client.connect()
  return client
}
