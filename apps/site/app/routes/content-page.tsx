import type { Route } from './+types/content-page'
import { PageSections } from '../components/PageSections'
import { SponsorPackages } from '../components/SponsorPackages'
import { contentRequest, useContent, withLoaderContent } from '../lib/content'
import { loadContentPage } from '../lib/content-page.server'
import { loaderPageMeta } from '../lib/meta'
import { pageSlug } from '../lib/page-path'
import { useSiteSettings } from '../lib/site-settings'
import { PageHero } from '../components/PageHero'

export function loader({ context, request }: Route.LoaderArgs) {
  return loadContentPage(context, request, pageSlug(request) === 'sponsorship' ? [contentRequest('sponsorPackages')] : [])
}

export const meta = loaderPageMeta

export default withLoaderContent(function ContentPage({ loaderData: { slug } }: Route.ComponentProps) {
  const page = useContent(contentRequest('page', { slug }))
  if (!page) return null
  return (
    <>
      <PageHero title={page.title} subtitle={page.subtitle} />
      <div className="section prose">
        <PageSections page={page} />
        {slug === 'privacy' && <InformationOfficer />}
      </div>
      {slug === 'sponsorship' && <SponsorshipPackages />}
    </>
  )
})

function SponsorshipPackages() {
  const packages = useContent(contentRequest('sponsorPackages'))
  return (
    <div className="section section--alt">
      <SponsorPackages heading="Sponsorship packages" intro="" packages={packages} contactHref="/sponsorship/contact" />
    </div>
  )
}

function InformationOfficer() {
  const settings = useSiteSettings()
  const officer = settings?.informationOfficer
  if (!officer) return null
  return (
    <section aria-labelledby="information-officer">
      <h2 id="information-officer">Information officer</h2>
      <p>
        {officer.name}
        {officer.email && (
          <>
            {', '}
            <a href={`mailto:${officer.email}`}>{officer.email}</a>
          </>
        )}
      </p>
    </section>
  )
}
