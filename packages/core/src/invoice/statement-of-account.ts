import { formatRand } from '@events/pricing'
import { sql, type Kysely } from 'kysely'
import * as z from 'zod/mini'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { Database } from '../db/database.ts'
import { dayIn } from '../backoffice/fields.ts'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { CreditNoteData } from '../cancellation/credit-note-pdf.ts'
import { formatDate } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { BOLD, drawTaxDocumentHead, MUTED_COLOUR, openTaxDocument, REGULAR, RULE_COLOUR, TEXT_COLOUR } from '../pdf/tax-document.ts'
import { bankDescriptionsOf } from '../registration/bank-descriptions.ts'
import { paidCentsOf } from '../registration/payment-state.ts'
import { ownFields, requiredLine } from '../submissions/fields.ts'
import { FIELD_LIMITS } from '../submissions/registration.ts'
import { formatInvoiceNumber } from './invoice-number.ts'
import { nonEmptyLines, supplierOf, storedTaxInvoiceData } from './issue-invoice.ts'
import { issuedInvoicesOf } from './issued-invoices.ts'
import { AGE_BAND_LABELS, AGE_BANDS, ageingOf, type Ageing } from './ageing.ts'

/** One entry of a statement: a document or a payment, what it adds to (debit) or takes off (credit) what is owed. */
export interface StatementEntry {
  kind: 'tax-invoice' | 'credit-note' | 'payment'
  /** YYYY-MM-DD in Johannesburg. */
  day: string
  /** The registration's reference, or the sponsorship deal's. */
  registrationReference: string
  /** The sponsorship deal's id when the entry is a deal's; undefined for a registration's. */
  dealId?: string | undefined
  description: string
  debitCents: number
  creditCents: number
  /** What the company owes after this entry. */
  balanceCents: number
}

/** A company's statement of account: every registration's and sponsorship deal's invoices, credit notes and payments, and what is owed. */
export interface StatementOfAccount {
  companyName: string
  addressLines: string[]
  vatNumber: string
  email: string
  entries: StatementEntry[]
  invoicedCents: number
  creditedCents: number
  paidCents: number
  owedCents: number
  /** What each registration or deal still owes, by how long ago it was first invoiced (one overpaid counts nothing here). */
  ageing: Ageing
  /** The business day it was made on, as people read it. */
  date: string
  issuedAt: Date
}

/** Company names compare alike whatever their case and spacing: "ACME  Legal" is "Acme Legal". */
function companyKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The invoiced sponsorship deals whose company is named alike (lower-cased `key`), with their documents and payments. */
async function dealsOf(kysely: Kysely<Database>, key: string) {
  const deals = await kysely
    .selectFrom('sponsorship_deals')
    .innerJoin('sponsorship_invoices', 'sponsorship_invoices.deal_id', 'sponsorship_deals.id')
    .selectAll('sponsorship_deals')
    .select([
      'sponsorship_invoices.number as invoice_number',
      'sponsorship_invoices.issued_at as invoice_issued_at',
      'sponsorship_invoices.data_json as invoice_data',
    ])
    .where(sql<string>`lower(sponsorship_deals.company_name)`, '=', key)
    .orderBy('sponsorship_deals.recorded_at')
    .execute()
  if (deals.length === 0) return []
  const dealIds = deals.map((deal) => deal.id)
  const [creditNotes, payments] = await Promise.all([
    kysely.selectFrom('sponsorship_credit_notes').select(['deal_id', 'number', 'issued_at', 'data_json']).where('deal_id', 'in', dealIds).execute(),
    kysely.selectFrom('sponsorship_payments').select(['deal_id', 'amount_cents', 'received_on', 'bank_reference']).where('deal_id', 'in', dealIds).execute(),
  ])
  return deals.map(({ invoice_number, invoice_issued_at, invoice_data, ...deal }) => ({
    deal,
    invoice: { number: invoice_number, issued_at: invoice_issued_at, data_json: invoice_data },
    creditNote: creditNotes.find((note) => note.deal_id === deal.id),
    payments: payments.filter((payment) => payment.deal_id === deal.id),
  }))
}

