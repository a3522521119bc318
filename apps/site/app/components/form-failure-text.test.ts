import { describe, expect, it } from 'vitest'
import { NETWORK_FAILURE, SERVER_FAULT, SERVER_FAULT_MESSAGE } from '../lib/form-outcome'
import { contactFailureText } from './ContactForm'
import { trainingFailureText } from './TrainingRequestForm'

const requiredFields = 'Please fill in all required fields before submitting.'
const refusal = (code: string, message: string) => ({ status: 'error' as const, code, message, fields: {}, values: {} })

describe('the words of a form that was not taken', () => {
  it.each([
    ['missing fields', refusal('missing-fields', requiredFields), requiredFields, requiredFields],
    ['a refusal of the limit', refusal('rate-limited', 'Too many submissions.'), 'Too many submissions.', 'Too many submissions.'],
    [
      'a server fault',
      refusal(SERVER_FAULT, SERVER_FAULT_MESSAGE),
      `Failed to send message: ${SERVER_FAULT_MESSAGE}`,
      'Failed to submit request. Please try again.',
    ],
    [
      'no answer',
      refusal(NETWORK_FAILURE, 'Network error. Please try again.'),
      'Network error. Please try again.',
      'There was an error. Please try again later.',
    ],
  ])('%s', (_case, outcome, contact, training) => {
    expect(contactFailureText(outcome)).toBe(contact)
    expect(trainingFailureText(outcome)).toBe(training)
  })
})
