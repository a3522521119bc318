import { describe, expect, it } from 'vitest'
import { formatAdminDay, formatAdminMinute, formatAdminTime, mailTopicName, outboxStatusName, paymentMethodName, registrationStatusName } from './admin-format'

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
    [mailTopicName, 'registration.registrant', 'Confirmation to the registrant'],
    [mailTopicName, 'payment.receipt', 'Payment receipt'],
  ])('%o names %s "%s"', (name, code, expected) => {
    expect(name(code)).toBe(expected)
  })

  it('names the payment methods as the registration form does', () => {
    expect(paymentMethodName('card')).toBe('Card / EFT / GPay')
    expect(paymentMethodName('bank-transfer')).toBe('Bank Transfer')
  })

  it('shows a code it has no name for as it is, rather than nothing', () => {
    expect(registrationStatusName('refunded')).toBe('refunded')
    expect(mailTopicName('enquiry.new-kind')).toBe('enquiry.new-kind')
  })
})
