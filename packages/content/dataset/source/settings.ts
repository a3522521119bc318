import { keyed, type DatasetDocument } from './model.ts'

// The specification omits every company detail; these values are obviously invented and listed in
// `placeholders` until the events team replaces them.
export const siteSettings: DatasetDocument = {
  _id: 'siteSettings',
  _type: 'siteSettings',
  siteName: 'Summit Business Events',
  tagline: 'Strategic business platforms for growth',
  footerDescription:
    'We host sector-focused conferences, workshops and training for business learning and networking across many industries and professions.',
  developerCredit: 'Website by Placeholder Web Studio',
  registrationNumbers: keyed('registration', [
    { label: 'Company registration number', value: '0000/000000/07' },
    { label: 'CSD supplier number', value: 'MAAA0000000' },
  ]),
  addresses: [
    '1 Example Street, Sandton, Johannesburg, 2196',
    '2 Sample Road, Midrand, Johannesburg, 1685',
  ],
  phones: ['+27 11 000 0000', '+27 10 000 0000'],
  email: 'info@example.com',
  socialLinks: {
    facebook: 'https://www.facebook.com/example',
    x: 'https://x.com/example',
    instagram: 'https://www.instagram.com/example',
    linkedin: 'https://www.linkedin.com/company/example',
  },
  vatNumber: '4000000000',
  vatRate: 15,
  bankDetails: {
    bankName: 'Placeholder Bank',
    accountName: 'Summit Business Events',
    accountNumber: '000000000',
    branch: 'Sandton',
    branchCode: '000000',
    swiftCode: 'XXXXZAJJ',
  },
  paymentTermsDays: 5,
  informationOfficer: { name: 'Information Officer (to be named)', email: 'privacy@example.com' },
  certificateSignatory: { name: 'Managing Director (to be named)', title: 'Managing Director' },
  placeholders: [
    'siteName',
    'developerCredit',
    'registrationNumbers',
    'addresses',
    'phones',
    'email',
    'socialLinks',
    'vatNumber',
    'bankDetails',
    'informationOfficer',
    'certificateSignatory',
  ],
}

const divisionList = [
  {
    slug: 'conferences',
    title: 'Conferences & Congresses',
    description: 'Sector conferences that bring policy makers, business leaders and experts together on the issues shaping their industries.',
    href: '/conference',
  },
  {
    slug: 'inhouse-training',
    title: 'Corporate In-House Training',
    description: 'Training designed around your organisation, its goals and its schedule, delivered at your premises or online.',
    href: '/inhouse-training',
  },
  {
    slug: 'workshops',
    title: 'Workshops',
    description: 'Practical one- and two-day workshops that build the skills professionals use every day.',
    href: '/workshop',
  },
  {
    slug: 'event-management',
    title: 'Event Management',
    description: 'Planning and running your own conference, launch or corporate event, from concept to close.',
    href: '/?interest=other#contact',
  },
  {
    slug: 'sponsorship',
    title: 'Sponsorship',
    description: 'Put your brand in front of decision-makers with sponsorship packages at our events.',
    href: '/sponsorship',
  },
  {
    slug: 'online-training',
    title: 'Online Training',
    description: 'Live, interactive virtual training for teams wherever they work.',
    href: '/online-training',
  },
]

export const divisions: DatasetDocument[] = divisionList.map(({ slug, ...division }, index) => ({
  _id: `division-${slug}`,
  _type: 'division',
  ...division,
  order: index + 1,
}))
