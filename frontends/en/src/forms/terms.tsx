import type { MouseEvent } from 'react';

// The terms and the privacy policy the sign-up checkbox refers to. Face B's route table has no
// page of their own, so the sign-up page carries them (collapsed) and the links open them.

const DOCUMENTS = { terms: 'Terms of Service', privacy: 'Privacy Policy' } as const;
type DocumentId = keyof typeof DOCUMENTS;

function open(event: MouseEvent<HTMLAnchorElement>, id: DocumentId) {
  const details = document.getElementById(id);
  if (details instanceof HTMLDetailsElement) details.open = true;
  // Keep the URL as it is (no #hash for the router), but go there as a link would.
  event.preventDefault();
  details?.scrollIntoView({ block: 'start' });
  details?.querySelector('summary')?.focus();
}

function DocumentLink({ id }: { id: DocumentId }) {
  return (
    <a href={`#${id}`} onClick={(event) => open(event, id)}>
      {DOCUMENTS[id]}
    </a>
  );
}

/** "the Terms of Service and Privacy Policy", each a link. */
export function TermsLinks() {
  return (
    <>
      the <DocumentLink id="terms" /> and <DocumentLink id="privacy" />
    </>
  );
}

/** The spec's 'Please agree to the' message, with the two documents as links. */
export function TermsMessage() {
  return (
    <>
      Please agree to <TermsLinks />
    </>
  );
}

/** The two documents, collapsed until a link (or the visitor) opens them. */
export function TermsDocuments() {
  return (
    <div className="terms-documents">
      <details id="terms">
        <summary>{DOCUMENTS.terms}</summary>
        <ul>
          <li>The free plan includes 50,000 lookups a month; paid plans include what the pricing page lists.</li>
          <li>Keep your API keys secret: every lookup made with a key counts against your account.</li>
          <li>Downloaded databases are for your own products; do not resell or republish the files as they are.</li>
          <li>Paid plans renew each period until you change them; a downgrade applies at the end of the paid period.</li>
          <li>The data is provided as it is; IP addresses change hands, so results are estimates.</li>
        </ul>
      </details>
      <details id="privacy">
        <summary>{DOCUMENTS.privacy}</summary>
        <ul>
          <li>We keep your email address, your name and company if you give them, and a hash of your password.</li>
          <li>
            We count the lookups of each API key (for quotas and invoices) and record each database download with its date and IP
            address.
          </li>
          <li>We email you only to confirm your address, to reset your password and about your account.</li>
          <li>
            Two cookies: <code>token</code> keeps you logged in; <code>csrf_token</code> protects your account from other sites.
          </li>
        </ul>
      </details>
    </div>
  );
}
