import { stringify } from 'csv-stringify/sync'
import type { Kysely } from 'kysely'
import { DateTime } from 'luxon'
import * as z from 'zod/mini'
import type { Database } from '../db/database.ts'
import { ownFields, requiredLine } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { staffCommand, type CommandOutcome } from './command.ts'
import { wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { isoDay } from './fields.ts'
import { dayOf, inertText, rands, vatDocuments, type VatDocument } from './finance-reports.ts'

/**
 * The accounting packages the books are exported to, and each one's two files: `sales` (tax invoices and credit
 * notes, in the package's sales import) and `money` (payments received and refunds paid, in its bank statement import).
 */
export const ACCOUNTING_PACKAGES = ['xero', 'sage'] as const
export type AccountingPackage = (typeof ACCOUNTING_PACKAGES)[number]
export const ACCOUNTING_FILES = ['sales', 'money'] as const
export type AccountingFile = (typeof ACCOUNTING_FILES)[number]

/** The account codes and tax-rate names the packages' imports ask for, as kept in the back office's settings. */
export interface AccountingSettings {
  /** Xero's AccountCode of sales (e.g. 200). */
  xeroAccountCode: string
  /** Xero's TaxType: the display name of the output VAT rate as the organisation's Xero shows it. */
  xeroTaxType: string
  /** Sage's Ledger Account of sales: its nominal code, up to 8 digits. */
  sageLedgerAccount: string
  /** Sage's VAT Rate name for standard-rated sales. */
  sageVatRate: string
}

const SETTING_NAMES: Record<keyof AccountingSettings, string> = {
  xeroAccountCode: 'accounting.xero-account-code',
  xeroTaxType: 'accounting.xero-tax-type',
  sageLedgerAccount: 'accounting.sage-ledger-account',
  sageVatRate: 'accounting.sage-vat-rate',
}

/** The settings as the form sends them: every one required; codes as the packages take them. */
const accountingSettingsSchema = z.pipe(
  ownFields,
  z.object({
    xeroAccountCode: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'), z.regex(/^[A-Za-z0-9._-]{0,10}$/, 'invalid-account-code'))),
    xeroTaxType: requiredLine(50),
    sageLedgerAccount: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'), z.regex(/^\d{0,8}$/, 'invalid-ledger-account'))),
    sageVatRate: requiredLine(50),
  }),
)

/** The accounting settings staff saved, each '' until it is set. */
export async function accountingSettings(context: Pick<BackOfficeContext, 'db'>): Promise<AccountingSettings> {
  return settingsOf(context.db.kysely)
}

async function settingsOf(kysely: Kysely<Database>): Promise<AccountingSettings> {
  const rows = await kysely.selectFrom('back_office_settings').select(['name', 'value']).where('name', 'in', Object.values(SETTING_NAMES)).execute()
  const valueOf = (key: keyof AccountingSettings) => rows.find((row) => row.name === SETTING_NAMES[key])?.value ?? ''
  return {
    xeroAccountCode: valueOf('xeroAccountCode'),
    xeroTaxType: valueOf('xeroTaxType'),
    sageLedgerAccount: valueOf('sageLedgerAccount'),
    sageVatRate: valueOf('sageVatRate'),
  }
}

/** Keeps the accounting settings (a manager's), with the audit row of what changed. */
export const saveAccountingSettings = staffCommand(
  accountingSettingsSchema,
  async (context, input, staff) => {
    const at = wallClock(context).toISOString()
    return async (transaction): Promise<CommandOutcome<AccountingSettings>> => {
      const before = await settingsOf(transaction)
      for (const key of Object.keys(SETTING_NAMES) as Array<keyof AccountingSettings>) {
        const row = { value: input[key], updated_by_name: staff.name, updated_at: at }
        await transaction
          .insertInto('back_office_settings')
          .values({ name: SETTING_NAMES[key], ...row })
          .onConflict((conflict) => conflict.column('name').doUpdateSet(row))
          .execute()
      }
      return { result: input, audit: [{ action: 'accounting-settings-saved', subjectType: 'settings', subjectId: 'accounting', before, after: input }] }
    }
  },
  { role: 'manager' },
)

/** Money that moved in a period, as the money file lists it: received (positive) or paid back (negative). */
interface MoneyMovement {
  kind: 'payment' | 'refund'
  /** The payment's or refund's own id, with what it is (`bank-transfer:…`, `card:…`, `refund:…`, `surplus:…`). */
  key: string
  /** The day it moved, YYYY-MM-DD. */
  on: string
  amountCents: number
  payer: string
  description: string
  reference: string
}

/** Bank transfers and card payments received, card refunds made and bank refunds paid out, on the days of a period. */
async function moneyMovements(kysely: Kysely<Database>, from: string, to: string): Promise<MoneyMovement[]> {
  const [transfers, cardPayments, refunds, surpluses] = await Promise.all([
    kysely
      .selectFrom('bank_payments')
      .innerJoin('registrations', 'registrations.id', 'bank_payments.registration_id')
      .select([
        'bank_payments.id',
        'bank_payments.amount_cents',
        'bank_payments.received_on',
        'bank_payments.bank_reference',
        'registrations.reference',
        'registrations.company_name',
      ])
      .where('bank_payments.received_on', '>=', from)
      .where('bank_payments.received_on', '<=', to)
      .execute(),
    kysely
      .selectFrom('registrations')
      .select(['id', 'total_cents', 'paid_at', 'reference', 'company_name'])
      .where('payment_method', '=', 'card')
      .where('paid_at', 'is not', null)
      .execute(),
    kysely
      .selectFrom('refunds')
      .innerJoin('registrations', 'registrations.id', 'refunds.registration_id')
      .select([
        'refunds.id',
        'refunds.method',
        'refunds.status',
        'refunds.amount_cents',
        'refunds.paid_out_on',
        'refunds.bank_reference',
        'refunds.updated_at',
        'registrations.reference',
        'registrations.company_name',
      ])
      .where('refunds.status', 'in', ['succeeded', 'paid-out'])
      .execute(),
    kysely
      .selectFrom('surplus_refunds')
      .innerJoin('registrations', 'registrations.id', 'surplus_refunds.registration_id')
      .select([
        'surplus_refunds.id',
        'surplus_refunds.amount_cents',
        'surplus_refunds.paid_out_on',
        'surplus_refunds.bank_reference',
        'registrations.reference',
        'registrations.company_name',
      ])
      .where('surplus_refunds.status', '=', 'paid-out')
      .execute(),
  ])
  const inPeriod = (day: string) => day >= from && day <= to
  const movements: MoneyMovement[] = [
    ...transfers.map((row) => ({
      kind: 'payment' as const,
      key: `bank-transfer:${row.id}`,
      on: row.received_on,
      amountCents: row.amount_cents,
      payer: row.company_name,
      description: `Bank transfer for registration ${row.reference}`,
      reference: row.bank_reference,
    })),
    ...cardPayments.map((row) => ({
      kind: 'payment' as const,
      key: `card:${row.id}`,
      on: dayOf(row.paid_at!),
      amountCents: row.total_cents,
      payer: row.company_name,
      description: `Card payment for registration ${row.reference}`,
      reference: row.reference,
    })),
    ...refunds.map((row) => ({
      kind: 'refund' as const,
      key: `refund:${row.id}`,
      on: row.status === 'paid-out' ? row.paid_out_on! : dayOf(row.updated_at),
      amountCents: -row.amount_cents,
      payer: row.company_name,
      description: `${row.method === 'card' ? 'Card refund' : 'Refund paid out'} for registration ${row.reference}`,
      reference: row.bank_reference ?? row.reference,
    })),
    ...surpluses.map((row) => ({
      kind: 'refund' as const,
      key: `surplus:${row.id}`,
      on: row.paid_out_on!,
      amountCents: -row.amount_cents,
      payer: row.company_name,
      description: `Overpayment paid back for registration ${row.reference}`,
      reference: row.bank_reference ?? row.reference,
    })),
  ]
  return movements.filter((movement) => inPeriod(movement.on)).sort((a, b) => a.on.localeCompare(b.on) || a.key.localeCompare(b.key))
}

/** A day as Xero's imports (and Sage's bank statement import) take it in South Africa: DD/MM/YYYY. */
function slashedDay(day: string): string {
  return DateTime.fromISO(day).toFormat('dd/MM/yyyy')
}

/** A day as Sage's quick entries take it: DD-MM-YYYY. */
function sageDay(day: string): string {
  return DateTime.fromISO(day).toFormat('dd-MM-yyyy')
}

/** Sage's customer reference: the company's name in capitals and digits, its first ten (Sage takes no more). */
export function sageCustomerReference(customer: string): string {
  return customer
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 10)
}

