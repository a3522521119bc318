// Card payments against a local Yoco stand-in, for the payments tests: the stand-in's webhooks reach the service
// through a miniature of the site's webhook route.
import { createServer } from 'node:http'
import { openTestDatabase, type TestDatabase } from '@events/core/test-support'
import { migratePaymentTables } from './db/migrate.ts'
import { startYocoStandIn, type YocoStandIn } from '../../../tests/fixtures/yoco-server.ts'
import { handleWebhook } from './commands.ts'
import type { PaymentContext } from './context.ts'
import { WebhookRejectedError } from './webhook.ts'

export interface YocoWithWebhooks extends YocoStandIn {
  /** Where the stand-in posts its webhooks. */
  webhookUrl: string
  /** Stops the stand-in and the webhook route. */
  close(): Promise<void>
}

/**
 * Starts the stand-in and the webhook route, which hands the raw body and headers to `handleWebhook` with the
 * context `payments` returns at that moment, and answers with its outcome as the site's route does.
 */
export async function startYocoWithWebhooks(payments: () => PaymentContext): Promise<YocoWithWebhooks> {
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      handleWebhook(payments(), Buffer.concat(chunks).toString('utf8'), request.headers).then(
        (result) => {
          response.writeHead(200, { 'Content-Type': 'application/json' })
          response.end(JSON.stringify(result))
        },
        (error: unknown) => {
          response.writeHead(error instanceof WebhookRejectedError ? error.status : 500)
          response.end((error as Error).message)
        },
      )
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  const webhookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/payments/yoco/webhook`
  const yoco = await startYocoStandIn({ webhookUrl })
  return {
    ...yoco,
    webhookUrl,
    async close() {
      await new Promise((resolve) => receiver.close(resolve))
      await yoco.close()
    },
  }
}

/** A test database of the core's tables with this package's own migrated on top, as the site opens it. */
export async function openPaymentsTestDatabase(backend: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const testDb = await openTestDatabase(backend)
  await migratePaymentTables(testDb.db)
  return testDb
}
