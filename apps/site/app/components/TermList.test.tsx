import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { TermList } from './TermList'

describe('TermList', () => {
  it('lists each term followed by its value, in order', () => {
    const { container } = render(
      <TermList
        className="admin-facts"
        terms={[
          ['Reference', 'ABC123'],
          ['Outstanding', <strong key="outstanding">R 10.00</strong>],
        ]}
      />,
    )
    const list = container.querySelector('dl.admin-facts')
    expect(Array.from(list?.children ?? []).map((child) => `${child.tagName}:${child.textContent}`)).toEqual([
      'DT:Reference',
      'DD:ABC123',
      'DT:Outstanding',
      'DD:R 10.00',
    ])
    expect(list?.querySelector('dd strong')?.textContent).toBe('R 10.00')
  })
})
