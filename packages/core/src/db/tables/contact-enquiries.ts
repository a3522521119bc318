/** A message sent with the contact form. */
export interface ContactEnquiriesTable {
  id: string
  full_name: string
  company_name: string | null
  email: string
  phone: string
  interest: string
  message: string
  created_at: string
}
