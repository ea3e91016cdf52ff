import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ConfigFileError } from '@ipdata/common';

/** config/contacts.yaml beside src/ and dist/ alike. */
export const DEFAULT_CONTACTS_FILE = fileURLToPath(new URL('../../config/contacts.yaml', import.meta.url));

export interface Contact {
  name: string;
  value: string;
}

export const CONTACT_LISTS = ['phone', 'email', 'qq', 'qq_code', 'wx_code'] as const;
export type ContactList = (typeof CONTACT_LISTS)[number];

export interface Contacts {
  lists: Readonly<Record<ContactList, readonly Contact[]>>;
  /** The file says its values are samples (`sample: true`): logged at start. */
  sample: boolean;
}

/** The contacts file is wrong: the message names the file and every problem at once. */
export class ContactsFileError extends ConfigFileError {
  constructor(source: string, problems: readonly string[]) {
    super('contacts file', source, problems);
    this.name = 'ContactsFileError';
  }
}

const MAX_ENTRIES = 20;
const VALUE_RULES: Record<ContactList, { pattern: RegExp; expected: string }> = {
  phone: { pattern: /^\+?[0-9][0-9 ()-]{2,29}$/, expected: 'a phone number (digits, spaces, "-", "()", optional leading +)' },
  email: { pattern: /^[^\s@"<>]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,}$/, expected: 'an e-mail address' },
  qq: { pattern: /^[1-9][0-9]{4,11}$/, expected: 'a QQ number (5 to 12 digits)' },
  qq_code: { pattern: /^[1-9][0-9]{4,11}$/, expected: 'a QQ group number (5 to 12 digits)' },
  wx_code: {
    pattern: /^(?:[A-Za-z][A-Za-z0-9_-]{5,19}|https?:\/\/[^\s"'<>`]{1,490}|\/(?!\/)[^\s"'<>`]{1,490})$/,
    expected: 'a WeChat id or a QR-code image URL (http(s) or /site-relative)',
  },
};

export function loadContactsFile(path: string): Contacts {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ContactsFileError(path, [`cannot read the file: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return parseContacts(text, path);
}

export function parseContacts(text: string, source = '(inline)'): Contacts {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new ContactsFileError(source, [`not valid YAML: ${error instanceof Error ? error.message : String(error)}`]);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ContactsFileError(source, [`must be a mapping with the lists ${CONTACT_LISTS.join(', ')}`]);
  }
  const raw = document as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'sample' && !(CONTACT_LISTS as readonly string[]).includes(key)) {
      problems.push(`unknown key "${key}" (expected sample, ${CONTACT_LISTS.join(', ')})`);
    }
  }
  if (raw['sample'] !== undefined && typeof raw['sample'] !== 'boolean') problems.push('sample must be true or false');
  const lists = Object.fromEntries(CONTACT_LISTS.map((list) => [list, contactList(list, raw[list], problems)])) as Record<
    ContactList,
    Contact[]
  >;
  if (problems.length > 0) throw new ContactsFileError(source, problems);
  return { lists, sample: raw['sample'] === true };
}

function contactList(list: ContactList, value: unknown, problems: string[]): Contact[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${list}: must be a list of {name, value}`);
    return [];
  }
  if (value.length > MAX_ENTRIES) problems.push(`${list}: ${value.length} entries, at most ${MAX_ENTRIES}`);
  const contacts: Contact[] = [];
  value.forEach((entry: unknown, index) => {
    const where = `${list}[${index}]`;
    const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const name = record['name'];
    // Numbers written without quotes (qq: 10000) are read as text.
    const raw = typeof record['value'] === 'number' ? String(record['value']) : record['value'];
    const before = problems.length;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be a mapping {name, value}`);
      return;
    }
    for (const key of Object.keys(record)) if (key !== 'name' && key !== 'value') problems.push(`${where}: unknown key "${key}"`);
    if (typeof name !== 'string' || name.trim() === '' || [...name].length > 50) {
      problems.push(
        `${where}: name ${JSON.stringify(name) ?? 'is missing'}, expected a non-empty string of at most 50 characters`,
      );
    }
    if (typeof raw !== 'string' || !VALUE_RULES[list].pattern.test(raw)) {
      problems.push(`${where}: value ${JSON.stringify(raw) ?? 'is missing'}, expected ${VALUE_RULES[list].expected}`);
    }
    if (problems.length === before) contacts.push({ name: (name as string).trim(), value: raw as string });
  });
  return contacts;
}
