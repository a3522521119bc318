import type { EventEntry } from './eventModel.ts'
import { speakerIds } from './speakers.ts'

const resilienceSpeaker = (number: number) => `speaker-resilience-${String(number).padStart(2, '0')}`
const pfasSpeaker = (number: number) => `speaker-pfas-${String(number).padStart(2, '0')}`

/** Placeholder partner companies for the logo strips of the conference pages. */
export const PARTNER_COMPANIES = ['Partner Company One', 'Partner Company Two', 'Partner Company Three', 'Partner Company Four', 'Partner Company Five', 'Partner Company Six']

const SPONSOR_INTRO =
  'Sponsoring puts your organisation in front of senior decision-makers for the length of the event. Choose the package that fits your goals, or talk to us about a tailored one.'

export const resilience: EventEntry = {
  id: 'resilience',
  slug: 'Resilience',
  kind: 'conference',
  title: 'Economic Resilience Conference 2025',
  code: 'ERC2025',
  card: { listed: true, hue: 210 },
  start: '2025-07-23T07:30:00+02:00',
  end: '2025-07-24T16:00:00+02:00',
  format: 'hybrid',
  venue: { name: 'Indaba Hotel', address: 'Fourways, Sandton, Johannesburg' },
  summary:
    'How South Africa can grow through shocks: the economic outlook, public debt, inclusive growth, startups and the future of work. Two days in Fourways and online.',
  overview: {
    theme:
      'Building an economy that bends without breaking. South Africa faces slow growth, high unemployment, rising public debt and an energy transition, while global trade and technology shift quickly. This conference brings economists, policy makers, investors, entrepreneurs and business leaders together to look at what makes an economy resilient, and at the practical steps government and business can take now.',
    keyMessages: [
      'Resilience is built before the shock: sound public finances, reliable infrastructure and diverse industries.',
      'Growth that includes more people is more durable growth.',
      'Small businesses and startups create most new jobs, and they need finance, markets and fewer barriers to scale.',
      'The future of work calls for new skills, and for a labour market that gives people a second chance.',
    ],
    objectives: [
      'Understand the economic outlook for 2025 and 2026 and the risks to it.',
      'Examine options for stabilising public debt while protecting growth and services.',
      'Share practical approaches to inclusive growth and job creation.',
      'Connect entrepreneurs, investors and corporate buyers.',
      'Identify the skills and workplace changes the next decade will demand.',
    ],
  },
  tabs: ['overview', 'agenda', 'register', 'speakers', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-07-23',
      sessions: [
        { time: '07:30 – 08:30', title: 'Registration and welcome coffee', isBreak: true },
        { time: '08:30 – 09:00', title: 'Welcome and opening remarks', speakers: [resilienceSpeaker(5)] },
        { time: '09:00 – 09:45', title: 'Keynote: What makes an economy resilient?', speakers: [resilienceSpeaker(4)] },
        { time: '09:45 – 10:30', title: 'Energy security as the foundation for growth', speakers: [resilienceSpeaker(16)] },
        { time: '10:30 – 11:00', title: 'Tea break and networking', isBreak: true },
        { time: '11:00 – 11:45', title: 'Infrastructure investment and public–private partnerships', speakers: [resilienceSpeaker(9)] },
        { time: '11:45 – 12:30', title: 'Supply chains, trade and regional integration', speakers: [resilienceSpeaker(6)] },
        { time: '12:30 – 13:30', title: 'Lunch', isBreak: true },
        { time: '13:30 – 14:15', title: 'Financing growth: development finance and the private sector', speakers: [resilienceSpeaker(10)] },
        { time: '14:15 – 15:00', title: 'Panel: Building resilient businesses in a volatile market', speaker: 'Panel of business leaders' },
        { time: '15:00 – 15:15', title: 'Tea break', isBreak: true },
        { time: '15:15 – 16:00', title: 'Day 1 reflections and close', speakers: [resilienceSpeaker(5)] },
      ],
    },
    {
      label: 'Day 2',
      date: '2025-07-24',
      sessions: [
        { time: '07:30 – 08:30', title: 'Registration and welcome coffee', isBreak: true },
        { time: '08:30 – 09:15', title: 'The economic outlook for South Africa, 2025–2026', speakers: [resilienceSpeaker(1)] },
        { time: '09:15 – 10:00', title: 'Public debt: stabilising the finances without stalling growth', speakers: [resilienceSpeaker(2)] },
        { time: '10:00 – 10:30', title: 'Tea break and networking', isBreak: true },
        { time: '10:30 – 11:15', title: 'Inclusive growth: widening who benefits', speakers: [resilienceSpeaker(7)] },
        { time: '11:15 – 12:30', title: 'Startup panel: Funding, scaling and selling to corporates', speakers: [resilienceSpeaker(3), resilienceSpeaker(8), resilienceSpeaker(14), resilienceSpeaker(15)] },
        { time: '12:30 – 13:30', title: 'Lunch', isBreak: true },
        { time: '13:30 – 14:15', title: 'The future of work: skills, technology and the workplace', speakers: [resilienceSpeaker(11), resilienceSpeaker(13)] },
        { time: '14:15 – 15:00', title: 'A second-chance economy: bringing people with criminal records into work', speakers: [resilienceSpeaker(12)], isEthics: true },
        { time: '15:00 – 15:45', title: 'Closing panel: A resilience agenda for government and business', speaker: 'Panel of conference speakers' },
        { time: '15:45 – 16:00', title: 'Closing remarks and close of conference', speakers: [resilienceSpeaker(5)] },
      ],
    },
  ],
  speakers: speakerIds('resilience'),
  participatingCompanies: PARTNER_COMPANIES,
  // The specification's calculation prices and the displayed early-bird date (DESIGN: Decisions).
  prices: { venue: 8490, earlyBird: 7490, earlyBirdUntil: '2025-06-13', online: 5490, tables: true },
  registrationSubject: 'Resilience Delegate Registration',
  cpd: { accreditingBody: 'South African Institute of Professional Accountants (SAIPA)', accreditationNumber: 'SAIPA-CPD-0000', category: 'Verifiable CPD' },
  sponsorHeading: 'Sponsor the Economic Resilience Conference',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: [],
}

