import { Link } from 'react-router'
import { useSiteSettings } from '../lib/site-settings'

const quickLinks = [
  { label: 'Home', to: '/#hero' },
  { label: 'About', to: '/#about' },
  { label: 'Divisions', to: '/#divisions' },
  { label: 'Ts & Cs', to: '/terms' },
  { label: 'Contact', to: '/#contact' },
] as const

const socialNames = { facebook: 'Facebook', x: 'X', instagram: 'Instagram', linkedin: 'LinkedIn' } as const

export function Footer() {
  const settings = useSiteSettings()
  const year = new Date().getFullYear()
  const socialLinks = Object.entries(socialNames).flatMap(([key, name]) => {
    const href = settings?.socialLinks?.[key as keyof typeof socialNames]
    return href ? [{ name, href }] : []
  })
  return (
    <footer className="site-footer">
      <div className="site-footer__grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">{settings?.siteName}</h2>
          <p>{settings?.footerDescription}</p>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links">Quick Links</h2>
          <ul>
            {quickLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
            <li>
              <Link to="/privacy">Privacy</Link>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="footer-company">
          <h2 id="footer-company">Company details</h2>
          <address>
            <p>{settings?.siteName}</p>
            {settings?.registrationNumbers?.map((registration) => (
              <p key={registration._key}>
                {registration.label}: {registration.value}
              </p>
            ))}
            {settings?.addresses?.map((address) => (
              <p key={address} className="preserve-lines">
                {address}
              </p>
            ))}
            {settings?.phones?.map((phone) => (
              <p key={phone}>
                <a href={`tel:${phone.replace(/\s+/g, '')}`}>{phone}</a>
              </p>
            ))}
            {settings?.email && (
              <p>
                <a href={`mailto:${settings.email}`}>{settings.email}</a>
              </p>
            )}
          </address>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social">Follow us</h2>
          <ul className="social-links">
            {socialLinks.map((link) => (
              <li key={link.name}>
                <a href={link.href} rel="noopener noreferrer">
                  {link.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className="site-footer__copyright">
        © {year} {settings?.siteName}. All rights reserved. {settings?.developerCredit}
      </p>
    </footer>
  )
}
