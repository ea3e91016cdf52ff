import { describe, expect, it } from 'vitest';
import { CONTACT_LISTS, ContactsFileError, DEFAULT_CONTACTS_FILE, loadContactsFile, parseContacts } from './contacts.js';

describe('contacts file', () => {
  it('loads the shipped sample file: every list present, every entry marked 示例', () => {
    const contacts = loadContactsFile(DEFAULT_CONTACTS_FILE);
    expect(contacts.sample).toBe(true);
    for (const list of CONTACT_LISTS) {
      expect(contacts.lists[list].length, list).toBeGreaterThan(0);
      for (const contact of contacts.lists[list]) expect(contact.name).toContain('示例');
    }
    expect(contacts.lists.email[0]).toEqual({ name: '示例-商务合作', value: 'sales@example.com' });
  });

  it('reads unquoted numbers as text and leaves absent lists empty', () => {
    const contacts = parseContacts('qq:\n  - {name: 客服, value: 123456}\n');
    expect(contacts).toEqual({
      sample: false,
      lists: { phone: [], email: [], qq: [{ name: '客服', value: '123456' }], qq_code: [], wx_code: [] },
    });
  });

  it('names every problem at once', () => {
    const text = [
      'sample: yes',
      'fax: []',
      'phone:',
      '  - {name: 销售, value: "call me"}',
      '  - {value: "400-000-0000"}',
      'email:',
      '  - {name: 支持, value: not-an-email, extra: 1}',
      'qq: "10000"',
      'wx_code:',
      '  - {name: 微信, value: "javascript:alert(1)"}',
    ].join('\n');
    let error: unknown;
    try {
      parseContacts(text, 'contacts.yaml');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContactsFileError);
    const problems = (error as ContactsFileError).problems;
    expect(problems).toEqual([
      'unknown key "fax" (expected sample, phone, email, qq, qq_code, wx_code)',
      'sample must be true or false',
      expect.stringContaining('phone[0]: value "call me", expected a phone number'),
      expect.stringContaining('phone[1]: name is missing'),
      'email[0]: unknown key "extra"',
      expect.stringContaining('email[0]: value "not-an-email", expected an e-mail address'),
      'qq: must be a list of {name, value}',
      expect.stringContaining('wx_code[0]: value "javascript:alert(1)"'),
    ]);
    expect((error as Error).message).toMatch(/^invalid contacts file contacts\.yaml \(8 problems\)/);
  });

  it('refuses a file that is not YAML or not a mapping', () => {
    expect(() => parseContacts('phone: [')).toThrow(/not valid YAML/);
    expect(() => parseContacts('- a')).toThrow(/must be a mapping/);
  });
});
