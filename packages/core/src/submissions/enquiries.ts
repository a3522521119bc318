import * as z from 'zod/mini'
import { singleLine } from '../validation/fields.ts'
import { CONTACT_INTERESTS, TRAINING_KINDS, type ContactInterest } from './choices.ts'
import { optionalLine, ownFields, requiredChoice, requiredEmail, requiredLine, requiredPhone, requiredText } from './fields.ts'

// Values the old site's form sent, read as today's options. A Map, so names an object inherits ('constructor',
// '__proto__', 'toString') are not options.
const LEGACY_INTERESTS = new Map<string, ContactInterest>([
  ['Sponsership', 'Sponsorship'],
  ['Opportunity', 'Opportunity To Speak'],
])

const LIMITS = { name: 200, companyName: 200, phone: 40, organization: 200, message: 5000 } as const

/** Maps a submitted interest to one of the options (legacy spellings included); undefined when it is none. */
export function normaliseInterest(value: string): ContactInterest | undefined {
  if ((CONTACT_INTERESTS as readonly string[]).includes(value)) return value as ContactInterest
  return LEGACY_INTERESTS.get(value)
}

/** A contact-form enquiry; the company is optional, a legacy interest spelling reads as today's option. */
export const contactEnquirySchema = z.pipe(
  ownFields,
  z.object({
    fullName: requiredLine(LIMITS.name),
    companyName: optionalLine(LIMITS.companyName),
    email: requiredEmail,
    phone: requiredPhone(LIMITS.phone),
    interest: requiredChoice(CONTACT_INTERESTS, (value) => {
      const line = singleLine(value)
      return normaliseInterest(line) ?? line
    }),
    message: requiredText(LIMITS.message),
  }),
)
export type ContactEnquiry = z.output<typeof contactEnquirySchema>

/** An in-house or online training request. */
export const trainingRequestSchema = z.pipe(
  ownFields,
  z.object({
    kind: z.pipe(z.transform(singleLine), z.enum(TRAINING_KINDS, 'invalid-choice')),
    name: requiredLine(LIMITS.name),
    email: requiredEmail,
    phone: requiredPhone(LIMITS.phone),
    organization: requiredLine(LIMITS.organization),
    message: requiredText(LIMITS.message),
  }),
)
export type TrainingRequest = z.output<typeof trainingRequestSchema>
