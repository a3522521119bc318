import { access, rename } from 'node:fs/promises'
import path from 'node:path'
import { sql, type RawBuilder } from 'kysely'
import nodemailer from 'nodemailer'
import { makePrivateDirectory, writePrivateFile } from '../private-files.ts'
import type { OutgoingMail } from './outgoing-mail.ts'

/** Delivers one outbox e-mail; `id` is the outbox row's id and makes the Message-ID stable across retries. */
export interface MailTransport {
  send(mail: OutgoingMail, id: string): Promise<void>
  /** The domain of the Message-ID every message is sent with (outboxMessageId), the From address's. */
  messageIdDomain: string
  /**
   * Whether the message with outbox id `id` was delivered, for a transport that keeps what it delivered (the files
   * written without SMTP_URL). Absent for SMTP: once a message was handed over, only its recipient can tell.
   */
  delivered?(id: string): Promise<boolean>
  close(): void
}

export interface MailTransportOptions {
  /** SMTP connection URL, e.g. smtp://user:pass@mail.example.com:587; without it mail is written to files. */
  smtpUrl?: string | undefined
  dataDir: string
  /** The From header, e.g. 'Events <events@example.com>'. */
  from: string
  log?: (line: string) => void
}

/** Where e-mails are written when no SMTP_URL is set. */
export function mailDirectoryOf(dataDir: string): string {
  return path.join(dataDir, 'mail')
}

/** The most SMTP connections one site process keeps open; the outbox worker sends this many messages at a time. */
export const MAX_SMTP_CONNECTIONS = 4

// Short enough that a stuck connection fails long before the outbox lease runs out and another worker takes over.
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 }

function messageIdDomain(from: string): string {
  const match = /@([^\s>]+)>?\s*$/.exec(from)
  return match?.[1] ?? 'localhost'
}

/** The Message-ID of the outbox message `id`: the same on every attempt, and recorded with its `sending` status. */
function outboxMessageId(id: string, domain: string): string {
  return `<outbox-${id}@${domain}>`
}

/** outboxMessageId as SQL over an outbox row's `id`, for the claim that records it before the row is read. */
export function outboxMessageIdSql(domain: string): RawBuilder<string> {
  const [before, after] = outboxMessageId('\u0000', domain).split('\u0000')
  return sql<string>`cast(${before} as text) || ${sql.ref('id')} || cast(${after} as text)`
}

function nodemailerMessage(mail: OutgoingMail, id: string, from: string) {
  return {
    from: mail.from ?? from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: outboxMessageId(id, messageIdDomain(from)),
    attachments: (mail.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: attachment.content,
      ...(attachment.encoding ? { encoding: attachment.encoding } : {}),
      ...(attachment.contentId ? { cid: attachment.contentId } : {}),
    })),
  }
}

/** Sends with nodemailer over SMTP when smtpUrl is set, otherwise writes each message to DATA_DIR/mail/<id>.eml and logs it. */
export function createMailTransport(options: MailTransportOptions): MailTransport {
  const log = options.log ?? ((line: string) => console.log(line))
  if (options.smtpUrl) {
    // Pooled: a connection per message (TCP, greeting, EHLO and, with a real provider, TLS and login) cost about
    // 100 ms each even on loopback, against 6 ms a message over a kept connection. The pool opens at most
    // MAX_SMTP_CONNECTIONS, one for each of the outbox worker's delivery lanes, or fewer when the URL's query says
    // so (nodemailer reads `?maxConnections=2` from the URL over these options); messages then wait in the pool.
    const transporter = nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: MAX_SMTP_CONNECTIONS, ...SMTP_TIMEOUTS })
    return {
      async send(mail, id) {
        await transporter.sendMail(nodemailerMessage(mail, id, options.from))
      },
      messageIdDomain: messageIdDomain(options.from),
      close: () => transporter.close(),
    }
  }

  const mailDir = mailDirectoryOf(options.dataDir)
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    async send(mail, id) {
      const info = await transporter.sendMail(nodemailerMessage(mail, id, options.from))
      await makePrivateDirectory(mailDir)
      const file = path.join(mailDir, `${id}.eml`)
      // Written aside and renamed, so a reader never sees half a message.
      // The messages hold registrants' personal data: readable by the server's own user only.
      await writePrivateFile(`${file}.tmp`, info.message as Buffer)
      await rename(`${file}.tmp`, file)
      log(`mail: no SMTP_URL set, wrote "${mail.subject}" to ${mail.to.join(', ')} as ${file}`)
    },
    messageIdDomain: messageIdDomain(options.from),
    // The file appears whole (renamed into place) or not at all: it is the record of what was delivered.
    delivered: async (id) => {
      try {
        await access(path.join(mailDir, `${id}.eml`))
        return true
      } catch {
        return false
      }
    },
    close: () => transporter.close(),
  }
}
