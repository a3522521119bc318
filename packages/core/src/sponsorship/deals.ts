import { randsToCents, vatOn } from '@events/pricing'
import type { Transaction } from 'kysely'
import * as z from 'zod/mini'
import { fieldRefusal, randAmount } from '../backoffice/fields.ts'
import { staffCommand, type StaffActor } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { ValidationError } from '../errors.ts'
import { johannesburgDay } from '../cancellation/fee-rules.ts'
import type { RegistrationEvent, SiteSettingsForMail, SponsorPackageTerms } from '../catalog.ts'
import type { Database } from '../db/database.ts'
import type { PaymentReminderKind } from '../db/tables/payment-reminders.ts'
import type { SendCodesWhen, SponsorshipDealRow } from '../db/tables/sponsorship-deals.ts'
import { discountCodeRow, generateDiscountCode, insertDiscountCode } from '../discounts/staff-codes.ts'
import { newId } from '../ids.ts'
import { formatInvoiceNumber, nextTaxInvoiceNumber } from '../invoice/invoice-number.ts'
import { nonEmptyLines, supplierOf } from '../invoice/issue-invoice.ts'
import { renderTaxInvoicePdf, type TaxInvoiceData } from '../invoice/tax-invoice-pdf.ts'
import { formatCreditNoteNumber, nextCreditNoteNumber } from '../cancellation/credit-note.ts'
import { renderCreditNotePdf, type CreditNoteData } from '../cancellation/credit-note-pdf.ts'
import { formatDate } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { generateReference } from '../registration/reference.ts'
import { optionalLine, ownFields, requiredEmail, requiredLine, requiredPhone, requiredText } from '../submissions/fields.ts'
import { optionalVatNumber } from '../submissions/registration.ts'
import { singleLine } from '../validation/fields.ts'

const DAY_MS = 24 * 60 * 60 * 1000

const dealSchema = z.pipe(
  ownFields,
  z.object({
    event: requiredLine(100),
    packageId: requiredLine(100),
    companyName: requiredLine(200),
    address: requiredText(1000),
    vatNumber: optionalVatNumber,
    purchaseOrderNumber: optionalLine(60),
    contactName: requiredLine(200),
    contactEmail: requiredEmail,
    contactTel: requiredPhone(40),
    agreedPrice: randAmount,
    /** 'paid' (the form's checkbox) keeps the codes until the invoice is paid in full; else they go on approval. */
    sendCodesWhen: z.transform((value: unknown): SendCodesWhen => (value === 'paid' || value === true ? 'paid' : 'approved')),
  }),
)
type DealInput = z.output<typeof dealSchema>

/** What a deal's codes are called on invoices and pages: "Platinum sponsor discount", "Platinum sponsor complimentary seat". */
function codeLabels(packageTitle: string): { complimentary: string; discount: string } {
  return { complimentary: `${packageTitle} sponsor complimentary seat`, discount: `${packageTitle} sponsor discount` }
}

/** The words of a text as staff paste it: runs of letters, digits and marks between white space. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length
}

/** The last day an event's codes are accepted: the day its registration closes (Johannesburg). */
function registrationClosingDay(event: RegistrationEvent): string {
  const closesAt = new Date(event.registrationClosesAt ?? event.start)
  // A close at midnight is the end of the day before.
  return johannesburgDay(new Date(closesAt.getTime() - 1))
}