// Xero's sales invoice import template, its headings in its order (an asterisk marks what Xero requires), with
// TaxAmount after TaxType as Xero's own invoice export has it, so Xero posts the VAT the document states.
const XERO_SALES_HEADINGS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const

// Sage Business Cloud Accounting's sales quick entry import for a VAT-registered business.
const SAGE_SALES_HEADINGS = [
  'Type',
  'Customer Reference',
  'Date',
  'Customer name',
  'Reference',
  'Ledger Account',
  'Details',
  'Net',
  'VAT Rate',
  'VAT',
  'Total',
  'Analysis Type 1',
  'Analysis Type 2',
  'Analysis Type 3',
] as const

// Xero's bank statement import (a signed amount: money in positive), and Sage's three-column bank statement import.
const XERO_MONEY_HEADINGS = ['*Date', '*Amount', 'Payee', 'Description', 'Reference'] as const
const SAGE_MONEY_HEADINGS = ['Date', 'Description', 'Amount'] as const

type Cell = string | { cents: number }

function describe(document: VatDocument): string {
  return document.kind === 'tax-invoice'
    ? `Registration ${document.registrationReference}`
    : `Credit note against ${document.creditedInvoiceNumber} for registration ${document.registrationReference}`
}

function xeroSalesRow(document: VatDocument, settings: AccountingSettings): Cell[] {
  const address = [...document.customerAddressLines.slice(0, 4), '', '', '', ''].slice(0, 4)
  // One line a document, its amount excl. VAT: a credit note's negative, which Xero imports as a credit note.
  return [
    document.customer,
    '',
    ...address,
    '',
    '',
    '',
    '',
    document.number,
    document.registrationReference,
    slashedDay(document.issuedOn),
    slashedDay(document.dueOn),
    '',
    describe(document),
    '1',
    { cents: document.exclVatCents },
    '',
    settings.xeroAccountCode,
    settings.xeroTaxType,
    { cents: document.vatCents },
    '',
    '',
    '',
    '',
    'ZAR',
    '',
  ]
}

