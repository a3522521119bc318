/**
 * An entry in an enquiry's thread in the back office: an internal `note`, or a `reply` e-mailed to the enquirer
 * through the outbox (`outbox_message_id`). `enquiry_id` is a contact enquiry's or a training request's id.
 */
export interface EnquiryActivityTable {
  id: string
  enquiry_id: string
  kind: 'note' | 'reply'
  author_id: string
  author_name: string
  /** The reply's subject; '' for a note. */
  subject: string
  body: string
  outbox_message_id: string | null
  created_at: string
}
