import { CURRENCY, generateReference, type RegistrationReceipt } from '@events/core'
import { randomBytes } from 'node:crypto'

/**
 * What a robot is told after filling the honeypot of the registration form: a receipt of the usual shape, so it
 * has no reason to try again, for a registration that was never stored.
 */
export function honeypotReceipt(siteUrl: string): RegistrationReceipt {
  const reference = generateReference()
  return {
    reference,
    total: '0.00',
    totalCents: 0,
    currency: CURRENCY,
    status: 'awaiting-payment',
    statusUrl: `${siteUrl}/registrations/${reference}/${randomBytes(16).toString('base64url')}`,
  }
}
