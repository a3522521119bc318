import { formatRand } from '@events/pricing'
import { runInCommandTransaction, type CommandChange, type StaffActor, type StaffCommandContext } from './command.ts'
import { businessClock, wallClock } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { delegateChange, delegateChangeSchema, type DelegateChange } from './registration-changes.ts'
import { cancellationProposal, cancellationSchema } from '../cancellation/cancel.ts'
import { cancellationRequestChange, type CancellationRequest } from '../cancellation/requests.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { selfServiceMail } from '../mail/self-service-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { findRegistrationByReferenceAndSecret } from '../registration/queries.ts'

/** What the registrant may still do from their private link, and what asking to cancel would cost today. */
export interface SelfService {
  /** Why nothing can be changed from the link any more; undefined while changes are open (before the event starts). */
  closed?: 'event-started' | 'cancelled' | undefined
  /** The delegates still attending, by their place in the registration (1 for the first listed). */
  delegates: Array<{ number: number; name: string; position: string; email: string }>
  /** Cancelling the whole registration today, as the terms give it: the fee kept and the credit, incl. VAT. */
  cancellation: { feePercent: number; feeTotalCents: number; creditedTotalCents: number }
  /** When a cancellation was asked for that a manager has not decided yet; null when none waits. */
  pendingRequestAt: string | null
}

/**
 * The registrant acting through their private link, as the audit log and the cancellation requests name them: not
 * a member of staff, so the commands run on their behalf check the link and the date themselves.
 */
function registrantActor(registration: RegistrationRow, ipAddress: string | null): StaffActor {
  return {
    id: `registrant:${registration.reference}`,
    name: `${registration.company_name} (registrant, private link)`,
    email: registration.email,
    role: 'staff',
    ipAddress,
  }
}

/** The registration of a private link, open to changes from it: refused once cancelled or once the event has started. */
async function openRegistration(context: StaffCommandContext, reference: unknown, secret: unknown): Promise<RegistrationRow> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, String(reference ?? ''), typeof secret === 'string' ? secret : '')
  if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: String(reference ?? '') })
  if (registration.cancelled_at !== null) throw new BackOfficeError('already-cancelled')
  if (businessClock(context).getTime() >= new Date(registration.event_start).getTime()) throw new BackOfficeError('event-started')
  return registration
}

/** The self-service part of a registration's private page; undefined for a wrong link. */
export async function selfServiceOf(context: StaffCommandContext, reference: string, secret: string): Promise<SelfService | undefined> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, reference, secret)
  if (!registration) return undefined
  const [proposal, pending] = await Promise.all([
    cancellationProposal(context, registration.reference),
    context.db.kysely
      .selectFrom('cancellation_requests')
      .select('requested_at')
      .where('registration_id', '=', registration.id)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  ])
  const closed =
    registration.cancelled_at !== null
      ? 'cancelled'
      : businessClock(context).getTime() >= new Date(registration.event_start).getTime()
        ? 'event-started'
        : undefined
  return {
    closed,
    delegates: (
      await context.db.kysely
        .selectFrom('registration_delegates')
        .select(['ordinal', 'name', 'position', 'email'])
        .where('registration_id', '=', registration.id)
        .where('cancellation_id', 'is', null)
        .orderBy('ordinal')
        .execute()
    ).map((delegate) => ({ number: delegate.ordinal + 1, name: delegate.name, position: delegate.position, email: delegate.email })),
    cancellation: { feePercent: proposal.fee.feePercent, ...proposal.wholeCancellation },
    pendingRequestAt: pending?.requested_at ?? null,
  }
}

/** Runs a change made from the private link with the e-mail that confirms it to the registrant, in one transaction. */
async function withConfirmation<Result>(
  context: StaffCommandContext,
  registration: RegistrationRow,
  actor: StaffActor,
  change: CommandChange<Result>,
  confirmation: (result: Result) => Promise<ReturnType<typeof selfServiceMail>>,
): Promise<Result> {
  return runInCommandTransaction(context, actor, async (transaction) => {
    const outcome = await change(transaction)
    await enqueueMails(transaction, registration.id, [{ topic: 'registration.self-service', mail: await confirmation(outcome.result) }], wallClock(context))
    return { ...outcome, mailQueued: true }
  })
}

