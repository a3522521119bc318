import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of the page being rendered, provided by the server entry. Empty in the browser:
 * browsers hide nonces from the DOM, and scripts added after the first render are allowed by 'strict-dynamic'.
 */
export const NonceContext = createContext('')

export function useNonce(): string {
  return useContext(NonceContext)
}
