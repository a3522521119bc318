/** A key of a webhook delivery acted on (its id or its signature), so its retries and replays are not acted on again. */
export interface WebhookDeliveriesTable {
  key: string
  received_at: string
}
