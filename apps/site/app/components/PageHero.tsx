import type { ReactNode } from 'react'

/** The band at the top of a page: its heading, and the subtitle or lead paragraph under it. */
export function PageHero({ title, subtitle, children }: { title: ReactNode; subtitle?: string | null; children?: ReactNode }) {
  return (
    <section className="page-hero">
      <h1>{title}</h1>
      {subtitle && <p>{subtitle}</p>}
      {children}
    </section>
  )
}
