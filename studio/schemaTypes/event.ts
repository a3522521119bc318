import { eventDateLabel } from '@events/content/event-dates'
import { CalendarIcon } from '@sanity/icons'
import { defineArrayMember, defineField, defineType } from 'sanity'
import { EVENT_DATETIME_OPTIONS } from '../lib/dates.ts'
import { documentRules } from '../lib/schemaRules.ts'
import { SLUG_MAX_LENGTH, slugFromTitle } from '../lib/slugs.ts'
import { imageWithAlt } from './image.ts'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'
import { richText } from './richText.ts'

/** The event page tabs, in the order editors usually pick them. */
const EVENT_TABS = [
  { value: 'overview', title: 'Overview' },
  { value: 'agenda', title: 'Agenda' },
  { value: 'register', title: 'Register' },
  { value: 'speakers', title: 'Speakers' },
  { value: 'sponsor', title: 'Sponsor' },
]

export const event = defineType({
  name: 'event',
  title: 'Event',
  type: 'document',
  icon: CalendarIcon,
  validation: documentRules('event'),
  groups: [
    { name: 'basics', title: 'Basics', default: true },
    { name: 'card', title: 'Listing card' },
    { name: 'content', title: 'Page content' },
    { name: 'registration', title: 'Registration' },
    { name: 'sponsor', title: 'Sponsorship' },
    { name: 'cpd', title: 'CPD' },
    placeholdersGroup,
  ],
  fields: [
    defineField({
      name: 'kind',
      type: 'string',
      group: 'basics',
      options: {
        list: [
          { value: 'conference', title: 'Conference' },
          { value: 'workshop', title: 'Workshop' },
        ],
        layout: 'radio',
        direction: 'horizontal',
      },
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'title', type: 'string', group: 'basics', validation: (rule) => rule.required() }),
    defineField({
      name: 'slug',
      type: 'slug',
      group: 'basics',
      description:
        'The last segment of the page address, e.g. "Resilience" for /conference/Resilience. Generate fills it from the title; existing addresses keep their spelling and case.',
      options: { source: 'title', maxLength: SLUG_MAX_LENGTH, slugify: slugFromTitle },
      validation: (rule) =>
        rule
          .required()
          .custom((slug: { current?: string } | undefined) =>
            slug?.current && !/^[A-Za-z0-9-]+$/.test(slug.current) ? 'Use letters, digits and hyphens only' : true,
          ),
    }),
    defineField({
      name: 'code',
      type: 'string',
      group: 'basics',
      description: 'Prefilled in the registration form, e.g. "ERC2025"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'start',
      type: 'datetime',
      group: 'basics',
      description: 'Times are in South African Standard Time (Africa/Johannesburg)',
      options: EVENT_DATETIME_OPTIONS,
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'end',
      type: 'datetime',
      group: 'basics',
      options: EVENT_DATETIME_OPTIONS,
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'format',
      type: 'string',
      group: 'basics',
      options: {
        list: [
          { value: 'in-person', title: 'In person' },
          { value: 'online', title: 'Online' },
          { value: 'hybrid', title: 'Hybrid (in person and online)' },
        ],
        layout: 'radio',
        direction: 'horizontal',
      },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'venue',
      type: 'object',
      group: 'basics',
      fields: [defineField({ name: 'name', type: 'string', validation: (rule) => rule.required() }), defineField({ name: 'address', type: 'text', rows: 3 })],
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'contactPhone', type: 'string', group: 'basics', validation: (rule) => rule.required() }),
    defineField({
      name: 'contactEmail',
      type: 'string',
      group: 'basics',
      validation: (rule) => rule.required().email(),
    }),
    defineField({
      name: 'card',
      title: 'Listing card',
      type: 'object',
      group: 'card',
      fields: [
        imageWithAlt({ name: 'image', required: true }),
        defineField({
          name: 'listed',
          title: 'Show on the listing page',
          type: 'boolean',
          initialValue: true,
        }),
        defineField({
          name: 'position',
          title: 'Position on the listing page',
          type: 'number',
          description: 'Lowest first; cards without a position follow, earliest event first.',
          validation: (rule) => rule.integer().min(1),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'summary',
      type: 'text',
      rows: 3,
      group: 'content',
      description: 'One or two sentences for search results, link previews and cards',
      validation: (rule) => rule.max(160).warning('Search engines cut descriptions after about 160 characters'),
    }),
    defineField({
      name: 'overview',
      type: 'object',
      group: 'content',
      fields: [
        richText({ name: 'theme' }),
        richText({ name: 'keyMessages', title: 'Key messages', description: 'Usually a bullet list' }),
        richText({ name: 'objectives', description: 'Usually a bullet list' }),
      ],
    }),
    defineField({
      name: 'tabs',
      type: 'array',
      group: 'content',
      description: 'The tabs of the event page, in display order; the first is opened by default',
      of: [defineArrayMember({ type: 'string' })],
      options: { list: EVENT_TABS },
      validation: (rule) => rule.required().min(1).unique(),
    }),
    defineField({
      name: 'agendaDays',
      title: 'Agenda days',
      type: 'array',
      group: 'content',
      of: [
        defineArrayMember({
          name: 'agendaDay',
          title: 'Agenda day',
          type: 'object',
          fields: [
            defineField({ name: 'label', type: 'string', description: 'e.g. "Day 1"', validation: (rule) => rule.required() }),
            defineField({ name: 'date', type: 'date' }),
            defineField({
              name: 'sessions',
              type: 'array',
              of: [defineArrayMember({ type: 'agendaSession' })],
            }),
          ],
          preview: {
            select: { label: 'label', date: 'date', sessions: 'sessions' },
            prepare: ({ label, date, sessions }) => ({
              title: [label, date].filter(Boolean).join(' · '),
              subtitle: `${sessions?.length ?? 0} sessions`,
            }),
          },
        }),
      ],
    }),
    defineField({
      name: 'speakers',
      type: 'array',
      group: 'content',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'speaker' }] })],
      validation: (rule) => rule.unique(),
    }),
    defineField({
      name: 'participatingCompanies',
      title: 'Participating companies',
      type: 'array',
      group: 'content',
      description: 'Logos for the strip below the tabs; the alternative text is the company name',
      of: [
        defineArrayMember({
          type: 'image',
          fields: [defineField({ name: 'alt', title: 'Company name', type: 'string', validation: (rule) => rule.required() })],
        }),
      ],
    }),
    defineField({
      name: 'registrationSubject',
      title: 'Registration subject',
      type: 'string',
      group: 'registration',
      description: 'Subject of the registration e-mails, e.g. "Legal Opinion Delegate Registration"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'priceOptions',
      title: 'Price options',
      type: 'array',
      group: 'registration',
      of: [defineArrayMember({ type: 'priceOption' })],
    }),
    defineField({
      name: 'previousEdition',
      title: 'Previous edition',
      type: 'reference',
      to: [{ type: 'event' }],
      // Weak: last year's event may still be deleted; the price comparison then has nothing to compare with.
      weak: true,
      group: 'registration',
      description:
        'The event this one was duplicated from: a price more than 25% from its price for the same option is flagged. Set by "Duplicate for next year".',
    }),
    defineField({
      name: 'registrationClosesAt',
      title: 'Registration closes at',
      type: 'datetime',
      group: 'registration',
      options: EVENT_DATETIME_OPTIONS,
      description: 'Leave empty to close registration when the event starts',
    }),
    defineField({
      name: 'venueCapacity',
      title: 'Venue capacity',
      type: 'number',
      group: 'registration',
      description: 'Seats in the room: each delegate on a venue, early-bird or table option takes one. Leave empty for no limit.',
      validation: (rule) => rule.integer().min(1),
    }),
    defineField({
      name: 'onlineCapacity',
      title: 'Online capacity',
      type: 'number',
      group: 'registration',
      description: 'Places for online delegates. Leave empty for no limit.',
      validation: (rule) => rule.integer().min(1),
    }),
    defineField({
      name: 'cpd',
      title: 'CPD accreditation',
      type: 'object',
      group: 'cpd',
      description:
        'Fill in when a CPD body accredits the event: registration then asks each delegate for a professional registration number, and the certificate names the accreditation',
      fields: [
        defineField({
          name: 'accreditingBody',
          title: 'Accrediting body',
          type: 'string',
          description: 'e.g. "South African Institute of Chartered Accountants (SAICA)"',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'accreditationNumber',
          title: 'Accreditation or activity number',
          type: 'string',
          description: "The provider's accreditation number or this activity's number, as the body issued it",
          validation: (rule) => rule.required(),
        }),
        defineField({ name: 'category', title: 'CPD category', type: 'string', description: 'e.g. "Verifiable CPD"' }),
      ],
    }),
    defineField({
      name: 'certificatesOnlyWhenPaid',
      title: 'Certificates only when paid in full',
      type: 'boolean',
      group: 'cpd',
      description: 'A delegate whose registration is unpaid gets their certificate when it is paid; the certificates screen lists who waits',
      initialValue: true,
    }),
    defineField({ name: 'sponsorHeading', title: 'Sponsor heading', type: 'string', group: 'sponsor' }),
    defineField({ name: 'sponsorIntro', title: 'Sponsor introduction', type: 'text', rows: 4, group: 'sponsor' }),
    defineField({
      name: 'sponsorPackages',
      title: 'Sponsor packages',
      type: 'array',
      group: 'sponsor',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'sponsorPackage' }] })],
      validation: (rule) => rule.unique(),
    }),
    placeholdersField,
  ],
  orderings: [{ title: 'Start date', name: 'start', by: [{ field: 'start', direction: 'asc' }] }],
  preview: {
    select: { title: 'title', start: 'start', end: 'end', kind: 'kind', media: 'card.image' },
    // The card shows the same dates, made from the event's start and end.
    prepare: ({ title, start, end, kind, media }) => ({
      title,
      subtitle: [kind === 'workshop' ? 'Workshop' : 'Conference', start && end ? eventDateLabel(start, end) : undefined].filter(Boolean).join(' · '),
      media,
    }),
  },
})
