import { CONTACT_KINDS, type ContactItem, type ContactKind, type Contacts } from '../api/face-a.types.js';

export const EMPTY_CONTACTS: Contacts = { phone: [], email: [], qq: [], qq_code: [], wx_code: [] };

/**
 * web_init sends each contact kind as a JSON-encoded list of {name, value} (spec section 3).
 * A malformed or missing list becomes an empty one: contact details are decoration, a bad one
 * must not break start-up.
 */
export function parseContacts(encoded: Partial<Record<ContactKind, string>>): Contacts {
  const contacts = { ...EMPTY_CONTACTS };
  for (const kind of CONTACT_KINDS) contacts[kind] = parseList(encoded[kind]);
  return contacts;
}

function parseList(text: string | undefined): ContactItem[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown) => (isContact(item) ? [{ name: String(item.name), value: String(item.value) }] : []));
  } catch {
    return [];
  }
}

function isContact(item: unknown): item is { name: unknown; value: unknown } {
  return typeof item === 'object' && item !== null && 'name' in item && 'value' in item;
}

/** The name of the contact with this value, per kind (only the kinds that have one). */
export function contactNamesByValue(contacts: Contacts, value: string): Partial<Record<ContactKind, string>> {
  const names: Partial<Record<ContactKind, string>> = {};
  for (const kind of CONTACT_KINDS) {
    const match = contacts[kind].find((item) => item.value === value);
    if (match) names[kind] = match.name;
  }
  return names;
}
