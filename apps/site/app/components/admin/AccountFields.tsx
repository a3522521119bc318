import { FieldRow } from './FormControls'

/** The member's current password, asked for to sign in or before a change to their sign-in; `id` when a page has two. */
export function CurrentPasswordField({ label, id = 'password' }: { label: string; id?: string }) {
  return (
    <FieldRow id={id} label={label}>
      <input id={id} name="password" type="password" autoComplete="current-password" required />
    </FieldRow>
  )
}

/**
 * The six-digit code an authenticator app shows, to sign in or to confirm setting two-factor sign-in up; at sign-in
 * one of the member's backup codes is accepted instead.
 */
export function AuthenticatorCodeField({ autoFocus = false, acceptBackupCode = false }: { autoFocus?: boolean; acceptBackupCode?: boolean }) {
  return (
    <FieldRow id="code" label="Code from your authenticator app">
      <input
        id="code"
        name="code"
        inputMode={acceptBackupCode ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        required
        autoFocus={autoFocus}
        aria-describedby={acceptBackupCode ? 'code-hint' : undefined}
      />
      {acceptBackupCode ? <p id="code-hint">No phone at hand? Type one of your backup codes instead: each works once.</p> : null}
    </FieldRow>
  )
}

/** A new password with the rule it must meet, and the same again. */
export function NewPasswordFields({ minLength, label = 'New password' }: { minLength: number; label?: string }) {
  return (
    <>
      <FieldRow id="new-password" label={label}>
        <input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          required
          aria-describedby="new-password-hint"
        />
        <p id="new-password-hint">
          At least {minLength} characters; not a commonly used or easily guessed password (a word, a season or a name with a year), and not containing your
          e-mail address or the company’s name. A short sentence of unrelated words is easy to remember.
        </p>
      </FieldRow>
      <FieldRow id="confirmation" label="The same password again">
        <input id="confirmation" name="confirmation" type="password" autoComplete="new-password" minLength={minLength} required />
      </FieldRow>
    </>
  )
}