/**
 * The statement of account of the company named (case and spacing aside): all its registrations' and invoiced
 * sponsorship deals' tax invoices (debits), credit notes and payments (credits) in date order with the running
 * balance; undefined when it has neither.
 */
export async function statementOfAccount(context: BackOfficeContext, companyName: string): Promise<StatementOfAccount | undefined> {
  const { kysely } = context.db
  const key = companyKey(companyName)
  if (key === '') return undefined
  const registrations = await kysely
    .selectFrom('registrations')
    .selectAll()
    .where(sql<string>`lower(company_name)`, '=', key)
    .orderBy('created_at')
    .execute()
  const matching = registrations.filter((registration) => companyKey(registration.company_name) === key)
  const deals = (await dealsOf(kysely, key)).filter(({ deal }) => companyKey(deal.company_name) === key)
  if (matching.length === 0 && deals.length === 0) return undefined
  const ids = matching.map((registration) => registration.id)
  const referenceOf = new Map(matching.map((registration) => [registration.id, registration.reference]))
  const [invoices, creditNotes, transfers] =
    ids.length === 0
      ? [[], [], []]
      : await Promise.all([
          kysely.selectFrom('invoices').select(['registration_id', 'number', 'issued_at', 'data_json']).where('registration_id', 'in', ids).execute(),
          kysely.selectFrom('credit_notes').select(['registration_id', 'number', 'issued_at', 'data_json']).where('registration_id', 'in', ids).execute(),
          kysely
            .selectFrom('bank_payments')
            .select(['registration_id', 'amount_cents', 'received_on', 'bank_reference'])
            .where('registration_id', 'in', ids)
            .execute(),
        ])
  const bankDescriptions = await bankDescriptionsOf(kysely, [
    ...transfers.map((transfer) => transfer.bank_reference),
    ...deals.flatMap(({ payments }) => payments.map((payment) => payment.bank_reference)),
  ])
  const issuedInvoices = await issuedInvoicesOf(kysely, ids)
  const replacedBy = new Map(
    [...issuedInvoices.values()].flat().flatMap((invoice) => (invoice.replacedBy ? [[invoice.number, invoice.replacedBy] as const] : [])),
  )
  type Unbalanced = Omit<StatementEntry, 'balanceCents'> & { order: number }
  const unbalanced: Unbalanced[] = [
    ...invoices.map((invoice): Unbalanced => {
      const data = invoice.data_json ? storedTaxInvoiceData({ number: invoice.number, data_json: invoice.data_json }) : undefined
      const number = formatInvoiceNumber(Number(invoice.number))
      const replacement = replacedBy.get(number)
      return {
        kind: 'tax-invoice',
        day: dayIn(new Date(invoice.issued_at)),
        registrationReference: referenceOf.get(invoice.registration_id)!,
        description: replacement
          ? `Tax invoice ${number}, replaced by ${replacement.number} on ${formatDate(new Date(replacement.issuedAt))}`
          : `Tax invoice ${number}`,
        debitCents: data?.totalCents ?? 0,
        creditCents: 0,
        order: 0,
      }
    }),
    ...creditNotes.map((note): Unbalanced => ({
      kind: 'credit-note',
      day: dayIn(new Date(note.issued_at)),
      registrationReference: referenceOf.get(note.registration_id)!,
      description: `Credit note ${formatCreditNoteNumber(Number(note.number))}`,
      debitCents: 0,
      creditCents: (JSON.parse(note.data_json) as CreditNoteData).creditedTotalCents,
      order: 1,
    })),
    ...transfers.map((transfer): Unbalanced => ({
      kind: 'payment',
      day: transfer.received_on,
      registrationReference: referenceOf.get(transfer.registration_id)!,
      description: `Bank transfer: ${bankDescriptions.get(transfer.bank_reference) ?? transfer.bank_reference}`,
      debitCents: 0,
      creditCents: transfer.amount_cents,
      order: 2,
    })),
    // A card payment pays the whole total at once and has no bank transfer: paidCentsOf says so.
    ...matching.flatMap((registration): Unbalanced[] => {
      const transferred = transfers.filter((transfer) => transfer.registration_id === registration.id).reduce((sum, transfer) => sum + transfer.amount_cents, 0)
      const byCard = transferred === 0 && registration.paid_at !== null ? paidCentsOf(registration, 0) : 0
      return byCard > 0
        ? [
            {
              kind: 'payment',
              day: dayIn(new Date(registration.paid_at!)),
              registrationReference: registration.reference,
              description: 'Card payment',
              debitCents: 0,
              creditCents: byCard,
              order: 2,
            },
          ]
        : []
    }),
    ...deals.flatMap(({ deal, invoice, creditNote, payments }): Unbalanced[] => {
      const sponsorship = `${deal.package_title} sponsorship`
      const common = { registrationReference: deal.reference, dealId: deal.id }
      return [
        {
          ...common,
          kind: 'tax-invoice',
          day: dayIn(new Date(invoice.issued_at)),
          description: `Tax invoice ${formatInvoiceNumber(Number(invoice.number))}: ${sponsorship}`,
          debitCents: (JSON.parse(invoice.data_json) as { totalCents: number }).totalCents,
          creditCents: 0,
          order: 0,
        },
        ...(creditNote
          ? [
              {
                ...common,
                kind: 'credit-note' as const,
                day: dayIn(new Date(creditNote.issued_at)),
                description: `Credit note ${formatCreditNoteNumber(Number(creditNote.number))}: ${sponsorship}`,
                debitCents: 0,
                creditCents: (JSON.parse(creditNote.data_json) as CreditNoteData).creditedTotalCents,
                order: 1,
              },
            ]
          : []),
        ...payments.map((payment): Unbalanced => ({
          ...common,
          kind: 'payment',
          day: payment.received_on,
          description: `Bank transfer: ${bankDescriptions.get(payment.bank_reference) ?? payment.bank_reference}`,
          debitCents: 0,
          creditCents: payment.amount_cents,
          order: 2,
        })),
      ]
    }),
  ].sort((a, b) => a.day.localeCompare(b.day) || a.order - b.order || a.description.localeCompare(b.description))
  let balance = 0
  const entries = unbalanced.map(({ order: _order, ...entry }) => {
    balance += entry.debitCents - entry.creditCents
    return { ...entry, balanceCents: balance }
  })
  // The company as it last named itself: on its latest registration or deal.
  const latest = [
    ...matching.map((registration) => ({
      at: registration.created_at,
      name: registration.company_name,
      address: registration.address,
      vatNumber: registration.vat_number,
      email: registration.email,
    })),
    ...deals.map(({ deal }) => ({
      at: deal.recorded_at,
      name: deal.company_name,
      address: deal.address,
      vatNumber: deal.vat_number,
      email: deal.contact_email,
    })),
  ]
    .sort((a, b) => a.at.localeCompare(b.at))
    .at(-1)!
  const sum = (pick: (entry: StatementEntry) => number) => entries.reduce((total, entry) => total + pick(entry), 0)
  const owedOn = (reference: string) =>
    entries.filter((entry) => entry.registrationReference === reference).reduce((owed, entry) => owed + entry.debitCents - entry.creditCents, 0)
  const today = businessClock(context)
  const ageing = ageingOf(
    [
      ...matching.map((registration) => ({
        invoicedOn: dayIn(new Date(issuedInvoices.get(registration.id)?.[0]?.issuedAt ?? registration.created_at)),
        owedCents: owedOn(registration.reference),
      })),
      ...deals.map(({ deal, invoice }) => ({ invoicedOn: dayIn(new Date(invoice.issued_at)), owedCents: owedOn(deal.reference) })),
    ],
    dayIn(today),
  )
  return {
    companyName: latest.name,
    addressLines: nonEmptyLines(latest.address),
    vatNumber: latest.vatNumber,
    email: latest.email,
    entries,
    invoicedCents: sum((entry) => entry.debitCents),
    creditedCents: sum((entry) => (entry.kind === 'credit-note' ? entry.creditCents : 0)),
    paidCents: sum((entry) => (entry.kind === 'payment' ? entry.creditCents : 0)),
    owedCents: balance,
    ageing,
    date: formatDate(today),
    issuedAt: today,
  }
}

