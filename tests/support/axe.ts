import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** The WCAG 2.2 AA rule set the site promises (docs/product.md, "What the site promises"). */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** Runs axe on the page and describes each violation with its rule, impact and offending elements. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
  return results.violations.map((violation) => {
    const elements = violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n')
    return `${violation.id} (${violation.impact ?? 'unknown impact'}): ${violation.help}\n${elements}`
  })
}
