import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { byRank, SponsorPackages, type SponsorPackage } from './SponsorPackages'

const packages: SponsorPackage[] = [
  { _id: 'silver', title: 'Silver', rank: 3, benefits: ['1 complimentary seat', 'Half-day workshop'] },
  { _id: 'platinum', title: 'Platinum', rank: 1, benefits: ['3 complimentary seats', '45-minute case study'] },
  { _id: 'gold', title: 'Gold', rank: 2, benefits: ['2 complimentary seats', '40-minute case study'] },
]

function renderSponsorPackages() {
  render(
    <MemoryRouter initialEntries={['/conference/Resilience?tab=sponsor']}>
      <SponsorPackages
        heading="Sponsorship opportunities"
        intro="Put your brand in front of decision makers."
        packages={packages}
        contactHref="/conference/Resilience/contact"
      />
    </MemoryRouter>,
  )
}

describe('SponsorPackages', () => {
  it('shows the heading, the introduction and the packages from the top tier down', () => {
    renderSponsorPackages()
    const section = screen.getByRole('region', { name: 'Sponsorship opportunities' })
    expect(section).toHaveTextContent('Put your brand in front of decision makers.')
    const titles = within(section)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent)
    expect(titles).toEqual(['Platinum', 'Gold', 'Silver'])
    const platinum = screen.getByRole('heading', { name: 'Platinum' }).closest('li')
    expect(
      within(platinum as HTMLElement)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['3 complimentary seats', '45-minute case study'])
  })

  it('leads to the contact form with a Become a Sponsor link', () => {
    renderSponsorPackages()
    const link = screen.getByRole('link', { name: 'Become a Sponsor' })
    expect(link).toHaveAttribute('href', '/conference/Resilience/contact')
    expect(link).toHaveClass('button')
  })

  it('puts unranked packages last, keeping their order', () => {
    const unranked = { _id: 'extra', title: 'Exhibitor', rank: null, benefits: [] }
    const other = { _id: 'other', title: 'Media', rank: null, benefits: [] }
    expect(byRank([unranked, ...packages, other]).map((sponsorPackage) => sponsorPackage._id)).toEqual(['platinum', 'gold', 'silver', 'extra', 'other'])
  })
})

describe('the tiers as a ladder', () => {
  it('marks each package with its step from the top tier down, the rest on the lowest step', () => {
    const extra = { _id: 'extra', title: 'Exhibitor', rank: null, benefits: [] }
    render(
      <MemoryRouter>
        <SponsorPackages heading={null} intro={null} packages={[...packages, extra]} contactHref="/sponsorship/contact" />
      </MemoryRouter>,
    )
    const steps = screen.getAllByRole('heading', { level: 3 }).map((heading) => [heading.textContent, heading.closest('li')?.dataset.step])
    expect(steps).toEqual([
      ['Platinum', '1'],
      ['Gold', '2'],
      ['Silver', '3'],
      ['Exhibitor', '3'],
    ])
  })
})
