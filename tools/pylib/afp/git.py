# SPDX-License-Identifier: GPL-2.0
"""The one way the tools run git.

Guarantees: git() runs 'git -C REPO ARGS', returns its stdout, and on an exit
status outside OK stops the tool with one line naming the command, the repo
and git's own message (never a Python traceback); worktree_at() makes a
detached worktree once and resets it to the commit asked for every time;
line_mapper() carries a file:line across a diff.
Does not: commit, reset or check out anything in a tree it was not handed.
"""

import os
import re
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple


def git(repo, *args: str, ok: Sequence[int] = (0,), env: Optional[Dict[str, str]] = None) -> str:
    p = subprocess.run(['git', '-C', str(repo), *args], capture_output=True, text=True, env=env)
    if p.returncode not in ok:
        why = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f'exit status {p.returncode}'
        raise SystemExit(f'error: git {" ".join(args[:3])} failed in {repo}: {why}')
    return p.stdout


def worktree_at(src, tree, commit: str) -> None:
    """TREE, a detached worktree of SRC (made once), checked out at COMMIT
    with nothing else in it: whatever an earlier run left there is reset."""
    if not Path(tree, '.git').exists():
        git(src, 'worktree', 'prune')
        git(src, 'worktree', 'add', '--detach', '--force', str(tree), commit)
    git(tree, 'checkout', '--quiet', '--detach', '--force', commit)
    git(tree, 'reset', '--quiet', '--hard', commit)


# ---------------------------------------------------------------- the kernel tree tools/convert reads

EXCLUDE = [':!tools/', ':!scripts/', ':!Documentation/', ':!samples/']


SOURCES = ['*.c', '*.h']


def grep_files(ksrc: str, patterns: Sequence[str], pathspecs: Sequence[str], fixed: bool = False) -> List[str]:
    """Files matching any of a few patterns."""
    with tempfile.NamedTemporaryFile('w', suffix='.pat') as pf:
        pf.write('\n'.join(patterns) + '\n')
        pf.flush()
        out = git(ksrc, 'grep', '-l', '-F' if fixed else '-P', '-f', pf.name, '--', *pathspecs, ok=(0, 1))
    return sorted(out.split('\n')[:-1]) if out else []


def grep_names(ksrc: str, regex: str, pathspecs: Sequence[str], pick: str) -> Dict[str, Set[str]]:
    """path -> identifiers that `pick` (a Python regex, last group match
    wins) finds in the git grep -o matches of regex. One generic pattern:
    git grep with thousands of -e/-f alternatives takes minutes."""
    out = git(ksrc, 'grep', '-o', '-I', '-P', regex, '--', *pathspecs, ok=(0, 1))
    found: Dict[str, Set[str]] = defaultdict(set)
    pick_re = re.compile(pick)
    for line in out.splitlines():
        path, _, match = line.partition(':')
        names = pick_re.findall(match)
        if names:
            found[path].add(names[-1])
    return found


def blob_ids(ksrc: str) -> Dict[str, str]:
    out = git(ksrc, 'ls-files', '-s', '-z')
    ids = {}
    for rec in out.split('\0'):
        if rec:
            meta, path = rec.split('\t', 1)
            ids[path] = meta.split()[1]
    return ids


def blob_texts(ksrc: str, ids: Sequence[str]) -> Dict[str, str]:
    """blob id -> its text, through one git cat-file --batch."""
    if not ids:
        return {}
    p = subprocess.run(['git', '-C', ksrc, 'cat-file', '--batch'], input=''.join(f'{i}\n' for i in ids).encode(),
                       capture_output=True, check=True)
    texts, data, pos = {}, p.stdout, 0
    while pos < len(data):
        eol = data.index(b'\n', pos)
        sha, _, size = data[pos:eol].decode().split()
        start = eol + 1
        texts[sha] = data[start:start + int(size)].decode(errors='surrogateescape')
        pos = start + int(size) + 1
    return texts


def spec_for(paths: Sequence[str]) -> List[str]:
    """git pathspecs for the C sources under paths (git's * crosses '/')."""
    spec = []
    for p in paths or ['.']:
        p = p.rstrip('/') or '.'
        if p.endswith(('.c', '.h')):
            spec.append(p)
        else:
            spec += [g if p == '.' else f'{p}/{g}' for g in SOURCES]
    return spec + EXCLUDE


def require_clean(ksrc: str) -> None:
    if not os.path.isdir(os.path.join(ksrc, '.git')) and not git(ksrc, 'rev-parse', '--git-dir'):
        raise SystemExit(f'error: {ksrc} is not a git tree; set KSRC= to a kernel git checkout.')
    dirty = git(ksrc, 'status', '--porcelain', '--untracked-files=no')
    if dirty.strip():
        raise SystemExit(f'error: {ksrc} has uncommitted changes; nothing was touched:\n'
                         + ''.join(f'  {l}\n' for l in dirty.splitlines()[:5])
                         + '  Commit or stash them, then rerun.')


def line_mapper(diff: str) -> Callable[[str], str]:
    """From a `git diff -U0 A B`: file:line in A -> file:line in B. A line
    inside a changed hunk maps to the hunk's first new line; a file the
    diff does not name keeps its lines."""
    hunks: Dict[str, List[Tuple[int, int, int, int]]] = {}
    cur = ''
    for ln in diff.splitlines():
        if ln.startswith('--- '):
            cur = ln[6:] if ln.startswith('--- a/') else ''
        m = re.match(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@', ln)
        if m and cur:
            hunks.setdefault(cur, []).append((int(m.group(1)), int(m.group(2) or 1),
                                              int(m.group(3)), int(m.group(4) or 1)))

    def mapped(where: str) -> str:
        path, _, line = where.rpartition(':')
        if path not in hunks or not line.isdigit():
            return where
        n, shift = int(line), 0
        for old, olen, new, nlen in hunks[path]:
            if olen and old <= n < old + olen:
                return f'{path}:{new}'
            if (old + olen if olen else old + 1) <= n:
                shift += nlen - olen
        return f'{path}:{n + shift}'
    return mapped
