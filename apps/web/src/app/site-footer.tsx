import { Mail, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { NewsletterForm } from '../features/contact/newsletter-form.tsx';
import { LogoMark } from './logo.tsx';
import { GitHubIcon, LinkedInIcon, XIcon } from './social-icons.tsx';

const quickLinks = [
  { hash: 'home', label: 'Home' },
  { hash: 'features', label: 'Features' },
  { hash: 'pricing', label: 'Pricing' },
  { hash: 'about', label: 'About' },
  { hash: 'contact', label: 'Contact' },
];

const socials = [
  { href: 'https://github.com', label: 'Cohort on GitHub', icon: GitHubIcon },
  { href: 'https://x.com', label: 'Cohort on X', icon: XIcon },
  { href: 'https://www.linkedin.com', label: 'Cohort on LinkedIn', icon: LinkedInIcon },
];

const linkClasses =
  'rounded text-sm text-slate-300 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300';

/** On the landing page the quick links are in-page anchors; elsewhere they lead back to its sections. */
function QuickLink({ hash, children }: { hash: string; children: ReactNode }) {
  const { pathname } = useLocation();
  if (pathname === '/') {
    return (
      <a href={`#${hash}`} className={linkClasses}>
        {children}
      </a>
    );
  }
  return (
    <Link to={`/#${hash}`} className={linkClasses}>
      {children}
    </Link>
  );
}

function FooterHeading({ children }: { children: ReactNode }) {
  return <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{children}</h2>;
}

export function SiteFooter() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-4">
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <LogoMark className="size-8" />
            Cohort
          </p>
          <p className="text-sm leading-6">
            Cohort brings your team's conversations, tasks, calls and projects together, so you can connect,
            learn and collaborate in one place.
          </p>
          <ul className="flex gap-3">
            {socials.map(({ href, label, icon: Icon }) => (
              <li key={href}>
                <a
                  href={href}
                  aria-label={label}
                  rel="noopener noreferrer"
                  target="_blank"
                  className="flex size-9 items-center justify-center rounded-full bg-slate-800 text-slate-300 hover:bg-slate-700 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
                >
                  <Icon className="size-4" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Quick links" className="space-y-4">
          <FooterHeading>Quick links</FooterHeading>
          <ul className="space-y-2">
            {quickLinks.map((link) => (
              <li key={link.hash}>
                <QuickLink hash={link.hash}>{link.label}</QuickLink>
              </li>
            ))}
          </ul>
        </nav>
        <div id="contact" className="scroll-mt-24 space-y-4">
          <FooterHeading>Contact</FooterHeading>
          <ul className="space-y-3 text-sm">
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 shrink-0 text-indigo-300" />
              <a href="mailto:hello@cohort.app" className={linkClasses}>
                hello@cohort.app
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 shrink-0 text-indigo-300" />
              <a href="tel:+918040001234" className={linkClasses}>
                +91 80 4000 1234
              </a>
            </li>
            <li className="flex items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 shrink-0 text-indigo-300" />
              Bengaluru, India
            </li>
          </ul>
        </div>
        <div className="space-y-4">
          <FooterHeading>Newsletter</FooterHeading>
          <p className="text-sm">Product news once a month. No spam, unsubscribe any time.</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6">
          © 2024 Cohort. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