/** The statement as a PDF in the tax documents' look: the company, the entries with the running balance, and what is owed. */
export async function renderStatementPdf(context: BackOfficeContext, statement: StatementOfAccount): Promise<Buffer> {
  const settings = await context.catalog.getSettings()
  const document = openTaxDocument({
    title: `Statement of account: ${statement.companyName}`,
    author: settings.siteName,
    subject: `Statement of account of ${statement.companyName} on ${statement.date}`,
    issuedAt: statement.issuedAt,
  })
  const { doc, finished, left, right, contentWidth } = document
  drawTaxDocumentHead(document, {
    title: 'Statement of account',
    supplier: supplierOf(settings),
    facts: [
      ['Date', statement.date],
      ['Amount owed', formatRand(statement.owedCents)],
    ],
    recipientHeading: 'Account of',
    recipient: { name: statement.companyName, addressLines: statement.addressLines, vatNumber: statement.vatNumber },
  })
  const columns = [
    { label: 'Date', width: 0.13, align: 'left' as const },
    { label: 'Reference', width: 0.14, align: 'left' as const },
    { label: 'Document or payment', width: 0.37, align: 'left' as const },
    { label: 'Debit', width: 0.12, align: 'right' as const },
    { label: 'Credit', width: 0.12, align: 'right' as const },
    { label: 'Balance', width: 0.12, align: 'right' as const },
  ]
  const row = (cells: string[], font: string) => {
    const y = doc.y
    let x = left
    let bottom = y
    doc.font(font).fontSize(8.5)
    cells.forEach((cell, index) => {
      const column = columns[index]!
      doc.text(cell, x, y, { width: contentWidth * column.width - 4, align: column.align })
      bottom = Math.max(bottom, doc.y)
      x += contentWidth * column.width
    })
    doc.y = bottom + 3
  }
  row(
    columns.map((column) => column.label),
    BOLD,
  )
  doc.moveTo(left, doc.y).lineTo(right, doc.y).strokeColor(RULE_COLOUR).stroke()
  doc.y += 4
  for (const entry of statement.entries) {
    row(
      [
        formatDate(new Date(`${entry.day}T12:00:00+02:00`)),
        entry.registrationReference,
        entry.description,
        entry.debitCents > 0 ? formatRand(entry.debitCents) : '',
        entry.creditCents > 0 ? formatRand(entry.creditCents) : '',
        formatRand(entry.balanceCents),
      ],
      REGULAR,
    )
  }
  doc.moveTo(left, doc.y).lineTo(right, doc.y).strokeColor(RULE_COLOUR).stroke()
  doc.y += 8
  for (const [label, cents, bold] of [
    ['Invoiced', statement.invoicedCents, false],
    ['Credited', statement.creditedCents, false],
    ['Paid', statement.paidCents, false],
    ['Amount owed', statement.owedCents, true],
  ] as Array<[string, number, boolean]>) {
    const y = doc.y
    doc.font(bold ? BOLD : REGULAR).fontSize(bold ? 10 : 9)
    doc.text(label, left, y, { width: contentWidth * 0.76, align: 'right' })
    doc.text(formatRand(cents), left + contentWidth * 0.76, y, { width: contentWidth * 0.24, align: 'right' })
    doc.moveDown(0.2)
  }
  doc.moveDown(0.6)
  doc.font(BOLD).fontSize(9).text('Age of what is owed', left, doc.y, { width: contentWidth })
  doc.moveDown(0.2)
  const ageY = doc.y
  AGE_BANDS.forEach((band, index) => {
    const x = left + (contentWidth / AGE_BANDS.length) * index
    const width = contentWidth / AGE_BANDS.length - 4
    doc.font(REGULAR).fontSize(8.5).text(AGE_BAND_LABELS[band], x, ageY, { width, align: 'right' })
    doc.text(formatRand(statement.ageing[band]), x, doc.y, { width, align: 'right' })
  })
  doc.moveDown(1)
  doc.font(REGULAR).fontSize(9).fillColor(MUTED_COLOUR)
  doc.text('Please pay what is owed by bank transfer, quoting each registration’s or sponsorship’s reference as the payment reference.', left, doc.y, {
    width: contentWidth,
  })
  doc.fillColor(TEXT_COLOUR)
  doc.end()
  return finished
}

