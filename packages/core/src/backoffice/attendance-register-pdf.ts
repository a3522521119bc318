import { venueLabel } from '@events/content/venue'
import { TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import { formatEventDates } from '../mail/dates.ts'
import { documentBytes, newPdfDocument, registerDejaVuFonts } from '../pdf/fonts.ts'
import { paymentStatusWords, type DelegateList, type DelegateListRow } from './delegate-list.ts'

const REGULAR = 'Register-Regular'
const BOLD = 'Register-Bold'
const PAGE_MARGIN = 40
const ROW_HEIGHT = 30
const RULE_COLOUR = '#999999'
const surnameOrder = new Intl.Collator('en-ZA', { sensitivity: 'base' })

/** The word a name is sorted by: its last one ("Pieter van Wyk" under W). */
function surnameOf(name: string): string {
  const words = name.trim().split(/\s+/)
  return words[words.length - 1] ?? ''
}

/** The delegates in sign-in order: by surname, then by the whole name. */
function bySurname(rows: readonly DelegateListRow[]): DelegateListRow[] {
  return [...rows].sort(
    (a, b) => surnameOrder.compare(surnameOf(a.delegateName), surnameOf(b.delegateName)) || surnameOrder.compare(a.delegateName, b.delegateName),
  )
}

/** The days an event runs in Johannesburg, first to last: one signature column each. */
export function eventDays(start: string, end: string): DateTime[] {
  const first = DateTime.fromISO(start, { zone: TIME_ZONE }).startOf('day')
  const last = DateTime.fromISO(end, { zone: TIME_ZONE }).startOf('day')
  const days: DateTime[] = []
  for (let day = first; day <= last; day = day.plus({ days: 1 })) days.push(day)
  return days.length > 0 ? days : [first]
}

/**
 * The printable attendance register of an event: the venue's sign-in sheet, its delegates attending in person (not
 * online) sorted by surname, with a signature column for each day of the event and a delegate whose registration is
 * not paid in full marked so at the door.
 */
export async function attendanceRegisterPdf(list: DelegateList, options: { siteName: string; printedAt: Date }): Promise<Buffer> {
  const { event } = list
  const doc = newPdfDocument({
    size: 'A4',
    layout: 'landscape',
    margin: PAGE_MARGIN,
    info: { Title: `Attendance register: ${event.title}`, Author: options.siteName, CreationDate: options.printedAt, ModDate: options.printedAt },
  })
  registerDejaVuFonts(doc, { regular: REGULAR, bold: BOLD })
  const finished = documentBytes(doc)

  const left = PAGE_MARGIN
  const width = doc.page.width - PAGE_MARGIN * 2
  const columns = [
    { header: 'No.', width: 26 },
    { header: 'Delegate', width: 140 },
    { header: 'Company', width: 130 },
    { header: 'Reference', width: 64 },
    { header: 'Payment', width: 90 },
  ]
  const days = eventDays(event.start, event.end)
  const signatureWidth = (width - columns.reduce((sum, column) => sum + column.width, 0)) / days.length
  const dayColumns = days.map((day) => ({
    header: days.length === 1 ? 'Signature' : `Signature ${day.setLocale('en-ZA').toFormat('ccc d LLL')}`,
    width: signatureWidth,
  }))
  const headers = [...columns, ...dayColumns]

  const pageHeading = () => {
    doc.font(BOLD).fontSize(16).text(`Attendance register: ${event.title}`, left, PAGE_MARGIN, { width })
    const facts = [formatEventDates(event.start, event.end), venueLabel(event.venue), `${delegates.length} delegates`, options.siteName]
    doc
      .font(REGULAR)
      .fontSize(9)
      .text(facts.filter((part) => part !== '').join(' · '), { width })
    doc.moveDown(0.8)
    let x = left
    const y = doc.y
    doc.font(BOLD).fontSize(9)
    for (const column of headers) {
      doc.text(column.header, x + 3, y, { width: column.width - 6, lineBreak: false })
      x += column.width
    }
    doc
      .moveTo(left, y + 14)
      .lineTo(left + width, y + 14)
      .strokeColor(RULE_COLOUR)
      .stroke()
    doc.y = y + 16
  }

  const delegates = bySurname(list.rows.filter((row) => !row.online))
  pageHeading()
  delegates.forEach((row, index) => {
    if (doc.y + ROW_HEIGHT > doc.page.height - PAGE_MARGIN) {
      doc.addPage()
      pageHeading()
    }
    const y = doc.y
    const unpaid = row.paymentStatus !== 'paid'
    const cells = [String(index + 1), row.delegateName, row.companyName, row.reference, unpaid ? paymentStatusWords(row.paymentStatus).toUpperCase() : 'Paid']
    let x = left
    cells.forEach((cell, column) => {
      doc.font(unpaid && column === 4 ? BOLD : REGULAR).fontSize(9)
      doc.text(cell, x + 3, y + 8, { width: columns[column]!.width - 6, height: ROW_HEIGHT - 8, ellipsis: true, lineBreak: false })
      x += columns[column]!.width
    })
    // The day columns are ruled apart, so each day's signature has its own box.
    for (let day = 1; day < days.length; day += 1) {
      const ruleX = x + signatureWidth * day
      doc
        .moveTo(ruleX, y)
        .lineTo(ruleX, y + ROW_HEIGHT)
        .strokeColor(RULE_COLOUR)
        .stroke()
    }
    doc
      .moveTo(left, y + ROW_HEIGHT)
      .lineTo(left + width, y + ROW_HEIGHT)
      .strokeColor(RULE_COLOUR)
      .stroke()
    doc.y = y + ROW_HEIGHT
  })
  doc.end()
  return finished
}
