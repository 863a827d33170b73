// The schema.org check of structured data: each JSON-LD document is type-checked by TypeScript
// against schema-dts, the vocabulary's types generated from schema.org itself, as the value of
// `WithContext<its @type>`. A property the type does not have, a value of the wrong kind or a
// type the vocabulary does not know is a problem, said as TypeScript says it.
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(import.meta.dirname, '..');
const FILE = path.join(ROOT, '__structured_data_check.ts');
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
  skipLibCheck: true,
};

/** The problems TypeScript finds in the documents against schema.org's vocabulary; [] when none. */
export function schemaOrgProblems(docs: readonly unknown[]): string[] {
  const lines = docs.map((doc, i) => {
    const type = (doc as { '@type'?: unknown })['@type'];
    if (typeof type !== 'string' || !/^[A-Z]\w*$/.test(type)) return `// document ${i} has no single @type`;
    return `export const d${i}: S.WithContext<S.${type}> = ${JSON.stringify(doc)};`;
  });
  const source = `import type * as S from 'schema-dts';\n${lines.join('\n')}\n`;
  const host = ts.createCompilerHost(OPTIONS);
  const read = host.getSourceFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === FILE ? ts.createSourceFile(name, source, version) : read(name, version, ...rest);
  host.fileExists = (name) => name === FILE || exists(name);
  const program = ts.createProgram([FILE], OPTIONS, host);
  const untyped = lines.filter((l) => l.startsWith('//')).map((l) => l.slice(3));
  return [
    ...untyped,
    ...ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      return `document ${at - 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 400)}`;
    }),
  ];
}
