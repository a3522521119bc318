import {
  QUOTATION_LINK_PARAM,
  quotationPrefill,
  type QuotationPrefill,
  createRegistration,
  HONEYPOT_FIELD,
  WAITING_LIST_OFFER_PARAM,
  isHoneypotFilled,
  isValidationError,
  paysByCard,
  previewDiscountCode,
  ValidationError,
  type RegistrationKey,
} from '@events/core'
import { PaymentError, startCheckout, type PaymentContext } from '@events/payments'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { REGISTRATION_SEND_FAILURE, SERVER_FAULT } from './form-outcome'
import { countSubmission, readForm } from './forms.server'
import { REFUSALS, validationRefusal } from './refusals'
import {
  applyIntent,
  draftFromForm,
  parseIntent,
  registrationInput,
  type DiscountLinkShown,
  type DraftChange,
  type RegistrationDraft,
  type RegistrationOutcome,
} from './registration-draft'
import { requestFactsContext, servicesContext } from './services.server'
import { sitePaths } from './site-links'

/**
 * Where the form's Pay button leads once the registration is stored: the checkout, or the registration's payment
 * page with the reason when no checkout could be made (the registration is kept either way).
 */
async function checkoutUrl(payments: PaymentContext, registration: RegistrationKey): Promise<string> {
  try {
    const started = await startCheckout(payments, registration.reference, registration.secret)
    return started.kind === 'redirect' ? started.redirectUrl : started.statusUrl
  } catch (error) {
    if (error instanceof PaymentError) return `${sitePaths.registrationPayment(registration)}?error=${encodeURIComponent(error.message)}`
    throw error
  }
}

function refused(error: ValidationError, draft: RegistrationDraft | undefined) {
  const { status, body } = validationRefusal(error, 'registration')
  return data<RegistrationOutcome>({ ...(draft ? { draft } : {}), error: body.error }, { status })
}

/**
 * A round trip's answer with what its discount code gives, so the total shown is the discounted one; a code that is
 * refused comes back with its message beside the field (400), the rest of the form as it was.
 */
async function withDiscount(context: Readonly<RouterContextProvider>, eventSlug: string, change: DraftChange) {
  if (change.draft.discountCode.trim() === '') return change satisfies RegistrationOutcome
  try {
    const discount = await previewDiscountCode(context.get(servicesContext).core.registrations, eventSlug, change.draft.discountCode)
    return { ...change, discount } satisfies RegistrationOutcome
  } catch (error) {
    if (isValidationError(error)) return refused(error, change.draft)
    throw error
  }
}

/** The `?code=` of an event link: an event link can carry a discount code, which the Register tab starts with. */
const DISCOUNT_LINK_PARAM = 'code'

/** An event link's discount code as checked for the event today: what it gives, or why it was refused, worded. */
export async function discountLinkShown(context: Readonly<RouterContextProvider>, url: URL, eventSlug: string): Promise<DiscountLinkShown | undefined> {
  const code = url.searchParams.get(DISCOUNT_LINK_PARAM)
  if (code === null || code.trim() === '') return undefined
  try {
    return { code, discount: await previewDiscountCode(context.get(servicesContext).core.registrations, eventSlug, code) }
  } catch (error) {
    if (!isValidationError(error)) throw error
    return { code, refusal: validationRefusal(error, 'registration').body.error.message }
  }
}

/** A quotation's link (`?quotation=Q-000042&option=…&delegates=…&online=…`): what the form starts with, or nothing for no quotation of this event. */
export function quotationLinkShown(context: Readonly<RouterContextProvider>, url: URL, eventSlug: string): Promise<QuotationPrefill | undefined> {
  return quotationPrefill(context.get(servicesContext).core.registrations, eventSlug, {
    number: url.searchParams.get(QUOTATION_LINK_PARAM),
    option: url.searchParams.get('option'),
    delegates: url.searchParams.get('delegates'),
    online: url.searchParams.get('online'),
  })
}

/** What a code gives, or nothing when there is none or it is refused. */
async function discountOf(context: Readonly<RouterContextProvider>, eventSlug: string, code: string) {
  if (code.trim() === '') return undefined
  return previewDiscountCode(context.get(servicesContext).core.registrations, eventSlug, code).catch((error: unknown) => {
    if (isValidationError(error)) return undefined
    throw error
  })
}

/**
 * The Register tab's action. Adding or removing a delegate and 'Update total' come back with the new state (the
 * page renders it and its total); submit creates the registration through the core, with the form's submission
 * token as the idempotency key, and redirects (303) to the registrant's status page. The Pay button of a card
 * registration submits the same way, then redirects to the checkout for the stored total. A fault of ours answers
 * 503 with the form as it was sent and the send-failure message.
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
  // A form posted without JavaScript from the cached page has no token yet; the form it gets back carries one, so
  // from then on it is resubmitted under its own key. Its first submit is deduplicated by its content instead.
  const tokened = draft.token ? draft : { ...draft, token: crypto.randomUUID() }
  const intent = parseIntent(form.get('intent'))
  if (intent.type !== 'submit' && intent.type !== 'pay') return withDiscount(context, eventSlug, applyIntent(tokened, intent))

  try {
    await countSubmission(context)
    if (isHoneypotFilled({ [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) })) return { received: true } satisfies RegistrationOutcome
    const { core, payments } = context.get(servicesContext)
    // Posted through a waiting-list offer link, the page's address carries the offer whose held seats it takes.
    const offer = new URL(request.url).searchParams.get(WAITING_LIST_OFFER_PARAM) ?? ''
    const input = { ...registrationInput(eventSlug, draft), [WAITING_LIST_OFFER_PARAM]: offer }
    const { receipt, paymentMethod } = await createRegistration(core.registrations, input, { idempotencyKey: draft.token })
    if (intent.type !== 'pay' || !paysByCard(paymentMethod) || receipt.status === 'paid') return redirect(sitePaths.registrationStatus(receipt), 303)
    return redirect(await checkoutUrl(payments, receipt), 303)
  } catch (error) {
    // Nothing was stored for a refused submission, so the form may come back under a fresh token, with its code's
    // discount still shown unless the code itself was refused.
    if (isValidationError(error)) {
      const codeRefused = error.issues.some((issue) => issue.path === 'discountCode')
      const discount = codeRefused ? undefined : await discountOf(context, eventSlug, draft.discountCode)
      const { status, body } = validationRefusal(error, 'registration')
      return data<RegistrationOutcome>({ draft: tokened, error: body.error, ...(discount ? { discount } : {}) }, { status })
    }
    // A fault of ours: the form comes back filled in with the send-failure message. Sending it again carries the
    // same submission token, so it cannot register twice if the registration was stored before the fault.
    context.get(requestFactsContext).log.error({ err: error }, `Registration for ${eventSlug} failed`)
    return data<RegistrationOutcome>(
      { draft, error: { code: SERVER_FAULT, message: REGISTRATION_SEND_FAILURE, fields: {} } },
      { status: REFUSALS[SERVER_FAULT].status },
    )
  }
}
