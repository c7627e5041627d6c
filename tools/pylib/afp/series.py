# SPDX-License-Identifier: GPL-2.0
"""patches/series and the cover letter: reading, fingerprinting, rewriting.

Guarantees: the series file's comment lines (its annotations) survive a
rewrite; a cover letter exported by git format-patch with
--cover-from-description=subject turns back into the same branch description.
format_patch() is the one byte-stable git format-patch of the branch.
Does not: apply or commit anything (tools/apply does; tools/pylib/series.py
is the command line of this module).
"""

import hashlib
import os
import re
from pathlib import Path
from typing import List

from .git import git

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


def format_patch(src: str, base: str, base_commit: str, branch: str, out: Path) -> list:
    rng = f'{base}..refs/heads/{branch}'
    if not git(src, 'rev-list', rng).strip():
        return []
    name, email, date = git(src, 'log', '-1', '--format=%an%x00%ae%x00%aI',
                            f'refs/heads/{branch}').rstrip('\n').split('\0')
    env = dict(os.environ, GIT_CONFIG_GLOBAL='/dev/null', GIT_CONFIG_NOSYSTEM='1',
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_COMMITTER_DATE=date)
    # The description lives in the work tree's own config, which stays read.
    git(src, 'format-patch', '--quiet', '-o', str(out), '--zero-commit',
        '--no-signature', '--full-index', '--subject-prefix=PATCH',
        '--cover-letter', '--cover-from-description=subject',
        f'--base={base_commit}', rng, env=env)
    return sorted(p.name for p in out.glob('*.patch') if p.name != COVER)
