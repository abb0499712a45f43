// THIRD-PARTY-NOTICES.md for a bundle, from esbuild's metafile: every npm package with code in the bundle, its
// licence files (the package's own and any in the folders of the files bundled from it) and the legal comments of
// those files (`/*! … */`, `@license`, `@preserve`: what `legalComments: 'none'` strips from the bundle). Written at
// every build (esbuild.js), so the notices stay true when the bundled packages change; a bundled package without a
// licence file fails the build.
const fs = require('node:fs');
const path = require('node:path');

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-][\w.-]*)?$/i;
/** Licences kept in this repository for bundled packages that publish theirs only in their repository. */
const SUPPLIED_LICENCES = path.join(__dirname, 'licences');
const LEGAL_COMMENT = /\/\*![\s\S]*?\*\/|\/\/![^\n]*|\/\*(?:(?!\*\/)[\s\S])*?@(?:license|preserve)[\s\S]*?\*\/|\/\/[^\n]*@(?:license|preserve)[^\n]*/g;

/**
 * The package folder, name and path inside it of a bundled input, or undefined for the project's own files.
 * @param {string} file an absolute path
 */
function packageOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const scoped = (parts[at + 1] ?? '').startsWith('@');
  const end = at + (scoped ? 3 : 2);
  return { dir: parts.slice(0, end).join(path.sep), name: parts.slice(at + 1, end).join('/'), inner: parts.slice(end).join('/') };
}

/** Licence files in `dir` and the folders above it, up to the package folder `root`, outermost first. */
function licenceFiles(root, dir) {
  const found = [];
  for (let at = dir; ; at = path.dirname(at)) {
    for (const name of fs.readdirSync(at).sort()) {
      if (LICENCE_FILE.test(name) && fs.statSync(path.join(at, name)).isFile()) found.unshift(path.join(at, name));
    }
    if (at === root || path.dirname(at) === at) return found;
  }
}

/** A fenced block that the text cannot close early. */
function fenced(text) {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.replace(/\r\n?/g, '\n').trimEnd()}\n${fence}`;
}

/**
 * The notices of every package bundled into `outfiles`, as Markdown.
 * @param {import('esbuild').Metafile} metafile
 * @param {string[]} outfiles the bundle files, as named in the metafile's outputs (relative to `workingDir`)
 * @param {string} workingDir the build's working directory (the metafile's paths are relative to it)
 */
function thirdPartyNotices(metafile, outfiles, workingDir) {
  const inputs = outfiles.flatMap((outfile) => {
    const output = metafile.outputs[outfile];
    if (!output) throw new Error(`thirdPartyNotices: ${outfile} is not an output of this build`);
    return Object.keys(output.inputs);
  });
  /** @type {Map<string, { dir: string, name: string, files: string[] }>} */
  const packages = new Map();
  for (const input of new Set(inputs)) {
    const file = path.resolve(workingDir, input.replace(/^[\w-]+:/, ''));
    const owner = packageOf(file);
    if (!owner) continue;
    const entry = packages.get(owner.dir) ?? { dir: owner.dir, name: owner.name, files: [] };
    entry.files.push(file);
    packages.set(owner.dir, entry);
  }
  const sections = [...packages.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir))
    .map(({ dir, name, files }) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const licences = [...new Set(files.flatMap((file) => licenceFiles(dir, path.dirname(file))))];
      if (!licences.some((file) => path.dirname(file) === dir)) {
        const supplied = path.join(SUPPLIED_LICENCES, ...name.split('/'));
        if (!fs.existsSync(supplied)) {
          throw new Error(
            `${name} is bundled into ${outfiles.join(', ')} but ships no licence file in ${dir}, and scripts/licences/${name}/ has none: its notice cannot be generated`,
          );
        }
        licences.unshift(...licenceFiles(supplied, supplied));
      }
      const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
      const lines = [`## ${name} ${manifest.version}`, '', `License: ${manifest.license ?? 'see below'}`];
      if (repository) lines.push(`Source: ${repository.replace(/^git\+/, '').replace(/\.git$/, '')}`);
      for (const file of licences) {
        const where = file.startsWith(SUPPLIED_LICENCES)
          ? `${path.basename(file)} (of the package's repository; the package ships none)`
          : path.relative(dir, file).split(path.sep).join('/');
        lines.push('', `### ${where}`, '', fenced(fs.readFileSync(file, 'utf8')));
      }
      const comments = files.sort().flatMap((file) => {
        const found = fs.readFileSync(file, 'utf8').match(LEGAL_COMMENT) ?? [];
        return [...new Set(found)].map((comment) => `${path.relative(dir, file).split(path.sep).join('/')}:\n${comment.trim()}`);
      });
      if (comments.length) lines.push('', '### Notices in the bundled files', '', fenced(comments.join('\n\n')));
      return lines.join('\n');
    });
  return [
    '# Third-party notices',
    '',
    `${outfiles.map((outfile) => `\`${outfile}\``).join(', ')} bundle${outfiles.length === 1 ? 's' : ''} code from the npm packages below. Each is listed with its licence text and`,
    'copyright notices, as their licences require. Generated from the bundle by esbuild.js (scripts/thirdPartyNotices.js):',
    'do not edit.',
    '',
    ...(sections.length ? sections.map((section) => `${section}\n`) : ['No third-party package is bundled.\n']),
  ].join('\n');
}

/**
 * An esbuild plugin writing the notices of the build's JavaScript outputs (its outfile, or every file of its outdir)
 * to `THIRD-PARTY-NOTICES.md` in their folder after every successful build (watch mode included). Needs
 * `metafile: true`.
 */
const thirdPartyNoticesPlugin = {
  name: 'third-party-notices',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length || !result.metafile) return;
      const { outfile, outdir, absWorkingDir = process.cwd() } = build.initialOptions;
      if (!outfile && !outdir) throw new Error('third-party-notices: the build needs an outfile or an outdir');
      const outfiles = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')).sort();
      const folder = path.resolve(absWorkingDir, outdir ?? path.dirname(outfile));
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'THIRD-PARTY-NOTICES.md'), thirdPartyNotices(result.metafile, outfiles, absWorkingDir));
    });
  },
};

module.exports = { thirdPartyNotices, thirdPartyNoticesPlugin };
