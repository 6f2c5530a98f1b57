// The Skills extension (io.modelcontextprotocol/skills, SEP-2640): skills served as resources, with skills/list and
// skills/get entries that carry each skill's frontmatter and a manifest of its files (SHA-256 digest and size), and
// resources/directory/read behind `directoryRead`. Specified against base revision 2026-07-28, so judged there only;
// tested on servers that declare it. The shapes of the results are the frame rule schema/results' (2026-07-28 schema).
import { createHash } from 'node:crypto';
import { STATELESS_REVISION } from '../../schema/revisions.js';
import { bounded, isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import {
  type CheckContext,
  type CheckDef,
  type Outcome,
  describeReply,
  errorOf,
  expectCode,
  fail,
  pass,
  resultOf,
  skip,
  warn,
  worst,
} from '../kit/check.js';
import { differingFields, frontmatterOf, nameProblem, skillPath } from './format.js';
import {
  DIRECTORY_MIME_TYPE,
  type Entry,
  type SkillFile,
  SKILLS_EXTENSION,
  SPEC,
  directory,
  directoryRead,
  entries,
  get,
  instructedUris,
  listing,
  manifests,
  read,
  send,
  undeclared,
} from './probe.js';

const REVISIONS = [STATELESS_REVISION];
const EXT = SKILLS_EXTENSION;
/** The per-skill limits every conforming host accepts (Limits). */
const MAX_RESOURCES = 512;
const MAX_BYTES = 16 * 1024 * 1024;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** A skill URI no server serves, for the error cases. */
const NO_SKILL = 'skill://mcp-conformance-no-such-skill/SKILL.md';
const NO_ENTRIES = 'the server lists no skill and its instructions name none that skills/get returns';

/** Runs `judge` on the server's entries; skips when the server does not declare the extension or has none. */
async function withEntries(ctx: CheckContext, judge: (all: Entry[]) => Promise<Outcome> | Outcome): Promise<Outcome> {
  const off = undeclared(ctx);
  if (off) return off;
  const all = await entries(ctx);
  return all.length === 0 ? skip(NO_ENTRIES) : judge(all);
}

/** The outcome of several findings: the failures (or warnings) when there are any, else a pass that says what held. */
const judged = (outcomes: Outcome[], passed: string): Outcome => {
  const bad = outcomes.filter((o) => o.status === 'fail' || o.status === 'warn');
  return bad.length > 0 ? worst(bad) : pass(passed);
};

const hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sum = (n: number[]) => n.reduce((a, b) => a + b, 0);

/** Each file of every manifest with its read: the checks that compare bytes to the entry. */
async function filesRead(ctx: CheckContext) {
  const out: { entry: Entry; file: SkillFile; got: Awaited<ReturnType<typeof read>> }[] = [];
  for (const { entry, files } of await manifests(ctx))
    for (const file of files) out.push({ entry, file, got: await read(ctx, file.uri) });
  return out;
}

/** A skill entry in an actual: its URI and resources, without its frontmatter when that does not matter. */
const brief = (e: Entry) => bounded({ uri: e.uri, resources: e.resources });

export const SKILLS_CHECKS: CheckDef[] = [
  {
    id: 'skills/capability/resources',
    revisions: REVISIONS,
    extension: EXT,
    title: 'A server declaring the Skills extension declares the resources capability, and the extension as an object',
    requirement: requirement(
      'skills.cap.resources',
      'MUST',
      `${SPEC}#capability-negotiation`,
      'A server that declares io.modelcontextprotocol/skills also declares the resources capability (skill files are resources)',
    ),
    covers: ['skills.cap.settings'],
    async run(ctx) {
      const off = undeclared(ctx);
      if (off) return off;
      const declared = (ctx.profile.capabilities.extensions as Record<string, unknown>)[EXT];
      if (!isObject(declared) || (declared.directoryRead !== undefined && typeof declared.directoryRead !== 'boolean'))
        return fail(`${EXT} is declared as ${JSON.stringify(declared)}`, {
          expected: { [EXT]: { directoryRead: 'true | false (optional)' } },
          actual: { [EXT]: declared },
        });
      if (!isObject(ctx.profile.capabilities.resources))
        return fail(`the server declares ${EXT} but not the resources capability`, {
          expected: { resources: {}, extensions: { [EXT]: declared } },
          actual: ctx.profile.capabilities,
        });
      return pass(`${EXT} ${JSON.stringify(declared)} with resources declared`);
    },
  },
  {
    id: 'skills/methods',
    revisions: REVISIONS,
    extension: EXT,
    title: 'A server declaring the Skills extension answers skills/list with a listing and implements skills/get',
    requirement: requirement(
      'skills.methods',
      'MUST',
      `${SPEC}#capability-negotiation`,
      'A server that declares the extension implements skills/list and skills/get',
    ),
    async run(ctx) {
      const off = undeclared(ctx);
      if (off) return off;
      const walk = await listing(ctx);
      if (walk.failed)
        return fail(`skills/list ${walk.replies.length > 0 ? `page ${walk.replies.length + 1} ` : ''}gave no listing`, {
          expected: { result: { resultType: 'complete', skills: [] } },
          actual: describeReply(walk.failed),
        });
      const known = (await entries(ctx))[0]?.uri ?? instructedUris(ctx)[0] ?? NO_SKILL;
      const reply = await get(ctx, known);
      if (errorOf(reply)?.code === -32601)
        return fail('skills/get is not implemented (-32601)', {
          expected: `skills/get of ${known} answered by the method`,
          actual: describeReply(reply),
        });
      return pass(
        `skills/list gave ${walk.items.length} entr(ies) in ${walk.replies.length} page(s); skills/get answers`,
      );
    },
  },
  {
    id: 'skills/list/atomic',
    revisions: REVISIONS,
    extension: EXT,
    title: 'skills/list never splits an entry across pages: each skill is listed once',
    requirement: requirement(
      'skills.list.atomic',
      'MUST',
      `${SPEC}#listing-skills`,
      "An entry is atomic: a skill's resources set is never split across pages, so no skill URI appears twice in a listing",
    ),
    async run(ctx) {
      const off = undeclared(ctx);
      if (off) return off;
      const walk = await listing(ctx);
      if (walk.replies.length < 2 && walk.items.length < 2) return skip('the listing has fewer than two entries');
      const pages = new Map<string, number[]>();
      for (const { raw, page } of walk.items)
        if (isObject(raw) && typeof raw.uri === 'string') pages.set(raw.uri, [...(pages.get(raw.uri) ?? []), page]);
      const twice = [...pages].filter(([, on]) => on.length > 1);
      if (twice.length > 0)
        return fail(
          twice.map(([uri, on]) => `${uri} is listed ${on.length} times (pages ${on.join(', ')})`).join('; '),
          {
            expected: 'each skill once, with its whole resources set',
            actual: walk.items.filter(({ raw }) => isObject(raw) && raw.uri === twice[0][0]).map((s) => bounded(s)),
          },
        );
      return pass(`${pages.size} skill(s) in ${walk.replies.length} page(s), each listed once`);
    },
  },
  {
    id: 'skills/entry/name',
    revisions: REVISIONS,
    extension: EXT,
    title:
      "A skill's URI ends in <skill-path>/SKILL.md, and its final segment is frontmatter.name, a valid Agent Skills name",
    requirement: requirement(
      'skills.uri.name',
      'MUST',
      `${SPEC}#resource-mapping`,
      "The final segment of a skill's path equals frontmatter.name, and SKILL.md is explicit in the entry's uri",
    ),
    covers: ['skills.name.rules', 'skills.frontmatter.name-path'],
    async run(ctx) {
      return withEntries(ctx, (all) => {
        const outcomes = all.map((e): Outcome => {
          const where = skillPath(e.uri);
          if ('problem' in where)
            return fail(`${e.uri} ${where.problem}`, { expected: 'scheme://<skill-path>/SKILL.md', actual: e.uri });
          const name = e.frontmatter.name;
          if (name !== where.name)
            return fail(
              `${e.uri}: frontmatter.name is ${JSON.stringify(name)}, the skill path ends in "${where.name}"`,
              {
                expected: { name: where.name },
                actual: { uri: e.uri, frontmatter: bounded(e.frontmatter) },
              },
            );
          const problem = nameProblem(where.name);
          if (problem)
            return fail(`the skill name "${where.name}" (${e.uri}) ${problem}`, {
              expected: 'an Agent Skills name: a-z, 0-9 and single inner hyphens, 1 to 64 characters',
              actual: where.name,
            });
          return pass(e.uri);
        });
        return judged(outcomes, `${all.length} skill URI(s) end in their name's segment and /SKILL.md`);
      });
    },
  },
  {
    id: 'skills/get/agrees',
    revisions: REVISIONS,
    extension: EXT,
    title: 'skills/get of a listed skill returns the same entry as skills/list',
    requirement: requirement(
      'skills.get.listed',
      'MUST',
      `${SPEC}#getting-a-skill`,
      'skills/get answers for every skill the server lists, with the entry identical in shape and meaning to the listed one',
    ),
    async run(ctx) {
      return withEntries(ctx, async (all) => {
        const listed = all.filter((e) => e.via === 'skills/list');
        if (listed.length === 0) return skip('the listing has no entry to get (see skills/get/unlisted)');
        const outcomes: Outcome[] = [];
        for (const e of listed) {
          const reply = await get(ctx, e.uri);
          const skill = resultOf(reply)?.skill;
          if (!isObject(skill)) {
            outcomes.push(
              fail(`skills/get of the listed ${e.uri} returned no skill`, {
                expected: { result: { skill: brief(e) } },
                actual: describeReply(reply),
              }),
            );
            continue;
          }
          const diff = differingFields(e.raw, skill);
          if (diff.length > 0)
            outcomes.push(
              fail(`skills/get of ${e.uri} differs from its listed entry in ${diff.join(', ')}`, {
                expected: bounded(e.raw),
                actual: bounded(skill),
              }),
            );
        }
        return judged(outcomes, `skills/get returns the listed entry for ${listed.length} skill(s)`);
      });
    },
  },
  {
    id: 'skills/get/unknown',
    revisions: REVISIONS,
    extension: EXT,
    title: 'skills/get of a URI that is no served skill answers -32602',
    requirement: requirement(
      'skills.get.unknown',
      'MUST',
      `${SPEC}#error-handling`,
      'skills/get with a uri that does not identify a skill the server serves returns -32602 (Invalid params)',
    ),
    async run(ctx) {
      const off = undeclared(ctx);
      if (off) return off;
      const reply = await get(ctx, NO_SKILL);
      if (errorOf(reply)?.code === -32601) return skip('skills/get is not implemented (see skills/methods)');
      return expectCode(reply, -32602, `skills/get of ${NO_SKILL}`, 'fail');
    },
  },
  {
    id: 'skills/get/unlisted',
    revisions: REVISIONS,
    extension: EXT,
    title: "A skill named in the server's instructions answers skills/get even when the listing leaves it out",
    requirement: requirement(
      'skills.get.unlisted',
      'MUST',
      `${SPEC}#getting-a-skill`,
      'The server answers skills/get for every skill it serves, listed or not: a SKILL.md URI its instructions name resolves',
    ),
    async run(ctx) {
      const off = undeclared(ctx);
      if (off) return off;
      const listed = new Set(
        (await listing(ctx)).items.flatMap(({ raw }) =>
          isObject(raw) && typeof raw.uri === 'string' ? [raw.uri] : [],
        ),
      );
      const named = instructedUris(ctx).filter((uri) => !listed.has(uri));
      if (named.length === 0) return skip("the server's instructions name no SKILL.md URI that the listing leaves out");
      const outcomes: Outcome[] = [];
      for (const uri of named) {
        const reply = await get(ctx, uri);
        const skill = resultOf(reply)?.skill;
        if (isObject(skill) && skill.uri === uri) {
          outcomes.push(pass(uri));
          continue;
        }
        // Only a skill the server serves must answer: its SKILL.md reads.
        const file = await read(ctx, uri);
        if (!('bytes' in file)) {
          outcomes.push(skip(`the instructions name ${uri}, which the server does not serve (${file.why})`));
          continue;
        }
        outcomes.push(
          fail(
            `skills/get of ${uri}, which the instructions name and resources/read serves, returned no entry for it`,
            {
              expected: { result: { skill: { uri } } },
              actual: describeReply(reply),
            },
          ),
        );
      }
      if (outcomes.every((o) => o.status === 'skip')) return skip(outcomes.map((o) => o.message).join('; '));
      return judged(outcomes, `skills/get answers for ${named.length} unlisted skill(s) the instructions name`);
    },
  },
  {
    id: 'skills/integrity/digest',
    revisions: REVISIONS,
    extension: EXT,
    title: "Each file of a skill's manifest reads as bytes whose SHA-256 is the entry's digest",
    requirement: requirement(
      'skills.integrity.digest',
      'MUST',
      `${SPEC}#integrity-and-verification`,
      "Each SkillResource's digest is the SHA-256 of the raw bytes resources/read returns for its uri (text as UTF-8, a blob decoded)",
    ),
    async run(ctx) {
      return withEntries(ctx, async () => {
        const files = await filesRead(ctx);
        if (files.length === 0) return skip('every skill is "dynamic": no digest to verify');
        const outcomes = files.map(({ entry, file, got }): Outcome => {
          if (!('bytes' in got))
            return fail(`${file.uri}, listed by ${entry.uri}, could not be read: ${got.why}`, {
              expected: `the bytes of ${file.uri}`,
              actual: describeReply(got.reply),
            });
          // A digest that is not sha256:<64 hex> is the shape's finding (schema/results).
          if (file.digest === undefined || !DIGEST.test(file.digest)) return skip(`${file.uri}: no well-formed digest`);
          const actual = `sha256:${hex(got.bytes)}`;
          return actual === file.digest
            ? pass(file.uri)
            : fail(`${file.uri} reads as ${actual}, its entry says ${file.digest}`, {
                expected: { uri: file.uri, digest: file.digest },
                actual: { uri: file.uri, digest: actual, bytes: got.bytes.length },
              });
        });
        const checked = outcomes.filter((o) => o.status === 'pass').length;
        return judged(outcomes, `${checked} file(s) of ${files.length} read with the digest their entry gives`);
      });
    },
  },
  {
    id: 'skills/integrity/size',
    revisions: REVISIONS,
    extension: EXT,
    title: "Each file of a skill's manifest reads as exactly as many bytes as the entry's size",
    requirement: requirement(
      'skills.integrity.size',
      'MUST',
      `${SPEC}#resources`,
      "Each SkillResource's size is the length in bytes of the raw content resources/read returns (the bytes its digest covers)",
    ),
    async run(ctx) {
      return withEntries(ctx, async () => {
        const files = (await filesRead(ctx)).filter(({ got }) => 'bytes' in got);
        if (files.length === 0) return skip('no file of a manifest could be read (see skills/integrity/digest)');
        const outcomes = files.map(({ file, got }): Outcome => {
          const length = 'bytes' in got ? got.bytes.length : 0;
          if (file.size === undefined || !Number.isInteger(file.size)) return skip(`${file.uri}: no integer size`);
          return length === file.size
            ? pass(file.uri)
            : fail(`${file.uri} reads as ${length} bytes, its entry says ${file.size}`, {
                expected: { uri: file.uri, size: file.size },
                actual: { uri: file.uri, size: length },
              });
        });
        return judged(outcomes, `${files.length} file(s) read with the size their entry gives`);
      });
    },
  },
  {
    id: 'skills/manifest/complete',
    revisions: REVISIONS,
    extension: EXT,
    title:
      "A skill's manifest is complete: SKILL.md itself, every file of its directory once, nothing outside the directory",
    requirement: requirement(
      'skills.manifest.complete',
      'MUST',
      `${SPEC}#resources`,
      "A resources array lists every file of the skill exactly once, SKILL.md included, and only files within the skill's directory",
    ),
    covers: ['skills.manifest.skill-md', 'skills.manifest.inside'],
    async run(ctx) {
      return withEntries(ctx, async () => {
        const all = await manifests(ctx);
        if (all.length === 0) return skip('every skill is "dynamic": no manifest to judge');
        const outcomes: Outcome[] = [];
        for (const { entry, files } of all) {
          const where = skillPath(entry.uri);
          if ('problem' in where) continue; // skills/entry/name's finding
          const uris = files.map((f) => f.uri);
          const listed = new Set(uris);
          const expected = { uri: entry.uri, resources: '[SKILL.md and every file under the skill root, once each]' };
          if (!listed.has(entry.uri))
            outcomes.push(
              fail(`${entry.uri}'s manifest leaves out SKILL.md itself`, { expected, actual: brief(entry) }),
            );
          const twice = uris.filter((u, i) => uris.indexOf(u) !== i);
          if (twice.length > 0)
            outcomes.push(
              fail(`${entry.uri}'s manifest lists ${[...new Set(twice)].join(', ')} more than once`, {
                expected,
                actual: brief(entry),
              }),
            );
          const outside = uris.filter((u) => !u.startsWith(`${where.root}/`));
          if (outside.length > 0)
            outcomes.push(
              fail(`${entry.uri}'s manifest lists ${outside.join(', ')}, outside ${where.root}`, {
                expected,
                actual: brief(entry),
              }),
            );
          // Files the server shows under the skill's root (resources/list, and directory reads when it has them).
          const shown = new Set(
            ctx.profile.resources
              .map((r) => r.uri)
              .filter((u): u is string => typeof u === 'string' && u.startsWith(`${where.root}/`)),
          );
          if (directoryRead(ctx)) for (const u of await filesUnder(ctx, where.root)) shown.add(u);
          const missing = [...shown].filter((u) => !listed.has(u) && u !== entry.uri);
          if (missing.length > 0)
            outcomes.push(
              fail(`${entry.uri}'s manifest leaves out ${missing.join(', ')}, which the server serves in the skill`, {
                expected: { uri: entry.uri, resources: [...listed, ...missing] },
                actual: brief(entry),
              }),
            );
        }
        return judged(outcomes, `${all.length} manifest(s) list SKILL.md and each file of their skill once`);
      });
    },
  },
  {
    id: 'skills/frontmatter/matches',
    revisions: REVISIONS,
    extension: EXT,
    title: "An entry's frontmatter equals, field by field, the YAML frontmatter of the SKILL.md it describes",
    requirement: requirement(
      'skills.frontmatter.verbatim',
      'MUST',
      `${SPEC}#frontmatter`,
      "The entry's frontmatter is identical in content to the YAML frontmatter of its SKILL.md, every field the author wrote",
    ),
    covers: ['skills.format.frontmatter'],
    async run(ctx) {
      return withEntries(ctx, async (all) => {
        const outcomes: Outcome[] = [];
        for (const e of all) {
          const got = await read(ctx, e.uri);
          if (!('bytes' in got)) {
            outcomes.push(
              fail(`${e.uri} could not be read: ${got.why}`, {
                expected: 'its SKILL.md with YAML frontmatter',
                actual: describeReply(got.reply),
              }),
            );
            continue;
          }
          const fm = frontmatterOf(got.bytes.toString('utf8'));
          if ('problem' in fm) {
            outcomes.push(
              fail(`${e.uri} ${fm.problem}`, {
                expected: '---\\nname: …\\ndescription: …\\n---',
                actual: bounded(got.bytes.toString('utf8').slice(0, 300)),
              }),
            );
            continue;
          }
          if (typeof fm.value.name !== 'string' || typeof fm.value.description !== 'string') {
            outcomes.push(
              fail(`the frontmatter of ${e.uri} lacks name or description`, {
                expected: 'name and description',
                actual: bounded(fm.value),
              }),
            );
            continue;
          }
          const diff = differingFields(fm.value, e.frontmatter);
          if (diff.length > 0)
            outcomes.push(
              fail(`${e.uri}: the entry's frontmatter differs from the file's in ${diff.join(', ')}`, {
                expected: bounded(fm.value),
                actual: bounded(e.frontmatter),
              }),
            );
        }
        return judged(outcomes, `${all.length} entr(ies) carry their SKILL.md's frontmatter verbatim`);
      });
    },
  },
  {
    id: 'skills/limits',
    revisions: REVISIONS,
    extension: EXT,
    title: `A skill stays within ${MAX_RESOURCES} files and 16 MiB in all`,
    requirement: requirement(
      'skills.limits',
      'SHOULD',
      `${SPEC}#limits`,
      `A server should not serve a skill of more than ${MAX_RESOURCES} resources or 16 MiB (16,777,216 bytes) in all`,
    ),
    async run(ctx) {
      return withEntries(ctx, (all) => {
        const counted = all.filter((e): e is Entry & { resources: SkillFile[] } => e.resources !== 'dynamic');
        if (counted.length === 0) return skip('every skill is "dynamic": nothing to count');
        const outcomes = counted.map((e): Outcome => {
          const bytes = sum(e.resources.map((f) => f.size ?? 0));
          if (e.resources.length > MAX_RESOURCES || bytes > MAX_BYTES)
            return warn(`${e.uri} has ${e.resources.length} file(s), ${bytes} bytes in all`, {
              expected: `at most ${MAX_RESOURCES} files and ${MAX_BYTES} bytes`,
              actual: { files: e.resources.length, bytes },
            });
          return pass(e.uri);
        });
        return judged(outcomes, `${counted.length} skill(s) within ${MAX_RESOURCES} files and 16 MiB`);
      });
    },
  },
  {
    id: 'skills/resource/metadata',
    revisions: REVISIONS,
    extension: EXT,
    title: 'A skill:// SKILL.md resource is text/markdown, named and described from its frontmatter',
    requirement: requirement(
      'skills.resource.metadata',
      'SHOULD',
      `${SPEC}#resource-metadata`,
      'A skill://…/SKILL.md resource has mimeType text/markdown, and name and description from its frontmatter',
    ),
    async run(ctx) {
      return withEntries(ctx, async (all) => {
        const outcomes: Outcome[] = [];
        for (const e of all.filter((x) => x.uri.startsWith('skill://'))) {
          const got = await read(ctx, e.uri);
          // What the server says of the SKILL.md: its read content, its resources/list item, its directory listing.
          const seen: { where: string; item: Record<string, unknown>; named: boolean }[] = [];
          if ('content' in got) seen.push({ where: 'resources/read', item: got.content, named: false });
          for (const r of ctx.profile.resources.filter((r) => r.uri === e.uri))
            seen.push({ where: 'resources/list', item: r, named: true });
          const where = skillPath(e.uri);
          if (directoryRead(ctx) && !('problem' in where)) {
            const dir = await directory(ctx, where.root);
            if ('children' in dir)
              for (const c of dir.children.filter((c) => c.uri === e.uri))
                seen.push({ where: 'resources/directory/read', item: c, named: true });
          }
          // Named from the file's own frontmatter (an entry that differs from it is skills/frontmatter/matches' finding).
          const parsed = 'bytes' in got ? frontmatterOf(got.bytes.toString('utf8')) : undefined;
          const authored = parsed && 'value' in parsed ? parsed.value : undefined;
          for (const { where: how, item, named: listedItem } of seen) {
            const named = listedItem && authored !== undefined;
            const bad: string[] = [];
            if (item.mimeType !== 'text/markdown') bad.push(`mimeType ${JSON.stringify(item.mimeType ?? null)}`);
            if (named && item.name !== authored.name) bad.push(`name ${JSON.stringify(item.name ?? null)}`);
            if (named && item.description !== authored.description)
              bad.push(`description ${JSON.stringify(item.description ?? null)}`);
            if (bad.length > 0)
              outcomes.push(
                warn(`${e.uri} in ${how} has ${bad.join(', ')}`, {
                  expected: {
                    mimeType: 'text/markdown',
                    ...(named && { name: authored.name, description: authored.description }),
                  },
                  actual: bounded(item),
                }),
              );
            else outcomes.push(pass(`${e.uri} (${how})`));
          }
        }
        if (outcomes.length === 0) return skip('the server shows no metadata of any skill:// SKILL.md');
        return judged(
          outcomes,
          `${outcomes.length} view(s) of skill:// SKILL.md resources carry the frontmatter's name`,
        );
      });
    },
  },
  {
    id: 'skills/directory/read',
    revisions: REVISIONS,
    extension: EXT,
    title: 'With directoryRead, resources/directory/read of a skill directory lists its direct children',
    requirement: requirement(
      'skills.directory.children',
      'MUST',
      `${SPEC}#reading-directories`,
      'resources/directory/read of a directory in a skill lists every direct child, subdirectories as inode/directory, nothing deeper',
    ),
    covers: ['skills.directory.implemented'],
    async run(ctx) {
      if (!directoryRead(ctx))
        return (
          undeclared(ctx) ?? skip('the server does not declare directoryRead: true (clients must not call the method)')
        );
      return withEntries(ctx, async () => {
        const all = await manifests(ctx);
        if (all.length === 0) return skip('every skill is "dynamic": no manifest says what a directory holds');
        const outcomes: Outcome[] = [];
        let read = 0;
        for (const { entry, files } of all) {
          const where = skillPath(entry.uri);
          if ('problem' in where) continue;
          // The tree the manifest describes: each directory with its direct children (files and subdirectories).
          const tree = new Map<string, Map<string, 'file' | 'directory'>>([[where.root, new Map()]]);
          for (const f of files.filter((f) => f.uri.startsWith(`${where.root}/`))) {
            const parts = f.uri.slice(where.root.length + 1).split('/');
            let dir = where.root;
            parts.forEach((part, i) => {
              const child = `${dir}/${part}`;
              const kind = i === parts.length - 1 ? 'file' : 'directory';
              tree.get(dir)!.set(child, kind);
              if (kind === 'directory' && !tree.has(child)) tree.set(child, new Map());
              dir = child;
            });
          }
          for (const [dir, expected] of tree) {
            const got = await directory(ctx, dir);
            read++;
            if ('failed' in got) {
              outcomes.push(
                fail(`resources/directory/read of ${dir} (a directory of ${entry.uri}) gave no listing`, {
                  expected: { result: { resources: [...expected.keys()].map((uri) => ({ uri })) } },
                  actual: describeReply(got.failed),
                }),
              );
              continue;
            }
            const byUri = new Map(got.children.map((c) => [c.uri, c]));
            // A walk cut at its page limit may not have reached them: only what it saw is judged.
            const missing = got.truncated ? [] : [...expected.keys()].filter((u) => !byUri.has(u));
            const deeper = got.children.filter(
              (c) =>
                typeof c.uri !== 'string' || !c.uri.startsWith(`${dir}/`) || c.uri.slice(dir.length + 1).includes('/'),
            );
            const wrongKind = [...expected].filter(
              ([u, kind]) =>
                byUri.has(u) && (byUri.get(u)!.mimeType === DIRECTORY_MIME_TYPE) !== (kind === 'directory'),
            );
            if (missing.length + deeper.length + wrongKind.length > 0)
              outcomes.push(
                fail(
                  [
                    missing.length > 0 && `leaves out ${missing.join(', ')}`,
                    deeper.length > 0 && `lists ${deeper.map((c) => String(c.uri)).join(', ')}, not direct children`,
                    wrongKind.length > 0 &&
                      `gives ${wrongKind.map(([u, k]) => `${u} (a ${k})`).join(', ')} the wrong mimeType`,
                  ]
                    .filter(Boolean)
                    .join('; ')
                    .replace(/^/, `resources/directory/read of ${dir} `),
                  {
                    expected: [...expected].map(([uri, kind]) => ({
                      uri,
                      ...(kind === 'directory' && { mimeType: DIRECTORY_MIME_TYPE }),
                    })),
                    actual: bounded(got.children),
                  },
                ),
              );
          }
        }
        return judged(outcomes, `${read} directory read(s) list the direct children the manifests describe`);
      });
    },
  },
  {
    id: 'skills/directory/errors',
    revisions: REVISIONS,
    extension: EXT,
    title: 'resources/directory/read of a missing URI, or of a file, answers -32602',
    requirement: requirement(
      'skills.directory.not-directory',
      'MUST',
      `${SPEC}#reading-directories`,
      'resources/directory/read of a URI that does not exist, or is not a directory resource, returns -32602 (Invalid params)',
    ),
    async run(ctx) {
      if (!directoryRead(ctx))
        return (
          undeclared(ctx) ?? skip('the server does not declare directoryRead: true (clients must not call the method)')
        );
      const first = (await entries(ctx)).find((e) => !('problem' in skillPath(e.uri)));
      const root = first ? (skillPath(first.uri) as { root: string }).root : 'skill://mcp-conformance-no-such-skill';
      const outcomes: Outcome[] = [];
      const missing = `${root}/mcp-conformance-no-such-directory`;
      outcomes.push(
        expectCode(
          await send(ctx, 'resources/directory/read', { uri: missing }),
          -32602,
          `directory read of ${missing}`,
          'fail',
        ),
      );
      if (first)
        outcomes.push(
          expectCode(
            await send(ctx, 'resources/directory/read', { uri: first.uri }),
            -32602,
            `directory read of the file ${first.uri}`,
            'fail',
          ),
        );
      return worst(outcomes);
    },
  },
];

/** Every file below `root` that directory reads show, descending at most 64 directories. */
async function filesUnder(ctx: CheckContext, root: string): Promise<string[]> {
  const files: string[] = [];
  const queue = [root];
  for (let n = 0; queue.length > 0 && n < 64; n++) {
    const got = await directory(ctx, queue.shift()!);
    if (!('children' in got)) continue; // skills/directory/read's finding
    for (const c of got.children) {
      if (typeof c.uri !== 'string' || !c.uri.startsWith(`${root}/`)) continue;
      if (c.mimeType === DIRECTORY_MIME_TYPE) queue.push(c.uri);
      else files.push(c.uri);
    }
  }
  return files;
}
