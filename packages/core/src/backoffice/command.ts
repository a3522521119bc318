import type { Transaction } from 'kysely'
import type * as z from 'zod/mini'
import type { Database } from '../db/database.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { wallClock, type ActingStaff, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'

/** The roles a staff member can hold; commands that need more than `staff` re-check it on the server. */
export type StaffRoleName = 'owner' | 'manager' | 'staff'

/** The roles from the most to the least trusted. */
export const STAFF_ROLE_ORDER: readonly StaffRoleName[] = ['owner', 'manager', 'staff']

/** Whether a member of `role` may do what needs `required`: an owner may do everything, a manager what staff and managers may. */
export function roleAllows(role: StaffRoleName, required: StaffRoleName): boolean {
  return STAFF_ROLE_ORDER.indexOf(role) <= STAFF_ROLE_ORDER.indexOf(required)
}

/** Refuses an actor whose role is below `required` ('role-required'), whatever screen or route let the request through. */
export function requireRole(actor: StaffActor, required: StaffRoleName): void {
  if (!roleAllows(actor.role, required)) {
    throw new BackOfficeError('role-required', {
      role: required,
    })
  }
}

/** The staff member a command acts for, as the site's sign-in knows them, with the address their request came from. */
export interface StaffActor extends ActingStaff {
  email: string
  role: StaffRoleName
  /** The client's IP address, kept with the audit row; null where there is none (the command line). */
  ipAddress: string | null
}

/** One row of the audit log a command writes: what happened to which subject, before and after. */
export interface AuditedChange {
  /** A verb in kebab case, e.g. `registration-payment-recorded`. */
  action: string
  subjectType: string
  subjectId: string
  before?: unknown
  after?: unknown
}

/** An audit row as the writer receives it: the change, who made it and when. */
export interface AuditRow extends AuditedChange {
  actor: StaffActor
  at: Date
}

/**
 * Writes one audit row through the command's own transaction, so the row commits or rolls back with the change.
 * The package that owns the audit log (`@events/staff`) provides it; core never touches that table itself.
 */
export type AuditWriter = (transaction: Transaction<Database>, row: AuditRow) => Promise<void>

/** What a staff command needs: the back office's context, where its audit rows go, and whom to tell of queued mail. */
export interface StaffCommandContext extends BackOfficeContext {
  audit: AuditWriter
  /** Told after the commit when a command queued e-mail, so the outbox sends it now rather than at its next poll. */
  onMailQueued?: (() => void) | undefined
}

/** What a command's change answers inside its transaction: its result, the audit rows to write, and whether mail was queued. */
export interface CommandOutcome<Result> {
  result: Result
  audit: readonly AuditedChange[]
  mailQueued?: boolean
  /** What follows once the change has committed, in transactions of its own (certificates a payment released). */
  afterCommit?: (() => Promise<void>) | undefined
}

/** The transactional part of a command: the change, run with the transaction it must use for every query. */
export type CommandChange<Result> = (transaction: Transaction<Database>) => Promise<CommandOutcome<Result>>

/**
 * A command's handler: it reads what the change needs outside the transaction (settings, the clocks), then answers
 * the change itself. Refusals are thrown: a `ValidationError` naming fields, or a `BackOfficeError` with a code.
 */
export type CommandHandler<Input, Result> = (context: StaffCommandContext, input: Input, actor: StaffActor) => Promise<CommandChange<Result>>

/** A staff command: called with the context, the input as a form or caller sends it, and the actor. */
export interface StaffCommand<Input, Result> {
  (context: StaffCommandContext, input: unknown, actor: StaffActor): Promise<Result>
  /** The one schema of its input; the route parses the posted form with it too. */
  readonly schema: z.ZodMiniType<Input>
}

export interface StaffCommandOptions<Input> {
  /** The least role the actor must hold; checked before anything is read or written. */
  role?: StaffRoleName
  /** The refusal a failed transaction means (a unique index's violation as the duplicate it is); undefined to rethrow it. */
  explainFailure?: (error: unknown, input: Input, context: StaffCommandContext) => Promise<Error | undefined>
}

/**
 * Runs a change and its audit rows in one write transaction: both are kept, or neither. Mail queued by the change is
 * announced once the transaction has committed, and then what the change left to follow it (`afterCommit`) runs.
 */
export async function runInCommandTransaction<Result>(context: StaffCommandContext, actor: StaffActor, change: CommandChange<Result>): Promise<Result> {
  const at = wallClock(context)
  const { result, mailQueued, afterCommit } = await context.db.writeTransaction(async (transaction) => {
    const outcome = await change(transaction)
    for (const entry of outcome.audit) await context.audit(transaction, { ...entry, actor, at })
    return outcome
  })
  if (mailQueued) context.onMailQueued?.()
  await afterCommit?.()
  return result
}

/**
 * Declares a staff command (the Action → Handler shape): its input is parsed with `schema` (a `ValidationError` with
 * codes and field paths when it does not pass), then the handler's change and its audit rows run in one transaction.
 */
export function staffCommand<Input, Result>(
  schema: z.ZodMiniType<Input>,
  handler: CommandHandler<Input, Result>,
  options: StaffCommandOptions<Input> = {},
): StaffCommand<Input, Result> {
  const command = async (context: StaffCommandContext, input: unknown, actor: StaffActor): Promise<Result> => {
    if (options.role) requireRole(actor, options.role)
    const parsed = parseSubmission(schema, input)
    const change = await handler(context, parsed, actor)
    try {
      return await runInCommandTransaction(context, actor, change)
    } catch (error) {
      throw (await options.explainFailure?.(error, parsed, context)) ?? error
    }
  }
  return Object.assign(command, { schema })
}
