import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Form, useFetcher, useSubmit } from 'react-router'
import { AdminMessages } from './AdminMessages'
import { SubmitButton } from './FormControls'

/** What a page's action answers to the first step of a passkey ceremony: the browser's options, or a refusal. */
export type PasskeyOptionsResult = { passkeyOptions: unknown; error: null } | { passkeyOptions: null; error: string }

const CANCELLED: Record<'add' | 'sign-in', string> = {
  add: 'The passkey was not added: your browser or device cancelled it, or it is on this account already. Try again.',
  'sign-in': 'No passkey was used: your browser or device cancelled it. Try again, or sign in with your password and code.',
}

/**
 * A form that makes (`add`) or uses (`sign-in`) a passkey. With WebAuthn, submitting it first posts `beginIntent` to
 * the page for the ceremony's options (keeping the form's other fields), asks the browser, then posts `intent` with
 * the browser's answer as `response`. Without JavaScript the form posts `intent` with no answer, which the page
 * refuses in words; the password forms beside it keep working.
 */
export function PasskeyForm({
  ceremony,
  beginIntent,
  intent,
  submitLabel,
  children,
}: {
  ceremony: 'add' | 'sign-in'
  beginIntent: string
  intent: string
  submitLabel: string
  children?: ReactNode
}) {
  const options = useFetcher<PasskeyOptionsResult>()
  const submit = useSubmit()
  const form = useRef<HTMLFormElement>(null)
  const [supported, setSupported] = useState<boolean | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => setSupported(browserSupportsWebAuthn()), [])

  // Each set of options is used once: a later render with the same answer starts no second ceremony.
  const used = useRef<unknown>(null)
  useEffect(() => {
    const optionsJSON = options.data?.passkeyOptions
    const element = form.current
    if (options.state !== 'idle' || !optionsJSON || !element || used.current === optionsJSON) return
    used.current = optionsJSON
    // The options are the library's own JSON for this ceremony; the browser checks them as it uses them.
    const asked =
      ceremony === 'add'
        ? startRegistration({ optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]['optionsJSON'] })
        : startAuthentication({ optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]['optionsJSON'] })
    asked.then(
      (answer) => {
        const fields = new FormData(element)
        fields.set('intent', intent)
        fields.set('response', JSON.stringify(answer))
        void submit(fields, { method: 'post' })
      },
      () => setProblem(CANCELLED[ceremony]),
    )
  }, [options.data, options.state, ceremony, intent, submit])

  return (
    <Form
      method="post"
      className="form"
      ref={form}
      onSubmit={(event) => {
        if (!supported) return
        event.preventDefault()
        setProblem(null)
        const fields = new FormData(event.currentTarget)
        fields.set('intent', beginIntent)
        void options.submit(fields, { method: 'post' })
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="response" value="" />
      {children}
      {supported === false ? (
        <p>This browser cannot use passkeys. Use a browser that supports them, or sign in with your password and code.</p>
      ) : supported === null ? (
        <p>Passkeys need JavaScript. Without it, sign in with your password and code.</p>
      ) : null}
      <AdminMessages error={problem ?? options.data?.error} />
      <SubmitButton secondary disabled={supported === false || options.state !== 'idle'}>
        {submitLabel}
      </SubmitButton>
    </Form>
  )
}
