import { HONEYPOT_FIELD } from '@events/core'
import type { RouterContextProvider } from 'react-router'
import type { ContactOutcome, ContactValues } from '../components/ContactForm'
import { countSubmission, handleForm } from './forms.server'
import { servicesContext } from './services.server'

const emptyContact: ContactValues = { fullName: '', companyName: '', email: '', phone: '', interest: '', message: '' }

/**
 * The contact form's action: the enquiry goes to the core's service. `about` (known to the route, not taken from
 * the form) names the event or sponsorship in the message when the visitor removed the prefilled line.
 */
export function submitContactForm(request: Request, context: Readonly<RouterContextProvider>, about?: string) {
  return handleForm(request, context, 'contact', emptyContact, async (values, form): Promise<ContactOutcome> => {
    await countSubmission(context)
    const { core } = context.get(servicesContext)
    const message = about && values.message.trim() !== '' && !values.message.includes(about) ? `About: ${about}\n${values.message}` : values.message
    await core.enquiries.submitContactEnquiry({ ...values, message, [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) ?? '' })
    return { status: 'success', message: 'Message sent!' }
  })
}
