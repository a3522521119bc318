import type { ButtonHTMLAttributes, ReactNode } from 'react'

/** A form field's row: its label, tied to the control by `id`, then the control (and any hint or message) given. */
export function FieldRow({ id, label, className, children }: { id: string; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `form__field ${className}` : 'form__field'}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  )
}

/** The options of a select, from its values and their names. */
export function Options({ choices }: { choices: ReadonlyArray<readonly [value: string, name: string]> }) {
  return choices.map(([value, name]) => (
    <option key={value} value={value}>
      {name}
    </option>
  ))
}

/** A form's submit button; `secondary` for the quieter look of a lesser action. */
export function SubmitButton({ secondary = false, ...button }: { secondary?: boolean } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'>) {
  return <button type="submit" className={secondary ? 'button button--secondary' : 'button'} {...button} />
}
