import { CURRENCY, generateReference, type RegistrationReceipt } from '@events/core'
import { randomBytes } from 'node:crypto'

/**
 * What a robot is told after filling the honeypot of the registration form: a receipt of the usual shape, so it
 * has no reason to try again, for a registration that was never stored.
 */
export function honeypotReceipt(): RegistrationReceipt {
  return {
    reference: generateReference(),
    secret: randomBytes(16).toString('base64url'),
    total: '0.00',
    totalCents: 0,
    currency: CURRENCY,
    status: 'awaiting-payment',
  }
}
