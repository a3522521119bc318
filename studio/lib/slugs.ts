/** The longest slug generated from a title. */
export const SLUG_MAX_LENGTH = 96

/**
 * An event slug from its title: letters and digits joined by hyphens, accents dropped, lower case
 * ("Économie & Résilience 2026" -> "economie-resilience-2026"). Existing slugs keep their spelling.
 */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '')
}
