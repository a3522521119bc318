import { wallClock, type ActingStaff, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { CancellationRequestRow } from '../db/tables/cancellation-requests.ts'
import { newId } from '../ids.ts'
import { normaliseReference } from '../registration/reference.ts'
import { singleLine } from '../validation/fields.ts'
import { cancelRegistration, type CancellationInput, type CancellationOutcome } from './cancel.ts'

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

async function registrationIdOf(context: BackOfficeContext, referenceInput: string): Promise<string> {
  const registration = await context.db.kysely
    .selectFrom('registrations')
    .select('id')
    .where('reference', '=', normaliseReference(String(referenceInput)) ?? '')
    .executeTakeFirst()
  if (!registration) throw new BackOfficeError('not-found', `No registration has the reference ${String(referenceInput).trim()}.`)
  return registration.id
}

/**
 * A staff member asks for a cancellation, which a manager then approves or declines: the request is kept as asked
 * (the delegates, the fee and its reason) with who asked and when. A registration has one open request at a time.
 */
export async function requestCancellation(context: BackOfficeContext, input: CancellationInput, staff: ActingStaff): Promise<CancellationRequest> {
  const registrationId = await registrationIdOf(context, input.reference)
  const delegateIds = input.delegateIds === 'all' ? 'all' : [...new Set(input.delegateIds)]
  if (delegateIds !== 'all' && delegateIds.length === 0) throw new BackOfficeError('invalid-input', 'Choose the delegates to cancel, or cancel the whole registration.')
  const feePercent = input.feePercent === undefined || Number.isNaN(input.feePercent) ? null : input.feePercent
  if (feePercent !== null && !(Number.isInteger(feePercent) && feePercent >= 0 && feePercent <= 100)) {
    throw new BackOfficeError('invalid-input', 'The fee is a whole percentage from 0 to 100.')
  }
  const row: CancellationRequestRow = {
    id: newId(),
    registration_id: registrationId,
    delegate_ids_json: JSON.stringify(delegateIds),
    fee_percent: feePercent,
    override_reason: singleLine(input.overrideReason ?? ''),
    status: 'pending',
    requested_by_id: staff.id,
    requested_by_name: staff.name,
    requested_at: wallClock(context).toISOString(),
    decided_by_id: null,
    decided_by_name: null,
    decided_at: null,
  }
  await context.db.writeTransaction(async (transaction) => {
    const open = await transaction.selectFrom('cancellation_requests').select('id').where('registration_id', '=', registrationId).where('status', '=', 'pending').executeTakeFirst()
    if (open) throw new BackOfficeError('invalid-input', 'A cancellation of this registration is already waiting for a manager’s approval.')
    await transaction.insertInto('cancellation_requests').values(row).execute()
  })
  return requestOf(row)
}

/** The cancellation requests of a registration, newest first. */
export async function cancellationRequests(context: BackOfficeContext, reference: string): Promise<CancellationRequest[]> {
  const registrationId = await registrationIdOf(context, reference)
  const rows = await context.db.kysely.selectFrom('cancellation_requests').selectAll().where('registration_id', '=', registrationId).orderBy('requested_at', 'desc').orderBy('id', 'desc').execute()
  return rows.map(requestOf)
}

/**
 * A manager's decision on a pending request. Approved, the cancellation is made as it was asked for, by the manager
 * (its fee, credit note and refund as `cancelRegistration` makes them); declined, nothing changes but the request.
 */
export async function decideCancellationRequest(
  context: BackOfficeContext,
  input: { reference: string; requestId: string; approve: boolean },
  manager: ActingStaff,
): Promise<{ request: CancellationRequest; outcome: CancellationOutcome | null }> {
  const registrationId = await registrationIdOf(context, input.reference)
  const decidedAt = wallClock(context).toISOString()
  const status = input.approve ? 'approved' : 'declined'
  // Taken first, so two managers deciding at once cannot both act on it.
  const taken = await context.db.writeTransaction(async (transaction) => {
    const row = await transaction
      .selectFrom('cancellation_requests')
      .selectAll()
      .where('id', '=', input.requestId)
      .where('registration_id', '=', registrationId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (!row) throw new BackOfficeError('not-found', 'That cancellation request has been decided already or does not exist.')
    await transaction.updateTable('cancellation_requests').set({ status, decided_by_id: manager.id, decided_by_name: manager.name, decided_at: decidedAt }).where('id', '=', row.id).execute()
    return row
  })
  const request = requestOf({ ...taken, status, decided_by_id: manager.id, decided_by_name: manager.name, decided_at: decidedAt })
  if (!input.approve) return { request, outcome: null }
  try {
    const outcome = await cancelRegistration(
      context,
      { reference: input.reference, delegateIds: request.delegateIds, feePercent: request.feePercent ?? undefined, overrideReason: request.overrideReason },
      manager,
    )
    return { request, outcome }
  } catch (error) {
    // The cancellation could not be made (a delegate cancelled meanwhile, a fee without its reason): the request waits again.
    await context.db.writeStatement((queries) =>
      queries.updateTable('cancellation_requests').set({ status: 'pending', decided_by_id: null, decided_by_name: null, decided_at: null }).where('id', '=', taken.id).execute(),
    )
    throw error
  }
}
