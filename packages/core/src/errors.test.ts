import { describe, expect, it } from 'vitest'
import { BackOfficeError, isBackOfficeError } from './backoffice/errors.ts'
import { CodedError, isValidationError, ValidationError } from './errors.ts'

describe('coded errors', () => {
  it('keep their own name, code and message, and stay told apart by their class', () => {
    const refused = new BackOfficeError('duplicate-bank-reference', { reference: '7KQ2M9XA' }, 'bankReference')
    expect([refused.name, refused.code, refused.message, refused.field, refused.details]).toEqual([
      'BackOfficeError',
      'duplicate-bank-reference',
      'duplicate-bank-reference {"reference":"7KQ2M9XA"}',
      'bankReference',
      { reference: '7KQ2M9XA' },
    ])
    expect(refused).toBeInstanceOf(CodedError)
    expect(isBackOfficeError(refused)).toBe(true)
    expect(isValidationError(refused)).toBe(false)

    const invalid = new ValidationError('missing-fields', [{ path: 'company.name', code: 'required' }])
    expect([invalid.name, invalid.code, invalid.message]).toEqual([
      'ValidationError',
      'missing-fields',
      'Submission refused: missing-fields (company.name: required)',
    ])
    expect(isValidationError(invalid)).toBe(true)
    expect(isBackOfficeError(invalid)).toBe(false)
  })
})
