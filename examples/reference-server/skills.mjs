// The Skills extension (io.modelcontextprotocol/skills) on the stateless wire (2026-07-28): a few skills served as
// skill:// resources, with skills/list, skills/get and resources/directory/read (directoryRead). Each entry's
// frontmatter and manifest (SHA-256 digest and size of every file) are computed from the files themselves.
import { createHash } from 'node:crypto';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** A skill that skills/list leaves out: the stateless instructions name it. */
export const UNLISTED_SKILL = 'skill://internal/audit/SKILL.md';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAG0lEQVR42mP49euXXMUdTJIBq+ivX78YBqUOAJwyjAG7tAywAAAAAElFTkSuQmCC';

/** A YAML scalar or mapping, as the frontmatter writes it (JSON strings are YAML double-quoted scalars). */
const yaml = (value, indent = '') =>
  Object.entries(value)
    .map(([k, v]) =>
      typeof v === 'object' && v !== null
        ? `${indent}${k}:\n${yaml(v, `${indent}  `)}`
        : `${indent}${k}: ${JSON.stringify(v)}`,
    )
    .join('\n');

/** A SKILL.md: its YAML frontmatter, then its body. */
const skillMd = (frontmatter, body) => ({
  mimeType: 'text/markdown',
  text: `---\n${yaml(frontmatter)}\n---\n\n${body}\n`,
  frontmatter,
});

/**
 * The skills: each with its SKILL.md URI, its files (path → text or base64 blob) and how it is published. The
 * nested `escalation` skill lives inside `refunds`, so refunds' manifest lists its files too.
 */
function defaultSkills() {
  const escalation = skillMd(
    { name: 'escalation', description: 'Escalate a refund that policy does not cover' },
    '# Escalation\n\nHand the case to a supervisor with the summary from `../examples/email.md`.',
  );
  return [
    {
      uri: 'skill://git-workflow/SKILL.md',
      files: {
        'SKILL.md': skillMd(
          {
            name: 'git-workflow',
            description: "Follow this team's Git conventions for branching and commits",
            license: 'MIT',
            metadata: { version: '1.2.0', owner: 'platform' },
          },
          '# Git workflow\n\nName branches as in `references/BRANCHES.md`; write commits in the imperative mood.',
        ),
        'references/BRANCHES.md': {
          mimeType: 'text/markdown',
          text: '# Branches\n\n- feature/<ticket>\n- fix/<ticket>\n',
        },
      },
    },
    {
      uri: 'skill://acme/billing/refunds/SKILL.md',
      files: {
        'SKILL.md': skillMd(
          {
            name: 'refunds',
            description: 'Process customer refund requests per company policy',
            license: 'Apache-2.0',
          },
          '# Refunds\n\nReply with the template in `examples/email.md`. Cases beyond policy: see `escalation/`.',
        ),
        'examples/email.md': {
          mimeType: 'text/markdown',
          text: 'Dear customer,\n\nYour refund of {amount} is on its way.\n',
        },
        'escalation/SKILL.md': escalation,
      },
    },
    {
      uri: 'skill://acme/billing/refunds/escalation/SKILL.md',
      files: { 'SKILL.md': escalation },
    },
    {
      uri: 'skill://pdf-forms/SKILL.md',
      files: {
        'SKILL.md': skillMd(
          { name: 'pdf-forms', description: 'Fill PDF forms from the templates in templates/' },
          '# PDF forms\n\nPick a template from `templates/` and stamp it with `assets/stamp.png`. Ünïcödé is fine.',
        ),
        'templates/invoice.md': { mimeType: 'text/markdown', text: '# Invoice {number}\n\nTotal: {total}\n' },
        'templates/regional/eu-invoice.md': { mimeType: 'text/markdown', text: '# Rechnung {number}\n\nMwSt: {vat}\n' },
        'assets/stamp.png': { mimeType: 'image/png', blob: PNG },
      },
    },
    {
      uri: 'skill://reports/daily/SKILL.md',
      dynamic: true,
      files: {
        'SKILL.md': skillMd(
          { name: 'daily', description: "Assemble today's operational report from live data" },
          '# Daily report',
        ),
      },
    },
    {
      uri: UNLISTED_SKILL,
      unlisted: true,
      files: {
        'SKILL.md': skillMd(
          { name: 'audit', description: 'Audit the reference server before a release' },
          '# Audit\n\nRead every resource once and compare it with its listing.',
        ),
      },
    },
  ];
}