/** The deal's tax invoice as printed: the package, its benefits, the agreed price, VAT on it. */
function dealInvoiceData(deal: SponsorshipDealRow, settings: SiteSettingsForMail, issuedAt: Date, number: number): TaxInvoiceData {
  const benefits = [
    `${deal.complimentary_seats} complimentary seat${deal.complimentary_seats === 1 ? '' : 's'}`,
    `${deal.participant_discount_percent}% discount for participants`,
    `${deal.promotional_text_words} words of promotional text`,
    `${deal.literature_pages} pages of literature`,
    deal.speaking_slot,
  ].filter((line) => line !== '')
  return {
    number: formatInvoiceNumber(number),
    issueDate: formatDate(issuedAt),
    dueDate: formatDate(new Date(issuedAt.getTime() + settings.paymentTermsDays * DAY_MS)),
    reference: deal.reference,
    purchaseOrderNumber: deal.purchase_order_number,
    supplier: supplierOf(settings),
    recipient: { name: deal.company_name, addressLines: nonEmptyLines(deal.address), vatNumber: deal.vat_number },
    lines: [
      {
        description: `${deal.event_title}: ${deal.package_title} sponsorship`,
        details: [benefits.join(', ')],
        quantity: 1,
        unitAmountCents: deal.agreed_price_cents,
        amountCents: deal.agreed_price_cents,
      },
    ],
    subtotalCents: deal.agreed_price_cents,
    vatRate: deal.vat_rate,
    vatCents: deal.vat_cents,
    totalCents: deal.total_cents,
    paymentTermsDays: settings.paymentTermsDays,
    bankDetails: settings.bankDetails,
    issuedAt,
  }
}

/** The e-mail that gives the sponsor's contact the deal's codes and the event link that carries each. */
function dealCodesMail(
  deal: SponsorshipDealRow,
  codes: { complimentary?: string | undefined; discount?: string | undefined },
  eventUrl: string,
  settings: SiteSettingsForMail,
  invoice?: { filename: string; pdf: Buffer },
): OutgoingMail {
  const subject = `Your ${deal.package_title} sponsorship of ${deal.event_title}: your codes`
  const link = (code: string) => `${eventUrl}?tab=register&code=${encodeURIComponent(code)}`
  const rows: Array<[string, string]> = []
  if (codes.complimentary) {
    rows.push([`Complimentary seats (${deal.complimentary_seats}, one delegate each)`, `${codes.complimentary}  ${link(codes.complimentary)}`])
  }
  if (codes.discount) rows.push([`${deal.participant_discount_percent}% off for your participants`, `${codes.discount}  ${link(codes.discount)}`])
  const intro = `Dear ${deal.contact_name}, thank you for sponsoring ${deal.event_title}. Your people register on the event's Register tab with these codes (or the links, which carry them), until registration closes on ${formatDate(new Date(`${deal.codes_valid_until}T12:00:00Z`))}.`
  return {
    to: [deal.contact_email],
    subject,
    text: `${intro}\n\n${detailsText(rows)}\n`,
    html: mailDocument(subject, html`<p>${intro}</p>${detailsTable(rows)}`, settings.siteName),
    ...(invoice
      ? { attachments: [{ filename: invoice.filename, contentType: 'application/pdf', content: invoice.pdf.toString('base64'), encoding: 'base64' as const }] }
      : {}),
  }
}

/** The e-mail that sends the contact the deal's tax invoice when its codes wait for the payment. */
function dealInvoiceMail(deal: SponsorshipDealRow, settings: SiteSettingsForMail, invoice: { number: string; filename: string; pdf: Buffer }): OutgoingMail {
  const subject = `Tax invoice ${invoice.number}: your ${deal.package_title} sponsorship of ${deal.event_title}`
  const text = `Dear ${deal.contact_name}, thank you for sponsoring ${deal.event_title}. Your tax invoice is attached; please pay it with the reference ${deal.reference}. Your codes for complimentary seats and your participants' discount follow by e-mail once it is paid.`
  return {
    to: [deal.contact_email],
    subject,
    text: `${text}\n`,
    html: mailDocument(subject, html`<p>${text}</p>`, settings.siteName),
    attachments: [{ filename: invoice.filename, contentType: 'application/pdf', content: invoice.pdf.toString('base64'), encoding: 'base64' as const }],
  }
}

