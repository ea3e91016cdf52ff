import { useId, type ReactNode } from 'react';
import { CopyButton } from '../../components/copy-button.js';
import { FIELD_GROUPS, UNKNOWN, groupRows, reservedMessage, type FieldGroup, type IpInfoView } from './ip-info.js';

function Group({ info, group }: { info: IpInfoView; group: FieldGroup }) {
  const id = useId();
  return (
    <div className="field-group" role="group" aria-labelledby={id}>
      <h3 id={id}>{group.title}</h3>
      <dl>
        {groupRows(info, group).map((row) => (
          <div key={row.path} className={row.text === UNKNOWN ? 'unknown' : undefined}>
            <dt>{row.label}</dt>
            <dd data-field={row.path}>{row.text}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * One answer as a readable card: every member of spec section 3 in its group (location, network,
 * ASN, time zone, currency, privacy), each value in a `dd` whose `data-field` is its JSON path.
 * A reserved address says why it has no location and shows only the groups that have data.
 * `map` goes beside the first group (location) on wide screens.
 */
export function IpCard({ info, map }: { info: IpInfoView; map?: ReactNode }) {
  const reserved = reservedMessage(info);
  const groups = reserved
    ? FIELD_GROUPS.filter((group) => groupRows(info, group).some((row) => row.text !== UNKNOWN))
    : FIELD_GROUPS;
  return (
    <div className="ip-card card">
      {reserved && (
        <p className="note reserved" data-reserved={info.reserved}>
          {reserved}
        </p>
      )}
      {groups.length > 0 && (
        <div className="field-groups">
          {groups.map((group, index) => [
            <Group key={group.title} info={info} group={group} />,
            index === 0 && map ? (
              <div key="map" className="field-map">
                {map}
              </div>
            ) : null,
          ])}
        </div>
      )}
    </div>
  );
}

/** The answer exactly as the API sends it, with a Copy button. */
export function RawJson({ value, title = 'Raw JSON' }: { value: unknown; title?: string }) {
  const id = useId();
  const json = JSON.stringify(value, null, 2);
  return (
    <div className="raw-json">
      <div className="raw-json-head">
        <h3 id={id}>{title}</h3>
        <CopyButton text={json} what={title.toLowerCase()} />
      </div>
      {/* Focusable: a keyboard user can scroll a long answer sideways. */}
      <pre tabIndex={0}>{json}</pre>
    </div>
  );
}
