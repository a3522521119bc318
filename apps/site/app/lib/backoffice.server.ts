import {
  getRegistrationDetail,
  isBackOfficeError,
  type BackOfficeError,
  isValidationError,
  parseSubmission,
  type ActingStaff,
  type BackOfficeContext,
  type RegistrationDetail,
  type StaffActor,
  type StaffCommand,
  type StaffCommandContext,
} from '@events/core'
import { backOfficeRefusal, validationRefusal } from './refusals'
import { isoDayOf } from './admin-format'
import { staffAuditWriter, type AuditActor, type StaffUser } from '@events/staff'
import { data, type RouterContextProvider } from 'react-router'
import { fromDatabase } from './database.server'
import { requestFactsContext, servicesContext } from './services.server'

type Context = Readonly<RouterContextProvider>

/** The signed-in member as the core records them (`recorded_by`) and as the audit log names them. */
export function actingStaff(user: StaffUser): { staff: ActingStaff; actor: AuditActor } {
  return { staff: { id: user.id, name: user.name }, actor: { id: user.id, email: user.email } }
}

/** The signed-in member as core's staff commands take them: with their role and the address this request came from. */
export function staffActor(context: Context, user: StaffUser): StaffActor {
  const { clientIp } = context.get(requestFactsContext)
  return { id: user.id, name: user.name, email: user.email, role: user.role, ipAddress: clientIp }
}

/** What core's staff commands run with: the back office's context, the staff package's audit log, and the outbox to wake. */
export function commandContext(context: Context): StaffCommandContext {
  const { core } = context.get(servicesContext)
  return { ...core.backOffice, audit: staffAuditWriter, onMailQueued: () => core.outbox.wake() }
}

/** The core's back-office functions' view of the site: its database, content, addresses and business clock. */
export function backOfficeContext(context: Context): BackOfficeContext {
  return context.get(servicesContext).core.backOffice
}

/** Reads through one of the core's back-office functions, with the database's faults answered as every page answers them. */
export function readBackOffice<Result>(context: Context, read: (backOffice: BackOfficeContext) => Promise<Result>): Promise<Result> {
  return fromDatabase(context, () => read(backOfficeContext(context)))
}

/** An event's back-office screen, read for the event in the address (`:eventId`); 404 when there is no such event. */
export async function eventScreenOr404<Screen>(
  context: Context,
  eventId: string,
  read: (backOffice: BackOfficeContext, eventId: string) => Promise<Screen | undefined>,
): Promise<Screen> {
  const screen = await readBackOffice(context, (backOffice) => read(backOffice, eventId))
  if (!screen) throw data('No such event.', { status: 404 })
  return screen
}

/** A registration the back office works on, by the reference in its address; 404 when there is none. */
export async function registrationOr404(context: Context, reference: string): Promise<RegistrationDetail> {
  const detail = await readBackOffice(context, (backOffice) => getRegistrationDetail(backOffice, reference))
  if (!detail) throw data(`No registration has the reference ${reference}.`, { status: 404 })
  return detail
}

/** Today's date in Johannesburg by the business clock (SITE_DATE aware), as YYYY-MM-DD. */
export function businessToday(context: Context): string {
  return isoDayOf(context.get(servicesContext).config.now().toISOString())
}

/** True once an event has started by the business clock: its registration can no longer be changed. */
export function hasStarted(context: Context, eventStart: string): boolean {
  return context.get(servicesContext).config.now().getTime() >= new Date(eventStart).getTime()
}

/** Appends a back-office change to the audit log: who made it, from which address, and the subject before and after. */
export async function auditChange(
  context: Context,
  user: StaffUser,
  change: { action: string; subjectType: string; subjectId: string; before?: unknown; after?: unknown },
): Promise<void> {
  const { staff } = context.get(servicesContext)
  const { clientIp } = context.get(requestFactsContext)
  await fromDatabase(context, () => staff.recordAudit({ actor: { id: user.id, email: user.email }, ipAddress: clientIp, ...change }))
}