export const pfas: EventEntry = {
  id: 'pfas',
  slug: 'pfas',
  kind: 'conference',
  title: 'PFAS Conference 2025',
  code: 'PFAS2025',
  card: { listed: false, hue: 170 },
  start: '2025-05-21T07:30:00+02:00',
  end: '2025-05-22T16:00:00+02:00',
  format: 'hybrid',
  // The specification names only "a hotel in Sandton".
  venue: { name: 'Venue to be announced', address: 'Sandton, Johannesburg' },
  summary:
    'PFAS, the "forever chemicals", in South Africa\'s water: the evidence, the health risks and how regulators, municipalities and industry can respond.',
  overview: {
    theme:
      'PFAS in South Africa: from evidence to action. Per- and polyfluoroalkyl substances are used in firefighting foams, coatings and countless industrial processes. They do not break down in the environment, and they are now found in water sources around the world. This conference brings researchers, water managers, municipalities, industry and technology providers together to share what we know about PFAS in South Africa and to agree on practical next steps.',
    keyMessages: [
      'PFAS persist in the environment and in people; prevention is cheaper than clean-up.',
      'Reliable monitoring and laboratory capacity are the basis of every sound decision.',
      'Regulators, municipalities and industry each hold part of the solution.',
      'Proven treatment technologies exist, and choosing well depends on local conditions.',
    ],
    objectives: [
      'Review the evidence on PFAS occurrence in South African water and its health effects.',
      'Understand regulatory developments at home and abroad.',
      'Compare treatment and remediation options and their costs.',
      'Build a network for research, monitoring and information sharing.',
    ],
  },
  tabs: ['overview', 'agenda', 'speakers', 'register', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-05-21',
      sessions: [
        { time: '07:30 – 08:30', title: 'Registration and welcome coffee', isBreak: true },
        { time: '08:30 – 09:00', title: 'Welcome and opening remarks', speaker: 'Programme director' },
        { time: '09:00 – 09:45', title: 'Keynote: PFAS, the forever chemicals, and why they matter', speakers: [pfasSpeaker(1)] },
        { time: '09:45 – 10:30', title: 'What we find in South African water sources', speakers: [pfasSpeaker(2)] },
        { time: '10:30 – 11:00', title: 'Tea break and networking', isBreak: true },
        { time: '11:00 – 11:45', title: 'Measuring PFAS: analytical methods and laboratory capacity', speakers: [pfasSpeaker(3)] },
        { time: '11:45 – 12:30', title: 'Exposure and health effects', speakers: [pfasSpeaker(4)] },
        { time: '12:30 – 13:30', title: 'Lunch', isBreak: true },
        { time: '13:30 – 14:15', title: 'Regulating PFAS in drinking water: the national response', speakers: [pfasSpeaker(5)] },
        { time: '14:15 – 15:00', title: 'Protecting supply in a metropolitan water system', speakers: [pfasSpeaker(8)] },
        { time: '15:00 – 15:15', title: 'Tea break', isBreak: true },
        { time: '15:15 – 16:00', title: 'Panel: What should be monitored, where and how often?', speaker: 'Day 1 speakers' },
      ],
    },
    {
      label: 'Day 2',
      date: '2025-05-22',
      sessions: [
        { time: '07:30 – 08:30', title: 'Registration and welcome coffee', isBreak: true },
        { time: '08:30 – 09:15', title: 'Industry\'s role in reducing PFAS use', speakers: [pfasSpeaker(10)] },
        { time: '09:15 – 10:00', title: 'Treatment technologies: activated carbon, ion exchange and membranes', speakers: [pfasSpeaker(11)] },
        { time: '10:00 – 10:30', title: 'Tea break and networking', isBreak: true },
        { time: '10:30 – 11:15', title: 'Innovation in PFAS-free alternatives: a founder\'s view', speakers: [pfasSpeaker(6)] },
        { time: '11:15 – 12:00', title: 'Building a national research and monitoring network', speakers: [pfasSpeaker(7)] },
        { time: '12:00 – 13:00', title: 'Lunch', isBreak: true },
        { time: '13:00 – 13:45', title: 'Site assessment and remediation in practice', speakers: [pfasSpeaker(9)] },
        { time: '13:45 – 15:00', title: 'Panel: Towards a national PFAS action plan', speaker: 'Conference speakers' },
        { time: '15:00 – 16:00', title: 'Closing remarks and close of conference', speaker: 'Programme director' },
      ],
    },
  ],
  speakers: speakerIds('pfas'),
  participatingCompanies: PARTNER_COMPANIES,
  // Early-bird dates: the specification lists 25/03/25, 31/03/25 and 25/04/25 without saying which page uses
  // which; the earlier events take the earlier dates.
  prices: { venue: 7990, earlyBird: 6990, earlyBirdUntil: '2025-03-25', online: 5490, tables: true },
  registrationSubject: 'PFAS Delegate Registration',
  cpd: { accreditingBody: 'Engineering Council of South Africa (ECSA)', accreditationNumber: 'ECSA-CPD-0000', category: 'Category 1: Developmental activities' },
  sponsorHeading: 'Sponsor the PFAS Conference',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: ['venue.name'],
}
