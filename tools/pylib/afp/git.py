# SPDX-License-Identifier: GPL-2.0
"""The one way the tools run git.

Guarantees: git() runs 'git -C REPO ARGS', returns its stdout, and on an exit
status outside OK stops the tool with one line naming the command, the repo
and git's own message (never a Python traceback); worktree_at() makes a
detached worktree once and resets it to the commit asked for every time.
Does not: commit, reset or check out anything in a tree it was not handed.
"""

import subprocess
from pathlib import Path
from typing import Dict, Optional, Sequence


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
