import { replaceCertificateForNewName } from '../event-days/certificates.ts'
import { passForMail, reissueDelegatePass } from '../event-days/passes.ts'
import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import type { StoredRegistrationMailContext } from '../mail/registration-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import type { StoredMail } from '../outbox/stored-mail.ts'
import { normaliseReference } from '../registration/reference.ts'
import * as z from 'zod/mini'
import { ownFields } from '../submissions/fields.ts'
import { companyDetailsFields, delegateFields, type CompanyDetails, type DelegateSubmission } from '../submissions/registration.ts'
import { staffCommand, type CommandHandler, type CommandOutcome } from './command.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { delegateNumber, referenceField } from './fields.ts'

export interface DelegateChange {
  /** The registration's reference as stored. */
  reference: string
  before: DelegateSubmission
  after: DelegateSubmission
  /** True when the delegate's e-mail address changed and the new delegate's notice was queued. */
  noticeQueued: boolean
  /** The number of the certificate of attendance that replaced the delegate's, when a corrected name did. */
  replacedCertificate?: string | undefined
}

export interface CompanyChange {
  reference: string
  before: CompanyDetails
  after: CompanyDetails
}

/** The registration to change, locked for the change, as long as its event has not started by the business clock. */
async function changeableRegistration(
  context: BackOfficeContext,
  transaction: Transaction<Database>,
  referenceInput: string,
  options: { afterStart?: boolean } = {},
): Promise<RegistrationRow> {
  const registration = await transaction
    .selectFrom('registrations')
    .selectAll()
    .where('reference', '=', normaliseReference(String(referenceInput)) ?? '')
    .$if(context.db.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst()
  if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: String(referenceInput).trim() })
  if (!options.afterStart && eventStarted(context, registration)) {
    throw new BackOfficeError('event-started')
  }
  return registration
}

function eventStarted(context: BackOfficeContext, registration: RegistrationRow): boolean {
  return businessClock(context).getTime() >= new Date(registration.event_start).getTime()
}

/** Rewrites what the registration's e-mails say, so messages rendered from now on name the change. */
async function updateMailContext(
  transaction: Transaction<Database>,
  registrationId: string,
  change: (context: StoredRegistrationMailContext) => void,
): Promise<void> {
  const stored = await transaction
    .selectFrom('registration_mail_data')
    .select('context_json')
    .where('registration_id', '=', registrationId)
    .executeTakeFirstOrThrow()
  const mailContext = JSON.parse(stored.context_json) as StoredRegistrationMailContext
  change(mailContext)
  await transaction
    .updateTable('registration_mail_data')
    .set({ context_json: JSON.stringify(mailContext) })
    .where('registration_id', '=', registrationId)
    .execute()
}

/** A delegate change as its form sends it: the delegate's place (1 is the first listed) and who attends instead. */
export const delegateChangeSchema = z.pipe(ownFields, z.extend(delegateFields, { reference: referenceField, delegate: delegateNumber }))
export type DelegateChangeInput = z.input<typeof delegateChangeSchema>

/** Deletes the delegate notices to the delegate at `index` that were not sent (waiting, or given up on). */
async function withdrawUnsentNotices(transaction: Transaction<Database>, registrationId: string, index: number): Promise<void> {
  const unsent = await transaction
    .selectFrom('outbox_messages')
    .select(['id', 'mail'])
    .where('source_id', '=', registrationId)
    .where('topic', '=', 'registration.delegate')
    .where('status', '<>', 'sent')
    .execute()
  const toDelegate = unsent.filter((message) => {
    const mail = JSON.parse(message.mail) as StoredMail
    return 'template' in mail && mail.template === 'registration.delegate' && mail.delegate === index
  })
  if (toDelegate.length === 0) return
  await transaction
    .deleteFrom('outbox_messages')
    .where(
      'id',
      'in',
      toDelegate.map((message) => message.id),
    )
    .execute()
}

/**
 * Replaces one delegate up to the event's start; amounts and the issued tax invoice stay as they are. A new e-mail
 * address gets the delegate's notice through the outbox. A cancelled delegate is not replaced. Once the event has
 * started only the same person's name and position may be corrected; a corrected name replaces their certificate of
 * attendance, if they have one.
 */
