import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { createLogger } from '@events/observability'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverFaultHandler } from './server-faults'

let server: Server
let baseUrl: string
let dataDir: string

beforeAll(async () => {
  // A real SQLite file the handlers cannot write to: the fault a full or read-only disk gives.
  dataDir = mkdtempSync(path.join(tmpdir(), 'server-faults-'))
  const file = path.join(dataDir, 'events.sqlite')
  new DatabaseSync(file).exec('create table registrations (reference text)')
  const readOnly = new DatabaseSync(file, { readOnly: true })
  const writeRegistration = () => readOnly.exec(`insert into registrations values ('ABC123')`)

  const app = express()
  const logger = createLogger({ level: 'silent' })
  app.use((req, _res, next) => {
    req.log = logger
    next()
  })
  app.post('/api/registrations', () => writeRegistration())
  app.get('/registrations/:reference/:secret/invoice.pdf', () => writeRegistration())
  app.get('/api/broken', () => {
    throw new TypeError('Cannot read properties of undefined')
  })
  app.post('/api/json', express.json(), () => undefined)
  app.use(serverFaultHandler)
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(dataDir, { recursive: true, force: true })
})

describe('serverFaultHandler', () => {
  it('answers a database fault under /api with JSON 503 and Retry-After, not an HTML 500', async () => {
    const response = await fetch(`${baseUrl}/api/registrations`, { method: 'POST' })
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('10')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({
      error: { code: 'unavailable', message: 'Our service is unavailable just now. Please try again in a few minutes.', fields: {} },
    })
  })

  it('answers a database fault elsewhere with a line of text and no details', async () => {
    const response = await fetch(`${baseUrl}/registrations/ABC123/secret/invoice.pdf`)
    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await response.text()
    expect(text).toBe('Our service is unavailable just now. Please try again in a few minutes.')
  })

  it('answers a fault of ours that is not the database with JSON 500 and no Retry-After', async () => {
    const response = await fetch(`${baseUrl}/api/broken`)
    expect(response.status).toBe(500)
    expect(response.headers.get('retry-after')).toBeNull()
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('internal-error')
  })

  it('keeps the status of a request the client got wrong', async () => {
    const response = await fetch(`${baseUrl}/api/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid-request')
  })
})
