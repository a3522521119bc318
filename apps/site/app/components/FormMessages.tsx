import type { ReactNode } from 'react'

/** A field's label for the error summary: the summary links each message to its field. */
export interface SummaryField {
  name: string
  id: string
  label: string
}

/** A field's line in the summary: its message alone when that already names the field ('Phone is required'). */
function summaryLine(label: string, message: string): string {
  return message.startsWith(`${label} `) ? message : `${label}: ${message}`
}

/**
 * The error summary at the top of a form: the leading message and a link to each field with its own message.
 * role="alert" so screen readers announce it when a post comes back with errors.
 */
export function ErrorSummary({ title, fields, messages }: { title: string; fields: SummaryField[]; messages: Record<string, string> }) {
  const listed = fields.filter((field) => messages[field.name])
  return (
    <div className="form__summary" role="alert" tabIndex={-1}>
      <p className="form__summary-title">{title}</p>
      {listed.length > 0 && (
        <ul>
          {listed.map((field) => (
            <li key={field.name}>
              <a href={`#${field.id}`}>{summaryLine(field.label, messages[field.name] ?? '')}</a>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** A success message in the page, announced politely. */
export function SuccessMessage({ children }: { children: ReactNode }) {
  return (
    <div className="form__success" role="status">
      {children}
    </div>
  )
}

/** The invisible field robots fill in and people never see (not even screen reader users: it is hidden from them too). */
export function HoneypotField({ idPrefix }: { idPrefix: string }) {
  return (
    <div className="form__trap" aria-hidden="true">
      <label htmlFor={`${idPrefix}-honeypot`}>Leave this field empty</label>
      <input id={`${idPrefix}-honeypot`} name="honeypot" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
