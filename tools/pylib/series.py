# SPDX-License-Identifier: GPL-2.0
"""patches/series and the cover letter: reading, fingerprinting, rewriting.

Guarantees: the series file's comment lines (its annotations) survive a
rewrite; a cover letter exported by git format-patch with
--cover-from-description=subject turns back into the same branch description.
Does not: run git; tools/apply and tools/export do that.

Run as a script: series.py list|fingerprint|description PATCHES_DIR
"""

import hashlib
import re
import sys
from pathlib import Path
from typing import List

COVER = '0000-cover-letter.patch'


def read_series(patches: Path) -> List[str]:
    """Patch file names in the order patches/series lists them."""
    names = []
    for line in (patches / 'series').read_text().splitlines():
        line = line.strip()
        if line and not line.startswith('#'):
            names.append(line)
    return names


def fingerprint(patches: Path) -> str:
    """sha256 over the series file, the cover letter and every listed patch."""
    h = hashlib.sha256()
    files = ['series'] + ([COVER] if (patches / COVER).exists() else []) + read_series(patches)
    for name in files:
        h.update(name.encode() + b'\0')
        h.update((patches / name).read_bytes())
    return h.hexdigest()


def cover_description(cover_text: str) -> str:
    """Branch description from a cover letter: subject, blank line, body."""
    head, _, rest = cover_text.partition('\n\n')
    subject = ''
    in_subject = False
    for line in head.splitlines():
        if line.startswith('Subject: '):
            subject, in_subject = line[len('Subject: '):], True
        elif in_subject and line[:1] in (' ', '\t'):
            subject += line  # RFC 2822 folding keeps the leading blank
        else:
            in_subject = False
    subject = re.sub(r'^\[[^]]*\]\s*', '', subject)
    body = []
    for line in rest.splitlines():
        if re.match(r'^\S.* \(\d+\):$', line):  # shortlog starts: "Name (N):"
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    return subject + ('\n\n' + '\n'.join(body) if body else '')


def rewrite_series(old_text: str, names: List[str]) -> str:
    """The series file for NAMES, keeping each kept patch's comment block.

    Comments before the first patch stay at the top; a comment block stays
    in front of the patch it preceded; blocks of patches that are gone are
    dropped; new patches are listed without a comment.
    """
    header: List[str] = []
    blocks = {}
    pending: List[str] = []
    seen_patch = False
    for line in old_text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith('#'):
            pending.append(line)
            continue
        if not seen_patch:
            # Split the leading comments: the part up to the last blank line
            # is the file header, the rest annotates the first patch.
            cut = max((i for i, s in enumerate(pending) if not s.strip()), default=-1) + 1
            header, pending = pending[:cut], pending[cut:]
            seen_patch = True
        blocks[stripped] = pending
        pending = []
    if not seen_patch:
        header, pending = pending, []
    out = list(header)
    for name in names:
        out.extend(blocks.get(name, []))
        out.append(name)
    out.extend(pending)
    return '\n'.join(out) + '\n'


def main(argv: List[str]) -> int:
    if len(argv) != 3 or argv[1] not in ('list', 'fingerprint', 'description'):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    patches = Path(argv[2])
    if argv[1] == 'list':
        for name in read_series(patches):
            print(name)
    elif argv[1] == 'fingerprint':
        print(fingerprint(patches))
    else:
        cover = patches / COVER
        if cover.exists():
            print(cover_description(cover.read_text()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
