import { foldForSearch, SEARCH_FOLD_LETTERS } from './search-fold.ts'
import { TIME_ZONE } from '@events/pricing'
import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import { DateTime } from 'luxon'
import type { Database } from '../db/database.ts'
import { registrationsOfEvent } from '../registration/event-ids.ts'
import { paidCentsOf } from '../registration/payment-state.ts'
import { PAYMENT_METHODS, type PaymentMethod } from '../submissions/choices.ts'
import type { RegistrationStatus } from '../registration/model.ts'
import { BackOfficeError } from './errors.ts'
import type { BackOfficeContext } from './context.ts'

export const REGISTRATION_STATUSES: readonly RegistrationStatus[] = ['awaiting-payment', 'part-paid', 'paid']

/** What the list's status filter offers: the payment statuses of registrations still on, and the cancelled ones. */
export const REGISTRATION_LIST_STATUSES = [...REGISTRATION_STATUSES, 'part-cancelled', 'cancelled'] as const
export type RegistrationListStatus = (typeof REGISTRATION_LIST_STATUSES)[number]
export const DEFAULT_PAGE_SIZE = 25
export const MAX_PAGE_SIZE = 100
const MAX_SEARCH_LENGTH = 200

export interface RegistrationListQuery {
  /** The event's back-office key (eventKeyOf): its registrations under every slug it had. */
  eventId?: string | undefined
  status?: string | undefined
  paymentMethod?: string | undefined
  /** First and last day of registration (inclusive), YYYY-MM-DD in Johannesburg. */
  createdFrom?: string | undefined
  createdTo?: string | undefined
  /** Part of a reference, company name, registrant e-mail or delegate name; any case. */
  search?: string | undefined
  /** 1 for the first page. */
  page?: number | undefined
  pageSize?: number | undefined
}

export interface RegistrationListRow {
  reference: string
  createdAt: string
  status: RegistrationStatus
  /** When the registration was cancelled as a whole; null while any delegate still attends. */
  cancelledAt: string | null
  /** True when some of its delegates were cancelled and others still attend. */
  partCancelled: boolean
  eventSlug: string
  eventTitle: string
  companyName: string
  email: string
  delegateCount: number
  paymentMethod: PaymentMethod
  totalCents: number
  paidCents: number
}

export interface RegistrationListPage {
  rows: RegistrationListRow[]
  /** Registrations matching the filters on every page. */
  total: number
  page: number
  pageSize: number
  pageCount: number
}

type RegistrationsBuilder = ExpressionBuilder<Database, 'registrations'>

function startOfDay(day: string, field: string): string {
  const start = /^\d{4}-\d{2}-\d{2}$/.test(day) ? DateTime.fromISO(day, { zone: TIME_ZONE }) : undefined
  if (!start?.isValid) throw new BackOfficeError('invalid-input', { problem: 'date-format', field })
  return start.toUTC().toISO()!
}

function wholeNumber(value: number | undefined, fallback: number, field: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new BackOfficeError('invalid-input', { problem: 'whole-number', field, max })
  return value
}

/** The registrations some of whose delegates were cancelled. */
function partlyCancelled(kysely: Kysely<Database>) {
  return kysely.selectFrom('registration_delegates').select('registration_id').where('cancellation_id', 'is not', null).distinct()
}