/** Why a change was refused, in staff's words, with the message of each field at fault. */
interface Refusal {
  status: number
  message: string
  fields: Record<string, string>
}

/**
 * A refusal in one sentence, for a small form that shows its message above it rather than beside a field: the field's
 * own message when one field is at fault.
 */
export function refusalSentence(refusal: Refusal): string {
  return Object.values(refusal.fields)[0] ?? refusal.message
}

/** The summary above a form whose refusal names one field: the message itself stands beside that field. */
export const NOTHING_CHANGED = 'Nothing was changed. Correct the field marked below and send the form again.'

/** A refused back-office change in staff's words: beside its field when it names one, else above the form. */
function backOfficeRefusalOf(error: BackOfficeError, fieldNames: Record<string, string>): { ok: false } & Refusal {
  const { status, message, field } = backOfficeRefusal(error)
  if (!field) return { ok: false, status, message, fields: {} }
  return { ok: false, status, message: NOTHING_CHANGED, fields: { [fieldNames[field] ?? field]: message } }
}

/**
 * Runs a back-office change: its result, or the refusal to show in the form (a BackOfficeError or the registration
 * form's own ValidationError). `fieldNames` maps the core's field names to the form's where they differ. Database
 * faults answer 503; other errors go on.
 */
export async function attemptChange<Result>(
  context: Context,
  run: () => Promise<Result>,
  fieldNames: Record<string, string> = {},
): Promise<{ ok: true; value: Result } | ({ ok: false } & Refusal)> {
  try {
    return { ok: true, value: await fromDatabase(context, run) }
  } catch (error) {
    if (isValidationError(error)) {
      // The company details and delegates are the registration form's fields, refused in its words.
      const { status, body } = validationRefusal(error, 'registration')
      const fields = Object.fromEntries(Object.entries(body.error.fields).map(([name, message]) => [fieldNames[name] ?? name, message]))
      return { ok: false, status, message: body.error.message, fields }
    }
    if (isBackOfficeError(error)) return backOfficeRefusalOf(error, fieldNames)
    throw error
  }
}

/**
 * Runs one of core's staff commands for the signed-in member with a form's values. The values are parsed with the
 * command's own schema first, so a form with fields at fault is answered 400 with each field's message before the
 * database is asked; then the command writes its change and its audit row in one transaction. A refusal comes back in
 * staff's words (`refusals.ts`), its field messages under the form's names (`fieldNames` maps the command's names to
 * the form's where they differ). Database faults answer 503; other errors go on.
 */
export async function runStaffCommand<Input, Result>(
  context: Context,
  user: StaffUser,
  command: StaffCommand<Input, Result>,
  input: Record<string, unknown>,
  fieldNames: Record<string, string> = {},
): Promise<{ ok: true; value: Result } | ({ ok: false } & Refusal)> {
  try {
    parseSubmission(command.schema, input)
    return { ok: true, value: await fromDatabase(context, () => command(commandContext(context), input, staffActor(context, user))) }
  } catch (error) {
    if (isValidationError(error)) {
      const { body } = validationRefusal(error, 'back-office')
      const fields = Object.fromEntries(Object.entries(body.error.fields).map(([name, message]) => [fieldNames[name] ?? name, message]))
      return { ok: false, status: 400, message: Object.keys(fields).length > 0 ? NOTHING_CHANGED : body.error.message, fields }
    }
    if (isBackOfficeError(error)) return backOfficeRefusalOf(error, fieldNames)
    throw error
  }
}

/** Where a registration's page is, with the notice of what was just recorded (read by that page). */
export function registrationPagePath(reference: string, recorded: 'payment' | 'surplus' | 'delegate' | 'company' | 'invoice-corrected'): string {
  return `/admin/registrations/${encodeURIComponent(reference)}?recorded=${recorded}`
}
