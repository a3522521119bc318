// How fast the outbox turns a burst of registrations into delivered e-mail: a real SMTP server on loopback receives
// every message the site sends (organiser, registrant with calendar and tax invoice PDF, one per delegate).
// The registrations per second of the other benchmark only say how fast submissions are accepted; this says how
// long a registrant then waits for the confirmation.
import { startSite } from '../../tests/support/site-server.ts'
import { startSmtpSink } from '../../tests/support/smtp-sink.ts'
import { percentile, registrationBody } from './registrations.mjs'
import { printTable } from './table.mjs'

export const title = 'Registration e-mails delivered over SMTP (a burst of 200 registrations, 16 clients)'

const REGISTRATIONS = 200
const CONCURRENCY = 16
// The organiser, the registrant and the two delegates of each bench registration.
const MAILS_PER_REGISTRATION = 4
const DELIVERY_TIMEOUT_MS = 10 * 60_000

export async function run() {
  const sink = await startSmtpSink()
  const site = await startSite({ env: { FORM_RATE_LIMIT: '0', SMTP_URL: sink.url } })
  try {
    const acceptedAt = new Map()
    let left = REGISTRATIONS
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) {
          const response = await fetch(`${site.baseUrl}/api/registrations`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: registrationBody(),
          })
          if (response.status !== 201) throw new Error(`/api/registrations answered ${response.status}`)
          const { reference } = await response.json()
          acceptedAt.set(reference, performance.now())
        }
      }),
    )
    const allAccepted = performance.now()

    const expected = REGISTRATIONS * MAILS_PER_REGISTRATION
    const confirmedAt = new Map()
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS
    for (let counted = 0; ; ) {
      for (; counted < sink.received.length; counted++) notice(sink.received[counted], acceptedAt, confirmedAt)
      if (counted >= expected) break
      if (Date.now() > deadline) throw new Error(`Only ${counted} of ${expected} e-mails arrived within ${DELIVERY_TIMEOUT_MS / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const allDelivered = performance.now()

    const waits = [...confirmedAt].map(([reference, at]) => at - acceptedAt.get(reference)).sort((a, b) => a - b)
    const deliverySeconds = (allDelivered - started) / 1000
    printTable(
      ['registrations', 'e-mails', 'all accepted', 'all delivered', 'e-mails per second', 'confirmation wait p50', 'p99'],
      [
        [
          String(REGISTRATIONS),
          String(sink.received.length),
          `${((allAccepted - started) / 1000).toFixed(1)} s`,
          `${deliverySeconds.toFixed(1)} s`,
          (sink.received.length / deliverySeconds).toFixed(0),
          `${(percentile(waits, 0.5) / 1000).toFixed(1)} s`,
          `${(percentile(waits, 0.99) / 1000).toFixed(1)} s`,
        ],
      ],
    )
  } finally {
    await site.stop()
    await sink.stop()
  }
}

/** Records when the registrant's confirmation (the one with the tax invoice) of a bench registration arrived. */
function notice(mail, acceptedAt, confirmedAt) {
  const invoice = mail.parsed.attachments.find((attachment) => attachment.contentType === 'application/pdf')
  if (!invoice) return
  const reference = [...acceptedAt.keys()].find((candidate) => mail.parsed.subject?.includes(candidate))
  if (reference) confirmedAt.set(reference, performance.now())
}
