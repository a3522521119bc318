import { describe, expect, it } from 'vitest'
import type { CoreDatabase } from '../db/database.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'
import { registerAttachmentKind, withRenderedAttachments } from './attachments.ts'

const noDatabase = {} as CoreDatabase
const mailWith = (...attachments: MailAttachment[]): OutgoingMail => ({
  to: ['mpho@example.com'],
  subject: 'Your documents',
  text: 'Attached.',
  html: '<p>Attached.</p>',
  attachments,
})

// A kind of this test's own, which the core's real kinds leave alone: an attachment naming a greeting to write out.
type GreetingAttachment = MailAttachment & { greeting?: string }
const greetingAttachment = (greeting: string): MailAttachment =>
  ({ filename: 'hello.txt', contentType: 'text/plain', content: '', greeting }) as GreetingAttachment

describe('attachments the outbox draws', () => {
  it('are drawn by the kind that registered itself, which drops the name of the document it drew', async () => {
    registerAttachmentKind('test greeting', async (_db, mail) => ({
      ...mail,
      attachments: mail.attachments?.map((attachment) => {
        const { greeting, ...rest } = attachment as GreetingAttachment
        return greeting === undefined ? attachment : { ...rest, content: greeting }
      }),
    }))
    const rendered = await withRenderedAttachments(noDatabase, mailWith(greetingAttachment('Hello')))
    expect(rendered.attachments).toEqual([{ filename: 'hello.txt', contentType: 'text/plain', content: 'Hello' }])
  })

  it('refuse a message naming a document no registered kind draws, rather than send it without the document', async () => {
    const mail = mailWith({ filename: 'ticket.pdf', contentType: 'application/pdf', content: '', ...({ ticketId: 't-1' } as object) })
    await expect(withRenderedAttachments(noDatabase, mail)).rejects.toThrow('Attachment ticket.pdf names a document no module renders (ticketId)')
  })
})
