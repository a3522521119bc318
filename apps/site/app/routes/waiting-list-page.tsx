import type { Route } from './+types/waiting-list-page'
import { PageHero } from '../components/PageHero'
import { WaitingListForm, type WaitingListValues } from '../components/WaitingListForm'
import { eventKindOfRoute } from '../lib/event-kind'
import { orNetworkFailure } from '../lib/form-outcome'
import { pageMeta } from '../lib/meta'
import { submitWaitingListForm, waitingListEvent } from '../lib/waiting-list.server'
import { servicesContext } from '../lib/services.server'

/**
 * A sold-out event's waiting list as a page of its own: where the Register tab's waiting-list form posts, so without
 * JavaScript the visitor sees its errors (with what they typed) or its thank-you here.
 */
export async function loader({ context, params, pattern }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext)
  const kind = eventKindOfRoute(pattern)
  const { event, attendances } = await waitingListEvent(context, kind, params.slug)
  return { title: event.title, attendances, path: `/${kind}/${event.slug}/waiting-list`, eventPath: `/${kind}/${event.slug}`, siteUrl: config.siteUrl }
}

export async function action({ context, request, params }: Route.ActionArgs) {
  return submitWaitingListForm(request, context, params.slug)
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNetworkFailure<WaitingListValues>(serverAction)
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return pageMeta({
    title: `Waiting list: ${loaderData.title}`,
    description: `Join the waiting list of ${loaderData.title}: we e-mail you when seats are free.`,
    path: loaderData.path,
    siteUrl: loaderData.siteUrl,
  })
}

export default function WaitingListPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero title="Join the waiting list" subtitle={loaderData.title} />
      <div className="section">
        <p className="lead">
          When seats of <a href={loaderData.eventPath}>{loaderData.title}</a> are given back, we offer them in the order people joined, by e-mail.
        </p>
        <WaitingListForm action={loaderData.path} attendances={loaderData.attendances} outcome={actionData} />
      </div>
    </>
  )
}
