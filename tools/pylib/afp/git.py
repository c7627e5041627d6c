# SPDX-License-Identifier: GPL-2.0
"""The one way the tools run git.

Guarantees: git() runs 'git -C REPO ARGS', returns its stdout, and on an exit
status outside OK stops the tool with one line naming the command, the repo
and git's own message (never a Python traceback); worktree_at() makes a
detached worktree once and leaves an existing one alone.
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
    """A detached worktree of SRC at COMMIT in TREE, made once."""
    if not Path(tree, '.git').exists():
        git(src, 'worktree', 'prune')
        git(src, 'worktree', 'add', '--detach', '--force', str(tree), commit)
