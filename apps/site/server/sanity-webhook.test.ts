import type { AddressInfo } from 'node:net'
import { createLogger } from '@events/observability'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import express from 'express'
import { openTestDatabase, type TestDatabase } from '@events/core/test-support'
import { recordFirstDelivery } from '@events/core'
import { afterEach, describe, expect, it } from 'vitest'
import { DELIVERY_ID_HEADER, SANITY_WEBHOOK_PATH, sanityWebhook } from './sanity-webhook'

const secret = 'webhook-secret-for-tests'
const body = JSON.stringify({ _id: 'event-resilience', _type: 'event', slug: 'Resilience' })

let close: (() => void) | undefined
let database: TestDatabase | undefined
afterEach(async () => {
  close?.()
  await database?.dispose()
  database = undefined
})

async function webhookServer(now = Date.now) {
  let changes = 0
  const app = express()
  app.use((req, _res, next) => {
    req.log = createLogger({ level: 'silent' })
    next()
  })
  database = await openTestDatabase('sqlite')
  const { db } = database
  app.use(
    sanityWebhook({ secret, onContentChanged: () => (changes += 1), isFirstDelivery: (keys, at, keepMs) => recordFirstDelivery(db, keys, at, keepMs), now }),
  )
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  close = () => server.close()
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SANITY_WEBHOOK_PATH}`
  const post = (payload: string, signature?: string, deliveryId?: string) =>
    fetch(url, {
      method: 'POST',
      body: payload,
      headers: {
        'Content-Type': 'application/json',
        ...(signature ? { [SIGNATURE_HEADER_NAME]: signature } : {}),
        ...(deliveryId ? { [DELIVERY_ID_HEADER]: deliveryId } : {}),
      },
    })
  return { post, changes: () => changes }
}

describe('the Sanity webhook', () => {
  it('accepts a delivery signed with the secret, and tells the site its content changed', async () => {
    const hook = await webhookServer()
    const response = await hook.post(body, await encodeSignatureHeader(body, Date.now(), secret))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ revalidated: true })
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(hook.changes()).toBe(1)
  })

  it('acts on a delivery once: its replay and its retry under the same id are answered without dropping the pages again', async () => {
    const hook = await webhookServer()
    const signature = await encodeSignatureHeader(body, Date.now(), secret)
    expect(await (await hook.post(body, signature, 'delivery-1')).json()).toEqual({ revalidated: true })
    const replayed = await hook.post(body, signature, 'delivery-1')
    expect(replayed.status).toBe(200)
    expect(await replayed.json()).toEqual({ revalidated: false, duplicate: true })
    // A retry is signed anew, under the same delivery id; a replay may drop the id, not the signature.
    expect(await (await hook.post(body, await encodeSignatureHeader(body, Date.now() + 1000, secret), 'delivery-1')).json()).toMatchObject({ duplicate: true })
    expect(await (await hook.post(body, signature)).json()).toMatchObject({ duplicate: true })
    expect(hook.changes()).toBe(1)
    expect(await (await hook.post(body, await encodeSignatureHeader(body, Date.now() + 2000, secret), 'delivery-2')).json()).toEqual({ revalidated: true })
    expect(hook.changes()).toBe(2)
  })

  it.each([
    ['no signature', async () => undefined, body],
    ['another secret', async () => encodeSignatureHeader(body, Date.now(), 'another-secret'), body],
    ['a changed body', async () => encodeSignatureHeader(body, Date.now(), secret), body.replace('Resilience', 'Other')],
    ['a malformed signature', async () => 'v1=abc', body],
    ['an empty body', async () => encodeSignatureHeader('{}', Date.now(), secret), ''],
    ['a delivery signed ten minutes ago', async () => encodeSignatureHeader(body, Date.now() - 10 * 60 * 1000, secret), body],
  ])('refuses %s with 401 and changes nothing', async (_name, sign, payload) => {
    const hook = await webhookServer()
    const response = await hook.post(payload, await sign())
    expect(response.status).toBe(401)
    expect((await response.json()).error.code).toBe('invalid-signature')
    expect(hook.changes()).toBe(0)
  })
})
