import { useRef, type KeyboardEvent } from 'react';
import { CopyButton } from '../../components/copy-button.js';
import { EXAMPLE_LANGUAGES, codeExample, type ExampleLanguage, type ExampleRequest } from './code-examples.js';

/**
 * The operation's request in three languages as tabs (WAI-ARIA tabs: arrow keys, Home and End
 * move between them). The language is the page's, so choosing Python once shows Python everywhere.
 */
export function CodeTabs({
  idPrefix,
  request,
  language,
  onLanguage,
}: {
  idPrefix: string;
  request: ExampleRequest;
  language: ExampleLanguage;
  onLanguage: (language: ExampleLanguage) => void;
}) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent, index: number) => {
    const last = EXAMPLE_LANGUAGES.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    onLanguage(EXAMPLE_LANGUAGES[next]!.id);
    tabs.current[next]?.focus();
  };
  const current = EXAMPLE_LANGUAGES.find((tab) => tab.id === language) ?? EXAMPLE_LANGUAGES[0]!;
  return (
    <div className="code-tabs">
      <div className="code-tabs-bar">
        <div role="tablist" aria-label="Example language">
          {EXAMPLE_LANGUAGES.map((tab, index) => (
            <button
              key={tab.id}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${idPrefix}-tab-${tab.id}`}
              aria-selected={tab.id === language}
              aria-controls={`${idPrefix}-panel-${tab.id}`}
              tabIndex={tab.id === language ? 0 : -1}
              onClick={() => onLanguage(tab.id)}
              onKeyDown={(event) => move(event, index)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <CopyButton text={codeExample(current.id, request)} what={`${current.label} example`} />
      </div>
      {EXAMPLE_LANGUAGES.map((tab) => {
        const code = codeExample(tab.id, request);
        return (
          <div
            key={tab.id}
            role="tabpanel"
            id={`${idPrefix}-panel-${tab.id}`}
            aria-labelledby={`${idPrefix}-tab-${tab.id}`}
            hidden={tab.id !== language}
            className="code-panel"
          >
            <pre tabIndex={0}>
              <code>{code}</code>
            </pre>
          </div>
        );
      })}
    </div>
  );
}
