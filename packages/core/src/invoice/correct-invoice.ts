import { formatRand } from '@events/pricing'
import * as z from 'zod/mini'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { referenceField } from '../backoffice/fields.ts'
import { creditNoteAttachment, formatCreditNoteNumber, nextCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { CreditNoteData } from '../cancellation/credit-note-pdf.ts'
import { newId } from '../ids.ts'
import { formatDate } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { normaliseReference } from '../registration/reference.ts'
import { ownFields } from '../submissions/fields.ts'
import { formatInvoiceNumber, nextTaxInvoiceNumber } from './invoice-number.ts'
import { invoiceAttachment, nonEmptyLines, storedTaxInvoiceData, type UnnumberedTaxInvoiceData } from './issue-invoice.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** What "correct the invoice" was given: the registration's reference. */
export const invoiceCorrectionSchema = z.pipe(ownFields, z.object({ reference: referenceField }))

export interface InvoiceCorrection {
  reference: string
  creditNoteNumber: string
  creditedInvoiceNumber: string
  invoiceNumber: string
  totalCents: number
}

/**
 * "Correct the invoice": once staff have corrected the company name, address, VAT number or purchase order number,
 * the registration's current tax invoice is credited in full by a credit note (VAT Act section 21) and a new tax invoice
 * for the same supply is issued to the corrected details (section 20), in one step, both e-mailed to the registrant.
 * The registration's amounts do not change, so what was paid counts against the new invoice.
 */
export const correctInvoice = staffCommand(
  invoiceCorrectionSchema,
  async (context, input) => {
    const settings = await context.catalog.getSettings()
    const today = businessClock(context)
    const at = wallClock(context)
    const reference = normaliseReference(input.reference) ?? ''
    return async (transaction): Promise<CommandOutcome<InvoiceCorrection>> => {
      const registration = await transaction.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirst()
      if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: input.reference })
      const cancelled = await transaction.selectFrom('cancellations').select('id').where('registration_id', '=', registration.id).executeTakeFirst()
      // A cancellation's credit note already names the invoice and part of its supply: reissuing it would credit twice.
      if (cancelled) throw new BackOfficeError('registration-cancelled', { refused: 'invoice-correction' })
      const invoice = await transaction
        .selectFrom('invoices')
        .select(['id', 'number', 'data_json'])
        .where('registration_id', '=', registration.id)
        .orderBy('number', 'desc')
        .executeTakeFirst()
      if (!invoice || invoice.data_json === null) throw new BackOfficeError('not-found', { missing: 'tax-invoice', reference })
      const old = storedTaxInvoiceData({ number: invoice.number, data_json: invoice.data_json })
      const recipient = { name: registration.company_name, addressLines: nonEmptyLines(registration.address), vatNumber: registration.vat_number }
      const unchanged = JSON.stringify(old.recipient) === JSON.stringify(recipient) && (old.purchaseOrderNumber ?? '') === registration.purchase_order_number
      if (unchanged) {
        throw new BackOfficeError('invoice-up-to-date')
      }

      const creditSerial = await nextCreditNoteNumber(transaction)
      const creditNote: CreditNoteData = {
        number: formatCreditNoteNumber(creditSerial),
        issueDate: formatDate(today),
        reference,
        ...(old.purchaseOrderNumber ? { purchaseOrderNumber: old.purchaseOrderNumber } : {}),
        invoiceNumber: old.number,
        invoiceDate: old.issueDate,
        supplier: old.supplier,
        recipient: old.recipient,
        description: 'Correction: the tax invoice is cancelled and reissued to the corrected company details',
        details: [`Replaced by a new tax invoice issued on ${formatDate(today)} for the same supply`],
        creditedSubtotalCents: old.subtotalCents,
        vatRate: old.vatRate,
        creditedVatCents: old.vatCents,
        creditedTotalCents: old.totalCents,
        issuedAt: today,
      }
      const creditNoteId = newId()
      await transaction
        .insertInto('credit_notes')
        .values({
          id: creditNoteId,
          cancellation_id: null,
          registration_id: registration.id,
          invoice_id: invoice.id,
          number: creditSerial,
          issued_at: today.toISOString(),
          pdf_base64: '',
          data_json: JSON.stringify(creditNote),
        })
        .execute()

      const { number: _oldNumber, ...kept } = old
      const reissued: UnnumberedTaxInvoiceData = {
        ...kept,
        issueDate: formatDate(today),
        dueDate: formatDate(new Date(today.getTime() + settings.paymentTermsDays * DAY_MS)),
        paymentTermsDays: settings.paymentTermsDays,
        recipient,
        purchaseOrderNumber: registration.purchase_order_number,
        issuedAt: today,
      }
      const invoiceId = newId()
      // Taken here rather than as the last write (insertNumberedInvoice): the e-mail below prints it. Corrections are
      // rare staff actions, so holding the counter's lock for the rest of this short transaction costs little.
      const invoiceSerial = await nextTaxInvoiceNumber(transaction)
      await transaction
        .insertInto('invoices')
        .values({
          id: invoiceId,
          registration_id: registration.id,
          number: invoiceSerial,
          issued_at: today.toISOString(),
          pdf_base64: '',
          data_json: JSON.stringify(reissued),
        })
        .execute()
      const invoiceNumber = formatInvoiceNumber(invoiceSerial)

      let mailQueued = false
      if (!registrantAddressErased(registration)) {
        const subject = `Corrected tax invoice ${invoiceNumber}: registration ${reference}`
        const rows: Array<[string, string]> = [
          ['Reference', reference],
          ...(registration.purchase_order_number ? ([['Your reference', registration.purchase_order_number]] as Array<[string, string]>) : []),
          ['Event', registration.event_title],
          ['Credit note', `${creditNote.number}, crediting tax invoice ${old.number} in full (attached)`],
          ['New tax invoice', `${invoiceNumber}, issued ${reissued.issueDate} to ${recipient.name} (attached)`],
          ['Total incl. VAT', formatRand(reissued.totalCents)],
        ]
        const intro = `As requested, we have corrected the company details on your tax invoice for ${registration.event_title}. Tax invoice ${old.number} is credited in full and replaced by tax invoice ${invoiceNumber}; what you have paid counts against the new invoice.`
        const statusUrl = context.links.registrationStatus(registration)
        const footer = [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
        await enqueueMails(
          transaction,
          registration.id,
          [
            {
              topic: 'invoice.corrected',
              mail: {
                to: [registration.email],
                subject,
                text: [intro, detailsText(rows), `Your registration page:\n${statusUrl}`].join('\n\n') + '\n',
                html: mailDocument(subject, html`<p>${intro}</p>${detailsTable(rows)}<p><a href="${statusUrl}">Your registration page</a></p>`, footer),
                attachments: [
                  creditNoteAttachment({ id: creditNoteId, number: creditNote.number }),
                  invoiceAttachment({ id: invoiceId, number: invoiceNumber }),
                ],
              },
            },
          ],
          at,
        )
        mailQueued = true
      }
      return {
        result: { reference, creditNoteNumber: creditNote.number, creditedInvoiceNumber: old.number, invoiceNumber, totalCents: reissued.totalCents },
        audit: [
          {
            action: 'registration-invoice-corrected',
            subjectType: 'registration',
            subjectId: reference,
            before: { invoice: old.number, recipient: old.recipient, purchaseOrderNumber: old.purchaseOrderNumber ?? '' },
            after: { invoice: invoiceNumber, creditNote: creditNote.number, recipient, purchaseOrderNumber: registration.purchase_order_number },
          },
        ],
        mailQueued,
      }
    }
  },
  // Issuing tax documents is a manager's decision, as correcting the company details is.
  { role: 'manager' },
)
