import { join } from 'node:path';
import { icuSource, packagedSources, ruleSource, type SourceDescription } from '../sources/source-catalogue.js';
import { listRangeFiles } from '../sources/privacy-rules.js';
import type { SourceInputs } from './load-sources.js';

/** The real inputs: the installed npm source packages, our rule files and the privacy-list folder. */
export function defaultInputs(dataDir: string, privacyListsDir: string): { inputs: SourceInputs; sources: SourceDescription[] } {
  const { sources, paths } = packagedSources();
  const hostingAsnsFile = join(dataDir, 'hosting-asns.csv');
  const euFile = join(dataDir, 'eu-member-states.csv');
  const rangeListFiles = listRangeFiles(privacyListsDir);
  return {
    inputs: { paths, hostingAsnsFile, euFile, rangeListFiles },
    sources: [
      ...sources,
      icuSource(),
      ruleSource(
        'hosting-asns',
        [hostingAsnsFile],
        'project data: operators\u2019 own public descriptions (see the file header)',
      ),
      ruleSource('eu-member-states', [euFile], 'project data: list of EU member states from european-union.europa.eu'),
      ruleSource('privacy-lists', rangeListFiles, 'as stated in each list file'),
    ],
  };
}