/** Sage's Details of a quick entry: it takes no more than 25 characters, so the registration and credited invoice only. */
function sageDetails(document: VatDocument): string {
  const details = document.kind === 'tax-invoice' ? `Registration ${document.registrationReference}` : `Credits ${document.creditedInvoiceNumber}`
  return details.slice(0, SAGE_DETAILS_LENGTH)
}

const SAGE_DETAILS_LENGTH = 25

function sageSalesRow(document: VatDocument, settings: AccountingSettings): Cell[] {
  // Sage takes a credit note's amounts as positive under the type Cr Note.
  return [
    document.kind === 'tax-invoice' ? 'Invoice' : 'Cr Note',
    sageCustomerReference(document.customer),
    sageDay(document.issuedOn),
    document.customer.slice(0, 50),
    document.number,
    settings.sageLedgerAccount,
    sageDetails(document),
    { cents: Math.abs(document.exclVatCents) },
    settings.sageVatRate,
    { cents: Math.abs(document.vatCents) },
    { cents: Math.abs(document.inclVatCents) },
    '',
    '',
    '',
  ]
}

function moneyRow(accountingPackage: AccountingPackage, movement: MoneyMovement): Cell[] {
  if (accountingPackage === 'xero') {
    return [slashedDay(movement.on), { cents: movement.amountCents }, movement.payer, movement.description, movement.reference]
  }
  return [slashedDay(movement.on), `${movement.payer}: ${movement.description} (${movement.reference})`, { cents: movement.amountCents }]
}

