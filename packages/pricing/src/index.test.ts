import { expect, it } from 'vitest'
import * as pricing from './index.ts'

it('exports exactly the runtime values of the pricing contract', () => {
  expect(Object.keys(pricing).sort()).toEqual(
    [
      'DEFAULT_VAT_RATE',
      'OPTION_KEYS',
      'TIME_ZONE',
      'capMessage',
      'checkDelegateCap',
      'delegateCap',
      'formatAmount',
      'formatRand',
      'headline',
      'isOptionKey',
      'isRegistrationOpen',
      'isTableOption',
      'optionAvailability',
      'parseRandAmount',
      'quote',
      'randsToCents',
    ].sort(),
  )
})
