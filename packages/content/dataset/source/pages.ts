import { heroSvg } from './images.ts'
import { bulletItem, paragraphBlocks, richBulletItem, richParagraph, type Inline, type TextBlock } from './text-blocks.ts'
import { image, keyed, type DatasetDocument, type PlaceholderImage } from './model.ts'

const TRAINING_LISTS = {
  inhouse: [
    'Topics and schedules defined by you',
    'Delivered on-site at your premises or virtually',
    'Interactive, practical content your team can apply immediately',
    'Aligned to your organisation\'s goals',
  ],
  online: [
    'Topics and schedules defined by you',
    'Delivered virtually, wherever your team works',
    'Interactive, practical content with live facilitators',
    'Aligned to your organisation\'s goals',
  ],
}

type Prose = string | TextBlock[]
/** An item of a section's bullet list: plain text, or runs with bold, italics or links. */
type ListItem = string | readonly Inline[]
/** A section as written here: its body, and a bullet list the body ends with (stored in the body's rich text). */
type PageSection = { _key: string; heading?: string; body?: Prose; list?: readonly ListItem[] }

/** Plain text becomes Portable Text paragraphs; prose with bold, italics or links is written as its blocks. */
function blocks(keyPrefix: string, prose: Prose): TextBlock[] {
  return typeof prose === 'string' ? paragraphBlocks(keyPrefix, prose) : prose
}

/** A bullet list as Portable Text list items (`listItem: 'bullet'`, `level: 1`), keyed `<section>-item-<n>`. */
function listBlocks(sectionKey: string, items: readonly ListItem[]): TextBlock[] {
  return items.map((item, index) => {
    const key = `${sectionKey}-item-${index + 1}`
    return typeof item === 'string' ? bulletItem(key, item) : richBulletItem(key, item)
  })
}

/** A section's body: its paragraphs, then its bullet list. */
function sectionBody({ _key, body, list }: PageSection): TextBlock[] {
  return [...(body === undefined ? [] : blocks(`${_key}-body`, body)), ...(list === undefined ? [] : listBlocks(_key, list))]
}

/** A page document; its introduction and sections' bodies (with their lists) become Portable Text. */
function page(slug: string, fields: Omit<DatasetDocument, '_id' | '_type'>): DatasetDocument {
  const { intro, sections, ...rest } = fields as { intro?: Prose; sections?: PageSection[] }
  return {
    _id: `page-${slug}`,
    _type: 'page',
    slug: { _type: 'slug', current: slug },
    ...rest,
    ...(intro === undefined ? {} : { intro: blocks('intro', intro) }),
    ...(sections === undefined
      ? {}
      : {
          sections: sections.map(({ body, list, ...section }) => {
            const sectionBlocks = sectionBody({ ...section, body, list })
            return sectionBlocks.length === 0 ? section : { ...section, body: sectionBlocks }
          }),
        }),
  }
}

const HERO_IMAGES: Record<string, { title: string; hue: number }> = {
  home: { title: 'Strategic business platforms', hue: 215 },
  sponsorship: { title: 'Sponsorship', hue: 35 },
  'inhouse-training': { title: 'In-House Training', hue: 160 },
  'online-training': { title: 'Online Training', hue: 260 },
}

function hero(slug: string, alt: string) {
  return { heroImage: image(`page-${slug}.svg`, alt), placeholders: ['heroImage'] }
}

export const pageImages: PlaceholderImage[] = Object.entries(HERO_IMAGES).map(([slug, { hue }]) => ({
  file: `page-${slug}.svg`,
  svg: heroSvg(hue),
}))

