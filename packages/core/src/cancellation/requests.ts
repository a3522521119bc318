import * as z from 'zod/mini'
import { staffCommand, type AuditedChange, type CommandHandler, type CommandOutcome } from '../backoffice/command.ts'
import { wallClock, type ActingStaff, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { referenceField } from '../backoffice/fields.ts'
import type { CancellationRequestRow } from '../db/tables/cancellation-requests.ts'
import { newId } from '../ids.ts'
import { normaliseReference } from '../registration/reference.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { ownFields } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { cancellationChange, cancellationSchema, type CancellationOutcome } from './cancel.ts'

export interface CancellationRequest {
  id: string
  delegateIds: readonly string[] | 'all'
  feePercent: number | null
  overrideReason: string
  status: CancellationRequestRow['status']
  requestedBy: ActingStaff
  requestedAt: string
  decidedBy: ActingStaff | null
  decidedAt: string | null
}

function requestOf(row: CancellationRequestRow): CancellationRequest {
  return {
    id: row.id,
    delegateIds: JSON.parse(row.delegate_ids_json) as readonly string[] | 'all',
    feePercent: row.fee_percent,
    overrideReason: row.override_reason,
    status: row.status,
    requestedBy: { id: row.requested_by_id, name: row.requested_by_name },
    requestedAt: row.requested_at,
    decidedBy: row.decided_by_id === null ? null : { id: row.decided_by_id, name: row.decided_by_name ?? '' },
    decidedAt: row.decided_at,
  }
}

async function registrationOf(context: BackOfficeContext, referenceInput: string): Promise<{ id: string; reference: string }> {
  const registration = await context.db.kysely
    .selectFrom('registrations')
    .select(['id', 'reference'])
    .where('reference', '=', normaliseReference(referenceInput) ?? '')
    .executeTakeFirst()
  if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: referenceInput })
  return registration
}

/**
 * A staff member asks for a cancellation, which a manager then approves or declines: the request is kept as asked
 * (the delegates, the fee and its reason; the cancel form's fields, parsed by the same schema) with who asked and
 * when. A registration has one open request at a time.
 */
export const cancellationRequestChange: CommandHandler<z.output<typeof cancellationSchema>, CancellationRequest> = async (context, input, staff) => {
  const registration = await registrationOf(context, input.reference)
  const delegateIds = input.delegateIds === 'all' ? 'all' : [...new Set(input.delegateIds)]
  const row: CancellationRequestRow = {
    id: newId(),
    registration_id: registration.id,
    delegate_ids_json: JSON.stringify(delegateIds),
    fee_percent: input.feePercent ?? null,
    override_reason: input.overrideReason,
    status: 'pending',
    requested_by_id: staff.id,
    requested_by_name: staff.name,
    requested_at: wallClock(context).toISOString(),
    decided_by_id: null,
    decided_by_name: null,
    decided_at: null,
  }
  return async (transaction): Promise<CommandOutcome<CancellationRequest>> => {
    const open = await transaction
      .selectFrom('cancellation_requests')
      .select('id')
      .where('registration_id', '=', registration.id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (open) throw new BackOfficeError('request-pending')
    await transaction.insertInto('cancellation_requests').values(row).execute()
    const request = requestOf(row)
    const audit: AuditedChange[] = [
      {
        action: 'cancellation-requested',
        subjectType: 'registration',
        subjectId: registration.reference,
        after: { requestId: request.id, delegateIds: request.delegateIds, feePercent: request.feePercent, reason: request.overrideReason },
      },
    ]
    return { result: request, audit }
  }
}

export const requestCancellation = staffCommand(cancellationSchema, cancellationRequestChange)

/** The cancellation requests of a registration, newest first. */
export async function cancellationRequests(context: BackOfficeContext, reference: string): Promise<CancellationRequest[]> {
  const registration = await registrationOf(context, reference)
  const rows = await context.db.kysely
    .selectFrom('cancellation_requests')
    .selectAll()
    .where('registration_id', '=', registration.id)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map(requestOf)
}

/** A manager's decision on a pending request, as its two buttons post it. */
export const cancellationDecisionSchema = z.pipe(
  ownFields,
  z.object({
    reference: referenceField,
    requestId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    decision: z.enum(['approve', 'decline'], 'invalid-choice'),
  }),
)

export interface CancellationDecision {
  request: CancellationRequest
  /** The cancellation an approval made; null when the request was declined. */
  outcome: CancellationOutcome | null
}

/**
 * A manager's (or an owner's) decision on a pending request. Approved, the cancellation is made as it was asked for,
 * by the manager, in the same transaction as the decision (its fee, credit note and refund as `cancelRegistration`
 * makes them): if it cannot be made (a delegate cancelled meanwhile, a fee without its reason) the request stays
 * pending. Declined, nothing changes but the request.
 */
export const decideCancellationRequest = staffCommand(
  cancellationDecisionSchema,
  async (context, input, manager) => {
    const registration = await registrationOf(context, input.reference)
    const gone = () => new BackOfficeError('not-found', { missing: 'cancellation-request' })
    const asked = await context.db.kysely
      .selectFrom('cancellation_requests')
      .selectAll()
      .where('id', '=', input.requestId)
      .where('registration_id', '=', registration.id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (!asked) throw gone()
    const approve = input.decision === 'approve'
    const status = approve ? 'approved' : 'declined'
    const decided = { status, decided_by_id: manager.id, decided_by_name: manager.name, decided_at: wallClock(context).toISOString() } as const
    const request = requestOf({ ...asked, ...decided })
    const cancellation = approve
      ? await cancellationChange(
          context,
          parseSubmission(cancellationSchema, {
            reference: registration.reference,
            delegateIds: request.delegateIds === 'all' ? 'all' : [...request.delegateIds],
            feePercent: request.feePercent ?? '',
            overrideReason: request.overrideReason,
          }),
          manager,
        )
      : null
    return async (transaction): Promise<CommandOutcome<CancellationDecision>> => {
      // Only a pending request is decided, so two managers deciding at once cannot both act on it.
      const taken = await transaction
        .updateTable('cancellation_requests')
        .set(decided)
        .where('id', '=', asked.id)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      if (Number(taken.numUpdatedRows) === 0) throw gone()
      const audit: AuditedChange[] = [
        {
          action: approve ? 'cancellation-request-approved' : 'cancellation-request-declined',
          subjectType: 'registration',
          subjectId: registration.reference,
          before: { requestId: request.id, requestedBy: request.requestedBy.name, status: 'pending' },
          after: { status },
        },
      ]
      if (!cancellation) return { result: { request, outcome: null }, audit }
      const cancelled = await cancellation(transaction)
      return { result: { request, outcome: cancelled.result }, audit: [...audit, ...cancelled.audit], mailQueued: cancelled.mailQueued ?? false }
    }
  },
  { role: 'manager' },
)
