import { joiningScreen, saveJoiningInstructions } from '@events/core'
import { data, Form } from 'react-router'
import { AdminField, adminFieldId } from '../../components/admin/AdminField'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTime } from '../../components/admin/AdminTime'
import { SubmitButton } from '../../components/admin/FormControls'
import { ErrorSummary } from '../../components/FormMessages'
import { adminMeta } from '../../lib/admin-meta'
import { formatAdminDay } from '../../lib/admin-format'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { eventScreenOr404, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/joining'

export function meta({ loaderData }: Route.MetaArgs) {
  return adminMeta(loaderData ? `Joining instructions: ${loaderData.screen.event.title}` : 'Joining instructions')
}

const dayField = (day: string) => `dayMeetingUrl-${day}`

const screenOr404 = (args: Route.LoaderArgs | Route.ActionArgs) => eventScreenOr404(args.context, args.params.eventId, joiningScreen)

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  return data({ screen: await screenOr404(args) }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const { days } = await screenOr404(args)
  const values = {
    venueInstructions: formText(form, 'venueInstructions'),
    meetingUrl: formText(form, 'meetingUrl'),
    dayMeetingUrls: Object.fromEntries(days.map((day) => [day, formText(form, dayField(day))])),
  }
  const fieldNames = Object.fromEntries(days.map((day) => [`dayMeetingUrls.${day}`, dayField(day)]))
  const saved = await runStaffCommand(args.context, user, saveJoiningInstructions, { eventId: args.params.eventId, ...values }, fieldNames)
  if (!saved.ok) return data({ saved: false as const, message: saved.message, fields: saved.fields, values }, { status: saved.status, headers })
  return data({ saved: true as const }, { headers })
}

export default function Joining({ loaderData, actionData }: Route.ComponentProps) {
  const { event, days, instructions, joinedOnline } = loaderData.screen
  const refused = actionData && !actionData.saved ? actionData : undefined
  const fields = refused?.fields ?? {}
  const shown = {
    venueInstructions: refused?.values.venueInstructions ?? instructions.venueInstructions,
    meetingUrl: refused?.values.meetingUrl ?? instructions.meetingUrl,
    day: (day: string) => refused?.values.dayMeetingUrls[day] ?? instructions.dayMeetingUrls[day] ?? '',
  }
  const dayName = (day: string, index: number) => `Day ${index + 1}, ${formatAdminDay(`${day}T12:00:00+02:00`)}`
  return (
    <>
      <h1>Joining instructions: {event.title}</h1>
      <p>
        What the delegates need on the day: for the venue, arrival, parking and start time; for those online, the meeting’s link. Private to the back office:
        never in the content or on a public page. Each delegate’s personal join link (<code>/join/…</code>, on their pass) records that they attended online
        that day and sends them on to the meeting.
      </p>
      <AdminMessages notice={actionData?.saved ? 'The joining instructions are saved.' : undefined} />
      {refused ? (
        <ErrorSummary
          title={refused.message}
          fields={[
            { name: 'meetingUrl', label: 'Meeting link, every day', id: adminFieldId('meetingUrl') },
            ...days.map((day, index) => ({ name: dayField(day), label: `Meeting link of ${dayName(day, index)}`, id: adminFieldId(dayField(day)) })),
          ]}
          messages={fields}
        />
      ) : null}
      <Form method="post" className="form" noValidate>
        <AdminField
          name="venueInstructions"
          label="For the venue: arrival, parking, start time"
          value={shown.venueInstructions}
          error={fields.venueInstructions}
          multiline
          required={false}
        />
        <AdminField
          name="meetingUrl"
          label="Meeting link, every day"
          type="url"
          value={shown.meetingUrl}
          error={fields.meetingUrl}
          required={false}
          hint="The online meeting’s address, starting with https://."
        />
        {days.length > 1 &&
          days.map((day, index) => (
            <AdminField
              key={day}
              name={dayField(day)}
              label={`Meeting link of ${dayName(day, index)}, where it differs`}
              type="url"
              value={shown.day(day)}
              error={fields[dayField(day)]}
              required={false}
            />
          ))}
        <SubmitButton>Save the joining instructions</SubmitButton>
      </Form>
      {instructions.updatedAt && (
        <p>
          Last saved <AdminTime iso={instructions.updatedAt} precision="minute" /> by {instructions.updatedByName}.
        </p>
      )}
      <h2>Joined online</h2>
      <ul>
        {days.map((day, index) => (
          <li key={day}>
            {dayName(day, index)}: {joinedOnline[day] ?? 0}
          </li>
        ))}
      </ul>
    </>
  )
}
