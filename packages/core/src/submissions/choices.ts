// The fixed choices and limits of the submissions, without the schemas, so a browser bundle can import them alone.

/** How a registration is paid, as stored (registrations.payment_method), filtered on and answered in JSON. */
export const PAYMENT_METHODS = ['bank-transfer', 'card'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/**
 * What people read for each payment method: the form's choices, the status page, the e-mails and the back office. The
 * card one as the specification shows it on the form.
 */
export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = { 'bank-transfer': 'Bank Transfer', card: 'Card / EFT / GPay' }

/** The specification's values for the payment method, which the JSON API and forms still take for the keys. */
const SPECIFICATION_PAYMENT_METHODS: ReadonlyMap<string, PaymentMethod> = new Map([
  ['Bank Transfer', 'bank-transfer'],
  ['Credit/Debit Card', 'card'],
])

/** A submitted payment method as its key: a specification value becomes its key, anything else is left as sent. */
export function paymentMethodKeyOf(submitted: string): string {
  return SPECIFICATION_PAYMENT_METHODS.get(submitted) ?? submitted
}

/** Delegates one registration may list when its option sets no cap. */
export const MAX_DELEGATES = 50

/** The interest options of the contact form, as stored and shown. */
export const CONTACT_INTERESTS = ['Inhouse Training', 'Online Training', 'Conference', 'Workshop', 'Opportunity To Speak', 'Sponsorship', 'other'] as const
export type ContactInterest = (typeof CONTACT_INTERESTS)[number]

export const TRAINING_KINDS = ['inhouse', 'online'] as const
export type TrainingKind = (typeof TRAINING_KINDS)[number]

/** A discount code as it is stored and compared: without white space, in upper case ("plat 7q2k" is PLAT7Q2K). */
export function normaliseDiscountCode(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() : ''
}
