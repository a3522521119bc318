// The public routes of the site (docs/product.md, "What a visitor can do"), in one place for the browser tests and the bench.

export const eventPages = [
  '/conference/Resilience',
  '/conference/pfas',
  '/workshop/officeP',
  '/workshop/legalOpinion',
  '/workshop/boardManagement',
  '/workshop/legalSecreatary',
] as const

export const contactPages = [...eventPages.map((event) => `${event}/contact`), '/sponsorship/contact']

export const trainingPages = ['/inhouse-training', '/online-training'] as const

/** Every page a visitor can land on: each answers 200 with a heading in its server HTML. */
export const contentPages: readonly string[] = [
  '/',
  '/workshop',
  '/conference',
  ...eventPages,
  ...contactPages,
  '/terms',
  '/sponsorship',
  '/mission',
  '/vision',
  '/values',
  '/privacy',
  ...trainingPages,
  ...trainingPages.map((training) => `${training}/request`),
]

/** Paths typed in another letter case, and the canonical path each must redirect to permanently. */
export const caseRedirects: ReadonlyArray<readonly [from: string, to: string]> = [
  ['/conference/resilience', '/conference/Resilience'],
  ['/conference/PFAS', '/conference/pfas'],
  ['/workshop/officep', '/workshop/officeP'],
  ['/workshop/legalopinion', '/workshop/legalOpinion'],
  ['/workshop/legalsecreatary', '/workshop/legalSecreatary'],
  ['/workshop/boardmanagement', '/workshop/boardManagement'],
  ['/conference/resilience/contact', '/conference/Resilience/contact'],
  ['/workshop/officep/contact', '/workshop/officeP/contact'],
]
