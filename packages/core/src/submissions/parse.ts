import type * as z from 'zod/mini'
import { ValidationError } from '../errors.ts'
import { isRecord } from '../validation/fields.ts'
import { FIELD_ISSUE_CODES, type FieldIssue, type FieldIssueCode, type MissingFieldCode } from './fields.ts'

function isFieldIssueCode(value: string): value is FieldIssueCode {
  return (FIELD_ISSUE_CODES as readonly string[]).includes(value)
}

/** A zod issue as a stable code and the field's dotted path ('delegates.0.email'), with the limit it names. */
export function fieldIssueOf(issue: z.core.$ZodIssue): FieldIssue {
  // Every check of the schemas carries its code as its message; anything else is a shape no form sends.
  if (!isFieldIssueCode(issue.message)) throw new ValidationError('invalid-request')
  const path = issue.path.join('.')
  if (issue.code === 'too_big') return { path, code: issue.message, maximum: Number(issue.maximum) }
  if (issue.code === 'custom' && typeof issue.params?.cap === 'number') return { path, code: issue.message, cap: issue.params.cap }
  return { path, code: issue.message }
}

/**
 * Parses a submission with its schema. A body that is not an object is 'invalid-request'; failed rules are one
 * ValidationError listing every field's issue, coded 'missing-fields' when a field is missing, else as its first issue.
 */
export function parseSubmission<Output>(schema: z.ZodMiniType<Output>, input: unknown): Output {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issues = result.error.issues.map(fieldIssueOf)
  if (issues.some(isMissing)) throw new ValidationError('missing-fields', issues)
  const first = issues.find(isRefusal)
  throw new ValidationError(first?.code ?? 'invalid-request', issues)
}

function isMissing(issue: FieldIssue): issue is FieldIssue & { code: MissingFieldCode } {
  return issue.code === 'required' || issue.code === 'not-accepted'
}

function isRefusal(issue: FieldIssue): issue is FieldIssue & { code: Exclude<FieldIssueCode, MissingFieldCode> } {
  return !isMissing(issue)
}
