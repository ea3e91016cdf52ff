import { checkEmail, type FieldErrors } from '../../forms/validation.js';

/** The form's categories (spec section 3), as bff-en's /api/init and content name them. */
export const CONTACT_CATEGORIES = ['Custom plans', 'Support', 'Feedback'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

export const isContactCategory = (value: string | null): value is ContactCategory =>
  (CONTACT_CATEGORIES as readonly (string | null)[]).includes(value);

export interface ContactForm {
  name: string;
  email: string;
  description: string;
  category: string;
}

export type ContactField = keyof ContactForm;

/** content's limits (services/content/src/submissions/submission.ts), counted in characters as it does. */
export const LIMITS = { name: 100, description: 2000 } as const;

/**
 * The messages content answers with, so the visitor reads the same words before and after a round
 * trip; the address's is the spec's (section 5).
 */
export const CONTACT_MESSAGES = {
  name: 'Please enter your name',
  nameTooLong: `Your name must be at most ${LIMITS.name} characters long`,
  description: 'Please enter the description',
  descriptionTooLong: `The description must be at most ${LIMITS.description} characters long`,
  category: `Please choose a category: ${CONTACT_CATEGORIES.join(', ')}`,
} as const;

const length = (text: string) => [...text.trim()].length;

export function checkContact(form: ContactForm): FieldErrors<ContactField> {
  const errors: FieldErrors<ContactField> = {};
  if (length(form.name) === 0) errors.name = CONTACT_MESSAGES.name;
  else if (length(form.name) > LIMITS.name) errors.name = CONTACT_MESSAGES.nameTooLong;
  Object.assign(errors, checkEmail(form));
  if (length(form.description) === 0) errors.description = CONTACT_MESSAGES.description;
  else if (length(form.description) > LIMITS.description) errors.description = CONTACT_MESSAGES.descriptionTooLong;
  if (!isContactCategory(form.category)) errors.category = CONTACT_MESSAGES.category;
  return errors;
}
