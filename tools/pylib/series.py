# SPDX-License-Identifier: GPL-2.0
"""series.py list|fingerprint|description PATCHES_DIR: the command line of
afp/series.py, for tools/apply.

Guarantees: prints one patch name per line, the fingerprint, or the branch
description the cover letter holds; exit status 2 on a usage error.
Does not: run git.
"""

import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.series import COVER, cover_description, fingerprint, read_series  # noqa: E402


def main(argv: List[str]) -> int:
    if len(argv) != 3 or argv[1] not in ('list', 'fingerprint', 'description'):
        print('usage: series.py list|fingerprint|description PATCHES_DIR', file=sys.stderr)
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