/** The codes of a deal not voided, by kind. */
async function liveCodesOf(transaction: Transaction<Database>, dealId: string): Promise<{ complimentary?: string | undefined; discount?: string | undefined }> {
  const rows = await transaction.selectFrom('discount_codes').select(['code', 'kind']).where('deal_id', '=', dealId).where('voided_at', 'is', null).execute()
  return {
    complimentary: rows.find((row) => row.kind === 'complimentary')?.code,
    discount: rows.find((row) => row.kind === 'percent')?.code,
  }
}

/**
 * Inside the caller's transaction, once a deal's invoice is paid in full: a deal whose codes wait for the payment
 * (`send_codes_when` 'paid') and were not sent yet has them e-mailed to its contact. True when the e-mail was queued.
 */
export async function sendCodesOncePaid(
  transaction: Transaction<Database>,
  deal: SponsorshipDealRow,
  eventUrl: string,
  settings: SiteSettingsForMail,
  now: Date,
): Promise<boolean> {
  // A contact erased at their request (erasePersonalData) has no address to send to.
  if (deal.send_codes_when !== 'paid' || deal.codes_sent_at !== null || deal.status !== 'approved' || deal.contact_email === '') return false
  const codes = await liveCodesOf(transaction, deal.id)
  await transaction.updateTable('sponsorship_deals').set({ codes_sent_at: now.toISOString() }).where('id', '=', deal.id).execute()
  await enqueueMails(transaction, deal.id, [{ topic: 'sponsorship-codes', mail: dealCodesMail(deal, codes, eventUrl, settings) }], now)
  return true
}

/**
 * Approves a deal inside the caller's transaction: its two codes (complimentary, with as many uses as seats; the
 * participants' discount), its tax invoice numbered last from the registrations' counter, and the e-mail giving the
 * contact the codes with the invoice attached.
 */
async function approveInTransaction(
  transaction: Transaction<Database>,
  deal: SponsorshipDealRow,
  event: RegistrationEvent,
  settings: SiteSettingsForMail,
  actor: StaffActor,
  now: Date,
  today: Date,
): Promise<{ codes: { complimentary?: string; discount?: string }; invoiceNumber: string; codesEmailed: boolean }> {
  const labels = codeLabels(deal.package_title)
  const prefix = deal.package_title.slice(0, 4)
  const common = { validFrom: '', validUntil: deal.codes_valid_until, optionKeys: [], includesTables: false, amount: undefined }
  const codes: { complimentary?: string; discount?: string } = {}
  if (deal.complimentary_seats > 0) {
    const row = discountCodeRow(
      {
        ...common,
        code: generateDiscountCode(prefix),
        kind: 'complimentary',
        percent: undefined,
        maxUses: deal.complimentary_seats,
        sourceLabel: labels.complimentary,
      },
      { id: deal.event_id, title: deal.event_title },
      actor.name,
      now,
      deal.id,
    )
    await insertDiscountCode(transaction, row)
    codes.complimentary = row.code
  }
  if (deal.participant_discount_percent > 0) {
    const row = discountCodeRow(
      {
        ...common,
        code: generateDiscountCode(prefix),
        kind: 'percent',
        percent: deal.participant_discount_percent,
        maxUses: undefined,
        sourceLabel: labels.discount,
      },
      { id: deal.event_id, title: deal.event_title },
      actor.name,
      now,
      deal.id,
    )
    await insertDiscountCode(transaction, row)
    codes.discount = row.code
  }
  const approved: SponsorshipDealRow = { ...deal, status: 'approved', approved_by: actor.name, approved_at: now.toISOString() }
  await transaction
    .updateTable('sponsorship_deals')
    .set({ status: 'approved', approved_by: actor.name, approved_at: approved.approved_at })
    .where('id', '=', deal.id)
    .execute()
  // Last: taking the number locks the counter until the COMMIT (insertNumberedInvoice says why).
  const number = await nextTaxInvoiceNumber(transaction)
  const data = dealInvoiceData(approved, settings, today, number)
  const pdf = await renderTaxInvoicePdf(data)
  const { issuedAt, ...stored } = data
  await transaction
    .insertInto('sponsorship_invoices')
    .values({
      id: newId(),
      deal_id: deal.id,
      number,
      issued_at: issuedAt.toISOString(),
      pdf_base64: pdf.toString('base64'),
      data_json: JSON.stringify({ ...stored, issuedAt }),
    })
    .execute()
  const attachment = { number: data.number, filename: `tax-invoice-${data.number}.pdf`, pdf }
  if (deal.send_codes_when === 'paid') {
    await enqueueMails(transaction, deal.id, [{ topic: 'sponsorship-invoice', mail: dealInvoiceMail(approved, settings, attachment) }], now)
  } else {
    await transaction.updateTable('sponsorship_deals').set({ codes_sent_at: now.toISOString() }).where('id', '=', deal.id).execute()
    await enqueueMails(transaction, deal.id, [{ topic: 'sponsorship-codes', mail: dealCodesMail(approved, codes, event.url, settings, attachment) }], now)
  }
  return { codes, invoiceNumber: data.number, codesEmailed: deal.send_codes_when !== 'paid' }
}