/** A LIKE pattern matching the text anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Lists registrations newest first with filters, search and pagination, and the total that match. */
export async function listRegistrations(context: BackOfficeContext, query: RegistrationListQuery = {}): Promise<RegistrationListPage> {
  const { db } = context
  const page = wholeNumber(query.page, 1, 'page')
  const pageSize = wholeNumber(query.pageSize, DEFAULT_PAGE_SIZE, 'pageSize', MAX_PAGE_SIZE)
  const status = REGISTRATION_LIST_STATUSES.find((known) => known === query.status)
  if (query.status && !status) {
    throw new BackOfficeError('invalid-input', { problem: 'list-status', choices: REGISTRATION_LIST_STATUSES.join(', ') })
  }
  const paymentMethod = PAYMENT_METHODS.find((known) => known === query.paymentMethod)
  if (query.paymentMethod && !paymentMethod) {
    throw new BackOfficeError('invalid-input', { problem: 'payment-method', choices: PAYMENT_METHODS.join(', ') })
  }
  const createdFrom = query.createdFrom ? startOfDay(query.createdFrom, 'from') : undefined
  const createdBefore = query.createdTo ? DateTime.fromISO(startOfDay(query.createdTo, 'to')).plus({ days: 1 }).toUTC().toISO()! : undefined
  const search = foldForSearch((query.search ?? '').trim().slice(0, MAX_SEARCH_LENGTH))
  // The stored text folded as the search was, so "sean" finds "Séan" on either database.
  const folded = (column: string) =>
    db.dialect === 'postgres'
      ? sql`translate(lower(${sql.ref(column)}), ${SEARCH_FOLD_LETTERS.from}, ${SEARCH_FOLD_LETTERS.to})`
      : sql`search_fold(${sql.ref(column)})`

  const filtered = (kysely: Kysely<Database>) =>
    kysely
      .selectFrom('registrations')
      .$if(Boolean(query.eventId), (builder) => builder.where(registrationsOfEvent(query.eventId!)))
      .$if(status === 'cancelled', (builder) => builder.where('cancelled_at', 'is not', null))
      .$if(status === 'part-cancelled', (builder) => builder.where('cancelled_at', 'is', null).where('id', 'in', partlyCancelled(kysely)))
      // A payment status names registrations still on: one cancelled as a whole is under Cancelled.
      .$if(status !== undefined && status !== 'cancelled' && status !== 'part-cancelled', (builder) =>
        builder.where('status', '=', status as RegistrationStatus).where('cancelled_at', 'is', null),
      )
      .$if(paymentMethod !== undefined, (builder) => builder.where('payment_method', '=', paymentMethod!))
      .$if(createdFrom !== undefined, (builder) => builder.where('created_at', '>=', createdFrom!))
      .$if(createdBefore !== undefined, (builder) => builder.where('created_at', '<', createdBefore!))
      .$if(search !== '', (builder) =>
        builder.where((eb: RegistrationsBuilder) => {
          const pattern = containsPattern(search)
          const matches = (column: string) => sql<boolean>`${folded(column)} like ${pattern} escape '\\'`
          return eb.or([
            matches('reference'),
            matches('company_name'),
            matches('email'),
            eb('id', 'in', eb.selectFrom('registration_delegates').select('registration_id').where(matches('name'))),
          ])
        }),
      )

  const [counted, rows] = await Promise.all([
    filtered(db.kysely)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
    filtered(db.kysely)
      .select([
        'id',
        'reference',
        'created_at',
        'status',
        'cancelled_at',
        'event_slug',
        'event_title',
        'company_name',
        'email',
        'delegate_count',
        'payment_method',
        'total_cents',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ])
  const received =
    rows.length === 0
      ? []
      : await db.kysely
          .selectFrom('bank_payments')
          .select((eb) => ['registration_id', eb.fn.sum<number | string>('amount_cents').as('received')])
          .where(
            'registration_id',
            'in',
            rows.map((row) => row.id),
          )
          .groupBy('registration_id')
          .execute()
  const receivedBy = new Map(received.map((row) => [row.registration_id, Number(row.received)]))
  const partly =
    rows.length === 0
      ? new Set<string>()
      : new Set(
          (
            await partlyCancelled(db.kysely)
              .where(
                'registration_id',
                'in',
                rows.map((row) => row.id),
              )
              .execute()
          ).map((row) => row.registration_id),
        )
  const total = Number(counted.count)
  return {
    rows: rows.map((row) => ({
      reference: row.reference,
      createdAt: row.created_at,
      status: row.status,
      cancelledAt: row.cancelled_at,
      partCancelled: row.cancelled_at === null && partly.has(row.id),
      eventSlug: row.event_slug,
      eventTitle: row.event_title,
      companyName: row.company_name,
      email: row.email,
      delegateCount: row.delegate_count,
      paymentMethod: row.payment_method,
      totalCents: row.total_cents,
      paidCents: paidCentsOf(row, receivedBy.get(row.id) ?? 0),
    })),
    total,
    page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  }
}