const rootOf = (uri) => uri.slice(0, -'/SKILL.md'.length);
const bytesOf = (file) => (file.text !== undefined ? Buffer.from(file.text, 'utf8') : Buffer.from(file.blob, 'base64'));
const digestOf = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * A server's skills. `invalidParams(message)` makes the error a handler throws. The lists are open: the faulty server
 * changes them.
 * @param {(message: string) => Error} invalidParams
 */
export function createSkills(invalidParams) {
  const skills = defaultSkills();
  /** Every file of every skill by URI (a nested skill's files belong to both skills). */
  const files = () => {
    const out = new Map();
    for (const s of skills)
      for (const [path, file] of Object.entries(s.files)) out.set(`${rootOf(s.uri)}/${path}`, file);
    return out;
  };
  let generation = 0;
  /** The content a read returns; the dynamic skill's SKILL.md is written anew for each read. */
  const content = (uri, file) => {
    const item = { uri, mimeType: file.mimeType };
    if (file.blob !== undefined) item.blob = file.blob;
    else item.text = file.dynamic ? `${file.text}\nGenerated for read ${++generation}.\n` : file.text;
    return item;
  };
  for (const s of skills) if (s.dynamic) s.files['SKILL.md'].dynamic = true;

  const self = {
    skills,
    /** The entry of a skill, as skills/list and skills/get give it. */
    entry(skill) {
      const root = `${rootOf(skill.uri)}/`;
      const resources = skill.dynamic
        ? 'dynamic'
        : [...files()]
            .filter(([uri]) => uri.startsWith(root))
            .map(([uri, file]) => {
              const bytes = bytesOf(file);
              return { uri, digest: digestOf(bytes), size: bytes.length };
            });
      return { uri: skill.uri, frontmatter: structuredClone(skill.files['SKILL.md'].frontmatter), resources };
    },
    /** The listed entries. */
    listed: () => skills.filter((s) => !s.unlisted).map((s) => self.entry(s)),
    /** skills/get: the entry of a served skill, else -32602. */
    get(uri) {
      const skill = skills.find((s) => s.uri === uri);
      if (!skill) throw invalidParams(`No skill is served at ${uri}`);
      return self.entry(skill);
    },
    /** The content resources/read returns for a skill file, or undefined when `uri` is none. */
    read(uri) {
      const file = files().get(uri);
      return file && content(uri, file);
    },
    /** The direct children of a directory of the skill namespace as resources, or -32602 when `uri` is no directory. */
    children(uri) {
      const below = [...files()].filter(([u]) => u.startsWith(`${uri}/`));
      if (below.length === 0 || !/^skill:\/\/[^/]/.test(uri)) throw invalidParams(`${uri} is not a directory resource`);
      const out = new Map();
      for (const [u, file] of below) {
        const [first, ...deeper] = u.slice(uri.length + 1).split('/');
        const child = `${uri}/${first}`;
        if (deeper.length > 0) out.set(child, { uri: child, name: first, mimeType: DIRECTORY_MIME_TYPE });
        else {
          const fm = first === 'SKILL.md' ? file.frontmatter : undefined;
          out.set(child, {
            uri: child,
            name: fm ? fm.name : first,
            ...(fm && { description: fm.description }),
            mimeType: file.mimeType,
            size: bytesOf(file).length,
          });
        }
      }
      return [...out.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
    },
  };
  return self;
}
