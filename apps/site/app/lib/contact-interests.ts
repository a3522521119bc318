import { CONTACT_INTERESTS } from '@events/core/choices'

/** The interest choices of the contact form: the core's options, 'other' shown capitalised. */
export const interestOptions = CONTACT_INTERESTS.map((value) => ({ value, label: value === 'other' ? 'Other' : value }))