/** The file name of a statement download or attachment. */
export function statementFilename(statement: Pick<StatementOfAccount, 'companyName' | 'issuedAt'>): string {
  const name =
    statement.companyName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company'
  return `statement-${name}-${dayIn(statement.issuedAt)}.pdf`
}

/** What "send the statement" was given: the company's name as its registrations spell it. */
const sendStatementSchema = z.pipe(ownFields, z.object({ companyName: requiredLine(FIELD_LIMITS.companyName) }))

/** Staff send a company its statement of account on request, to the e-mail of its latest registration or deal's contact, through the outbox. */
export const sendStatement = staffCommand(sendStatementSchema, async (context, input) => {
  const statement = await statementOfAccount(context, input.companyName)
  if (!statement) throw new BackOfficeError('not-found', { missing: 'company', companyName: input.companyName })
  if (statement.email === '') throw new BackOfficeError('personal-data-erased', { whose: 'company' })
  const pdf = await renderStatementPdf(context, statement)
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ companyName: string; email: string; owedCents: number }>> => {
    const subject = `Statement of account: ${statement.companyName}, ${statement.date}`
    const rows: Array<[string, string]> = [
      ['Invoiced', formatRand(statement.invoicedCents)],
      ['Credited', formatRand(statement.creditedCents)],
      ['Paid', formatRand(statement.paidCents)],
      ['Amount owed', formatRand(statement.owedCents)],
    ]
    const intro = `As requested, your statement of account with ${settings.siteName} on ${statement.date} is attached.`
    const footer = [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
    // The outbox names what a message is about: the latest registration, or deal, the address is taken from.
    const source =
      (await transaction.selectFrom('registrations').select('id').where('email', '=', statement.email).orderBy('created_at', 'desc').executeTakeFirst()) ??
      (await transaction
        .selectFrom('sponsorship_deals')
        .select('id')
        .where('contact_email', '=', statement.email)
        .orderBy('recorded_at', 'desc')
        .executeTakeFirstOrThrow())
    await enqueueMails(
      transaction,
      source.id,
      [
        {
          topic: 'statement.sent',
          mail: {
            to: [statement.email],
            subject,
            text: `${intro}\n\n${detailsText(rows)}\n`,
            html: mailDocument(subject, html`<p>${intro}</p>${detailsTable(rows)}`, footer),
            attachments: [{ filename: statementFilename(statement), contentType: 'application/pdf', content: pdf.toString('base64'), encoding: 'base64' }],
          },
        },
      ],
      at,
    )
    return {
      result: { companyName: statement.companyName, email: statement.email, owedCents: statement.owedCents },
      audit: [
        {
          action: 'company-statement-sent',
          subjectType: 'company',
          subjectId: statement.companyName,
          after: { to: statement.email, owedCents: statement.owedCents },
        },
      ],
      mailQueued: true,
    }
  }
})