async function eventAndPackage(context: BackOfficeContext, input: DealInput): Promise<{ event: RegistrationEvent; sponsorPackage: SponsorPackageTerms }> {
  const event = await context.catalog.getEvent(input.event)
  if (!event) throw fieldRefusal('event', 'unknown-event')
  const sponsorPackage = await context.catalog.getSponsorPackage?.(input.packageId)
  if (!sponsorPackage) throw fieldRefusal('packageId', 'unknown-sponsor-package')
  return { event, sponsorPackage }
}

/** What a new deal's form starts from: its codes sent on approval, or once paid, as the site settings say. */
export async function newDealDefaults(context: BackOfficeContext): Promise<{ sendCodesWhen: SendCodesWhen }> {
  const settings = await context.catalog.getSettings()
  return { sendCodesWhen: settings.sponsorCodesOncePaid === true ? 'paid' : 'approved' }
}

/**
 * Staff record a sponsorship deal. At or above the package's list price (or for a package without one) it is
 * approved at once: invoiced, its codes made and e-mailed. Below it, it waits for a manager (approveSponsorshipDeal).
 */
export const recordSponsorshipDeal = staffCommand(dealSchema, async (context, input, actor) => {
  const { event, sponsorPackage } = await eventAndPackage(context, input)
  const settings = await context.catalog.getSettings()
  const now = wallClock(context)
  const today = businessClock(context)
  const listPriceCents = sponsorPackage.priceExclVat === null ? null : randsToCents(sponsorPackage.priceExclVat)
  const vatCents = vatOn(input.agreedPrice, settings.vatRate)
  const deal: SponsorshipDealRow = {
    id: newId(),
    reference: generateReference(),
    status: 'awaiting-approval',
    event_id: event.id,
    event_slug: event.slug,
    event_title: event.title,
    event_start: event.start,
    codes_valid_until: registrationClosingDay(event),
    package_id: sponsorPackage.id,
    package_title: sponsorPackage.title,
    package_price_cents: listPriceCents,
    complimentary_seats: sponsorPackage.complimentarySeats,
    participant_discount_percent: sponsorPackage.participantDiscountPercent,
    promotional_text_words: sponsorPackage.promotionalTextWords,
    literature_pages: sponsorPackage.literaturePages,
    speaking_slot: sponsorPackage.speakingSlot,
    company_name: input.companyName,
    address: input.address,
    vat_number: input.vatNumber,
    purchase_order_number: input.purchaseOrderNumber,
    contact_name: input.contactName,
    contact_email: input.contactEmail,
    contact_tel: input.contactTel,
    agreed_price_cents: input.agreedPrice,
    vat_rate: settings.vatRate,
    vat_cents: vatCents,
    total_cents: input.agreedPrice + vatCents,
    recorded_by: actor.name,
    recorded_at: now.toISOString(),
    approved_by: null,
    approved_at: null,
    cancelled_at: null,
    promo_text: '',
    promo_text_received_at: null,
    literature_received_at: null,
    slot_scheduled_for: '',
    send_codes_when: input.sendCodesWhen,
    codes_sent_at: null,
    paid_at: null,
  }
  const needsApproval = listPriceCents !== null && input.agreedPrice < listPriceCents
  return async (transaction) => {
    await transaction.insertInto('sponsorship_deals').values(deal).execute()
    const approval = needsApproval ? undefined : await approveInTransaction(transaction, deal, event, settings, actor, now, today)
    return {
      result: { id: deal.id, reference: deal.reference, status: approval ? 'approved' : 'awaiting-approval', ...(approval ?? {}) },
      audit: [{ action: 'sponsorship-deal-recorded', subjectType: 'sponsorship-deal', subjectId: deal.id, after: deal }],
      mailQueued: approval !== undefined,
    }
  }
})

