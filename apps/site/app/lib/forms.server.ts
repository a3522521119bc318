import { isValidationError, ValidationError } from '@events/core'
import { data, type RouterContextProvider } from 'react-router'
import { SERVER_FAULT, SERVER_FAULT_MESSAGE, type FormOutcome } from './form-outcome'
import { REFUSALS, validationRefusal, type SubmissionKind } from './refusals'
import { requestFactsContext, servicesContext } from './services.server'

/** Reads a posted form; a body that is not a readable form is the visitor's 400, not a server fault. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw new ValidationError('invalid-request')
  }
}

/** The text fields of a form as a plain object (files and repeated names are not part of any of our forms). */
export function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [name, value] of form) {
    if (typeof value === 'string' && !(name in values)) values[name] = value
  }
  return values
}

/** Counts a form submission against the per-IP limit (FORM_RATE_LIMIT); throws 'rate-limited' when it is spent. */
export async function countSubmission(context: Readonly<RouterContextProvider>): Promise<void> {
  const { core } = context.get(servicesContext)
  const { clientIp } = context.get(requestFactsContext)
  if (!(await core.formRateLimiter.check(clientIp)).allowed) throw new ValidationError('rate-limited')
}

function failure<Values>(error: ValidationError, kind: SubmissionKind, values: Values) {
  const { status, body } = validationRefusal(error, kind)
  return data<FormOutcome<Values>>({ status: 'error', ...body.error, values }, { status })
}

/**
 * Reads a posted form and runs a submission (`kind`) with its text fields, turning a validation failure into the
 * error outcome with its HTTP status, in the form's words, and what the visitor typed, so the page can show both. A fault of ours (the
 * database unreachable, say) is logged and answered 503 with the same form still filled in, so the visitor
 * can send it again rather than type it again.
 */
export async function handleForm<Values extends Record<string, string>>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  kind: SubmissionKind,
  emptyValues: Values,
  submit: (values: Values, form: FormData) => Promise<FormOutcome<Values>>,
) {
  let form: FormData
  try {
    form = await readForm(request)
  } catch (error) {
    if (isValidationError(error)) return failure(error, kind, emptyValues)
    throw error
  }
  const submitted = formValues(form)
  const values = Object.fromEntries(Object.keys(emptyValues).map((name) => [name, submitted[name] ?? ''])) as Values
  try {
    return await submit(values, form)
  } catch (error) {
    if (isValidationError(error)) return failure(error, kind, values)
    context.get(requestFactsContext).log.error({ err: error }, `Form submission to ${new URL(request.url).pathname} failed`)
    return data<FormOutcome<Values>>(
      { status: 'error', code: SERVER_FAULT, message: SERVER_FAULT_MESSAGE, fields: {}, values },
      { status: REFUSALS[SERVER_FAULT].status },
    )
  }
}
