import { describe, expect, it } from 'vitest'
import { foldForSearch } from './search-fold.ts'

describe('foldForSearch', () => {
  it.each([
    ['Séan', 'sean'],
    ['Müller', 'muller'],
    ['ÉMILE Dubois', 'emile dubois'],
    ['Łukasz Żółć', 'lukasz zolc'],
    ['Nkosi', 'nkosi'],
    ['100% a_e', '100% a_e'],
  ])('reads %s as %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded)
  })
})
