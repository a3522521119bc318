import { paragraphBlocks } from './text-blocks.ts'
import { portraitSvg } from './images.ts'
import { image, type DatasetDocument, type PlaceholderImage } from './model.ts'

interface SpeakerEntry {
  name: string
  position: string
  company: string
  bio?: string
}

// The specification shows 16 Resilience speakers (three with bios) and 11 PFAS speakers by role only.
// Names, organisations, bios and photos are invented and flagged as placeholders.
const resilience: SpeakerEntry[] = [
  {
    name: 'Dr Naledi Mokoena',
    position: 'Chief Economist',
    company: 'Placeholder Investment Bank',
    bio: 'Dr Naledi Mokoena leads the macroeconomic research team of a large South African investment bank. Her work covers fiscal policy, sovereign risk and the long-term drivers of growth in emerging markets. She advises institutional investors and public-sector clients on the economic outlook, and she is a regular commentator on the national budget. She holds a doctorate in economics and has taught development economics at postgraduate level.',
  },
  {
    name: 'Sipho Dlamini',
    position: 'Head of Public Finance',
    company: 'Placeholder Policy Institute',
    bio: 'Sipho Dlamini has spent two decades working on public debt management and municipal finance. Before joining a policy think tank he worked in the national treasury on the country\'s borrowing programme and on reforms of state-owned enterprises. He writes on fiscal sustainability and on how governments can protect spending on services while stabilising debt.',
  },
  {
    name: 'Prof. Anele Khumalo',
    position: 'Professor of Entrepreneurship',
    company: 'Placeholder Business School',
    bio: 'Prof. Anele Khumalo researches how young firms grow and create jobs in South Africa. She founded a venture-support programme that has worked with more than two hundred early-stage businesses and she sits on the investment committee of a seed fund. Her current work looks at access to finance for township enterprises and at the skills the future of work will demand.',
  },
  { name: 'Thabo Nkosi', position: 'Chief Executive Officer', company: 'Placeholder Development Finance Agency' },
  { name: 'Lerato Molefe', position: 'Director: Economic Policy', company: 'Placeholder Chamber of Commerce' },
  { name: 'Dr Pieter van der Merwe', position: 'Senior Economist', company: 'Placeholder Research Unit' },
  { name: 'Nomvula Zulu', position: 'Head of Inclusive Growth', company: 'Placeholder Foundation' },
  { name: 'Kagiso Mahlangu', position: 'Founder and Managing Director', company: 'Placeholder Ventures' },
  { name: 'Ayesha Patel', position: 'Partner: Advisory', company: 'Placeholder Consulting' },
  { name: 'Johan Botha', position: 'Chief Financial Officer', company: 'Placeholder Manufacturing Group' },
  { name: 'Zanele Ndlovu', position: 'Head of People and Culture', company: 'Placeholder Financial Services' },
  { name: 'Tshepo Sithole', position: 'Programme Director', company: 'Placeholder Second Chance Initiative' },
  { name: 'Dr Fatima Essop', position: 'Labour Market Researcher', company: 'Placeholder University' },
  { name: 'Mandla Radebe', position: 'Chief Executive Officer', company: 'Placeholder Startup Hub' },
  { name: 'Rethabile Mokoena', position: 'Investment Principal', company: 'Placeholder Venture Capital' },
  { name: 'Karabo Maseko', position: 'Executive: Strategy', company: 'Placeholder Energy Utility' },
]

const pfas: SpeakerEntry[] = [
  { name: 'Dr Lindiwe Mthembu', position: 'Senior Researcher: Water Quality', company: 'Placeholder Water Research Institute' },
  { name: 'Dr Ruan Pretorius', position: 'Researcher: Environmental Chemistry', company: 'Placeholder University' },
  { name: 'Dr Precious Ngcobo', position: 'Researcher: Analytical Chemistry', company: 'Placeholder Science Council' },
  { name: 'Dr Themba Shabalala', position: 'Researcher: Public Health', company: 'Placeholder University' },
  { name: 'Nokuthula Mabaso', position: 'Director: Water Quality Management', company: 'Placeholder Water Department' },
  { name: 'David Naidoo', position: 'Founder', company: 'Placeholder Water Technologies' },
  { name: 'Busisiwe Khoza', position: 'Network Coordinator', company: 'Placeholder Chemicals Network' },
  { name: 'Sizwe Cele', position: 'Director: Water and Sanitation', company: 'Placeholder Metropolitan Municipality' },
  { name: 'Megan Jacobs', position: 'Environmental Consultant', company: 'Placeholder Environmental Consulting' },
  { name: 'Andile Mkhize', position: 'Industry Officer', company: 'Placeholder Industry Association' },
  { name: 'Yusuf Adams', position: 'Business Development Manager', company: 'Placeholder Treatment Solutions' },
]

function speakerDocuments(eventSlug: string, entries: SpeakerEntry[], inventedFields: string[], hue: number) {
  const documents: DatasetDocument[] = []
  const images: PlaceholderImage[] = []
  entries.forEach((entry, index) => {
    const id = `speaker-${eventSlug}-${String(index + 1).padStart(2, '0')}`
    const file = `${id}.svg`
    images.push({ file, svg: portraitSvg(entry.name, (hue + index * 23) % 360) })
    documents.push({
      _id: id,
      _type: 'speaker',
      name: entry.name,
      position: entry.position,
      company: entry.company,
      ...(entry.bio ? { bio: paragraphBlocks('bio', entry.bio) } : {}),
      image: image(file, `Portrait of ${entry.name}`),
      placeholders: [...inventedFields, ...(entry.bio ? ['bio'] : [])],
    })
  })
  return { documents, images }
}

const resilienceSpeakers = speakerDocuments('resilience', resilience, ['name', 'position', 'company', 'image'], 200)
// The PFAS roles come from the specification; only the people and their organisations are invented.
const pfasSpeakers = speakerDocuments('pfas', pfas, ['name', 'company', 'image'], 150)

export const speakers: DatasetDocument[] = [...resilienceSpeakers.documents, ...pfasSpeakers.documents]
export const speakerImages: PlaceholderImage[] = [...resilienceSpeakers.images, ...pfasSpeakers.images]

/** Speaker ids of an event, in the order the carousel shows them. */
export function speakerIds(eventSlug: 'resilience' | 'pfas'): string[] {
  return speakers.filter((speaker) => speaker._id.startsWith(`speaker-${eventSlug}-`)).map((speaker) => speaker._id)
}
