import { CURRENCY, HONEYPOT_FIELD, generateReference, type RegistrationReceipt } from '@events/core'
import { randomBytes } from 'node:crypto'

/** Whether a submission filled the field people never see; form-filling robots do. */
export function isHoneypotFilled(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, HONEYPOT_FIELD)) return false
  const value = (input as Record<string, unknown>)[HONEYPOT_FIELD]
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null && value !== false
}

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
