# SPDX-License-Identifier: GPL-2.0
"""tools/convert's summary: the table on the console, counts.json, the TSVs
(written by write_tsv(), read back by read_tsv()).

Guarantees: every site and every skipped file is counted in one row.
Does not: decide or convert anything.
"""

from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .fields import LEFT_VERDICTS, Field, Site
from .spatch import Outcome


def write_tsv(path: Path, header: str, rows: Iterable[Sequence[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, 'w') as f:
        f.write(header + '\n')
        for r in rows:
            f.write('\t'.join(str(x) for x in r) + '\n')


def read_tsv(path: Path) -> List[List[str]]:
    """The rows write_tsv() wrote (its '#' header left out); none for a
    missing file."""
    if not path.exists():
        return []
    return [ln.split('\t') for ln in path.read_text().splitlines() if ln and not ln.startswith('#')]


def table(rows: List[Tuple[str, object]]) -> str:
    w = max(len(k) for k, _ in rows)
    return '\n'.join(f'  {k:<{w}}  {v}' for k, v in rows)


LEFT_WHY = {
    'init': '__init/__meminit/__ref function',
    'serialized': 'function.field listed in cocci/unpublished.tsv',
    'unpublished': 'function listed in cocci/unpublished.tsv',
    'fresh': 'object this function allocated, not yet passed on',
    'on-stack': 'local struct, address not taken',
    'seqcount': 'seqcount/seqlock write section',
    'multi-step': 'stored, then read-modify-written, in one function',
}


def summarize(fields: Dict[Tuple[str, str, str], Field], untyped: Dict[str, int], sites: List[Site],
              skipped: List[Outcome], converted_files: int,
              unparsed: Optional[Dict[str, List[int]]] = None,
              unparsed1: Tuple[int, int, int] = (0, 0, 0)) -> Tuple[str, Dict[str, int]]:
    kinds = Counter(f.kind for f in fields.values())
    sk = Counter({'skip-store:unrelated': 'unrelated', 'skip-store:other-container': 'other-container',
                  'rmw:unrelated': 'rmw-unrelated'}.get(
        s.kind, s.kind.split(':')[0]) for s in sites)
    rmw_typed = sum(s.kind == 'rmw' and s.struct != '?' for s in sites)
    left = Counter(s.kind[5:] for s in sites if s.kind.startswith('left:'))
    locks = len({(s.file, s.detail) for s in sites if s.kind == 'rmw-store'})
    reasons = Counter(o.failed.split(':')[0] for o in skipped)
    store_files = len({s.file for s in sites if s.kind == 'store'})
    counts = {'fields_typed': len(fields), 'fields_convertible': kinds['ok'],
              'fields_untyped_only': len(untyped), 'stores_converted': sk['store'],
              'rmw_converted': sk['rmw-store'], 'reads_rewritten': sk['read'],
              **{'left_' + v.replace('-', '_'): left[v] for v in LEFT_VERDICTS},
              'stores_left_field_kind': sk['skip-store'], 'stores_unrelated_struct': sk['unrelated'],
              'stores_other_container': sk['other-container'], 'stores_untyped': sk['untyped-store'],
              'rmw_reported': sk['rmw'], 'rmw_typed': rmw_typed, 'rmw_unrelated': sk['rmw-unrelated'], 'chained': sk['chained'], 'for_header': sk['for-header'],
              'files_changed': converted_files, 'files_with_stores': store_files, 'files_skipped': len(skipped),
              'stores_unparsed': sk['unparsed-store'], 'files_parsed_in_part': len(unparsed or {}),
              'lines_unparsed': sum(len(v) for v in (unparsed or {}).values()),
              'pass1_files_parsed_in_part': unparsed1[0], 'pass1_lines_unparsed': unparsed1[1],
              'reads_unparsed': unparsed1[2]}
    rows: List[Tuple[str, object]] = [
        ('fields read locklessly, typed', f"{len(fields)} ({kinds['ok']} convertible"
         + ''.join(f'; {k} {v}' if i == 0 else f', {k} {v}'
                   for i, (k, v) in enumerate(sorted((k, v) for k, v in kinds.items() if k != 'ok'))) + ')'),
        ('fields read locklessly, untyped only', f'{len(untyped)} (field name only, never converted)'),
        ('stores converted', f"{sk['store']} in {store_files} files"
         + ('' if converted_files or not (sk['store'] + sk['rmw-store']) else ' (dry run: none written)')),
        ('read-modify-write converted, lock held', f"{sk['rmw-store']} (x->f = x->f op v; {locks} function/lock pairs)"),
        *([('READ_ONCE() reads rewritten (--with-reads)', sk['read'])] if sk['read'] else []),
        *[(f'left plain, cannot race: {v}', f'{left[v]}  ({LEFT_WHY[v]})') for v in LEFT_VERDICTS],
        ('stores left: field kind', f"{sk['skip-store']}" + ''.join(
            f" ({', '.join(why)})" for why in [[f'{k[11:]} {v}' for k, v in sorted(Counter(s.kind for s in sites).items())
                                                if k.startswith('skip-store:')
                                                and k not in ('skip-store:unrelated', 'skip-store:other-container')]]
            if why)),
        ('same name, struct not read locklessly', f"{sk['unrelated']} (not findings)"),
        *([('same field, member not read locklessly', f"{sk['other-container']} (e->a.f, every marked read "
            'of the field through another member; not findings)')] if sk['other-container'] else []),
        ('stores left: struct type unknown', sk['untyped-store']),
        ('stores left: chained / for header', f"{sk['chained']} / {sk['for-header']}"),
        ('read-modify-write reported', f"{sk['rmw']} (no lock held or not a statement: use atomic_t, or take the "
         f"writers' lock; {rmw_typed} typed, {sk['rmw'] - rmw_typed} struct unknown; "
         f"{sk['rmw-unrelated']} more to fields of structs not read locklessly, not findings)"),
        ('files skipped', f"{len(skipped)}" + (' (' + ', '.join(f'{k} {v}' for k, v in reasons.items()) + ')'
                                              + '; rerun with a larger --timeout and --retry-failed' if skipped else '')),
        ('files parsed in part (discovery)', f"{unparsed1[0]} ({unparsed1[1]} lines spatch could not parse; "
         f"{unparsed1[2]} marked loads in them, kept as field-name-only reads)"),
        ('files parsed in part (store pass)', f"{counts['files_parsed_in_part']} ({counts['lines_unparsed']} lines "
         f"spatch could not parse and skipped; {sk['unparsed-store']} stores to fields read locklessly in them, "
         "reported as unparsed-store)"),
    ]
    return table(rows), counts
