import type { EventEntry, SessionEntry } from './eventModel.ts'

const WORKSHOP_VENUE = { name: 'Indaba Hotel', address: 'Fourways, Sandton, Johannesburg' }
const FACILITATOR = 'Workshop facilitator'
const SPONSOR_INTRO =
  'Support professional development in your sector and meet the people who attend. Our sponsorship packages give your organisation seats, visibility and a platform to share its expertise.'

const registration = (time: string): SessionEntry => ({ time, title: 'Registration and welcome coffee', isBreak: true })
const tea = (time: string): SessionEntry => ({ time, title: 'Tea break', isBreak: true })
const lunch = (time: string): SessionEntry => ({ time, title: 'Lunch', isBreak: true })
const talk = (time: string, title: string): SessionEntry => ({ time, title, speaker: FACILITATOR })

export const legalOpinion: EventEntry = {
  id: 'legal-opinion',
  slug: 'legalOpinion',
  kind: 'workshop',
  title: 'Legal Opinion Writing 2025',
  code: 'LOW2025',
  card: { listed: true, position: 1, hue: 20 },
  start: '2025-07-03T08:00:00+02:00',
  end: '2025-07-04T16:00:00+02:00',
  format: 'hybrid',
  venue: WORKSHOP_VENUE,
  summary:
    'A practical two-day workshop on writing clear, well-reasoned legal opinions: analysing the brief, research, structure and managing risk.',
  overview: {
    theme:
      'Clear advice that clients can act on. A legal opinion is only as useful as it is clear. This workshop takes legal advisers, in-house counsel and candidate attorneys through the whole process, from reading the brief to signing off the final opinion, with exercises on real-world scenarios.',
    keyMessages: [
      'Every opinion starts with the right question.',
      'Structure carries the argument: summary first, reasoning after.',
      'Plain language makes advice more precise, not less.',
      'Qualifications and assumptions protect both the client and the writer.',
    ],
    objectives: [
      'Analyse a brief and identify the legal issues and material facts.',
      'Plan and carry out focused legal research.',
      'Structure and write an opinion that answers the client\'s question.',
      'Recognise the ethical duties and liability risks of giving an opinion.',
    ],
  },
  tabs: ['overview', 'agenda', 'register', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-07-03',
      sessions: [
        registration('08:00 – 08:30'),
        talk('08:30 – 09:00', 'Welcome, introductions and workshop goals'),
        talk('09:00 – 10:30', 'What a legal opinion is for: purpose, audience and scope'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Analysing the brief: identifying the issues and the facts that matter'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'Research strategy: legislation, case law and secondary sources'),
        tea('14:45 – 15:00'),
        talk('15:00 – 16:00', 'Exercise: framing the questions for an opinion'),
      ],
    },
    {
      label: 'Day 2',
      date: '2025-07-04',
      sessions: [
        talk('08:30 – 10:30', 'Structuring the opinion: summary, facts, issues, analysis and conclusion'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Writing with precision: plain language, qualifications and degrees of certainty'),
        lunch('12:30 – 13:15'),
        { ...talk('13:15 – 14:45', 'Professional ethics and liability in opinion writing'), isEthics: true },
        tea('14:45 – 15:00'),
        talk('15:00 – 15:45', 'Review of participants\' draft opinions'),
        talk('15:45 – 16:00', 'Closing and certificates'),
      ],
    },
  ],
  speakers: [],
  participatingCompanies: [],
  prices: { venue: 8990, earlyBird: 7990, earlyBirdUntil: '2025-04-25', online: 5990, tables: false },
  registrationSubject: 'Legal Opinion Delegate Registration',
  cpd: { accreditingBody: 'Legal Practice Council (LPC)', accreditationNumber: 'LPC-CPD-0000', category: 'Legal practitioners CPD' },
  sponsorHeading: 'Sponsor this workshop',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: [],
}

export const legalSecretary: EventEntry = {
  id: 'legal-secretary',
  slug: 'legalSecreatary',
  kind: 'workshop',
  title: 'Legal Secretary Workshop 2025',
  code: 'LSW2025',
  card: { listed: true, position: 2, hue: 280 },
  start: '2025-06-25T08:00:00+02:00',
  end: '2025-06-26T16:00:00+02:00',
  format: 'hybrid',
  venue: WORKSHOP_VENUE,
  summary:
    'A two-day workshop for legal secretaries: terminology and procedure, drafting, deadline management, billing and client care.',
  overview: {
    theme:
      'The legal secretary at the heart of the practice. Legal secretaries keep a practice running: they manage deadlines, prepare documents, look after clients and keep files in order. This workshop builds the knowledge and confidence to do that well in a busy, increasingly digital legal environment.',
    keyMessages: [
      'Missed deadlines are the most avoidable risk in a legal practice.',
      'Accurate documents and sound filing protect the client and the firm.',
      'Confidentiality and client care are everyone\'s responsibility.',
    ],
    objectives: [
      'Use legal terminology and understand the main court procedures.',
      'Prepare and format common legal documents correctly.',
      'Manage diaries, prescription dates and court deadlines.',
      'Understand time recording, billing and trust account basics.',
      'Handle clients and personal information professionally and in line with POPIA.',
    ],
  },
  tabs: ['overview', 'agenda', 'register', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-06-25',
      sessions: [
        registration('08:00 – 08:30'),
        talk('08:30 – 09:00', 'Welcome and introductions'),
        talk('09:00 – 10:30', 'The role of the legal secretary in a modern practice'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Legal terminology and court procedures'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'Drafting and formatting legal documents'),
        tea('14:45 – 15:00'),
        talk('15:00 – 16:00', 'Diary, file and deadline management'),
      ],
    },
    {
      label: 'Day 2',
      date: '2025-06-26',
      sessions: [
        talk('08:30 – 10:30', 'Time recording, billing and trust account basics'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Electronic filing and digital tools in the practice'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'Client care, confidentiality and POPIA'),
        tea('14:45 – 15:00'),
        talk('15:00 – 15:45', 'Managing pressure and competing priorities'),
        talk('15:45 – 16:00', 'Closing and certificates'),
      ],
    },
  ],
  speakers: [],
  participatingCompanies: [],
  prices: { venue: 8990, earlyBird: 7990, earlyBirdUntil: '2025-04-25', online: 7490, tables: false },
  registrationSubject: 'Legal Secretary Delegate Registration',
  sponsorHeading: 'Sponsor this workshop',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: [],
}

export const officeProfessionals: EventEntry = {
  id: 'office-professionals',
  slug: 'officeP',
  kind: 'workshop',
  title: 'Office Professionals 2025',
  code: 'OPW2025',
  card: { listed: true, position: 3, hue: 330 },
  start: '2025-07-03T08:00:00+02:00',
  end: '2025-07-04T16:00:00+02:00',
  format: 'hybrid',
  venue: WORKSHOP_VENUE,
  summary:
    'A two-day workshop for assistants and office managers, including emotional intelligence (EQ), communication, time and meeting management.',
  overview: {
    theme:
      'From support role to strategic partner, with emotional intelligence. Office professionals manage information, people and priorities for the whole organisation. This workshop sharpens the practical skills of the role and adds a strong focus on emotional intelligence: understanding yourself, reading others and handling pressure and difficult conversations.',
    keyMessages: [
      'Emotional intelligence can be learned, and it shapes every working relationship.',
      'Clear writing and well-run meetings save everyone time.',
      'Managing priorities is managing expectations.',
    ],
    objectives: [
      'Build self-awareness and self-management with practical EQ tools.',
      'Communicate clearly in writing and in person, including with senior executives.',
      'Plan and prioritise work under pressure.',
      'Organise meetings and take accurate minutes.',
      'Present a confident, professional image.',
    ],
  },
  tabs: ['overview', 'agenda', 'register', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-07-03',
      sessions: [
        registration('08:00 – 08:30'),
        talk('08:30 – 09:00', 'Welcome and introductions'),
        talk('09:00 – 10:30', 'The strategic office professional'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Emotional intelligence (EQ): self-awareness and self-management'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'EQ at work: empathy, managing up and difficult conversations'),
        tea('14:45 – 15:00'),
        talk('15:00 – 16:00', 'Time and priority management'),
      ],
    },
    {
      label: 'Day 2',
      date: '2025-07-04',
      sessions: [
        talk('08:30 – 10:30', 'Business writing and e-mail etiquette'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Meeting management and minute-taking'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'Professional image, etiquette and presence'),
        tea('14:45 – 15:00'),
        talk('15:00 – 15:45', 'Resilience and stress management'),
        talk('15:45 – 16:00', 'Closing and certificates'),
      ],
    },
  ],
  speakers: [],
  participatingCompanies: [],
  prices: { venue: 7990, earlyBird: 6990, earlyBirdUntil: '2025-04-25', online: 5490, tables: false },
  registrationSubject: 'Office Professionals Delegate Registration',
  sponsorHeading: 'Sponsor this workshop',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: [],
}

export const boardManagement: EventEntry = {
  id: 'board-management',
  slug: 'boardManagement',
  kind: 'workshop',
  title: 'Board Management and Governance Masterclass',
  code: 'BMG2025',
  card: { listed: false, hue: 45 },
  start: '2025-06-06T08:00:00+02:00',
  end: '2025-06-06T16:30:00+02:00',
  format: 'hybrid',
  venue: WORKSHOP_VENUE,
  summary:
    'A one-day masterclass for directors and company secretaries on the board\'s role, directors\' duties, committees, risk oversight and board meetings.',
  overview: {
    theme:
      'Governance that adds value. Boards are expected to set direction, oversee risk and hold management to account, while directors carry personal duties and liabilities. This masterclass gives directors, trustees and company secretaries a practical grounding in governance under the Companies Act and the King IV Report.',
    keyMessages: [
      'Good governance is a source of value, not only of compliance.',
      'Directors\' duties are personal; knowing them is the first protection.',
      'Effective boards ask better questions and use their committees well.',
    ],
    objectives: [
      'Understand the role and responsibilities of the board.',
      'Know the fiduciary duties and liabilities of directors under the Companies Act.',
      'Apply King IV principles to board structure, committees and reporting.',
      'Run and evaluate board meetings that lead to good decisions.',
    ],
  },
  tabs: ['overview', 'agenda', 'register', 'sponsor'],
  agenda: [
    {
      label: 'Day 1',
      date: '2025-06-06',
      sessions: [
        registration('08:00 – 08:30'),
        talk('08:30 – 09:00', 'Welcome and introductions'),
        talk('09:00 – 10:30', 'The role of the board and the King IV principles'),
        tea('10:30 – 10:45'),
        talk('10:45 – 12:30', 'Directors\' duties and liabilities under the Companies Act'),
        lunch('12:30 – 13:15'),
        talk('13:15 – 14:45', 'Board committees, risk oversight and ethical leadership'),
        tea('14:45 – 15:00'),
        talk('15:00 – 16:15', 'Effective board meetings and board evaluation'),
        talk('16:15 – 16:30', 'Closing and certificates'),
      ],
    },
  ],
  speakers: [],
  participatingCompanies: [],
  prices: { venue: 4990, earlyBird: 4490, earlyBirdUntil: '2025-03-31', online: 3490, tables: false },
  registrationSubject: 'Board Management Delegate Registration',
  sponsorHeading: 'Sponsor this masterclass',
  sponsorIntro: SPONSOR_INTRO,
  placeholders: [],
}
