// The fixed choices and limits of the submissions, without the schemas, so a browser bundle can import them alone.

export const PAYMENT_METHODS = ['Bank Transfer', 'Credit/Debit Card'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** Delegates one registration may list when its option sets no cap. */
export const MAX_DELEGATES = 50

/** The interest options of the contact form, as stored and shown. */
export const CONTACT_INTERESTS = [
  'Inhouse Training',
  'Online Training',
  'Conference',
  'Workshop',
  'Opportunity To Speak',
  'Sponsorship',
  'other',
] as const
export type ContactInterest = (typeof CONTACT_INTERESTS)[number]

export const TRAINING_KINDS = ['inhouse', 'online'] as const
export type TrainingKind = (typeof TRAINING_KINDS)[number]
