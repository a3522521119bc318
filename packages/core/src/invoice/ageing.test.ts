import { describe, expect, it } from 'vitest'
import { ageBandOf, ageingOf } from './ageing.ts'

describe('ageing of what is owed', () => {
  it('puts a debt in its band by whole days since its first invoice, at each edge', () => {
    expect(
      (
        [
          ['2025-03-01', '2025-03-01'],
          ['2025-03-01', '2025-03-30'],
          ['2025-03-01', '2025-03-31'],
          ['2025-03-01', '2025-04-29'],
          ['2025-03-01', '2025-04-30'],
          ['2025-03-01', '2025-05-29'],
          ['2025-03-01', '2025-05-30'],
          ['2024-12-31', '2025-12-31'],
        ] as const
      ).map(([invoicedOn, today]) => ageBandOf(invoicedOn, today)),
    ).toEqual(['current', 'current', '30-days', '30-days', '60-days', '60-days', '90-days-plus', '90-days-plus'])
  })

  it('adds up each band, leaving out what is paid or overpaid', () => {
    expect(
      ageingOf(
        [
          { invoicedOn: '2025-03-01', owedCents: 100 },
          { invoicedOn: '2025-02-01', owedCents: 200 },
          { invoicedOn: '2025-01-01', owedCents: 300 },
          { invoicedOn: '2024-11-01', owedCents: 400 },
          { invoicedOn: '2024-11-01', owedCents: 500 },
          { invoicedOn: '2025-03-01', owedCents: 0 },
          { invoicedOn: '2025-03-01', owedCents: -700 },
        ],
        '2025-03-05',
      ),
    ).toEqual({ current: 100, '30-days': 200, '60-days': 300, '90-days-plus': 900 })
  })
})
