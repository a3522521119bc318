import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  auditActionName,
  auditDetailsText,
  formatAdminDay,
  formatAdminMinute,
  formatAdminTime,
  mailTopicName,
  outboxStatusName,
  paymentMethodName,
  registrationStatusName,
  seatsTakenText,
} from './admin-format'

describe('back-office times', () => {
  it.each([
    // 22:30 UTC is already the next day in Johannesburg (UTC+2).
    ['2025-03-01T22:30:05.000Z', '02 Mar 2025, 00:30:05', '02 Mar 2025, 00:30', '02 Mar 2025'],
    ['2025-07-03T06:30:00Z', '03 Jul 2025, 08:30:00', '03 Jul 2025, 08:30', '03 Jul 2025'],
  ])('%s is read in South African time', (iso, time, minute, day) => {
    expect(formatAdminTime(iso)).toBe(time)
    expect(formatAdminMinute(iso)).toBe(minute)
    expect(formatAdminDay(iso)).toBe(day)
  })
})

describe('back-office names of the core’s codes', () => {
  it.each([
    [registrationStatusName, 'awaiting-payment', 'Awaiting payment'],
    [registrationStatusName, 'part-paid', 'Part paid'],
    [outboxStatusName, 'pending', 'Waiting to be sent'],
    [outboxStatusName, 'sending', 'Being sent'],
    [outboxStatusName, 'uncertain', 'Not known whether it arrived'],
    [mailTopicName, 'registration.registrant', 'Confirmation to the registrant'],
    [mailTopicName, 'payment.receipt', 'Payment receipt'],
  ])('%o names %s "%s"', (name, code, expected) => {
    expect(name(code)).toBe(expected)
  })

  it('names the payment methods as the registration form does', () => {
    expect(paymentMethodName('card')).toBe('Card / EFT / GPay')
    expect(paymentMethodName('bank-transfer')).toBe('Bank Transfer')
  })

  it('names every kind of e-mail the packages queue, so no topic reaches staff as a key', () => {
    // The topics as the packages write them where they queue a message: `topic: 'cancellation.credit-note'`,
    // `const PAYMENT_REMINDER_TOPIC = 'payment.reminder'`, `topic: invitation ? 'staff-invitation' : '…'`.
    const packages = path.join(import.meta.dirname, '../../../../packages')
    const sources = (readdirSync(packages, { recursive: true }) as string[])
      .filter((file) => /[/\\]src[/\\].*\.ts$/.test(file) && !file.endsWith('.test.ts') && !file.includes('node_modules'))
      .map((file) => readFileSync(path.join(packages, file), 'utf8'))
    const written = new Set<string>()
    for (const source of sources) {
      for (const [line] of source.matchAll(/(?:\btopic: |_TOPIC = ).*/g)) {
        // A type naming the enquiry kinds (`topic: 'contact' | 'training'`) queues nothing under those names.
        if (line.includes("' |")) continue
        for (const [, topic] of line.matchAll(/'([a-z][a-z.-]*)'/g)) written.add(topic!)
      }
    }
    // Queued under a name made of two parts (the enquiry's kind and the recipient).
    for (const kind of ['contact', 'training']) for (const recipient of ['organiser', 'acknowledgement']) written.add(`${kind}.${recipient}`)
    expect([...written]).toEqual(expect.arrayContaining(['cancellation.credit-note', 'payment.reminder', 'staff-invitation', 'certificate']))
    expect([...written].filter((topic) => mailTopicName(topic) === topic)).toEqual([])
  })

  it('shows a code it has no name for as it is, rather than nothing', () => {
    expect(registrationStatusName('refunded')).toBe('refunded')
    expect(mailTopicName('enquiry.new-kind')).toBe('enquiry.new-kind')
  })
})

describe('audit entries in words', () => {
  it('names an action in words', () => {
    expect(auditActionName('registration-payment-recorded')).toBe('Registration payment recorded')
  })

  it('reads before and after in words and rands, never JSON in cents or internal keys', () => {
    expect(
      auditDetailsText({
        status: 'part-paid',
        paidCents: 67_700,
        outstandingCents: 2_000_000,
        bankTransfer: { amountCents: 67_700, receivedOn: '2025-03-01', bankReference: 'ABSA 9' },
        cancelledDelegates: [],
        registrationCancelled: false,
      }),
    ).toBe(
      'status: Part paid; paid: R 677.00; outstanding: R 20 000.00; bank transfer: (amount: R 677.00; received on: 2025-03-01; bank reference: ABSA 9); cancelled delegates: none; registration cancelled: no',
    )
    expect(auditDetailsText(null)).toBe('')
  })
})

describe('seatsTakenText', () => {
  it('sets the seats taken against each capacity, or says there is no limit', () => {
    expect(seatsTakenText({ venue: { taken: 180, capacity: 200 }, online: { taken: 12, capacity: null } })).toBe('180 / 200 at the venue; 12 online (no limit)')
    expect(seatsTakenText({ venue: { taken: 0, capacity: null }, online: { taken: 3, capacity: 3 } })).toBe('0 at the venue (no limit); 3 / 3 online')
  })
})
