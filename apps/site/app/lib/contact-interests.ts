/** The interest choices of the contact form: the specification's list, with 'Sponsorship' spelled correctly. */
export const interestOptions = [
  { value: 'Inhouse Training', label: 'Inhouse Training' },
  { value: 'Online Training', label: 'Online Training' },
  { value: 'Conference', label: 'Conference' },
  { value: 'Workshop', label: 'Workshop' },
  { value: 'Opportunity To Speak', label: 'Opportunity To Speak' },
  { value: 'Sponsorship', label: 'Sponsorship' },
  { value: 'other', label: 'Other' },
] as const
