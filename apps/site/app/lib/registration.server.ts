import { errorBody, isValidationError, ValidationError } from '@events/core'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { isHoneypotFilled } from './honeypot.server'
import { countSubmission, readForm } from './forms.server'
import { applyIntent, draftFromForm, parseIntent, registrationInput, type RegistrationDraft, type RegistrationOutcome } from './registration-draft'
import { servicesContext } from './services.server'

function refused(error: ValidationError, draft: RegistrationDraft | undefined) {
  return data<RegistrationOutcome>({ ...(draft ? { draft } : {}), error: errorBody(error).error }, { status: error.status })
}

/**
 * The Register tab's action. Adding or removing a delegate and 'Update total' come back with the new state (the
 * page renders it and its total); submit creates the registration through the core, with the form's submission
 * token as the idempotency key, and redirects (303) to the registrant's status page.
 */
export async function registrationAction(request: Request, context: Readonly<RouterContextProvider>, eventSlug: string) {
  let form: FormData
  try {
    form = await readForm(request)
  } catch (error) {
    if (isValidationError(error)) return refused(error, undefined)
    throw error
  }
  const draft = draftFromForm(form)
  const intent = parseIntent(form.get('intent'))
  if (intent.type !== 'submit') return applyIntent(draft, intent) satisfies RegistrationOutcome

  try {
    countSubmission(context)
    if (isHoneypotFilled({ honeypot: form.get('honeypot') })) return { received: true } satisfies RegistrationOutcome
    const { core } = context.get(servicesContext)
    const { receipt } = await core.registrations.createRegistration(registrationInput(eventSlug, draft), { idempotencyKey: draft.token })
    return redirect(new URL(receipt.statusUrl).pathname, 303)
  } catch (error) {
    if (isValidationError(error)) return refused(error, draft)
    throw error
  }
}