const dealIdSchema = z.pipe(ownFields, z.object({ dealId: requiredLine(36) }))

async function dealFor(transaction: Transaction<Database>, dealId: string): Promise<SponsorshipDealRow> {
  const deal = await transaction.selectFrom('sponsorship_deals').selectAll().where('id', '=', dealId).executeTakeFirst()
  if (!deal) throw new BackOfficeError('not-found', { missing: 'sponsorship-deal' }, 'dealId')
  return deal
}

/** A manager approves a deal agreed below its package's price: it is then invoiced and its codes e-mailed. */
export const approveSponsorshipDeal = staffCommand(
  dealIdSchema,
  async (context, input, actor) => {
    const settings = await context.catalog.getSettings()
    const now = wallClock(context)
    const today = businessClock(context)
    return async (transaction) => {
      const deal = await dealFor(transaction, input.dealId)
      if (deal.status !== 'awaiting-approval') throw new BackOfficeError('deal-already-approved')
      const event = await context.catalog.getEvent(deal.event_slug)
      if (!event) throw new BackOfficeError('not-found', { missing: 'published-event' }, 'dealId')
      const approval = await approveInTransaction(transaction, deal, event, settings, actor, now, today)
      return {
        result: approval,
        audit: [
          {
            action: 'sponsorship-deal-approved',
            subjectType: 'sponsorship-deal',
            subjectId: deal.id,
            before: { status: deal.status },
            after: { status: 'approved', ...approval },
          },
        ],
        mailQueued: true,
      }
    }
  },
  { role: 'manager' },
)

/** Staff send the contact the deal's codes again (those not voided), e.g. when the first e-mail went astray. */
export const resendDealCodes = staffCommand(dealIdSchema, async (context, input) => {
  const settings = await context.catalog.getSettings()
  const now = wallClock(context)
  return async (transaction) => {
    const deal = await dealFor(transaction, input.dealId)
    if (deal.status !== 'approved') throw new BackOfficeError('deal-not-approved')
    const codes = await liveCodesOf(transaction, deal.id)
    const event = await context.catalog.getEvent(deal.event_slug)
    if (deal.codes_sent_at === null)
      await transaction.updateTable('sponsorship_deals').set({ codes_sent_at: now.toISOString() }).where('id', '=', deal.id).execute()
    await enqueueMails(transaction, deal.id, [{ topic: 'sponsorship-codes', mail: dealCodesMail(deal, codes, event?.url ?? '', settings) }], now)
    return {
      result: codes,
      audit: [{ action: 'sponsorship-codes-resent', subjectType: 'sponsorship-deal', subjectId: deal.id, after: codes }],
      mailQueued: true,
    }
  }
})

const benefitsSchema = z.pipe(
  ownFields,
  z.object({
    dealId: requiredLine(36),
    promoText: z.pipe(
      z.transform((value: unknown) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : '')),
      z.string().check(z.maxLength(20_000, 'too-long')),
    ),
    literatureReceived: z.transform((value: unknown) => singleLine(value) === 'yes' || value === true),
    slotScheduledFor: optionalLine(200),
  }),
)

