// The core's SMTP sink (a real SMTP server on an ephemeral port that keeps every message it receives), with a wait
// for a message, for the tests of the site's e-mails.
import {
  startSmtpSink as startCoreSmtpSink,
  type ReceivedMail,
  type SmtpSink as CoreSmtpSink,
  type SmtpSinkOptions,
} from '../../packages/core/src/test-support.ts'

export type { ReceivedMail }

export interface SmtpSink extends CoreSmtpSink {
  /** Resolves with the first message that matches, waiting up to `timeoutMs` for the outbox to deliver it. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
}

/** Starts the sink on 127.0.0.1 without TLS or authentication. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const sink = await startCoreSmtpSink(options)
  return Object.assign(sink, {
    async waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = sink.received.find(match)
        if (found) return found
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const seen = sink.received.map((mail) => `${mail.parsed.subject} -> ${mail.recipients.join(', ')}`).join('; ')
      throw new Error(`No matching e-mail within ${timeoutMs} ms; received: ${seen || 'none'}`)
    },
  })
}
