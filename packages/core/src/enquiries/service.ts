import type { EventCatalog } from '../catalog.ts'
import type { CoreDatabase } from '../db/database.ts'
import { ValidationError } from '../errors.ts'
import { newId } from '../ids.ts'
import { enquiryAcknowledgementMail, organiserEnquiryMail, type EnquiryMailContext } from '../mail/enquiry-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import {
  field,
  isRecord,
  Issues,
  limitText,
  MAX_EMAIL_LENGTH,
  multiLine,
  requireEmail,
  requireText,
  singleLine,
  type InputRecord,
} from '../validation/fields.ts'

/** The form field that people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = 'honeypot'

/** The interest options of the contact form, as stored and shown. */
export const CONTACT_INTERESTS = [
  'Inhouse Training',
  'Online Training',
  'Conference',
  'Workshop',
  'Opportunity To Speak',
  'Sponsorship',
  'other',
] as const
export type ContactInterest = (typeof CONTACT_INTERESTS)[number]

// Values the old site's form sent, read as today's options. A Map, so names an object inherits ('constructor',
// '__proto__', 'toString') are not options.
const LEGACY_INTERESTS = new Map<string, ContactInterest>([
  ['Sponsership', 'Sponsorship'],
  ['Opportunity', 'Opportunity To Speak'],
])

export const TRAINING_KINDS = ['inhouse', 'online'] as const
export type TrainingKind = (typeof TRAINING_KINDS)[number]

const LIMITS = { name: 200, companyName: 200, email: MAX_EMAIL_LENGTH, phone: 40, organization: 200, message: 5000 } as const

/** The labels that name missing training-request fields in the spec's messages ('Name is required'). */
const TRAINING_FIELD_LABELS = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  organization: 'Organization',
  message: 'Message',
} as const

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

/** Maps a submitted interest to one of the options (legacy spellings included); undefined when it is none. */
export function normaliseInterest(value: string): ContactInterest | undefined {
  if ((CONTACT_INTERESTS as readonly string[]).includes(value)) return value as ContactInterest
  return LEGACY_INTERESTS.get(value)
}

function isTrainingKind(value: string): value is TrainingKind {
  return (TRAINING_KINDS as readonly string[]).includes(value)
}

function filledHoneypot(input: InputRecord): boolean {
  const value = field(input, HONEYPOT_FIELD)
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

  async function submitContactEnquiry(input: unknown): Promise<SubmissionAccepted> {
    if (!isRecord(input)) throw new ValidationError('invalid-request')
    // A robot is told it succeeded, so it has no reason to try again; nothing is stored or sent.
    if (filledHoneypot(input)) return { id: newId() }
    const issues = new Issues()
    const fullName = singleLine(field(input, 'fullName'))
    const companyName = singleLine(field(input, 'companyName'))
    const email = singleLine(field(input, 'email'))
    const phone = singleLine(field(input, 'phone'))
    const rawInterest = singleLine(field(input, 'interest'))
    const message = multiLine(field(input, 'message'))
    requireText(issues, 'fullName', fullName, LIMITS.name, 'Full name')
    limitText(issues, 'companyName', companyName, LIMITS.companyName)
    requireEmail(issues, 'email', email, 'Email')
    requireText(issues, 'phone', phone, LIMITS.phone, 'Phone')
    const interest = normaliseInterest(rawInterest)
    if (rawInterest === '') issues.addMissing('interest', 'Interest')
    else if (!interest) issues.add('interest', 'invalid-choice')
    requireText(issues, 'message', message, LIMITS.message, 'Message')
    issues.throwIfAny()
    if (!interest) throw new ValidationError('invalid-request')

    const rows: Array<[string, string]> = [
      ['Name', fullName],
      ['Company', companyName === '' ? '—' : companyName],
      ['E-mail', email],
      ['Phone', phone],
      ['Interest', interest],
      ['Message', message],
    ]
    const context = await mailContext(`Website enquiry: ${interest}`, rows, fullName, email)
    const id = newId()
    const createdAt = now()
    await db.writeTransaction(async (transaction) => {
      await transaction
        .insertInto('contact_enquiries')
        .values({
          id,
          full_name: fullName,
          company_name: companyName === '' ? null : companyName,
          email,
          phone,
          interest,
          message,
          created_at: createdAt.toISOString(),
        })
        .execute()
      await enqueueMails(
        transaction,
        id,
        [
          { topic: 'contact.organiser', mail: organiserEnquiryMail(context) },
          { topic: 'contact.acknowledgement', mail: enquiryAcknowledgementMail(context) },
        ],
        createdAt,
      )
    })
    return { id }
  }

  async function submitTrainingRequest(input: unknown): Promise<SubmissionAccepted> {
    if (!isRecord(input)) throw new ValidationError('invalid-request')
    if (filledHoneypot(input)) return { id: newId() }
    const issues = new Issues()
    const rawKind = singleLine(field(input, 'kind'))
    const name = singleLine(field(input, 'name'))
    const email = singleLine(field(input, 'email'))
    const phone = singleLine(field(input, 'phone'))
    const organization = singleLine(field(input, 'organization'))
    const message = multiLine(field(input, 'message'))
    if (!isTrainingKind(rawKind)) issues.add('kind', 'invalid-choice')
    requireText(issues, 'name', name, LIMITS.name, TRAINING_FIELD_LABELS.name)
    requireEmail(issues, 'email', email, TRAINING_FIELD_LABELS.email)
    requireText(issues, 'phone', phone, LIMITS.phone, TRAINING_FIELD_LABELS.phone)
    requireText(issues, 'organization', organization, LIMITS.organization, TRAINING_FIELD_LABELS.organization)
    requireText(issues, 'message', message, LIMITS.message, TRAINING_FIELD_LABELS.message)
    issues.throwIfAny()
    if (!isTrainingKind(rawKind)) throw new ValidationError('invalid-request')

    const title = rawKind === 'inhouse' ? 'In-house training request' : 'Online training request'
    const rows: Array<[string, string]> = [
      ['Name', name],
      ['E-mail', email],
      ['Business number', phone],
      ['Organisation', organization],
      ['Training topic or area of interest', message],
    ]
    const context = await mailContext(title, rows, name, email)
    const id = newId()
    const createdAt = now()
    await db.writeTransaction(async (transaction) => {
      await transaction
        .insertInto('training_requests')
        .values({ id, kind: rawKind, name, email, phone, organization, message, created_at: createdAt.toISOString() })
        .execute()
      await enqueueMails(
        transaction,
        id,
        [
          { topic: 'training.organiser', mail: organiserEnquiryMail(context) },
          { topic: 'training.acknowledgement', mail: enquiryAcknowledgementMail(context) },
        ],
        createdAt,
      )
    })
    return { id }
  }

  return { submitContactEnquiry, submitTrainingRequest }
}