/**
 * Staff record what the sponsor has delivered: the promotional text (refused when it has more words than the package
 * allows, 'too-many-words' with the limit), whether the literature arrived, and when the speaking slot is scheduled.
 */
export const recordDealBenefits = staffCommand(benefitsSchema, async (context, input) => {
  const at = wallClock(context).toISOString()
  return async (transaction) => {
    const deal = await dealFor(transaction, input.dealId)
    const words = wordCount(input.promoText)
    if (words > deal.promotional_text_words) {
      throw new ValidationError('too-many-words', [{ path: 'promoText', code: 'too-many-words', maximum: deal.promotional_text_words, words }])
    }
    const after = {
      promo_text: input.promoText,
      promo_text_received_at: input.promoText === '' ? null : input.promoText === deal.promo_text ? deal.promo_text_received_at : at,
      literature_received_at: input.literatureReceived ? (deal.literature_received_at ?? at) : null,
      slot_scheduled_for: input.slotScheduledFor,
    }
    await transaction.updateTable('sponsorship_deals').set(after).where('id', '=', deal.id).execute()
    return {
      result: { words },
      audit: [{ action: 'sponsorship-benefits-recorded', subjectType: 'sponsorship-deal', subjectId: deal.id, before: { promo_text: deal.promo_text }, after }],
    }
  }
})

/**
 * A manager cancels a deal: its codes are voided (registrations made with them keep their seats and prices), and an
 * approved deal's invoice is credited in full by a credit note in the registrations' series, e-mailed to the contact.
 */
export const cancelSponsorshipDeal = staffCommand(
  dealIdSchema,
  async (context, input) => {
    const settings = await context.catalog.getSettings()
    const now = wallClock(context)
    const today = businessClock(context)
    return async (transaction) => {
      const deal = await dealFor(transaction, input.dealId)
      if (deal.status === 'cancelled') throw new BackOfficeError('already-cancelled', { what: 'deal' })
      const at = now.toISOString()
      await transaction.updateTable('discount_codes').set({ voided_at: at }).where('deal_id', '=', deal.id).where('voided_at', 'is', null).execute()
      await transaction.updateTable('sponsorship_deals').set({ status: 'cancelled', cancelled_at: at }).where('id', '=', deal.id).execute()
      const invoice = await transaction.selectFrom('sponsorship_invoices').select(['number', 'issued_at']).where('deal_id', '=', deal.id).executeTakeFirst()
      let creditNoteNumber: string | undefined
      if (invoice) {
        // Last: taking the number locks the counter until the COMMIT.
        const number = await nextCreditNoteNumber(transaction)
        const note: CreditNoteData = {
          number: formatCreditNoteNumber(number),
          issueDate: formatDate(today),
          reference: deal.reference,
          purchaseOrderNumber: deal.purchase_order_number,
          invoiceNumber: formatInvoiceNumber(Number(invoice.number)),
          invoiceDate: formatDate(new Date(invoice.issued_at)),
          supplier: supplierOf(settings),
          recipient: { name: deal.company_name, addressLines: nonEmptyLines(deal.address), vatNumber: deal.vat_number },
          description: `Cancellation of the ${deal.package_title} sponsorship of ${deal.event_title}`,
          details: ['The sponsorship was cancelled; the tax invoice is credited in full.'],
          creditedSubtotalCents: deal.agreed_price_cents,
          vatRate: deal.vat_rate,
          creditedVatCents: deal.vat_cents,
          creditedTotalCents: deal.total_cents,
          issuedAt: today,
        }
        const pdf = await renderCreditNotePdf(note)
        const { issuedAt, ...stored } = note
        await transaction
          .insertInto('sponsorship_credit_notes')
          .values({
            id: newId(),
            deal_id: deal.id,
            number,
            issued_at: issuedAt.toISOString(),
            pdf_base64: pdf.toString('base64'),
            data_json: JSON.stringify({ ...stored, issuedAt }),
          })
          .execute()
        const subject = `Credit note ${note.number}: your ${deal.package_title} sponsorship of ${deal.event_title} is cancelled`
        const text = `Dear ${deal.contact_name}, your sponsorship is cancelled and its codes no longer work. Credit note ${note.number} credits tax invoice ${note.invoiceNumber} in full.`
        await enqueueMails(
          transaction,
          deal.id,
          [
            {
              topic: 'sponsorship-credit-note',
              mail: {
                to: [deal.contact_email],
                subject,
                text: `${text}\n`,
                html: mailDocument(subject, html`<p>${text}</p>`, settings.siteName),
                attachments: [
                  { filename: `credit-note-${note.number}.pdf`, contentType: 'application/pdf', content: pdf.toString('base64'), encoding: 'base64' },
                ],
              },
            },
          ],
          now,
        )
        creditNoteNumber = note.number
      }
      return {
        result: { creditNoteNumber },
        audit: [
          {
            action: 'sponsorship-deal-cancelled',
            subjectType: 'sponsorship-deal',
            subjectId: deal.id,
            before: { status: deal.status },
            after: { status: 'cancelled', creditNoteNumber },
          },
        ],
        mailQueued: invoice !== undefined,
      }
    }
  },
  { role: 'manager' },
)

