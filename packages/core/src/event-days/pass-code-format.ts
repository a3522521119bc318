// Pass codes as people read and type them, free of Node so the check-in desk in the browser reads codes by the same
// rule as the server (its offline list).

/** Letters and digits that cannot be mistaken for one another when read aloud or typed from a phone: no 0/O, 1/I. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'
export const CODE_LENGTH = 8

/** A pass code as people read it: `K7M2-Q9XD`. */
export function formatPassCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/**
 * A pass code as typed or scanned, in the stored form: upper case, without spaces or dashes; undefined when it cannot
 * be one (wrong length or a letter the codes never use).
 */
export function normalisePassCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, '')
  if (code.length !== CODE_LENGTH) return undefined
  for (const letter of code) if (!CODE_ALPHABET.includes(letter)) return undefined
  return code
}
