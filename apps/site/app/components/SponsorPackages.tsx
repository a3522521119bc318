import { sponsorBenefitLines, type SponsorPackageBenefits } from '@events/content/browser'
import { useId } from 'react'
import { Link } from 'react-router'

export type SponsorPackage = SponsorPackageBenefits & {
  _id: string
  title: string | null
  /** 1 is the top tier. */
  rank: number | null
}

export type SponsorPackagesProps = {
  heading: string | null
  intro: string | null
  packages: readonly SponsorPackage[]
  /** Where 'Become a Sponsor' leads: the event's contact form asking for sponsorship, e.g. /conference/Resilience/contact?interest=Sponsorship. */
  contactHref: string
}

/** Packages from the top tier down; unranked packages come last, in the order given. */
export function byRank(packages: readonly SponsorPackage[]): SponsorPackage[] {
  return packages.toSorted((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity))
}

/** The Sponsor tab: heading, introduction, the sponsor packages by rank and the way to become a sponsor. */
export function SponsorPackages({ heading, intro, packages, contactHref }: SponsorPackagesProps) {
  const headingId = useId()
  return (
    <section className="sponsor-packages" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading ?? 'Sponsorship'}</h2>
      {intro && <p className="sponsor-packages__intro preserve-lines">{intro}</p>}
      <ul className="sponsor-packages__list">
        {/* The step of the ladder (1 the top tier, 3 and below the rest) sets the card's weight: the tiers read at a glance. */}
        {byRank(packages).map((sponsorPackage, index) => (
          <li key={sponsorPackage._id} className="sponsor-package" data-step={Math.min(index + 1, 3)}>
            <h3 className="sponsor-package__title">{sponsorPackage.title}</h3>
            <ul className="sponsor-package__benefits">
              {sponsorBenefitLines(sponsorPackage).map((benefit, index) => (
                <li key={index}>{benefit}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <Link to={contactHref} className="button button--accent sponsor-packages__cta">
        Become a Sponsor
      </Link>
    </section>
  )
}
