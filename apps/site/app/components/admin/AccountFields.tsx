import { FieldRow } from './FormControls'

/** The member's current password, asked for to sign in or before a change to their sign-in. */
export function CurrentPasswordField({ label }: { label: string }) {
  return (
    <FieldRow id="password" label={label}>
      <input id="password" name="password" type="password" autoComplete="current-password" required />
    </FieldRow>
  )
}

/** The six-digit code an authenticator app shows, to sign in or to confirm setting two-factor sign-in up. */
export function AuthenticatorCodeField({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <FieldRow id="code" label="Code from your authenticator app">
      <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus={autoFocus} />
    </FieldRow>
  )
}
