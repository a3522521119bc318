import { ClockIcon } from '@sanity/icons'
import { defineField, defineType } from 'sanity'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'

export const agendaSession = defineType({
  name: 'agendaSession',
  title: 'Agenda session',
  type: 'document',
  icon: ClockIcon,
  groups: [{ name: 'content', title: 'Session', default: true }, placeholdersGroup],
  fields: [
    defineField({
      name: 'time',
      type: 'string',
      group: 'content',
      description: 'As shown in the agenda, e.g. "07:30 – 08:30"',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'title', type: 'string', group: 'content', validation: (rule) => rule.required() }),
    defineField({
      name: 'speaker',
      type: 'string',
      group: 'content',
      description: 'Free text, e.g. "Dr Jane Doe, Chief Economist"',
    }),
    defineField({
      name: 'isBreak',
      title: 'Break',
      type: 'boolean',
      group: 'content',
      description: 'Registration, tea, lunch and other breaks are shown differently from talks',
      initialValue: false,
    }),
    placeholdersField,
  ],
  preview: {
    select: { time: 'time', title: 'title', speaker: 'speaker', isBreak: 'isBreak' },
    prepare: ({ time, title, speaker, isBreak }) => ({
      title: `${time ?? ''} ${title ?? ''}`.trim(),
      subtitle: isBreak ? 'Break' : speaker,
    }),
  },
})
