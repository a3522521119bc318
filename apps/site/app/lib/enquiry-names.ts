import type { EnquiryKind, EnquiryStatus } from '@events/core'

/** How the back office names an enquiry's status and kind. */
export const ENQUIRY_STATUS_NAMES: Record<EnquiryStatus, string> = { new: 'New', 'in-progress': 'In progress', closed: 'Closed' }

export const ENQUIRY_KIND_NAMES: Record<EnquiryKind, string> = {
  contact: 'Contact form',
  'inhouse-training': 'In-house training request',
  'online-training': 'Online training request',
}
