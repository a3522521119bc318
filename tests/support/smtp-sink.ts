// A real SMTP server on an ephemeral port that keeps every message it receives, for tests of the site's e-mails.
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  recipients: string[]
  parsed: ParsedMail
}

export interface SmtpSink {
  url: string
  received: ReceivedMail[]
  /** Resolves with the first message that matches, waiting up to `timeoutMs` for the outbox to deliver it. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  stop(): Promise<void>
}

/** Starts the sink on 127.0.0.1 without TLS or authentication. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          received.push({ recipients: session.envelope.rcptTo.map((recipient) => recipient.address), parsed })
          callback()
        },
        (error: unknown) => callback(error as Error),
      )
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = received.find(match)
        if (found) return found
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`No matching e-mail within ${timeoutMs} ms; received: ${received.map((mail) => `${mail.parsed.subject} -> ${mail.recipients.join(', ')}`).join('; ') || 'none'}`)
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
