# SPDX-License-Identifier: GPL-2.0
"""The initramfs of tools/kcsan-evidence, from Debian's binaries.

cpio_list() writes the file list the kernel's own usr/gen_init_cpio reads:
/init (kunit/kcsan-evidence/init), busybox-static as /bin/busybox, a
dynamically linked program (stress-ng) with the shared libraries ldd names,
at the paths ldd names, and an /etc/passwd with the unprivileged user the
init script runs the workload as. build() runs gen_init_cpio with a fixed
timestamp.

Guarantees: a library ldd cannot find, or a busybox that is not static,
stops with a message naming the package to install; the same inputs give
the same archive.
Does not: copy anything dlopen() loads at run time (ldd cannot see it; no
stressor used here needs it), or make device nodes beyond /dev/console
(devtmpfs makes the rest).
"""

import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List

LDD_RE = re.compile(r'^\s*(?:(?P<name>\S+) => )?(?P<path>/\S+) \(0x[0-9a-f]+\)$')
USER = ('stress', 1000)


def parse_ldd(out: str) -> List[str]:
    """The paths ldd prints (libraries, then the loader), in its order;
    a 'not found' line stops with its name."""
    paths = []
    for ln in out.splitlines():
        if '=> not found' in ln:
            raise SystemExit(f'error: ldd cannot find {ln.split()[0]}: reinstall the package that '
                             'ships it (apt-get install --reinstall stress-ng pulls in its libraries)')
        m = LDD_RE.match(ln)
        if m:
            paths.append(m.group('path'))
    return paths


def shared_libs(binary: Path) -> List[str]:
    p = subprocess.run(['ldd', str(binary)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        raise SystemExit(f'error: ldd {binary} failed: {p.stdout.strip()}')
    return parse_ldd(p.stdout)


def require_static(busybox: Path) -> None:
    if not busybox.exists():
        raise SystemExit(f'error: {busybox} not found: apt-get install busybox-static (or make install-deps)')
    p = subprocess.run(['ldd', str(busybox)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 0 and '=>' in p.stdout:
        raise SystemExit(f'error: {busybox} is dynamically linked: install busybox-static, '
                         'not busybox (apt-get install busybox-static)')


def cpio_list(init: Path, busybox: Path, program: Path, libs: List[str], etc: Path) -> str:
    """gen_init_cpio's list for the initramfs; ETC is a directory this
    writes passwd and group into."""
    etc.mkdir(parents=True, exist_ok=True)
    name, uid = USER
    for f, text in (('passwd', f'root:x:0:0::/:/bin/sh\n{name}:x:{uid}:{uid}::/tmp:/bin/sh\n'),
                    ('group', f'root:x:0:\n{name}:x:{uid}:\n')):
        (etc / f).write_text(text)
        # gen_init_cpio records a file's own mtime (-t covers only dirs,
        # links and nodes): a fixed one keeps the archive the same.
        os.utime(etc / f, (0, 0))
    files: Dict[str, Path] = {
        '/init': init,
        '/bin/busybox': busybox,
        f'/usr/bin/{program.name}': program,
        '/etc/passwd': etc / 'passwd',
        '/etc/group': etc / 'group',
    }
    for lib in libs:
        files[lib] = Path(lib).resolve()
    dirs = {'/dev', '/proc', '/sys', '/tmp'}
    for f in files:
        parent = Path(f).parent
        while str(parent) != '/':
            dirs.add(str(parent))
            parent = parent.parent
    out = ['# tools/kcsan-evidence: the workload initramfs (usr/gen_init_cpio)']
    out += [f'dir {d} {"1777" if d == "/tmp" else "0755"} 0 0' for d in sorted(dirs, key=lambda d: (d.count('/'), d))]
    out.append('nod /dev/console 0600 0 0 c 5 1')
    for name_, src in sorted(files.items()):
        mode = '0755' if name_ in ('/init', '/bin/busybox') or name_.startswith('/usr/bin/') or '.so' in name_ else '0644'
        out.append(f'file {name_} {src} {mode} 0 0')
    return '\n'.join(out) + '\n'


def build(gen_init_cpio: Path, listing: str, work: Path, out: Path) -> None:
    lst = work / 'initramfs.list'
    lst.write_text(listing)
    with open(out, 'wb') as f:
        p = subprocess.run([str(gen_init_cpio), '-t', '0', str(lst)], stdout=f, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise SystemExit(f'error: {gen_init_cpio} failed on {lst}: {p.stderr.strip()[-500:]}')