/** A CSV for a package's import: its headings, CRLF, amounts as plain numbers, text cells kept from running as formulas. */
function packageCsv(headings: readonly string[], rows: Cell[][]): string {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'string' ? inertText(cell) : rands(cell.cents))))
  return stringify(cells, { header: true, columns: [...headings], record_delimiter: 'windows' })
}

/** What one row of an export carries: a tax document, or money received or paid back. */
type ExportItem = { kind: string; key: string } & ({ document: VatDocument } | { movement: MoneyMovement })

const accountingExportSchema = z.pipe(
  ownFields,
  z.object({
    package: z.enum(ACCOUNTING_PACKAGES, 'invalid-choice'),
    file: z.enum(ACCOUNTING_FILES, 'invalid-choice'),
    from: isoDay,
    to: isoDay,
    /** Whether documents an earlier export of this package carried are carried again. */
    again: z.pipe(
      z.transform((value: unknown) => value === true || value === 'on' || value === 'yes'),
      z.boolean(),
    ),
  }),
)

/** An accounting export: its file's name and text, and how many documents (or payments and refunds) it carries. */
export interface AccountingExport {
  fileName: string
  csv: string
  count: number
  /** What an earlier export carried and this one left out (0 when staff asked for everything again). */
  leftOut: number
}

/**
 * Exports a period's books for an accounting package: the tax invoices and credit notes issued (the sales file,
 * whose sums are the VAT register's for the period) or the money received and paid back (the money file). Each
 * document goes in one export of a package only: one an earlier export carried is left out unless `again` is asked,
 * and the export records what it carried in the same transaction, so two exports at once never both carry it.
 */
export const exportAccounts = staffCommand(accountingExportSchema, async (context, input, staff) => {
  if (input.from > input.to) throw new BackOfficeError('invalid-input', { problem: 'period-reversed' }, 'to')
  const at = wallClock(context).toISOString()
  return async (transaction): Promise<CommandOutcome<AccountingExport>> => {
    const settings = await settingsOf(transaction)
    if (input.file === 'sales' && Object.values(settings).some((value) => value === '')) {
      throw new BackOfficeError('invalid-input', { problem: 'accounting-settings-missing' })
    }
    const items: ExportItem[] =
      input.file === 'sales'
        ? (await vatDocuments(transaction, input)).map((document) => ({ kind: document.kind, key: document.number, document }))
        : (await moneyMovements(transaction, input.from, input.to)).map((movement) => ({ kind: movement.kind, key: movement.key, movement }))
    const carried: ExportItem[] = []
    for (const item of items) {
      const row = { package: input.package, kind: item.kind, document_key: item.key, exported_at: at, exported_by_name: staff.name }
      const inserted = await transaction
        .insertInto('accounting_exported_documents')
        .values(row)
        .onConflict((conflict) =>
          input.again
            ? conflict.columns(['package', 'kind', 'document_key']).doUpdateSet({ exported_at: at, exported_by_name: staff.name })
            : conflict.columns(['package', 'kind', 'document_key']).doNothing(),
        )
        .returning('document_key')
        .executeTakeFirst()
      if (inserted) carried.push(item)
    }
    const rows = carried.map((item) => {
      if ('document' in item) return input.package === 'xero' ? xeroSalesRow(item.document, settings) : sageSalesRow(item.document, settings)
      return moneyRow(input.package, item.movement)
    })
    const headings =
      input.file === 'sales'
        ? input.package === 'xero'
          ? XERO_SALES_HEADINGS
          : SAGE_SALES_HEADINGS
        : input.package === 'xero'
          ? XERO_MONEY_HEADINGS
          : SAGE_MONEY_HEADINGS
    const result: AccountingExport = {
      fileName: `${input.package}-${input.file === 'sales' ? 'sales' : 'payments-and-refunds'}-${input.from}-to-${input.to}.csv`,
      csv: packageCsv(headings, rows),
      count: carried.length,
      leftOut: items.length - carried.length,
    }
    return {
      result,
      audit: [
        {
          action: 'accounting-exported',
          subjectType: 'accounting-export',
          subjectId: `${input.package}:${input.file}`,
          after: { from: input.from, to: input.to, again: input.again, count: result.count, leftOut: result.leftOut },
        },
      ],
    }
  }
})
