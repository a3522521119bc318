import type { EventCatalog } from '../catalog.ts'
import type { Transaction } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import { ValidationError } from '../errors.ts'
import { newId } from '../ids.ts'
import { enquiryAcknowledgementMail, organiserEnquiryMail, type EnquiryMailContext } from '../mail/enquiry-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { isRecord } from '../validation/fields.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { contactEnquirySchema, trainingRequestSchema } from '../submissions/enquiries.ts'

/** The form field that people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = 'honeypot'

export interface SubmissionAccepted {
  id: string
}

export interface EnquiryServiceOptions {
  db: CoreDatabase
  catalog: EventCatalog
  /** Where enquiries are sent; defaults to the contact e-mail in the site settings. */
  organiserEmail?: string | undefined
  now?: () => Date
}

export interface EnquiryService {
  submitContactEnquiry(input: unknown): Promise<SubmissionAccepted>
  submitTrainingRequest(input: unknown): Promise<SubmissionAccepted>
}

/** Whether a submission filled the field people never see; form-filling robots do. */
export function isHoneypotFilled(input: unknown): boolean {
  if (!isRecord(input) || !Object.hasOwn(input, HONEYPOT_FIELD)) return false
  const value = input[HONEYPOT_FIELD]
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null && value !== false
}

/** Creates the contact-form and training-request service: validate, then store with its e-mails in one transaction. */
export function createEnquiryService(options: EnquiryServiceOptions): EnquiryService {
  const { db, catalog } = options
  const now = options.now ?? (() => new Date())

  async function mailContext(title: string, rows: Array<[string, string]>, senderName: string, senderEmail: string): Promise<EnquiryMailContext> {
    const settings = await catalog.getSettings()
    return { title, rows, senderName, senderEmail, organiserEmail: options.organiserEmail || settings.email, settings }
  }

  /** Stores an enquiry (`insert`, given its new id and time) with the organiser's copy and the sender's acknowledgement, in one transaction. */
  async function storeWithMails(
    topic: 'contact' | 'training',
    context: EnquiryMailContext,
    insert: (transaction: Transaction<Database>, id: string, createdAt: string) => Promise<unknown>,
  ): Promise<SubmissionAccepted> {
    const id = newId()
    const createdAt = now()
    await db.writeTransaction(async (transaction) => {
      await insert(transaction, id, createdAt.toISOString())
      await enqueueMails(
        transaction,
        id,
        [
          { topic: `${topic}.organiser`, mail: organiserEnquiryMail(context) },
          { topic: `${topic}.acknowledgement`, mail: enquiryAcknowledgementMail(context) },
        ],
        createdAt,
      )
    })
    return { id }
  }

  async function submitContactEnquiry(input: unknown): Promise<SubmissionAccepted> {
    if (!isRecord(input)) throw new ValidationError('invalid-request')
    // A robot is told it succeeded, so it has no reason to try again; nothing is stored or sent.
    if (isHoneypotFilled(input)) return { id: newId() }
    const { fullName, companyName, email, phone, interest, message } = parseSubmission(contactEnquirySchema, input)

    const rows: Array<[string, string]> = [
      ['Name', fullName],
      ['Company', companyName === '' ? '—' : companyName],
      ['E-mail', email],
      ['Phone', phone],
      ['Interest', interest],
      ['Message', message],
    ]
    const context = await mailContext(`Website enquiry: ${interest}`, rows, fullName, email)
    return storeWithMails('contact', context, (transaction, id, createdAt) =>
      transaction
        .insertInto('contact_enquiries')
        .values({ id, full_name: fullName, company_name: companyName === '' ? null : companyName, email, phone, interest, message, created_at: createdAt })
        .execute(),
    )
  }

  async function submitTrainingRequest(input: unknown): Promise<SubmissionAccepted> {
    if (!isRecord(input)) throw new ValidationError('invalid-request')
    if (isHoneypotFilled(input)) return { id: newId() }
    const { kind, name, email, phone, organization, message } = parseSubmission(trainingRequestSchema, input)

    const title = kind === 'inhouse' ? 'In-house training request' : 'Online training request'
    const rows: Array<[string, string]> = [
      ['Name', name],
      ['E-mail', email],
      ['Business number', phone],
      ['Organisation', organization],
      ['Training topic or area of interest', message],
    ]
    const context = await mailContext(title, rows, name, email)
    return storeWithMails('training', context, (transaction, id, createdAt) =>
      transaction.insertInto('training_requests').values({ id, kind, name, email, phone, organization, message, created_at: createdAt }).execute(),
    )
  }

  return { submitContactEnquiry, submitTrainingRequest }
}
