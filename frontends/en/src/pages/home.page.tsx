import { Link } from 'react-router';
import { useAppSelector } from '../store/hooks.js';
import { selectSession } from '../store/session.slice.js';
import { LiveMap } from './home/live-map.js';
import './marketing.css';

const SERVICES = [
  {
    to: '/products/geolocation',
    title: 'IP geolocation API',
    text: 'Country, region, city, coordinates, time zone, currency and network for any IPv4 or IPv6 address.',
  },
  {
    to: '/products/privacy',
    title: 'Privacy detection API',
    text: 'VPN, Tor, data center, proxy, relay and hosting flags, to spot traffic that hides where it comes from.',
  },
  {
    to: '/products/asn',
    title: 'ASN API',
    text: 'The autonomous system behind an address: number, name, organisation and its announced prefixes.',
  },
  {
    to: '/databases/geolocation',
    title: 'IP databases',
    text: 'Geolocation, privacy and ASN data to download in CSV, JSON and our binary format, updated every 7 days.',
  },
];

/** Spec sections 1 and 9: the marketing claims, as the spec states them. */
const REASONS = [
  { figure: '< 40 ms', text: 'average response time' },
  { figure: '99.99%', text: 'uptime on paid plans' },
  { figure: '7 days', text: 'between database updates' },
  { figure: '900+', text: 'monitoring points' },
  { figure: '100+', text: 'experts behind the data' },
  { figure: 'IPv4 + IPv6', text: 'every address, one API' },
];

/** Kinds of customers, not names: we show no logo we have not been given permission to show. */
const CUSTOMER_KINDS = ['Online shops', 'Fintech', 'Ad tech', 'SaaS products', 'Security teams', 'Media and streaming'];

/** What teams use the data for: typical uses, told as the team would, not quotes of named people. */
const COMMENTS = [
  {
    text: 'Checkout compares the card’s country with the buyer’s IP country, and orders through a VPN or Tor go to review.',
    who: 'Payments team, online retail',
  },
  {
    text: 'Visitors see prices in their own currency and times in their own time zone from the first page, without a form.',
    who: 'Product team, SaaS',
  },
  {
    text: 'Our firewall rules load the ASN database every week and flag sign-ups coming from hosting networks.',
    who: 'Security engineering, fintech',
  },
];

/** Home (spec section 2): banner, trusted-by, services, the live map, why-us, comments, calls to action. */
export function HomePage() {
  const { freeLookupsPerMonth } = useAppSelector(selectSession);
  const free = freeLookupsPerMonth.toLocaleString('en-US');
  return (
    <div className="home">
      <section className="banner hero">
        <div className="hero-text">
          <h1>IP geolocation, privacy and ASN data for developers</h1>
          <p className="hero-lead">
            Look up any IPv4 or IPv6 address with one HTTPS call: where it is, who runs it and whether it hides behind a VPN, Tor
            or a proxy. Start with {free} free lookups per month — no credit card.
          </p>
          <p className="actions">
            <Link className="button primary large" to="/signup">
              Get your free API key
            </Link>
            <Link className="button large" to="/lookup">
              Try the IP lookup
            </Link>
          </p>
        </div>
        <figure className="hero-code">
          <figcaption>Example request</figcaption>
          <pre>
            <code>
              <span className="code-comment"># one address, everything we know</span>
              {`\ncurl ${window.location.origin}/v1/ip/8.8.8.8 \\\n  -H "Authorization: Bearer $IPDATA_KEY"`}
            </code>
          </pre>
        </figure>
      </section>

      <section className="trusted" aria-labelledby="trusted-title">
        <h2 id="trusted-title">Trusted by 3000+ companies</h2>
        <ul className="customer-kinds">
          {CUSTOMER_KINDS.map((kind) => (
            <li key={kind}>{kind}</li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="services-title">
        <h2 id="services-title">Services</h2>
        <ul className="cards service-cards">
          {SERVICES.map((service) => (
            <li key={service.title} className="card">
              <h3>
                <Link to={service.to}>{service.title}</Link>
              </h3>
              <p>{service.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <LiveMap />

      <section className="home-section" aria-labelledby="why-title">
        <h2 id="why-title">Why us</h2>
        <ul className="figures">
          {REASONS.map((reason) => (
            <li key={reason.text}>
              <strong>{reason.figure}</strong> <span>{reason.text}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="comments-title">
        <h2 id="comments-title">What teams build with it</h2>
        <ul className="comments">
          {COMMENTS.map((comment) => (
            <li key={comment.who}>
              <figure>
                <blockquote>
                  <p>{comment.text}</p>
                </blockquote>
                <figcaption>{comment.who}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="call-to-action" aria-labelledby="cta-title">
        <h2 id="cta-title">Start with {free} free lookups a month</h2>
        <p>No credit card. Upgrade when you need more, or talk to us about custom plans.</p>
        <p className="actions">
          <Link className="button primary large" to="/signup">
            Create a free account
          </Link>
          <Link className="button large" to="/pricing">
            See pricing
          </Link>
          <Link className="button large" to="/contact">
            Contact sales
          </Link>
        </p>
      </section>
    </div>
  );
}
