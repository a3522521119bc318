import { TagIcon } from '@sanity/icons'
import { delegateCap, OPTION_KEYS, type OptionKey } from '@events/pricing'
import { defineField, defineType } from 'sanity'
import { AmountInput } from '../components/AmountInput.tsx'
import { PriceOptionPreview, type PriceOptionPreviewValue } from '../components/PriceOptionPreview.tsx'
import { documentRules } from '../lib/schemaRules.ts'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'

const PER_DELEGATE_TITLES: Partial<Record<OptionKey, string>> = {
  venue: 'Venue (per delegate)',
  'early-bird': 'Early-bird (per delegate)',
  online: 'Online (per delegate)',
}

// A table's size is a pricing rule, not content: the editor sees it here and cannot set another.
function optionTitle(key: OptionKey): string {
  const cap = delegateCap(key)
  return cap === undefined ? (PER_DELEGATE_TITLES[key] ?? key) : `Table (flat price, at most ${cap} delegates)`
}

type PriceOptionDocument = { key?: string }

export const priceOption = defineType({
  name: 'priceOption',
  title: 'Price option',
  type: 'document',
  icon: TagIcon,
  validation: documentRules('priceOption'),
  groups: [{ name: 'content', title: 'Price', default: true }, placeholdersGroup],
  fields: [
    defineField({
      name: 'title',
      type: 'string',
      group: 'content',
      description: 'For lists in the studio, e.g. "Resilience 2025 — Venue"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'key',
      title: 'Option',
      type: 'string',
      group: 'content',
      options: { list: OPTION_KEYS.map((value) => ({ value, title: optionTitle(value) })), layout: 'radio' },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'label',
      type: 'string',
      group: 'content',
      description: 'Shown in the registration form, e.g. "Early-bird: register and pay by 13 June 2025"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'amount',
      title: 'Amount (rand, excl. VAT)',
      type: 'number',
      group: 'content',
      description: 'Per delegate; for table options the flat price of the table',
      components: { input: AmountInput },
      validation: (rule) => rule.required().precision(2),
    }),
    defineField({
      name: 'earlyBirdUntil',
      title: 'Early-bird until',
      type: 'date',
      group: 'content',
      description: 'Last day (Africa/Johannesburg) to register and pay at this price; must be before the event',
      hidden: ({ parent, value }) => (parent as PriceOptionDocument | undefined)?.key !== 'early-bird' && !value,
    }),
    placeholdersField,
  ],
  preview: {
    select: { title: 'title', key: 'key', amount: 'amount' },
    // The price is drawn by PriceOptionPreview, which knows the site settings' VAT rate.
    prepare: ({ title, key, amount }) => {
      const value: { title: string } & PriceOptionPreviewValue = { title, optionKey: key, amount }
      return value
    },
  },
  components: { preview: PriceOptionPreview },
})
