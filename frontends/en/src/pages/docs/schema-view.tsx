import type { SchemaField, SchemaNode } from './schema-outline.js';
import { inline } from './prose.js';

function Details({ node }: { node: SchemaNode }) {
  return (
    <>
      {node.description && <span className="schema-description">{inline(node.description)}</span>}
      {node.constraints.length > 0 && <span className="schema-constraints">{node.constraints.join(' · ')}</span>}
    </>
  );
}

function Members({ node }: { node: SchemaNode }) {
  const nested = node.items ?? undefined;
  return (
    <>
      {node.fields.length > 0 && (
        <ul className="schema-fields">
          {node.fields.map((field) => (
            <Field key={field.name} field={field} />
          ))}
        </ul>
      )}
      {nested && (
        <div className="schema-items">
          <span className="schema-label">Each item: {nested.type}</span>
          <Members node={nested} />
        </div>
      )}
      {node.variants.length > 0 && (
        <ul className="schema-variants">
          {node.variants.map((variant, i) => (
            <li key={i}>
              <span className="schema-label">One of: {variant.type}</span>
              <Details node={variant} />
              <Members node={variant} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Field({ field }: { field: SchemaField }) {
  return (
    <li>
      <code className="schema-name">{field.name}</code> <span className="schema-type">{field.node.type}</span>
      {field.required && <span className="schema-required"> required</span>}
      <Details node={field.node} />
      <Members node={field.node} />
    </li>
  );
}

/** A schema as nested lists: member name, type in words, required, description, constraints. */
export function SchemaView({ node }: { node: SchemaNode }) {
  return (
    <div className="schema">
      <p className="schema-root">
        <span className="schema-type">{node.type}</span>
        <Details node={node} />
      </p>
      <Members node={node} />
    </div>
  );
}
