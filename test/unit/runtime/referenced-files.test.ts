/** referencedFiles: every file a topology reads, what `xroute run --watch` watches and a reload fingerprints. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { loadTopology } from '../../../src/config/topology';
import { defaultRegistry } from '../../../actors';
import { componentFileReferences, referencedFiles } from '../../../src/runtime/referenced-files';
import { reloadRegistry } from './fixtures/reload-components';

const fixtures = path.resolve(__dirname, '../../fixtures');

describe('referencedFiles', () => {
  it('lists the topology, and the template, XSLT, JSONata and plugin files its rulesets name', () => {
    const topology = loadTopology(path.join(fixtures, 'evaluator/every-kind/topology.json'), defaultRegistry());
    const files = referencedFiles(topology).map((f) => path.relative(fixtures, f));
    expect(files).toEqual([
      'evaluator/every-kind/topology.json',
      'evaluator/plugins/shout.ts',
      'evaluator/plugins/upper.js',
      'evaluator/templates/bill.txt',
      'transforms/jsonata/jt1.jsonata',
      'transforms/xsl/greeting.xsl',
    ]);
  });

  it('names the property of each file a component reads, its own file first', () => {
    const topology = loadTopology(path.join(fixtures, 'evaluator/every-kind/topology.json'), defaultRegistry());
    const refs = componentFileReferences(topology.components[0], topology.pluginDirs).map((r) => r.property);
    expect(refs).toEqual([
      '(file)',
      'Ruleset/bill/TemplateFile',
      'Ruleset/templateFile/TemplateFile',
      'Ruleset/plugin/ClassName',
      'Ruleset/tsPlugin/ClassName',
      'Ruleset/jsonata/JSONataFile',
      'Ruleset/xslt/XSLFile',
    ]);
  });

  it('lists component files found in ConfigDir and the files ${file:} references read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-refs-'));
    mkdirSync(path.join(dir, 'conf'));
    writeFileSync(path.join(dir, 'suffix.txt'), 'v1');
    writeFileSync(
      path.join(dir, 'conf', 'stamp.json'),
      JSON.stringify({ ClassName: 'node.SuffixNode', LinkName: 'in', OutLink: ['out'], Suffix: '${file:../suffix.txt}' }),
    );
    writeFileSync(
      path.join(dir, 'flow.json'),
      JSON.stringify({
        Name: 'refs',
        ConfigDir: 'conf',
        Receiver: ['rcvr'],
        Node: ['stamp'],
        Persister: ['store'],
        rcvr: { ClassName: 'receiver.CountingReceiver', LinkName: 'in' },
        store: { ClassName: 'persister.CollectingPersister', LinkName: 'out' },
      }),
    );
    const files = referencedFiles(loadTopology(path.join(dir, 'flow.json'), reloadRegistry()));
    expect(files.map((f) => path.relative(dir, f))).toEqual(['conf/stamp.json', 'flow.json', 'suffix.txt']);
  });
});