export const delegateChange: CommandHandler<z.output<typeof delegateChangeSchema>, DelegateChange> = async (context, input) => {
  const { reference: referenceInput, delegate: number, ...after } = input
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<DelegateChange>> => {
    const registration = await changeableRegistration(context, transaction, referenceInput, { afterStart: true })
    const index = number - 1
    const delegate = await transaction
      .selectFrom('registration_delegates')
      .select(['id', 'name', 'position', 'email', 'cancellation_id'])
      .where('registration_id', '=', registration.id)
      .where('ordinal', '=', index)
      .executeTakeFirst()
    if (!delegate) throw new BackOfficeError('not-found', { missing: 'delegate', reference: registration.reference, number })
    if (delegate.cancellation_id !== null) {
      throw new BackOfficeError('delegate-not-attending')
    }
    const newAddress = after.email.toLowerCase() !== delegate.email.toLowerCase()
    if (newAddress && eventStarted(context, registration)) {
      throw new BackOfficeError('event-started', { allowed: 'name-and-position' })
    }
    // Another person in the place does not inherit their predecessor's professional registration number.
    await transaction
      .updateTable('registration_delegates')
      .set(newAddress ? { ...after, professional_registration_number: null } : after)
      .where('id', '=', delegate.id)
      .execute()
    const replacedCertificate = newAddress ? undefined : await replaceCertificateForNewName(transaction, context.links, { id: delegate.id, ...after }, at)
    // Another person in the place: the pass sent to the one replaced no longer admits anyone.
    const newPass = newAddress ? await reissueDelegatePass(transaction, delegate.id, at) : undefined
    await updateMailContext(transaction, registration.id, (mailContext) => {
      // The one in the place takes it as it was, at the venue or online; another person does not inherit the number.
      const previous = mailContext.submission.delegates[index]!
      mailContext.submission.delegates[index] = {
        ...previous,
        ...after,
        professionalRegistrationNumber: newAddress ? '' : (previous.professionalRegistrationNumber ?? ''),
      }
      if (newPass && mailContext.passes)
        mailContext.passes = mailContext.passes.map((pass) => (pass.ordinal === index ? passForMail(context.links, newPass, index) : pass))
    })
    await transaction.updateTable('registrations').set({ updated_at: at.toISOString() }).where('id', '=', registration.id).execute()
    // A notice to the replaced delegate not sent yet would be written to their successor when it went out: withdrawn.
    if (newAddress) await withdrawUnsentNotices(transaction, registration.id, index)
    // The registrant has the full confirmation already, as at registration.
    const noticeQueued = newAddress && after.email.toLowerCase() !== registration.email.toLowerCase()
    if (noticeQueued)
      await enqueueMails(transaction, registration.id, [{ topic: 'registration.delegate', mail: { template: 'registration.delegate', delegate: index } }], at)
    const before = { name: delegate.name, position: delegate.position, email: delegate.email }
    return {
      result: { reference: registration.reference, before, after, noticeQueued, replacedCertificate },
      mailQueued: noticeQueued || replacedCertificate !== undefined,
      audit: [
        {
          action: 'registration-delegate-changed',
          subjectType: 'registration',
          subjectId: registration.reference,
          before: { delegate: number, ...before },
          after: { delegate: number, ...after, ...(replacedCertificate ? { certificate: replacedCertificate } : {}) },
        },
      ],
    }
  }
}

export const changeDelegate = staffCommand(delegateChangeSchema, delegateChange)

/** A correction of the registrant's company details as its form sends it. */
export const companyCorrectionSchema = z.pipe(ownFields, z.extend(companyDetailsFields, { reference: referenceField }))
export type CompanyCorrectionInput = z.input<typeof companyCorrectionSchema>

/** Corrects the registrant's company details up to the event's start; amounts and the issued tax invoice stay as they are. */
export const correctCompanyDetails = staffCommand(
  companyCorrectionSchema,
  async (context, input) => {
    const { reference: referenceInput, ...after } = input
    const at = wallClock(context)
    return async (transaction): Promise<CommandOutcome<CompanyChange>> => {
      const registration = await changeableRegistration(context, transaction, referenceInput)
      const before: CompanyDetails = {
        companyName: registration.company_name,
        address: registration.address,
        email: registration.email,
        tel: registration.tel,
        vatNumber: registration.vat_number,
        purchaseOrderNumber: registration.purchase_order_number,
      }
      await transaction
        .updateTable('registrations')
        .set({
          company_name: after.companyName,
          address: after.address,
          email: after.email,
          tel: after.tel,
          vat_number: after.vatNumber,
          purchase_order_number: after.purchaseOrderNumber,
          updated_at: at.toISOString(),
        })
        .where('id', '=', registration.id)
        .execute()
      await updateMailContext(transaction, registration.id, (mailContext) => {
        Object.assign(mailContext.submission, after)
      })
      return {
        result: { reference: registration.reference, before, after },
        audit: [{ action: 'registration-company-corrected', subjectType: 'registration', subjectId: registration.reference, before, after }],
      }
    }
    // Correcting the invoice's addressee is a manager's decision (docs/staff-accounts.md: every action re-checks the role on the server).
  },
  { role: 'manager' },
)
