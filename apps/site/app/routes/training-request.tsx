import { pageQuery, type PageQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'
import { data } from 'react-router'
import type { Route } from './+types/training-request'
import { TrainingRequestForm, type TrainingValues } from '../components/TrainingRequestForm'
import { orNetworkFailure } from '../lib/form-outcome'
import { submitTrainingForm } from '../lib/training.server'
import { pageMeta } from '../lib/meta'
import { pageSlug } from '../lib/page-path'
import { servicesContext } from '../lib/services.server'
import { PageHero } from '../components/PageHero'

export async function loader({ context, request }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const slug = pageSlug(request)
  const page = await fetchWholeContent<PageQueryResult>(content, pageQuery, { slug })
  if (!page) throw data('Page not found', { status: 404 })
  return { slug, title: page.title ?? '', siteUrl: config.siteUrl }
}

export async function action({ context, request }: Route.ActionArgs) {
  const kind = pageSlug(request) === 'online-training' ? 'online' : 'inhouse'
  return submitTrainingForm(request, context, kind)
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNetworkFailure<TrainingValues>(serverAction)
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return pageMeta({
    title: `Request ${loaderData.title}`,
    description: `Tell us what ${loaderData.title.toLowerCase()} your organisation needs and we will contact you.`,
    path: `/${loaderData.slug}/request`,
    siteUrl: loaderData.siteUrl,
  })
}

export default function TrainingRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const kind = loaderData.slug === 'online-training' ? 'online' : 'inhouse'
  return (
    <>
      <PageHero title={`Request ${loaderData.title}`} subtitle="Tell us about your team and the training you need." />
      <div className="section">
        <TrainingRequestForm kind={kind} action={`/${loaderData.slug}/request`} outcome={actionData} />
      </div>
    </>
  )
}
