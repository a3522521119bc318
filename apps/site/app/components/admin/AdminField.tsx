import type { HTMLInputTypeAttribute, ReactNode } from 'react'
import { FieldRow } from './FormControls'

interface AdminFieldProps {
  /** The field's name in the posted form; its id is `field-{name}`. */
  name: string
  label: string
  /** What the form shows: what was typed when a post came back refused, else the stored value. */
  value: string
  /** The refusal's message for this field, shown beside it and announced with it. */
  error?: string | undefined
  hint?: ReactNode
  type?: HTMLInputTypeAttribute
  multiline?: boolean
  required?: boolean
  autoComplete?: string
  inputMode?: 'text' | 'decimal' | 'email' | 'tel'
  /** A date field's earliest and latest day (YYYY-MM-DD), offered by the browser's date picker; the server checks them too. */
  min?: string
  max?: string
}

/** The id a back-office form gives a field, which the error summary links to. */
export function adminFieldId(name: string): string {
  return `field-${name}`
}

/** One labelled back-office form field, with its hint and the message of a refused post tied to it for screen readers. */
export function AdminField({
  name,
  label,
  value,
  error,
  hint,
  type = 'text',
  multiline = false,
  required = true,
  autoComplete = 'off',
  inputMode,
  min,
  max,
}: AdminFieldProps) {
  const id = adminFieldId(name)
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  const shared = { id, name, defaultValue: value, required, autoComplete, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy }
  return (
    <FieldRow id={id} label={label}>
      {hint ? (
        <p className="form__notice" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {multiline ? <textarea rows={4} {...shared} /> : <input type={type} inputMode={inputMode} min={min} max={max} {...shared} />}
      {error ? (
        <p className="form__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </FieldRow>
  )
}
