import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'
import type { Route } from './+types/training-page'
import { Modal } from '../components/Modal'
import { PageSections } from '../components/PageSections'
import { contentRequest, useContent, withLoaderContent } from '../lib/content'
import { loadContentPage } from '../lib/content-page.server'
import { loaderPageMeta } from '../lib/meta'
import { PageHero } from '../components/PageHero'

// The request form's code loads after the page: the dialog starts closed, and its server-rendered form posts on its own.
const TrainingRequestForm = lazy(() => import('../components/TrainingRequestForm').then((module) => ({ default: module.TrainingRequestForm })))

export function loader({ context, request }: Route.LoaderArgs) {
  return loadContentPage(context, request)
}

export const meta = loaderPageMeta

export default withLoaderContent(function TrainingPage({ loaderData: { slug } }: Route.ComponentProps) {
  const page = useContent(contentRequest('page', { slug }))
  const [requestOpen, setRequestOpen] = useState(false)
  if (!page) return null
  const kind = slug === 'online-training' ? 'online' : 'inhouse'
  return (
    <>
      <PageHero title={page.title} subtitle={page.subtitle} />
      <div className="section prose">
        <PageSections page={page} />
        <p>
          {/* Without JavaScript the link opens the request page; with it, the same form opens in a dialog. */}
          <Link
            to={`/${slug}/request`}
            className="button button--accent"
            aria-haspopup="dialog"
            onClick={(event) => {
              event.preventDefault()
              setRequestOpen(true)
            }}
          >
            Request a training proposal
          </Link>
        </p>
      </div>
      <Modal open={requestOpen} onClose={() => setRequestOpen(false)} title={`Request a training proposal: ${page.title}`}>
        <Suspense>
          <TrainingRequestForm kind={kind} action={`/${slug}/request`} />
        </Suspense>
      </Modal>
    </>
  )
})
