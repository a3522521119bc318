import { CogIcon } from '@sanity/icons'
import { defineArrayMember, defineField, defineType } from 'sanity'
import { documentRules } from '../lib/schemaRules.ts'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  icon: CogIcon,
  validation: documentRules('siteSettings'),
  groups: [
    { name: 'company', title: 'Company', default: true },
    { name: 'contact', title: 'Contact' },
    { name: 'payment', title: 'Payment' },
    { name: 'privacy', title: 'Privacy' },
    { name: 'certificates', title: 'Certificates' },
    placeholdersGroup,
  ],
  fields: [
    defineField({
      name: 'siteName',
      title: 'Trading name',
      type: 'string',
      group: 'company',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'tagline', type: 'string', group: 'company' }),
    defineField({ name: 'footerDescription', title: 'Footer description', type: 'text', rows: 3, group: 'company' }),
    defineField({
      name: 'developerCredit',
      title: 'Developer credit',
      type: 'string',
      group: 'company',
      description: 'Shown in the copyright line',
    }),
    defineField({
      name: 'registrationNumbers',
      title: 'Registration numbers',
      type: 'array',
      group: 'company',
      of: [
        defineArrayMember({
          name: 'registrationNumber',
          type: 'object',
          fields: [
            defineField({ name: 'label', type: 'string', validation: (rule) => rule.required() }),
            defineField({ name: 'value', type: 'string', validation: (rule) => rule.required() }),
          ],
          preview: { select: { title: 'label', subtitle: 'value' } },
        }),
      ],
    }),
    defineField({
      name: 'addresses',
      type: 'array',
      group: 'contact',
      of: [defineArrayMember({ type: 'text', rows: 3 })],
    }),
    defineField({ name: 'phones', type: 'array', group: 'contact', of: [defineArrayMember({ type: 'string' })] }),
    defineField({ name: 'email', title: 'Contact e-mail', type: 'string', group: 'contact', validation: (rule) => rule.email() }),
    defineField({
      name: 'socialLinks',
      title: 'Social links',
      type: 'object',
      group: 'contact',
      fields: ['facebook', 'x', 'instagram', 'linkedin'].map((name) => defineField({ name, title: name === 'x' ? 'X' : undefined, type: 'url' })),
    }),
    defineField({
      name: 'vatNumber',
      title: 'VAT number',
      type: 'string',
      group: 'payment',
      description: 'Printed on tax invoices',
    }),
    defineField({
      name: 'vatRate',
      title: 'VAT rate',
      type: 'number',
      group: 'payment',
      description: 'As a percentage: 15 for 15%; from 0 to 30',
      validation: (rule) => rule.required().precision(2),
    }),
    defineField({
      name: 'maxDelegatePrice',
      title: 'Highest price per delegate',
      type: 'number',
      group: 'payment',
      description:
        'In rands, excl. VAT; empty means R 50 000. A price option above it (a table: per seat) cannot be published, which catches a price typed in cents',
      validation: (rule) => rule.positive().integer(),
    }),
    defineField({
      name: 'bankDetails',
      title: 'Bank details',
      type: 'object',
      group: 'payment',
      description: 'Shown to visitors who pay by bank transfer',
      fields: [
        defineField({ name: 'bankName', type: 'string' }),
        defineField({ name: 'accountName', type: 'string' }),
        defineField({ name: 'accountNumber', type: 'string' }),
        defineField({ name: 'branch', type: 'string' }),
        defineField({ name: 'branchCode', type: 'string' }),
        defineField({ name: 'swiftCode', title: 'SWIFT code', type: 'string' }),
      ],
    }),
    defineField({
      name: 'paymentTermsDays',
      title: 'Payment terms (days)',
      type: 'number',
      group: 'payment',
      description: 'Days after the invoice date within which payment is due',
      validation: (rule) => rule.integer().min(0),
    }),
    defineField({
      name: 'sponsorCodesOncePaid',
      title: 'Send sponsors’ codes once their invoice is paid',
      type: 'boolean',
      group: 'payment',
      description:
        'A new sponsorship deal starts with this choice: ticked, its complimentary and discount codes go to the sponsor’s contact only when its tax invoice is paid in full; unticked, on approval. Staff can change it for each deal.',
      initialValue: false,
    }),
    defineField({
      name: 'informationOfficer',
      title: 'Information officer',
      type: 'object',
      group: 'privacy',
      description: 'The person responsible for personal information under POPIA',
      fields: [defineField({ name: 'name', type: 'string' }), defineField({ name: 'email', type: 'string', validation: (rule) => rule.email() })],
    }),
    defineField({
      name: 'certificateSignatory',
      title: 'Certificate signatory',
      type: 'object',
      group: 'certificates',
      description: 'The person who signs every certificate of attendance',
      fields: [
        defineField({ name: 'name', type: 'string', validation: (rule) => rule.required() }),
        defineField({ name: 'title', title: 'Title', type: 'string', description: 'e.g. "Managing Director"', validation: (rule) => rule.required() }),
        defineField({
          name: 'signature',
          title: 'Signature image',
          type: 'image',
          description: 'A scan of the signature on a white or clear background (PNG or JPEG)',
        }),
      ],
    }),
    placeholdersField,
  ],
  preview: { select: { title: 'siteName' }, prepare: ({ title }) => ({ title: title ?? 'Site settings' }) },
})
