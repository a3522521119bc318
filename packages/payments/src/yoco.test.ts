import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { PaymentProviderError, type CheckoutRequest } from './provider.ts'
import { createYocoProvider, yocoCheckoutOrigins } from './yoco.ts'

const request: CheckoutRequest = {
  amountCents: 976350,
  subtotalCents: 849000,
  taxCents: 127350,
  currency: 'ZAR',
  successUrl: 'https://events.example.com/s',
  cancelUrl: 'https://events.example.com/c',
  failureUrl: 'https://events.example.com/f',
  metadata: { registrationReference: 'ABCD2345' },
  idempotencyKey: 'registration-ABCD2345-checkout-1',
}

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A server that answers every request with the given status and body. */
async function answering(status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(body)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

async function failureOf(apiBase: string): Promise<unknown> {
  return createYocoProvider({ secretKey: 'sk_test_1', webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', apiBase })
    .createCheckout(request)
    .catch((error: unknown) => error)
}

describe('Yoco provider errors', () => {
  it.each([
    [
      'a problem-details answer',
      422,
      JSON.stringify({ title: 'Unprocessable Entity', detail: 'The request payload does not match the original request.' }),
      'The payment provider answered 422: The request payload does not match the original request.',
    ],
    [
      'an answer with a description',
      400,
      JSON.stringify({ errorType: 'invalid_request_error', description: 'amount is too small' }),
      'The payment provider answered 400: amount is too small',
    ],
    ['an answer that is not JSON', 502, '<html>Bad gateway</html>', 'The payment provider answered 502: Bad Gateway'],
    ['a success without a checkout', 200, JSON.stringify({ status: 'created' }), 'The payment provider answered without a checkout id and redirect URL.'],
  ])('reports %s', async (_case, status, body, message) => {
    const error = await failureOf(await answering(status, body))
    expect(error).toBeInstanceOf(PaymentProviderError)
    expect((error as Error).message).toBe(message)
  })

  it('reports a provider that cannot be reached', async () => {
    const closed = await answering(200, '{}')
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const error = await failureOf(closed)
    expect(error).toBeInstanceOf(PaymentProviderError)
    expect((error as Error).message).toMatch(/^The payment provider could not be reached/)
  })

  it('refuses a webhook secret that is not a whsec_ secret when it starts', () => {
    expect(() => createYocoProvider({ secretKey: 'sk_test_1', webhookSecret: 'whsec_not base64!', apiBase: 'http://127.0.0.1:9' })).toThrow(
      /^YOCO_WEBHOOK_SECRET is not a Standard Webhooks secret/,
    )
  })
})

describe('yocoCheckoutOrigins', () => {
  it.each([
    [undefined, ['https://c.yoco.com']],
    ['https://payments.yoco.com', ['https://c.yoco.com']],
    ['http://127.0.0.1:4010/', ['https://c.yoco.com', 'http://127.0.0.1:4010']],
  ])('for the API at %s allows %j', (apiBase, origins) => {
    expect(yocoCheckoutOrigins(apiBase)).toEqual(origins)
  })
})
