import { OPTION_KEYS, isOptionKey, isTableOption } from '@events/pricing'
import type { Transaction } from 'kysely'
import * as z from 'zod/mini'
import { fieldRefusal, randAmount } from '../backoffice/fields.ts'
import { staffCommand } from '../backoffice/command.ts'
import type { BackOfficeContext } from '../backoffice/context.ts'
import { wallClock } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { Database } from '../db/database.ts'
import type { DiscountCodeRow, DiscountKind } from '../db/tables/discount-codes.ts'
import { newId } from '../ids.ts'
import { REFERENCE_ALPHABET } from '../registration/reference.ts'
import { optionalLine, ownFields, requiredChoice } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { randomInt } from 'node:crypto'
import { discountCodeUses, normaliseDiscountCode } from './codes.ts'

const DISCOUNT_KINDS = ['percent', 'amount', 'complimentary'] as const satisfies readonly DiscountKind[]
const CODE_PATTERN = /^[A-Z0-9-]{4,40}$/
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/
const GENERATED_CODE_LENGTH = 8

/** A code nobody chose: letters and digits that cannot be mistaken for one another, after a prefix naming its source. */
export function generateDiscountCode(prefix = ''): string {
  let code =
    prefix === ''
      ? ''
      : `${normaliseDiscountCode(prefix)
          .replace(/[^A-Z0-9]/g, '')
          .slice(0, 12)}-`
  for (let index = 0; index < GENERATED_CODE_LENGTH; index++) code += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]
  return code
}

const optionalDay = z.pipe(z.transform(singleLine), z.string().check(z.refine((day) => day === '' || ISO_DAY.test(day), 'invalid-date')))
const optionalWhole = (code: 'invalid-discount-uses' | 'invalid-discount-percent') =>
  z.pipe(
    z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
    z.pipe(
      z.transform((text: string) => (text === '' ? undefined : /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN)),
      z.optional(z.number(code).check(z.refine((value) => Number.isInteger(value) && value >= 1, code))),
    ),
  )
const optionList = z.transform((value: unknown) => {
  const listed = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  return [...new Set(listed.map((key) => singleLine(key)).filter(isOptionKey))]
})

const discountCodeSchema = z.pipe(
  ownFields,
  z
    .object({
      code: z.pipe(z.transform(normaliseDiscountCode), z.string().check(z.refine((code) => code === '' || CODE_PATTERN.test(code), 'invalid-discount-code'))),
      kind: requiredChoice(DISCOUNT_KINDS),
      percent: optionalWhole('invalid-discount-percent'),
      amount: z.optional(
        z.pipe(
          z.transform((value: unknown) => (singleLine(value) === '' ? undefined : value)),
          z.optional(randAmount),
        ),
      ),
      event: optionalLine(100),
      maxUses: optionalWhole('invalid-discount-uses'),
      validFrom: optionalDay,
      validUntil: optionalDay,
      optionKeys: optionList,
      includesTables: z.transform((value: unknown) => singleLine(value) === 'yes' || value === true),
      sourceLabel: optionalLine(100),
    })
    .check(
      z.superRefine((input, context) => {
        if (input.kind === 'percent' && (input.percent === undefined || input.percent > 100)) {
          context.addIssue({ code: 'custom', message: 'invalid-discount-percent', path: ['percent'], input: input.percent })
        }
        if (input.kind === 'amount' && input.amount === undefined)
          context.addIssue({ code: 'custom', message: 'invalid-amount', path: ['amount'], input: input.amount })
        if (input.validFrom !== '' && input.validUntil !== '' && input.validUntil < input.validFrom) {
          context.addIssue({ code: 'custom', message: 'discount-dates-reversed', path: ['validUntil'], input: input.validUntil })
        }
      }),
    ),
)
export type DiscountCodeInput = z.output<typeof discountCodeSchema>

/** The row of a new code, from its input (with the event it names, when one) and who made it. */
export function discountCodeRow(
  input: Omit<DiscountCodeInput, 'event'>,
  event: { id: string; title: string } | undefined,
  createdBy: string,
  now: Date,
  dealId: string | null = null,
): DiscountCodeRow {
  return {
    id: newId(),
    code: input.code === '' ? generateDiscountCode() : input.code,
    kind: input.kind,
    percent: input.kind === 'percent' ? (input.percent ?? null) : null,
    amount_cents: input.kind === 'amount' ? (input.amount ?? null) : null,
    event_id: event?.id ?? null,
    event_title: event?.title ?? null,
    max_uses: input.maxUses ?? null,
    valid_from: input.validFrom === '' ? null : input.validFrom,
    valid_until: input.validUntil === '' ? null : input.validUntil,
    option_keys: input.optionKeys.filter((key) => OPTION_KEYS.includes(key)).join(','),
    // Naming a table option is asking for table prices: without this, a code for "Table of 10" would apply to nothing.
    includes_tables: input.includesTables || input.optionKeys.some(isTableOption) ? 1 : 0,
    source_label: input.sourceLabel === '' ? (input.kind === 'complimentary' ? 'Complimentary seat' : 'Discount') : input.sourceLabel,
    deal_id: dealId,
    voided_at: null,
    claimed_at: null,
    created_at: now.toISOString(),
    created_by: createdBy,
  }
}