/**
 * The registrant puts another person in a delegate's place from their private link, before the event starts: the
 * same change staff make (a new pass for the newcomer, who gets the delegate's e-mail; amounts and the invoice stay),
 * audited as the registrant's, and confirmed to the registrant by e-mail.
 */
export async function substituteDelegateByRegistrant(
  context: StaffCommandContext,
  input: Record<string, unknown>,
  ipAddress: string | null,
): Promise<DelegateChange> {
  const registration = await openRegistration(context, input.reference, input.secret)
  const parsed = parseSubmission(delegateChangeSchema, { ...input, reference: registration.reference })
  const actor = registrantActor(registration, ipAddress)
  const settings = await context.catalog.getSettings()
  return withConfirmation(context, registration, actor, await delegateChange(context, parsed, actor), async (result) =>
    selfServiceMail(registration, settings, `Delegate changed: ${registration.event_title}`, [
      `As asked from your registration's private link, ${result.after.name} (${result.after.position}, ${result.after.email}) now attends ${registration.event_title} in place of ${result.before.name}.`,
      result.before.email.toLowerCase() === result.after.email.toLowerCase()
        ? 'The delegate keeps their pass.'
        : `${result.after.name} receives their own pass by e-mail; the pass sent to ${result.before.name} no longer admits anyone. The amount and the tax invoice stay as they are.`,
    ]),
  )
}

/**
 * The registrant asks to cancel the whole registration from their private link, before the event starts. Staff may
 * not cancel by themselves either: the request waits for a manager's approval with the fee the terms give on the day
 * it is approved, as a staff member's request does. The registrant is told by e-mail what was asked and what the
 * terms would keep if it were approved today; the company's address is told too.
 */
export async function requestCancellationByRegistrant(
  context: StaffCommandContext,
  input: Record<string, unknown>,
  ipAddress: string | null,
): Promise<CancellationRequest> {
  const registration = await openRegistration(context, input.reference, input.secret)
  const parsed = parseSubmission(cancellationSchema, { reference: registration.reference, delegateIds: 'all' })
  const actor = registrantActor(registration, ipAddress)
  const [settings, proposal] = await Promise.all([context.catalog.getSettings(), cancellationProposal(context, registration.reference)])
  const { feePercent } = proposal.fee
  const { feeTotalCents, creditedTotalCents } = proposal.wholeCancellation
  const terms =
    feePercent === 0
      ? `If it is approved today, the terms keep no fee: ${formatRand(creditedTotalCents)} is credited.`
      : `If it is approved today, the terms keep a fee of ${feePercent}% (${formatRand(feeTotalCents)} incl. VAT) and credit ${formatRand(creditedTotalCents)}.`
  // The handler reads before the transaction opens (SQLite has one writer: a read through context.db inside it would wait forever).
  const change = await cancellationRequestChange(context, parsed, actor)
  return runInCommandTransaction(context, actor, async (transaction) => {
    const outcome = await change(transaction)
    const asked = `${registration.company_name} asked from their private link to cancel registration ${registration.reference} for ${registration.event_title}.`
    await enqueueMails(
      transaction,
      registration.id,
      [
        {
          topic: 'registration.self-service',
          mail: selfServiceMail(registration, settings, `Cancellation requested: ${registration.event_title}`, [
            `We have your request to cancel registration ${registration.reference} for ${registration.event_title}. A manager reviews it as our terms require, and you will receive a credit note by e-mail once it is approved.`,
            terms,
          ]),
        },
        {
          topic: 'registration.self-service',
          mail: {
            ...selfServiceMail(registration, settings, `Cancellation requested by the registrant: ${registration.reference}`, [
              asked,
              `${terms} A manager approves or declines it on the registration's page in the back office.`,
            ]),
            to: [context.organiserEmail ?? settings.email],
          },
        },
      ],
      wallClock(context),
    )
    return { ...outcome, mailQueued: true }
  })
}
