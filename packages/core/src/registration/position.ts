import type { Kysely } from 'kysely'
import { describeCancelled } from '../cancellation/cancellation-mail.ts'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import type { CreditForMail, PaymentPosition } from '../mail/position.ts'
import { registrationStatement } from './statement.ts'

const RECEIVED = new Set(['bank-transfer', 'card-payment'])
const GIVEN_BACK = new Set(['card-refund', 'refund-paid-out', 'surplus-paid-out'])

/**
 * Where a registration stands now, as its e-mails state it: from its statement (received, outstanding, refunded and
 * owed back), its cancellations' credit notes and the delegates still attending (listed only when some were cancelled).
 */
export async function registrationPositionOf(
  queries: Kysely<Database>,
  registration: Pick<RegistrationRow, 'id' | 'status' | 'total_cents' | 'created_at' | 'paid_at' | 'cancelled_at'>,
): Promise<PaymentPosition> {
  const [statement, delegates, cancellations] = await Promise.all([
    registrationStatement(queries, registration),
    queries
      .selectFrom('registration_delegates')
      .select(['ordinal', 'name', 'cancellation_id'])
      .where('registration_id', '=', registration.id)
      .orderBy('ordinal')
      .execute(),
    queries
      .selectFrom('cancellations')
      .innerJoin('credit_notes', 'credit_notes.cancellation_id', 'cancellations.id')
      .select([
        'cancellations.id',
        'cancellations.whole_registration',
        'cancellations.cancelled_on',
        'cancellations.credited_total_cents',
        'credit_notes.id as credit_note_id',
        'credit_notes.number',
      ])
      .where('cancellations.registration_id', '=', registration.id)
      .orderBy('cancellations.cancelled_at')
      .orderBy('cancellations.id')
      .execute(),
  ])
  const sum = (kinds: ReadonlySet<string>) =>
    statement.lines.filter((line) => kinds.has(line.kind)).reduce((total, line) => total + Math.abs(line.amountCents), 0)
  const namesOf = (cancellationId: string) => delegates.filter((delegate) => delegate.cancellation_id === cancellationId).map((delegate) => delegate.name)
  const credits = cancellations.map((row): CreditForMail => ({
    creditNoteId: row.credit_note_id,
    creditNoteNumber: formatCreditNoteNumber(Number(row.number)),
    cancelledOn: row.cancelled_on,
    cancelled: describeCancelled(row.whole_registration === 1, namesOf(row.id), { naming: true }),
    creditedCents: row.credited_total_cents,
  }))
  const attendingDelegates = delegates.filter((delegate) => delegate.cancellation_id === null).map((delegate) => delegate.ordinal)
  const refundedCents = sum(GIVEN_BACK)
  return {
    paidCents: sum(RECEIVED),
    outstandingCents: statement.outstandingCents,
    ...(attendingDelegates.length < delegates.length ? { attendingDelegates } : {}),
    ...(registration.cancelled_at !== null ? { cancelled: true } : {}),
    ...(credits.length > 0 ? { credits } : {}),
    ...(refundedCents > 0 ? { refundedCents } : {}),
    ...(statement.owedToRegistrantCents > 0 ? { owedBackCents: statement.owedToRegistrantCents } : {}),
  }
}
