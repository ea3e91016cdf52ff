import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, PROFILE, renderPage } from '../test/render.js';
import { MESSAGES } from '../forms/validation.js';
import { ContactPage } from './contact.page.js';
import { CONTACT_MESSAGES } from './contact/check-contact.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SUCCESS = 'Information submitted successfully, we will give you feedback as soon as possible';
const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

describe('contact', () => {
  it('has the four fields and the three categories of the spec', () => {
    fakeApi({});
    renderPage(<ContactPage />, { path: '/contact' });
    for (const label of ['Name', 'Email', 'Description']) expect(screen.getByLabelText(label, { exact: true })).toBeTruthy();
    const category = screen.getByLabelText<HTMLSelectElement>('Category');
    expect([...category.options].map((option) => option.text)).toEqual(['Custom plans', 'Support', 'Feedback']);
  });

  it('shows each problem next to its field, with the spec’s email message, and sends nothing', () => {
    const { sent } = fakeApi({});
    renderPage(<ContactPage />, { path: '/contact' });
    fill('Email', 'not-an-address');
    submit();
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toEqual([CONTACT_MESSAGES.name, MESSAGES.email, CONTACT_MESSAGES.description]);
    expect(screen.getByLabelText('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Email', { exact: true }).getAttribute('aria-describedby')).toBe('contact-email-error');
    expect(document.activeElement).toBe(screen.getByLabelText('Name', { exact: true }));
    expect(sent).toEqual([]);

    fill('Description', 'x'.repeat(2001));
    submit();
    expect(screen.getByText(CONTACT_MESSAGES.descriptionTooLong)).toBeTruthy();
  });

  it("sends name, email, description and category, then shows the spec's success message", async () => {
    const { sent } = fakeApi({
      'POST /api/contact': {
        status: 201,
        code: 200,
        msg: SUCCESS,
        data: { id: 'sub_1', received_at: '2026-01-01T00:00:00.000Z' },
      },
    });
    renderPage(<ContactPage />, { path: '/contact' });
    fill('Name', '  Ada  ');
    fill('Email', 'ada@example.com');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Support' } });
    fill('Description', 'How fresh is the data?');
    submit();
    expect((await screen.findByText(SUCCESS)).getAttribute('role')).toBe('status');
    expect(sent[0]!.body).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      description: 'How fresh is the data?',
      category: 'Support',
    });
    expect(sent[0]!.headers.get('x-csrf-token')).toBe('csrf-test-value');
    // Ready for another message: the description is cleared, the sender kept.
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('  Ada  ');
  });

  it("fills in a logged-in user's name and address, and opens on the category the link asks for", () => {
    fakeApi({});
    renderPage(<ContactPage />, { path: '/contact?category=Custom%20plans', user: PROFILE });
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe(PROFILE.name);
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe(PROFILE.email);
    expect(screen.getByLabelText<HTMLSelectElement>('Category').value).toBe('Custom plans');
  });

  it("puts the server's refusal at its field, or above the button when it names none", async () => {
    fakeApi({
      'POST /api/contact': (request) =>
        (request.body as { name: string }).name === 'Ada'
          ? { status: 400, msg: 'Please enter the correct email address', field: 'email' }
          : { status: 429, msg: 'Too many messages from your address, please try again later' },
    });
    renderPage(<ContactPage />, { path: '/contact' });
    fill('Name', 'Ada');
    fill('Email', 'ada@example.com');
    fill('Description', 'Hello');
    submit();
    await waitFor(() => expect(screen.getByLabelText('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true'));
    fill('Name', 'Bob');
    submit();
    expect(await screen.findByText('Too many messages from your address, please try again later')).toBeTruthy();
    expect(screen.queryByText(SUCCESS)).toBeNull();
  });
});
