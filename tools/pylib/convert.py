# SPDX-License-Identifier: GPL-2.0
"""tools/convert: mark plain stores to struct fields that are read locklessly.

Pass 1 (discovery) runs cocci/lockless_fields.cocci -D discover on every
file of the tree that mentions READ_ONCE, smp_load_acquire or
atomic_load_{relaxed,acquire}_from_ptr, one spatch process per file (spatch
1.1.1 forgets types from function return values after a process's first
file), results cached by git blob id. The structs named by typed reads are
then looked up (-D decls on the files that define them) and each member is
classified: only scalars no wider than a word, not bit-fields, outside
packed structs, may take atomic_store_relaxed_from_ptr(). Pass 2 fills
cocci/marked_store_fields.cocci.in with the literal field names and runs it
on the files in scope that mention one of them.

Guarantees: refuses a tree with uncommitted changes; every site and every
skipped file is counted in the final table and listed in
$RESULTS/convert/*.tsv; a rerun on a converted tree changes nothing; with
--commit, one commit per subsystem directory saying how it was generated.
Does not: build the result, look through includes (--no-includes: a store
whose struct type spatch cannot see is reported, not converted), follow
typedef'd structs, or convert read-modify-write (reported only).
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.cscan import (ATTRIBUTE_RE, HIDDEN_READ_RE, STRING_RE, blank_attributes,  # noqa: E402,F401
                       hidden_reads, hidden_stores, locate, packed_in_text)
from afp.env import ENV  # noqa: E402
from afp.fields import (Defs, Field, Read, Site, StructDef, convertible_pairs, dedupe_sites,  # noqa: E402,F401
                        explain_skips, named_fields, parse_decls, parse_discover, parse_field_spec,
                        parse_sites, plan_pairs, shared_fields, split_loc)
from afp.generated import command_from_message, command_record  # noqa: E402,F401
from afp.git import (EXCLUDE, SOURCES, blob_ids, blob_texts, git, grep_files, grep_names,  # noqa: E402,F401
                     require_clean, spec_for)
from afp.member_kind import member_kind  # noqa: E402,F401
from afp.message import commit_message, subject_prefix, subsystem  # noqa: E402,F401
from afp.spatch import (Cache, Outcome, cached_pass, parallel, parse_errors, python_flag,  # noqa: E402,F401
                        run_spatch, spatch_version)
from afp.summary import summarize, write_tsv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


COCCI = ROOT / 'cocci'


DISCOVER_COCCI = COCCI / 'lockless_fields.cocci'


STORE_TEMPLATE = COCCI / 'marked_store_fields.cocci.in'


SPATCH_OPTS = ['--no-includes', '--include-headers', '--very-quiet']


# Discovery and the store pass: spatch names the lines it could not parse
# on stderr (parse_errors() reads them) instead of staying silent.
PARSE_ERROR_OPTS = [o for o in SPATCH_OPTS if o != '--very-quiet'] + ['--quiet', '--parse-error-msg']


READERS_RE = r'\b(READ_ONCE|smp_load_acquire|atomic_load_(relaxed|acquire)_from_ptr)[[:space:]]*\('


# Files pass 1 reads: a marked load whose argument has a member access on
# its line (READ_ONCE(p->f), smp_load_acquire(&x.f)), or whose argument
# goes on past the line. Measured on the 6.1 tree: 1,257 of the 1,453
# files with a marked load; the other 196 give no read (checked against
# their cached pass 1 output), and cost 35 s of a cold run.
READER_LINES_RE = [READERS_RE + r'[^;]*(->|\.)', READERS_RE + r'[^)]*$']


STRUCT_DEF_RE = r'struct[[:space:]]+(__packed[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*[{]'


STORE_RE = (r'(->|\.)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=[^=]|=$|[-+*/%&|^]=|<<=|>>=|\+\+|--)'
            r'|(\+\+|--)[[:space:]]*[A-Za-z_][][A-Za-z0-9_>.-]*(->|\.)[A-Za-z_][A-Za-z0-9_]*')


def fill_template(template: str, names: Sequence[str]) -> str:
    names = sorted(set(names))
    if not names:
        raise ValueError('no field names to fill in')
    return (template.replace('@FIELDS@', ', '.join(names))
            .replace('@KEYWORDS@', f'{len(names)} field names, listed in the rules below'))


def parse_args(argv: List[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog='tools/convert', description=__doc__.split('\n')[0])
    ap.add_argument('paths', nargs='*', help='conversion scope (default: the whole tree)')
    ap.add_argument('--ksrc', default=ENV.get('KSRC') or ENV.get('SRC'), help='kernel git tree')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=int, default=120, help='seconds per file and spatch pass')
    ap.add_argument('--discover-in', action='append', default=[], metavar='PATH',
                    help='limit discovery of lockless readers (default: the whole tree)')
    ap.add_argument('--pass1-batch', type=int, default=1, metavar='N',
                    help='files per discovery spatch process (>1 loses return-value types in 1.1.1)')
    ap.add_argument('--pass2-batch', type=int, default=16, metavar='N',
                    help='files per store-pass spatch process, each its own group (--file-groups): '
                         'the same sites as one file per process at a quarter of the CPU; a group '
                         'that fails is rerun one file per process')
    ap.add_argument('--field', action='append', default=[], metavar='STRUCT.FIELD', type=parse_field_spec,
                    help='convert stores to this field only (repeatable); a field no marked C read '
                         'shows (read plainly, or from Rust) is taken as read locklessly because you say so; '
                         'STRUCT.FIELD@FILE:LINE names that lockless reader for the commit message')
    ap.add_argument('--dry-run', action='store_true', help='report only; change no file')
    ap.add_argument('--discover-only', action='store_true',
                    help='stop after pass 1; print typed/untyped read counts (to measure recall)')
    ap.add_argument('--commit', action='store_true', help='one commit per subsystem directory')
    ap.add_argument('--reason-file', metavar='FILE',
                    help='a paragraph (wrapped text) for the commit messages: why named fields are shared')
    ap.add_argument('--retry-failed', action='store_true', help='rerun files that timed out before')
    ap.add_argument('--cache', default=os.path.join(ENV.get('WORK', '/tmp'), 'cache', 'convert'))
    ap.add_argument('--no-cache', action='store_true')
    ap.add_argument('--results', default=os.path.join(ENV.get('RESULTS', '/tmp'), 'convert'))
    return ap.parse_args(argv)


def discover(a: argparse.Namespace, blobs: Dict[str, str], base: Optional[Path],
             version: str) -> Tuple[List[Read], List[Outcome], Tuple[int, int, int]]:
    """Pass 1: (reads, files spatch failed on, (files parsed in part, lines
    unparsed, reads found in those lines))."""
    files = grep_files(a.ksrc, READER_LINES_RE, spec_for(a.discover_in))
    # --quiet --parse-error-msg: reads in code spatch cannot parse are
    # found in the lines it names and kept as field-name-only reads.
    argv = ['spatch', '--sp-file', str(DISCOVER_COCCI), '-D', 'discover',
            *PARSE_ERROR_OPTS]
    cache = Cache(base, '\0'.join([DISCOVER_COCCI.read_text(), version, *argv[3:], str(a.pass1_batch),
                                   HIDDEN_READ_RE.pattern, STRING_RE.pattern]))

    def extra(path: str, bad: List[str]) -> List[str]:
        if not bad:
            return []
        text = Path(a.ksrc, path).read_text(errors='surrogateescape')
        lines = locate(text, bad)
        return ([f'unparsed\t{len(lines)}\t{path}:0']
                + [f'field\tunparsed\t?\t{f}\t{path}:{n}' for f, n in hidden_reads(text, lines)])

    outs = cached_pass(a.ksrc, files, blobs, cache, a.jobs, 'pass 1 (lockless reads)', argv,
                       a.timeout, a.pass1_batch, a.retry_failed, extra)
    reads = [r for o in outs for r in parse_discover(o.out)]
    text = '\n'.join(o.out for o in outs)
    in_part, lines = unparsed_of(text)
    return reads, [o for o in outs if o.failed], (in_part, lines, text.count('field\tunparsed\t'))


def unparsed_of(text: str) -> Tuple[int, int]:
    """(files parsed in part, lines unparsed) from pass 1 output."""
    counts = [int(line.split('\t')[1]) for line in text.splitlines() if line.startswith('unparsed\t')]
    return sum(1 for c in counts if c), sum(counts)


def shadow_tree(ksrc: str, files: Iterable[str], root: Path) -> str:
    """A tree at root holding files as spatch should see them: a symlink to
    the original, or a copy with attributes blanked where there were any."""
    for f in files:
        src, dst = Path(ksrc, f), root / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text(errors='surrogateescape')
        blanked = blank_attributes(text)
        if blanked != text:
            dst.write_text(blanked, errors='surrogateescape')
        else:
            dst.symlink_to(src)
    return str(root)


def check_readers(ksrc: str, specs: List[Tuple[str, str, str]]) -> None:
    """A reader named with --field S.F@FILE:LINE must exist and mention F."""
    for s, f, reader in specs:
        if not reader:
            continue
        path, ln = split_loc(reader)
        lines = Path(ksrc, path).read_text(errors='replace').splitlines() if Path(ksrc, path).is_file() else []
        if not (0 < ln <= len(lines)) or not re.search(r'\b%s\b' % re.escape(f), lines[ln - 1]):
            raise SystemExit(f'error: --field {s}.{f}@{reader}: {path} line {ln} does not mention {f} in {ksrc}; '
                             'name a line that reads the field without its writers\' lock.')


def declarations(a: argparse.Namespace, reads: List[Read], blobs: Dict[str, str], base: Optional[Path],
                 version: str) -> Tuple[Defs, List[Outcome]]:
    names = sorted({r.struct for r in reads if r.typed} | {s for s, _, _ in a.field})
    if not names:
        return Defs([]), []
    wanted = set(names)
    found = grep_names(a.ksrc, STRUCT_DEF_RE, SOURCES + EXCLUDE, r'struct\s+(?:__packed\s+)?(\w+)')
    files = sorted(p for p, ns in found.items() if ns & wanted)
    argv = ['spatch', '--sp-file', str(DISCOVER_COCCI), '-D', 'decls', *SPATCH_OPTS]
    cache = Cache(base, '\0'.join([DISCOVER_COCCI.read_text(), version, *argv[3:], ATTRIBUTE_RE.pattern]))
    with tempfile.TemporaryDirectory(prefix='afp-decls-') as tmp:
        outs = cached_pass(shadow_tree(a.ksrc, files, Path(tmp)), files, blobs, cache, a.jobs,
                           'struct definitions', argv, a.timeout, 20, a.retry_failed)
    defs = []
    for o in outs:
        ds = parse_decls(o.out)
        if ds:
            text = Path(a.ksrc, o.path).read_text(errors='replace')
            for d in ds:
                d.packed = d.packed or packed_in_text(text, d.line)
        defs += ds
    return Defs(defs), [o for o in outs if o.failed]


def convert(a: argparse.Namespace, fields: Dict[Tuple[str, str, str], Field], defs: Defs,
            base: Optional[Path], version: str) -> Tuple[List[Site], List[Outcome], Dict[str, List[int]]]:
    """Pass 2: (sites, files spatch failed on, {file: lines it could not parse})."""
    names = sorted({f.name for f in fields.values()})
    if not names:
        return [], [], {}
    gen_text = fill_template(STORE_TEMPLATE.read_text(), names)
    gen_dir = (base or Path(tempfile.gettempdir())) / 'gen'
    gen_dir.mkdir(parents=True, exist_ok=True)
    gen = gen_dir / f'marked_store_fields-{hashlib.sha1(gen_text.encode()).hexdigest()[:12]}.cocci'
    gen.write_text(gen_text)
    wanted = set(names)
    found = grep_names(a.ksrc, STORE_RE, spec_for(a.paths), r'(?:->|\.)\s*([A-Za-z_]\w*)')
    files = sorted(p for p, ns in found.items() if ns & wanted)
    mode = 'report' if a.dry_run else 'patch'
    # --quiet --parse-error-msg instead of --very-quiet: spatch then names
    # the lines it could not parse (and dropped) on stderr.
    argv = ['spatch', '--sp-file', str(gen), '-D', mode,
            *PARSE_ERROR_OPTS]
    if not a.dry_run:
        argv.append('--in-place')
    print(f'==> pass 2 (stores): {len(names)} field names, {len(files)} files in scope mention one; '
          f'{gen}', flush=True)
    # No batch size in the key: --file-groups gives each file its own group,
    # so a file's result does not depend on its batch.
    # Cached: what spatch said (sites, lines it could not parse, new text).
    # The search of the unparsed lines runs afresh on every run.
    cache = Cache(base / 'pass2' if base else None, '\0'.join([gen_text, version, *argv[3:], 'unparsed-lines']))
    blobs = blob_ids(a.ksrc)

    batch = max(1, a.pass2_batch)
    common: Dict[int, str] = {}  # most files share one set: sort and join it once
    plans = {path: common.setdefault(id(ps), ' '.join(sorted(ps)))
             for path, ps in plan_pairs(files, fields, defs).items()}
    keys = {path: hashlib.sha1(f'{blobs.get(path)}\0{plans[path]}'.encode()).hexdigest() for path in files}
    results: Dict[str, Outcome] = {}
    todo = []
    for path in files:
        hit = cache.get(keys[path])
        if hit is None or hit.failed:
            todo.append(path)
            continue
        d = json.loads(hit.out)
        if d['content'] is not None and not a.dry_run:
            Path(a.ksrc, path).write_text(d['content'], errors='surrogateescape')
        results[path] = Outcome(path, d['lines'], unparsed=d.get('unparsed', []))
    print(f'  {len(files) - len(todo)} cached, {len(todo)} to run ({batch} per spatch process)', flush=True)
    chunks = [' '.join(shlex.quote(f) for f in todo[i:i + batch]) for i in range(0, len(todo), batch)]

    def one(chunk: str) -> Outcome:
        names = shlex.split(chunk)
        before = {n: Path(a.ksrc, n).read_text(errors='surrogateescape') for n in names}
        with tempfile.NamedTemporaryFile('w', suffix='.json') as plan, \
                tempfile.NamedTemporaryFile('w', suffix='.groups') as groups:
            json.dump({n: plans[n] for n in names}, plan)
            plan.flush()
            # spatch 1.1.1 treats the files of one command line as one group
            # (pathological here: 20 files, >2.5 min, 1 GB); --file-groups
            # with one file per group matches one file per process.
            groups.write(''.join(f'{n}\n\n' for n in names))
            groups.flush()
            files_arg = names if len(names) == 1 else ['--file-groups', groups.name]
            bad: Dict[str, List[str]] = {}
            out, failed = run_spatch(argv + files_arg, a.ksrc, a.timeout * len(names), {'AFP_PLAN': plan.name},
                                     bad)
        if failed and len(names) > 1:
            # Put back what the batch may have written, then one file per process.
            for n, text in before.items():
                Path(a.ksrc, n).write_text(text, errors='surrogateescape')
            outs = [one(shlex.quote(n)) for n in names]
            return Outcome(chunk, '', next((o.failed for o in outs if o.failed), ''))
        per: Dict[str, List[str]] = defaultdict(list)
        for line in out.splitlines():
            if line.startswith('afp\t'):
                per[line.rsplit('\t', 1)[-1].rpartition(':')[0]].append(line)
        for n in names:
            after = Path(a.ksrc, n).read_text(errors='surrogateescape')
            unparsed = locate(before[n], bad.get(n, []))
            lines = '\n'.join(per.get(n, []))
            results[n] = Outcome(n, lines, failed, unparsed)
            if not failed:
                cache.put(keys[n], Outcome(n, json.dumps({'lines': lines, 'unparsed': unparsed,
                                                          'content': after if after != before[n] else None})))
        return Outcome(chunk, '', failed)

    if chunks:
        parallel(chunks, a.jobs, 'pass 2 (stores)' + (f' ({batch} files each)' if batch > 1 else ''), one)
    outs = [results[f] for f in files]
    partial = [o for o in outs if o.unparsed]
    texts = blob_texts(a.ksrc, [blobs[o.path] for o in partial])  # as spatch saw them
    hidden = [Site('unparsed-store', '?', name, o.path, ln) for o in partial
              for name, ln in hidden_stores(texts[blobs[o.path]], o.unparsed, wanted)]
    sites = explain_skips(dedupe_sites([*(s for o in outs for s in parse_sites(o.out)), *hidden]), fields)
    return sites, [o for o in outs if o.failed], {o.path: o.unparsed for o in partial}


def commit_by_subsystem(ksrc: str, command: str, sites: Sequence[Site],
                        fields: Dict[Tuple[str, str, str], Field], reason: str) -> List[str]:
    changed = git(ksrc, 'diff', '--name-only').split()
    groups: Dict[str, List[str]] = defaultdict(list)
    for p in changed:
        groups[subsystem(p)].append(p)
    made = []
    for g, paths in sorted(groups.items()):
        msg = commit_message(g, paths, sites, fields, command, reason)
        # commit --only the tracked paths: no 'git add', which trips over a
        # tree whose .gitignore ignores everything (Debian's source tarball)
        git(ksrc, '-c', 'user.useConfigOnly=false', 'commit', '-q', '--signoff', '-m', msg, '--', *paths)
        made.append(f'{git(ksrc, "rev-parse", "--short", "HEAD").strip()} {g} ({len(paths)} files)')
    return made


def main(argv: List[str]) -> int:
    a = parse_args(argv)
    if not a.ksrc:
        raise SystemExit('error: no kernel tree: set KSRC=/path/to/linux (a git checkout) or run make prepare.')
    a.ksrc = os.path.abspath(a.ksrc)
    require_clean(a.ksrc)
    t0 = time.monotonic()
    base = None if a.no_cache else Path(a.cache)
    version = spatch_version()
    blobs = blob_ids(a.ksrc)
    command = 'tools/convert ' + ' '.join(shlex.quote(x) for x in argv)
    print(f'==> {command}  (KSRC={a.ksrc}, {version})', flush=True)
    reads, skipped, unparsed1 = discover(a, blobs, base, version)
    t1 = time.monotonic()
    if a.discover_only:
        typed = sum(r.typed for r in reads)
        print(f'pass 1: {typed} typed reads ({len({(r.struct, r.name) for r in reads if r.typed})} struct fields), '
              f'{len(reads) - typed} untyped reads, {len(skipped)} files skipped, {t1 - t0:.0f}s')
        return 0
    defs, skipped2 = declarations(a, reads, blobs, base, version)
    fields = shared_fields(reads, defs)
    if a.field:
        check_readers(a.ksrc, a.field)
        fields = named_fields(a.field, fields, defs)
        for f in fields.values():
            how = (f'{len(f.readers)} marked reads' if f.readers[0] not in ('named', *(r for _, _, r in a.field))
                   else f'no marked C read found; reader {f.readers[0]}')
            print(f'  --field {f.struct}.{f.name}: {f.kind} ({how}; definition {f.defn.key if f.defn else "?"})')
    typed_names = {f.name for f in fields.values()}
    untyped = Counter(r.name for r in reads if not r.typed and r.name not in typed_names and not a.field)
    t2 = time.monotonic()
    sites, skipped3, unparsed = convert(a, fields, defs, base, version)
    t3 = time.monotonic()
    skipped_all = skipped + skipped2 + skipped3
    changed = git(a.ksrc, 'diff', '--name-only').split()
    res = Path(a.results)
    write_tsv(res / 'fields.tsv', '#definition\tstruct\tfield\tverdict\treaders',
              ((f.defn.key if f.defn else '?', f.struct, f.name, f.kind, ' '.join(f.readers[:5]))
               for f in sorted(fields.values(), key=lambda f: (f.struct, f.name))))
    write_tsv(res / 'untyped.tsv', '#field\treads', sorted(untyped.items()))
    write_tsv(res / 'sites.tsv', '#kind\tstruct\tfield\tfile:line',
              ((s.kind, s.struct, s.name, f'{s.file}:{s.line}') for s in sites))
    write_tsv(res / 'rmw.tsv', '#subsystem\tstruct\tfield\tfile:line',
              sorted((subsystem(s.file), s.struct, s.name, f'{s.file}:{s.line}') for s in sites if s.kind == 'rmw'))
    write_tsv(res / 'skipped.tsv', '#file\treason', ((o.path, o.failed) for o in skipped_all))
    write_tsv(res / 'unparsed.tsv', '#file\tlines spatch could not parse',
              ((f, ' '.join(map(str, lines))) for f, lines in sorted(unparsed.items())))
    text, counts = summarize(fields, dict(untyped), sites, skipped_all, len(changed), unparsed, unparsed1)
    counts.update({'reads_typed': sum(r.typed for r in reads), 'reads_untyped': sum(not r.typed for r in reads),
                   'seconds_pass1': round(t1 - t0, 1), 'seconds_decls': round(t2 - t1, 1),
                   'seconds_pass2': round(t3 - t2, 1)})
    (res / 'counts.json').write_text(json.dumps(counts, indent=1) + '\n')
    print(f'\ntools/convert summary (pass 1 {t1 - t0:.0f}s, definitions {t2 - t1:.0f}s, '
          f'pass 2 {t3 - t2:.0f}s; lists in {res}/)')
    print(text)
    groups = Counter(subsystem(s.file) for s in sites if s.kind == 'rmw')
    if groups:
        print('  read-modify-write by subsystem: ' + ', '.join(f'{g} {n}' for g, n in groups.most_common(8))
              + (f' and {len(groups) - 8} more' if len(groups) > 8 else '') + f' ({res}/rmw.tsv)')
    if a.commit and changed:
        reason = '\n'.join(line for line in Path(a.reason_file).read_text().splitlines()
                           if not line.startswith('#')).strip() if a.reason_file else ''
        for line in commit_by_subsystem(a.ksrc, command, sites, fields, reason):
            print(f'  committed {line}')
    elif changed:
        print(f'  {len(changed)} files changed, not committed (git -C {a.ksrc} diff; --commit to commit)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
