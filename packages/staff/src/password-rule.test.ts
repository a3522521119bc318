import { describe, expect, it } from 'vitest'
import { passwordProblem } from './password-rule.ts'

const CONTEXT = { email: 'thandeka.mokoena@example.com', name: 'Thandeka Mokoena', companyName: 'Example Events' }

describe('the password rule', () => {
  // Each row: a password and what the refusal must say (null: accepted).
  it.each([
    ['Password123!', 'too easy to guess'],
    ['P@ssw0rd2024', 'too easy to guess'],
    ['Summer2025!!', 'too easy to guess'],
    ['iloveyou1234', 'too easy to guess'],
    ['letmeinletmein', 'too easy to guess'],
    ['qwertyuiopas', 'too easy to guess'],
    ['password1234', 'among the most commonly used'],
    // Leaked passwords that the strength estimate alone takes for strong ones.
    ['perasperaadastra', 'leaked from other websites'],
    ['AvadaKedavra', 'leaked from other websites'],
    ['Gankutsuou1989', 'leaked from other websites'],
    ['call sce setup', 'leaked from other websites'],
    ['Thandeka2025!', 'too easy to guess'],
    ['thandeka.mokoena rules', 'contains your e-mail address'],
    ['short one', 'too short'],
    ['olu picks a phrase 1234', null],
    ['she approves with care', null],
  ])('%s: %s', (password, refusal) => {
    const problem = passwordProblem(password, CONTEXT)
    if (refusal === null) expect(problem).toBeNull()
    else expect(problem).toContain(refusal)
  })

  it('says why a guessable password is refused', () => {
    expect(passwordProblem('P@ssw0rd2024', CONTEXT)).toBe(
      'This password is too easy to guess. This is similar to a commonly used password. Use a longer phrase of unrelated words.',
    )
  })
})
