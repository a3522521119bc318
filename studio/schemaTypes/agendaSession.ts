import { ClockIcon } from '@sanity/icons'
import { defineArrayMember, defineField, defineType } from 'sanity'

/** One line of an agenda day: an item of the day's sessions, published with its event. */
export const agendaSession = defineType({
  name: 'agendaSession',
  title: 'Agenda session',
  type: 'object',
  icon: ClockIcon,
  fields: [
    defineField({
      name: 'start',
      type: 'string',
      description: '24-hour time in Africa/Johannesburg, e.g. 07:30',
      placeholder: 'HH:mm',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'end',
      type: 'string',
      description: '24-hour time, after the start, e.g. 08:30',
      placeholder: 'HH:mm',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'title', type: 'string', validation: (rule) => rule.required() }),
    defineField({
      name: 'room',
      title: 'Room or track',
      type: 'string',
      description: 'Only for sessions that run in parallel, e.g. "Hall A" or "Finance track"; sessions may overlap only in different rooms',
    }),
    defineField({
      name: 'speakers',
      type: 'array',
      description: 'Who presents the session; the agenda shows each as "Name, Position"',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'speaker' }] })],
      validation: (rule) => rule.unique(),
    }),
    defineField({
      name: 'speaker',
      title: 'Other presenter',
      type: 'string',
      description: 'Only when no listed speaker presents it, e.g. "Panel of business leaders" or "Workshop facilitator"',
    }),
    defineField({
      name: 'isBreak',
      title: 'Break',
      type: 'boolean',
      description: 'Registration, tea, lunch and other breaks are shown differently from talks',
      initialValue: false,
    }),
    defineField({
      name: 'isEthics',
      title: 'Counts as ethics hours',
      type: 'boolean',
      description: "The certificate counts this session's time as ethics hours of the event's CPD",
      initialValue: false,
    }),
  ],
  preview: {
    select: { start: 'start', end: 'end', title: 'title', firstSpeaker: 'speakers.0.name', speaker: 'speaker', isBreak: 'isBreak' },
    prepare: ({ start, end, title, firstSpeaker, speaker, isBreak }) => ({
      title: `${start ?? ''} – ${end ?? ''} ${title ?? ''}`.trim(),
      subtitle: isBreak ? 'Break' : (firstSpeaker ?? speaker),
    }),
  },
})
