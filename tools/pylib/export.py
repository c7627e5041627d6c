# SPDX-License-Identifier: GPL-2.0
"""Export branch $BRANCH of $SRC into patches/, or check that patches/ matches.

Guarantees: the output depends only on the commits (zero From hashes, full
index lines, no signature, fixed committer identity and date for the cover
letter, no user or system git config); --check writes nothing in patches/.
Does not: apply patches (tools/apply does, and tools/export --check calls it).
"""

import difflib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import series  # noqa: E402
from afp.series import format_patch  # noqa: E402


def main(argv) -> int:
    check = argv[1:] == ['--check']
    if argv[1:] not in ([], ['--check']):
        print('usage: tools/export [--check]', file=sys.stderr)
        return 2
    src, branch = ENV['SRC'], ENV['BRANCH']
    patches = Path(ENV['PATCHES'])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        names = format_patch(src, ENV['BASE_TAG'], ENV['BASE_COMMIT'],
                             branch, out)
        old_series = (patches / 'series').read_text() if (patches / 'series').exists() else ''
        (out / 'series').write_text(series.rewrite_series(old_series, names))
        new = {p.name: p.read_bytes() for p in out.iterdir()}
        old = {p.name: p.read_bytes() for p in patches.iterdir()
               if p.name == 'series' or p.name.endswith('.patch')}
        if check:
            bad = sorted(n for n in set(new) | set(old) if new.get(n) != old.get(n))
            for n in bad:
                sys.stdout.writelines(difflib.unified_diff(
                    old.get(n, b'').decode(errors='replace').splitlines(True),
                    new.get(n, b'').decode(errors='replace').splitlines(True),
                    f'patches/{n}', f're-exported/{n}'))
            if bad:
                print(f'error: export check: {len(bad)} file(s) in patches/ differ from a '
                      f're-export of branch {branch}: {", ".join(bad)}\n'
                      f'  patches/ was edited by hand or exported with other options. Edit on '
                      f'the branch in {src} and run \'make export\'.', file=sys.stderr)
                return 1
            print(f'==> export check: patches/ matches a re-export byte for byte '
                  f'({len(names)} patches, cover letter, series)')
            return 0
        patches.mkdir(exist_ok=True)
        for n in old:
            if n not in new:
                (patches / n).unlink()
        changed = [n for n in sorted(new) if new[n] != old.get(n)]
        for n in changed:
            (patches / n).write_bytes(new[n])
        print(f'==> export: {len(names)} patches from {branch}; '
              f'{len(changed)} file(s) written, {len(set(old) - set(new))} removed')
        new_unannotated = [n for n in names if n not in old_series]
        if new_unannotated:
            print('    annotate the new patches in patches/series (a # comment above each '
                  'group): ' + ', '.join(new_unannotated))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