export const pages: DatasetDocument[] = [
  page('home', {
    title: 'Strategic business platforms that connect, inform and grow',
    subtitle: 'Conferences, workshops and training for the people who move South African business forward',
    seoDescription:
      'Conferences, workshops, in-house and online training, event management and sponsorship for business and professional audiences across South Africa.',
    ...hero('home', 'Delegates networking at a business conference'),
    intro:
      'We create strategic business platforms where leaders, professionals and experts meet to learn, share and do business. Our conferences address the issues shaping whole sectors; our workshops and training build the practical skills people use every day. Every event is researched with the industry it serves and delivered with care, in person or online.',
    cards: keyed('card', [
      {
        title: 'Mission',
        text: 'To give business and public-sector professionals the knowledge and connections to grow their organisations.',
        href: '/mission',
      },
      {
        title: 'Vision',
        text: 'To be the platform of choice for business learning and networking in South Africa and the region.',
        href: '/vision',
      },
      {
        title: 'Core Values',
        text: 'Integrity, excellence, relevance, partnership and respect guide every event we host.',
        href: '/values',
      },
    ]),
    statistics: keyed('statistic', [
      { value: '1250+', label: 'Projects completed' },
      { value: '2180+', label: 'Happy clients' },
      { value: '95%', label: 'Growth over the past 3 years' },
    ]),
    contactTitle: 'Get in touch',
    contactSubtitle: 'Fill in the form below',
  }),
  page('conference', {
    title: 'Conferences',
    subtitle: 'Intelligent Business',
    seoDescription: 'Sector-focused business conferences in Johannesburg: agendas, speakers, sponsorship and delegate registration.',
  }),
  page('workshop', {
    title: 'Workshops',
    subtitle: 'Intelligent Business',
    seoDescription: 'Practical workshops for professionals in Sandton, Johannesburg: programmes, dates, prices and registration.',
  }),
  page('mission', {
    title: 'Our Mission',
    seoDescription: 'Our mission: to give business and public-sector professionals the knowledge and connections to grow their organisations.',
    intro:
      'Our mission is to give business and public-sector professionals the knowledge and connections to grow their organisations, through events and training that are relevant, practical and well run.',
    sections: keyed('section', [
      {
        heading: 'What we do',
        body: 'We research the questions that matter to each sector and bring together the people best placed to answer them: practitioners, policy makers, researchers and business leaders.',
      },
      {
        heading: 'How we do it',
        body: [
          richParagraph('section-02-body-1', [
            'We design every programme with ',
            { text: 'the audience', marks: ['em'] },
            ' in mind, choose speakers for their ',
            { text: 'expertise and experience', marks: ['strong'] },
            ', and look after delegates from registration to the last session. See what is on in our ',
            { text: 'conference programme', href: '/conference' },
            '.',
          ]),
        ],
        list: [
          'Programmes researched with the industry they serve',
          'Speakers chosen for expertise, not for profile alone',
          'Practical content delegates can use the next working day',
          'Attentive service before, during and after every event',
        ],
      },
    ]),
  }),
  page('vision', {
    title: 'Our Vision',
    seoDescription: 'Our vision: to be the platform of choice for business learning and networking in South Africa and the region.',
    intro:
      'Our vision is to be the platform of choice for business learning and networking in South Africa and the wider region: the first place professionals look when they need to understand a change in their sector and meet the people driving it.',
    sections: keyed('section', [
      {
        heading: 'Where we are going',
        body: 'We are growing our programme across industries and professions, combining in-person events with online formats so that more people can take part, wherever they are.',
      },
    ]),
  }),
  page('values', {
    title: 'Our Core Values',
    seoDescription: 'The values behind our events: integrity, excellence, relevance, partnership and respect.',
    intro: 'Five values guide how we plan, deliver and follow up every event.',
    sections: keyed('section', [
      { heading: 'Integrity', body: 'We are honest with delegates, speakers and sponsors, and we do what we say we will do.' },
      { heading: 'Excellence', body: 'We hold our programmes, speakers and service to a high standard, and we keep improving them.' },
      { heading: 'Relevance', body: 'We focus on the issues our audiences face now and the skills they need next.' },
      { heading: 'Partnership', body: 'We work with industry bodies, experts and sponsors to create value for everyone involved.' },
      { heading: 'Respect', body: 'We welcome every participant and value the diversity of views, backgrounds and experience they bring.' },
    ]),
  }),
  page('terms', {
    title: 'Terms and Conditions',
    seoDescription: 'Terms and conditions for registering for our conferences, workshops and training: payment, cancellations and substitutions.',
    intro: [
      richParagraph('intro-1', [
        'These terms apply to ',
        { text: 'every registration', marks: ['strong'] },
        ' for our conferences, workshops and training. Please read them ',
        { text: 'before', marks: ['em'] },
        ' you register, and ask us through the ',
        { text: 'contact form', href: '/#contact' },
        ' if anything is unclear.',
      ]),
    ],
    sections: keyed('section', [
      {
        heading: 'Registration and payment',
        list: [
          ['Payment is due in full ', { text: 'within 5 days', marks: ['strong'] }, ' of the invoice date.'],
          'Seats are not reserved unless agreed with us.',
          'The signed registration form is legally binding.',
        ],
      },
      {
        heading: 'What the fee covers',
        list: [
          'The registration fee covers course material, lunches and refreshments.',
          'We accept no liability for travel and accommodation unless agreed in writing.',
        ],
      },
      {
        heading: 'Changes to the programme',
        list: ['The organiser may change speakers, the programme, the date and the venue.'],
      },
      {
        heading: 'Cancellations',
        list: [
          'Cancellations need the approval of management.',
          'Cancelling 14 working days before the event carries a fee of 50% of the registration fee.',
          'Cancelling 7 days or less before the event carries a fee of 100% of the registration fee.',
          ['No refunds or credit vouchers are given ', { text: 'unless agreed in writing', marks: ['em'] }, '.'],
        ],
      },
      {
        heading: 'Substitutions',
        list: [
          ['Substitutions must be ', { text: 'notified in writing', href: '/#contact' }, ' and are free of charge.'],
          'Late substitutions made on the day may result in incorrect details on certificates.',
        ],
      },
    ]),
  }),
  page('sponsorship', {
    title: 'Sponsorship',
    subtitle: 'Put your organisation in front of the decision-makers in your sector',
    seoDescription: 'Sponsor our conferences and workshops: Platinum, Gold and Silver packages with seats, discounts, promotion and speaking opportunities.',
    ...hero('sponsorship', 'Sponsor exhibition stands at a conference'),
    intro:
      'Our events attract senior professionals and decision-makers who come to learn and to do business. Sponsorship gives your organisation a credible platform to share its expertise, meet prospective clients and show its commitment to the sector.',
    sections: keyed('section', [
      {
        heading: 'Why sponsor',
        list: [
          'Reach a focused audience of senior professionals',
          'Share your expertise through a case study or workshop',
          'Promote your brand in the programme and delegate pack',
          'Bring your team and clients at a reduced rate',
        ],
      },
      {
        heading: 'Tailored packages',
        body: 'Every event offers Platinum, Gold and Silver packages. If none of them fits, talk to us about a package designed around your goals.',
      },
    ]),
  }),
  page('inhouse-training', {
    title: 'In-House Training',
    subtitle: 'Training designed around your organisation',
    seoDescription: 'Corporate in-house training on the topics and schedule you choose, delivered at your premises or virtually.',
    ...hero('inhouse-training', 'A facilitator leading a training session in a meeting room'),
    intro:
      'Our in-house training brings experienced facilitators to your team. We agree the topics, the depth and the schedule with you, and we shape the content around your organisation, its sector and its goals.',
    sections: keyed('section', [
      {
        heading: 'What the training covers',
        body: 'The subjects our conferences and workshops are known for, taught to your team alone: governance, finance, legal writing, compliance, leadership and the sector questions you face. You choose the topics and the depth; we build the sessions around your own cases.',
        list: TRAINING_LISTS.inhouse,
      },
      {
        heading: 'How it runs',
        body: 'Tell us with the request form what your team needs. We reply with a written proposal: the topics and outcomes, the facilitator, the format and length, suggested dates and a quote. Once you accept it, we prepare the material with you and run the sessions at your premises or online, on the dates that suit your team.',
      },
      {
        heading: 'Who it is for',
        body: 'Organisations that want several people trained at once: teams in companies, public bodies and professional firms, from new staff to senior managers, who need practical skills applied to their own work.',
      },
    ]),
  }),
  page('online-training', {
    title: 'Online Training',
    subtitle: 'Live, interactive training wherever your team works',
    seoDescription: 'Live online training on the topics and schedule you choose, interactive and aligned to your organisation\'s goals.',
    ...hero('online-training', 'A participant taking part in a live online training session'),
    intro:
      'Our online training delivers the same practical, facilitator-led learning as our in-person courses, live and interactive, so your team can take part from anywhere without travel costs.',
    sections: keyed('section', [
      {
        heading: 'What the training covers',
        body: 'The subjects our conferences and workshops are known for, taught live to your team: governance, finance, legal writing, compliance, leadership and the sector questions you face. You choose the topics and the depth; we build the sessions around your own cases.',
        list: TRAINING_LISTS.online,
      },
      {
        heading: 'How it runs',
        body: 'Tell us with the request form what your team needs. We reply with a written proposal: the topics and outcomes, the facilitator, the number and length of the live sessions, suggested dates and a quote. Once you accept it, we prepare the material with you and run the sessions on the video platform your organisation uses, with time for questions and exercises in each.',
      },
      {
        heading: 'Who it is for',
        body: 'Teams spread across offices, regions or home working, and organisations that want training without travel: companies, public bodies and professional firms, from new staff to senior managers.',
      },
    ]),
  }),
  page('privacy', {
    title: 'Privacy Notice',
    seoDescription: 'How we collect, use, keep and protect your personal information under the Protection of Personal Information Act (POPIA).',
    intro:
      'We respect your privacy and process personal information in line with the Protection of Personal Information Act, 2013 (POPIA). This notice explains what we collect through this website, why, how long we keep it and what your rights are.',
    sections: keyed('section', [
      {
        heading: 'What we collect',
        list: [
          'Registrations: your company\'s name, address, VAT number, e-mail address and telephone number, and each delegate\'s name, position and e-mail address.',
          'Enquiries and training requests: your name, company or organisation, e-mail address, telephone number and message.',
          'Payments: the amount and the payment reference. Card details are entered on the payment provider\'s page and never reach us.',
        ],
      },
      {
        heading: 'Why we use it',
        body: 'We use your information only to handle your registration, enquiry or request: to confirm and invoice registrations, to take payment, to prepare attendance lists and certificates, and to reply to you. We do not sell your information, and we do not use it for marketing without your consent.',
      },
      {
        heading: 'Who we share it with',
        body: 'We share information only with the service providers who help us deliver the event, such as the venue, the payment provider and our e-mail provider, and only as far as they need it. They must protect it as we do.',
      },
      {
        heading: 'How long we keep it',
        body: 'We keep registrations, with their tax invoices and payments, for five years from the date of the invoice, as the South African Revenue Service requires (if you ask us to erase your details sooner, we keep only the tax invoice as issued, with the company, address and VAT number it is made out to); after that the names, addresses and contact details in them are anonymised and only the amounts remain in our books. Enquiries and training requests, with our notes and replies to them, are anonymised 24 months after we receive them, or sooner if you ask us to erase them.',
      },
      {
        heading: 'Your rights',
        list: [
          'Ask whether we hold personal information about you and receive a copy of all of it, in one file.',
          'Ask us to correct information that is inaccurate or out of date, or to erase it: we erase your enquiries and training requests at once, and in registrations your name, position, e-mail address and telephone number once the event has started (before it, the registration must be cancelled or another delegate named first); tax invoices we must keep as issued for the five years tax law requires, and anonymise them then.',
          'Object to the processing of your information.',
          'Lodge a complaint with the Information Regulator of South Africa.',
        ],
      },
      {
        heading: 'Contact our information officer',
        body: 'For any question about your personal information or to exercise your rights, contact our information officer using the details below.',
      },
    ]),
  }),
]
