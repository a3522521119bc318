// An SMTP server on loopback (the smtp-server package, like tests/support/smtp-sink.ts) that keeps only what the
// benchmarks count: each message's subject and when it arrived. Parsing every message whole (its invoice PDF and
// calendar file) would cost the machine more CPU than the site spends sending thousands of them, so only the header
// is read and the body is drained unread.
import { createRequire } from 'node:module'

// smtp-server is the tests' dependency (tests/package.json), borrowed from there as the tests' own sink is.
const { SMTPServer } = createRequire(new URL('../../tests/package.json', import.meta.url))('smtp-server')

const HEADER_END = '\r\n\r\n'

/** Decodes RFC 2047 encoded words (=?utf-8?B?…?= and =?utf-8?Q?…?=), as nodemailer writes non-ASCII subjects. */
function decodeEncodedWords(text) {
  return text.replace(/=\?[^?]+\?([BbQq])\?([^?]*)\?=\s*/g, (_, encoding, encoded) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(encoded, 'base64').toString('utf8')
      : Buffer.from(
          encoded.replaceAll('_', ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  )
}

function subjectOf(header) {
  const unfolded = header.replace(/\r\n[ \t]+/g, ' ')
  const line = unfolded.split('\r\n').find((candidate) => /^subject:/i.test(candidate))
  return line === undefined ? '' : decodeEncodedWords(line.slice('subject:'.length).trim())
}

/** The registration reference a registrant's confirmation carries in its subject ("Registration ABCD2345: …"). */
export function confirmedReference(subject) {
  return /^Registration ([2-9A-HJ-NP-Z]{8}):/.exec(subject)?.[1]
}

/** Starts the sink on 127.0.0.1; `received` grows with { subject, at } (performance.now()) per message. */
export async function startMailSink() {
  const received = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // The site's outbox opens a few pooled connections; each may carry many messages.
    maxClients: 64,
    onData(stream, _session, callback) {
      let head = ''
      let headComplete = false
      stream.on('data', (chunk) => {
        if (headComplete) return
        head += chunk.toString('latin1')
        if (head.includes(HEADER_END)) headComplete = true
      })
      stream.on('end', () => {
        const header = Buffer.from(head.split(HEADER_END)[0] ?? '', 'latin1').toString('utf8')
        received.push({ subject: subjectOf(header), at: performance.now() })
        callback()
      })
    },
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.server.address()
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop: () => new Promise((resolve) => server.close(resolve)),
  }
}

/**
 * Waits until every reference in `references` has its confirmation in the sink, or `timeoutMs` passed; answers how
 * many arrived per reference and when the last awaited one did.
 */
export async function waitForConfirmations(sink, references, timeoutMs) {
  const counts = new Map()
  let lastAt
  let counted = 0
  const deadline = performance.now() + timeoutMs
  for (;;) {
    for (; counted < sink.received.length; counted++) {
      const reference = confirmedReference(sink.received[counted].subject)
      if (reference === undefined) continue
      counts.set(reference, (counts.get(reference) ?? 0) + 1)
      if (references.has(reference)) lastAt = sink.received[counted].at
    }
    const delivered = [...references].filter((reference) => counts.has(reference)).length
    if (delivered === references.size || performance.now() > deadline) return { counts, delivered, lastAt }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