/** A deal as staff see it, with its invoice and its codes' uses. */
export interface SponsorshipDealSummary {
  deal: SponsorshipDealRow
  belowListPrice: boolean
  invoice?: { number: string; totalCents: number } | undefined
  /** What the transfers recorded against the deal add up to. */
  paidCents: number
  promoTextWords: number
  /** The payment reminders its invoice was sent, oldest first. */
  reminders: Array<{ kind: PaymentReminderKind; businessDay: string; outstandingCents: number; sentByName: string | null }>
}

/** Every deal, newest first, with its invoice, what was paid and the reminders sent. */
export async function listSponsorshipDeals(context: BackOfficeContext): Promise<SponsorshipDealSummary[]> {
  const deals = await context.db.kysely.selectFrom('sponsorship_deals').selectAll().orderBy('recorded_at', 'desc').execute()
  const invoices = await context.db.kysely.selectFrom('sponsorship_invoices').select(['deal_id', 'number']).execute()
  const payments = await context.db.kysely
    .selectFrom('sponsorship_payments')
    .select('deal_id')
    .select((eb) => eb.fn.sum<number | string>('amount_cents').as('paid'))
    .groupBy('deal_id')
    .execute()
  const reminders = await context.db.kysely
    .selectFrom('sponsorship_payment_reminders')
    .select(['deal_id', 'kind', 'business_day', 'outstanding_cents', 'sent_by_name'])
    .orderBy('created_at')
    .execute()
  return deals.map((deal) => {
    const invoice = invoices.find((candidate) => candidate.deal_id === deal.id)
    return {
      deal,
      belowListPrice: deal.package_price_cents !== null && deal.agreed_price_cents < deal.package_price_cents,
      invoice: invoice && { number: formatInvoiceNumber(Number(invoice.number)), totalCents: deal.total_cents },
      paidCents: Number(payments.find((payment) => payment.deal_id === deal.id)?.paid ?? 0),
      promoTextWords: wordCount(deal.promo_text),
      reminders: reminders
        .filter((reminder) => reminder.deal_id === deal.id)
        .map((reminder) => ({
          kind: reminder.kind,
          businessDay: reminder.business_day,
          outstandingCents: reminder.outstanding_cents,
          sentByName: reminder.sent_by_name,
        })),
    }
  })
}

/** A deal's tax invoice PDF, for staff. */
export async function dealInvoicePdf(context: BackOfficeContext, dealId: string): Promise<{ filename: string; pdf: Buffer } | undefined> {
  const row = await context.db.kysely.selectFrom('sponsorship_invoices').select(['number', 'pdf_base64']).where('deal_id', '=', dealId).executeTakeFirst()
  return row && { filename: `tax-invoice-${formatInvoiceNumber(Number(row.number))}.pdf`, pdf: Buffer.from(row.pdf_base64, 'base64') }
}