/** Inserts a new code, refusing one whose code is taken ('discount-code-taken' on the field code). */
export async function insertDiscountCode(transaction: Transaction<Database>, row: DiscountCodeRow): Promise<void> {
  const inserted = await transaction
    .insertInto('discount_codes')
    .values(row)
    .onConflict((conflict) => conflict.column('code').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) throw fieldRefusal('code', 'discount-code-taken')
}

/** Staff create a discount code: percent or rand amount off per delegate (or complimentary), for one event or all. */
export const createDiscountCode = staffCommand(discountCodeSchema, async (context, input, actor) => {
  const event = input.event === '' ? undefined : await context.catalog.getEvent(input.event)
  if (input.event !== '' && !event) throw fieldRefusal('event', 'unknown-event')
  const row = discountCodeRow(input, event, actor.name, wallClock(context))
  return async (transaction) => {
    await insertDiscountCode(transaction, row)
    return {
      result: { id: row.id, code: row.code },
      audit: [{ action: 'discount-code-created', subjectType: 'discount-code', subjectId: row.id, after: row }],
    }
  }
})

const codeIdSchema = z.pipe(ownFields, z.object({ codeId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))) }))

async function codeFor(transaction: Transaction<Database>, codeId: string): Promise<DiscountCodeRow> {
  const row = await transaction.selectFrom('discount_codes').selectAll().where('id', '=', codeId).executeTakeFirst()
  if (!row) throw new BackOfficeError('not-found', { missing: 'discount-code' }, 'codeId')
  return row
}

/** Staff void a code: it is refused from now on; registrations that used it keep their discount. */
export const voidDiscountCode = staffCommand(codeIdSchema, async (context, input) => {
  const at = wallClock(context).toISOString()
  return async (transaction) => {
    const before = await codeFor(transaction, input.codeId)
    await transaction.updateTable('discount_codes').set({ voided_at: at }).where('id', '=', before.id).where('voided_at', 'is', null).execute()
    return {
      result: { code: before.code },
      audit: [{ action: 'discount-code-voided', subjectType: 'discount-code', subjectId: before.id, before, after: { voided_at: at } }],
    }
  }
})

const extendSchema = z.pipe(
  ownFields,
  z.object({
    codeId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    validUntil: z.pipe(z.transform(singleLine), z.string().check(z.refine((day) => ISO_DAY.test(day), 'invalid-date'))),
  }),
)

/** Staff move a code's last day (later, or earlier). */
export const extendDiscountCode = staffCommand(extendSchema, async (_context, input) => async (transaction) => {
  const before = await codeFor(transaction, input.codeId)
  if (before.valid_from !== null && input.validUntil < before.valid_from) throw fieldRefusal('validUntil', 'discount-dates-reversed')
  await transaction.updateTable('discount_codes').set({ valid_until: input.validUntil }).where('id', '=', before.id).execute()
  return {
    result: { code: before.code, validUntil: input.validUntil },
    audit: [
      {
        action: 'discount-code-extended',
        subjectType: 'discount-code',
        subjectId: before.id,
        before: { valid_until: before.valid_until },
        after: { valid_until: input.validUntil },
      },
    ],
  }
})

/** A code as staff see it: its terms, its uses and the registrations that used it. */
export interface DiscountCodeSummary {
  row: DiscountCodeRow
  uses: number
  registrations: Array<{ reference: string; companyName: string; cancelled: boolean; discountCents: number }>
}

/** Every code (or a deal's), newest first, with its uses and the registrations using it, cancelled ones marked. */
export async function listDiscountCodes(context: BackOfficeContext, filter: { dealId?: string } = {}): Promise<DiscountCodeSummary[]> {
  const queries = context.db.kysely
  let query = queries.selectFrom('discount_codes').selectAll().orderBy('created_at', 'desc').orderBy('code')
  if (filter.dealId !== undefined) query = query.where('deal_id', '=', filter.dealId)
  const rows = await query.execute()
  const ids = rows.map((row) => row.id)
  const uses = await discountCodeUses(queries, ids)
  const used =
    ids.length === 0
      ? []
      : await queries
          .selectFrom('registration_discounts')
          .innerJoin('registrations', 'registrations.id', 'registration_discounts.registration_id')
          .select([
            'registration_discounts.discount_code_id',
            'registrations.reference',
            'registrations.company_name',
            'registrations.cancelled_at',
            'registration_discounts.discount_cents',
          ])
          .where('registration_discounts.discount_code_id', 'in', ids)
          .orderBy('registrations.created_at')
          .execute()
  return rows.map((row) => ({
    row,
    uses: uses.get(row.id) ?? 0,
    registrations: used
      .filter((use) => use.discount_code_id === row.id)
      .map((use) => ({ reference: use.reference, companyName: use.company_name, cancelled: use.cancelled_at !== null, discountCents: use.discount_cents })),
  }))
}
