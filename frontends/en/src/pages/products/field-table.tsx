import type { FieldFact } from './product-facts.js';

/** A product's members or columns: name (as it appears in the JSON or CSV) and meaning. */
export function FieldTable({ caption, fields }: { caption: string; fields: readonly FieldFact[] }) {
  return (
    <table className="field-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Meaning</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.name}>
            <td>
              <code>{field.name}</code>
            </td>
            <td>{field.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
