import type { Kysely } from 'kysely'
import { DateTime } from 'luxon'
import { TIME_ZONE } from '@events/pricing'
import { dayIn } from '../backoffice/fields.ts'
import type { Database } from '../db/database.ts'

/**
 * The age bands of what is owed, counted in days from the date of the registration's first tax invoice (a corrected
 * invoice does not make the debt younger): under 30 days is current, then 30–59, 60–89 and 90 days or more.
 */
export const AGE_BANDS = ['current', '30-days', '60-days', '90-days-plus'] as const
export type AgeBand = (typeof AGE_BANDS)[number]

/** Each band as statements and reports head it. */
export const AGE_BAND_LABELS: Record<AgeBand, string> = {
  current: 'Current',
  '30-days': '30 days',
  '60-days': '60 days',
  '90-days-plus': '90 days and more',
}

/** What is owed in each age band, in cents incl. VAT. */
export type Ageing = Record<AgeBand, number>

export function noAgeing(): Ageing {
  return { current: 0, '30-days': 0, '60-days': 0, '90-days-plus': 0 }
}

/** The band of a debt first invoiced on `invoicedOn` (YYYY-MM-DD), on the business day `today`. */
export function ageBandOf(invoicedOn: string, today: string): AgeBand {
  const days = DateTime.fromISO(today, { zone: TIME_ZONE }).diff(DateTime.fromISO(invoicedOn, { zone: TIME_ZONE }), 'days').days
  if (days >= 90) return '90-days-plus'
  if (days >= 60) return '60-days'
  if (days >= 30) return '30-days'
  return 'current'
}

/** Adds up what is owed by age band, each debt in the band of the day it was first invoiced. */
export function ageingOf(debts: ReadonlyArray<{ invoicedOn: string; owedCents: number }>, today: string): Ageing {
  const ageing = noAgeing()
  for (const debt of debts) if (debt.owedCents > 0) ageing[ageBandOf(debt.invoicedOn, today)] += debt.owedCents
  return ageing
}

/** The day (YYYY-MM-DD, Johannesburg) each registration's first tax invoice was issued. */
export async function firstInvoicedOn(queries: Kysely<Database>, registrationIds: readonly string[]): Promise<Map<string, string>> {
  if (registrationIds.length === 0) return new Map()
  const rows = await queries
    .selectFrom('invoices')
    .select((eb) => ['registration_id', eb.fn.min<string>('issued_at').as('first_issued_at')])
    .where('registration_id', 'in', [...registrationIds])
    .groupBy('registration_id')
    .execute()
  return new Map(rows.map((row) => [row.registration_id, dayIn(new Date(row.first_issued_at))]))
}

/** An ageing as rows to show, oldest band last: each band's heading and what is owed in it. */
export function ageingRows(ageing: Ageing): Array<{ label: string; cents: number }> {
  return AGE_BANDS.map((band) => ({ label: AGE_BAND_LABELS[band], cents: ageing[band] }))
}

/** Adds up rows already placed in their band (the Overdue list's). */
export function ageingByBand(rows: ReadonlyArray<{ ageBand: AgeBand; outstandingCents: number }>): Ageing {
  const ageing = noAgeing()
  for (const row of rows) ageing[row.ageBand] += row.outstandingCents
  return ageing
}
