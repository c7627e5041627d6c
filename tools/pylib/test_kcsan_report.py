# SPDX-License-Identifier: GPL-2.0
"""afp/kcsan_report.py, afp/initramfs.py and afp/git.line_mapper() on text
in the formats they read (kernel/kcsan/report.c, scripts/faddr2line, ldd,
git diff -U0), each with a case that must not match.
Does not: boot a kernel or run faddr2line (make kcsan-evidence does)."""

import tempfile
import unittest
from pathlib import Path

from afp import initramfs
from afp import kcsan_report as kr
from afp.git import line_mapper

CONSOLE = '''\
[    0.210000] kcsan: enabled early
[   12.000001] ==================================================================
[   12.000002] BUG: KCSAN: data-race in do_fcntl / setfl
[   12.000003]
[   12.000004] write to 0xffff888003a1c830 of 4 bytes by task 120 on cpu 1:
[   12.000005]  setfl+0x1a2/0x2f0
[   12.000006]  do_fcntl+0x5e/0x9c0
stress-ng: info:  [118] dispatching hogs: 1 fcntl
[   12.000007]
[   12.000008] read (marked) to 0xffff888003a1c830 of 4 bytes by task 121 on cpu 0:
[   12.000009]  do_fcntl+0x3c/0x9c0
[   12.000010]  __x64_sys_fcntl+0x88/0x100
[   12.000011]
[   12.000012] value changed: 0x00008002 -> 0x00008802
[   12.000013]
[   12.000014] Reported by Kernel Concurrency Sanitizer on:
[   12.000015] CPU: 0 PID: 121 Comm: stress-ng Not tainted 6.1.192 #1
[   12.000016] ==================================================================
[   13.000001] ==================================================================
[   13.000002] BUG: KCSAN: data-race in a_fn / b_fn
[   13.000004] read-write to 0xffff888003a1c900 of 8 bytes by interrupt on cpu 0:
[   13.000005]  a_fn+0x10/0x20
[   13.000007]
[   13.000008] read to 0xffff888003a1c900 of 8 bytes by task 1 on cpu 1:
[   13.000009]  b_fn+0x11/0x40
[   13.000016] ==================================================================
[   14.000001] ==================================================================
[   14.000002] BUG: KCSAN: data-race in c_fn
[   14.000003]
[   14.000004] race at unknown origin, with read to 0xffff888003a1c900 of 8 bytes by task 1 on cpu 1:
[   14.000005]  c_fn+0x11/0x40
[   14.000016] ==================================================================
[   15.000002] BUG: KCSAN: data-race in d_fn / e_fn
[   15.000016] ==================================================================
'''

FADDR = '''\
setfl+0x1a2/0x2f0:
setfl at /w/tree/fs/fcntl.c:74

do_fcntl+0x3c/0x9c0:
fcntl_dirnotify at /w/tree/fs/notify/dnotify/dnotify.c:300
 (inlined by) do_fcntl at /w/tree/fs/fcntl.c:345 (discriminator 2)

a_fn+0x10/0x20:
?? at ??:0
'''


class Parse(unittest.TestCase):
    def setUp(self):
        self.c = kr.parse(CONSOLE)

    def test_reports_and_accesses(self):
        self.assertEqual(len(self.c.reports), 3)
        r = self.c.reports[0]
        self.assertEqual((r.bug, r.title), ('data-race', 'do_fcntl / setfl'))
        self.assertEqual([(a.type, a.size) for a in r.accesses], [('write', 4), ('read (marked)', 4)])
        # a line of other output inside a stack is not a frame
        self.assertEqual(r.accesses[0].frames, ['setfl+0x1a2/0x2f0', 'do_fcntl+0x5e/0x9c0'])
        self.assertEqual(r.value, '0x00008002 -> 0x00008802')

    def test_unknown_origin_and_unreadable(self):
        self.assertTrue(self.c.reports[2].unknown_origin)
        self.assertEqual(len(self.c.reports[2].accesses), 1)
        self.assertEqual(self.c.unreadable, 1)      # the header with no accesses

    def test_classes(self):
        self.assertEqual([kr.classify(r) for r in self.c.reports], [kr.TARGET, kr.PLAIN_PLAIN, kr.OTHER])
        w = kr.Access('write (marked)', 4, ['f+0x1/0x2'])
        r = kr.Access('read', 4, ['g+0x1/0x2'])
        self.assertEqual(kr.classify(kr.Report('data-race', 't', [r, w])), kr.MARKED_PLAIN)
        rw = kr.Access('read-write (marked)', 4, ['g+0x1/0x2'])
        self.assertEqual(kr.classify(kr.Report('data-race', 't', [rw, w])), kr.OTHER)
        reo = kr.Access('write (reordered)', 4, ['g+0x1/0x2'])
        self.assertEqual(kr.classify(kr.Report('data-race', 't', [reo, kr.Access('read (marked)', 4)])), kr.OTHER)

    def test_store_and_key(self):
        r = self.c.reports[0]
        self.assertEqual(kr.store_of(r).type, 'write')
        self.assertIsNone(kr.store_of(kr.Report('data-race', 't', [kr.Access('read', 4), kr.Access('write (marked)', 4)])))
        again = kr.parse(CONSOLE.replace('task 120', 'task 99'))
        self.assertEqual(kr.race_key(again.reports[0]), kr.race_key(r))
        self.assertEqual(len(kr.distinct(self.c.reports + again.reports)), 3)


class Symbols(unittest.TestCase):
    def test_faddr2line(self):
        t = kr.parse_faddr2line(FADDR, '/w/tree')
        self.assertEqual(t['setfl+0x1a2/0x2f0'], [('setfl', 'fs/fcntl.c:74')])
        self.assertEqual(t['do_fcntl+0x3c/0x9c0'][0], ('fcntl_dirnotify', 'fs/notify/dnotify/dnotify.c:300'))
        self.assertEqual(t['do_fcntl+0x3c/0x9c0'][1], ('do_fcntl', 'fs/fcntl.c:345'))
        self.assertEqual(t['a_fn+0x10/0x20'], [('??', '??:0')])

    def test_stored_members(self):
        self.assertEqual(kr.stored_members('filp->f_flags = (arg & SETFL_MASK) | x;'), ['f_flags'])
        self.assertEqual(kr.stored_members('x->done++;'), ['done'])
        self.assertEqual(kr.stored_members('--p->se.nr;'), ['nr'])
        self.assertEqual(kr.stored_members('s.a[i] |= 1;'), ['a'])
        self.assertEqual(kr.stored_members('if (p->f == 1)'), [])
        self.assertEqual(kr.stored_members('n = p->f;'), [])


class Initramfs(unittest.TestCase):
    LDD = ('\tlinux-vdso.so.1 (0x00007ffd)\n\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007fb7)\n'
           '\t/lib64/ld-linux-x86-64.so.2 (0x00007fb7)\n')

    def test_ldd(self):
        self.assertEqual(initramfs.parse_ldd(self.LDD),
                         ['/lib/x86_64-linux-gnu/libm.so.6', '/lib64/ld-linux-x86-64.so.2'])
        with self.assertRaises(SystemExit) as e:
            initramfs.parse_ldd('\tlibJudy.so.1 => not found\n')
        self.assertIn('libJudy.so.1', str(e.exception))

    def test_list(self):
        with tempfile.TemporaryDirectory() as d:
            lst = initramfs.cpio_list(Path('/i'), Path('/bin/busybox'), Path('/usr/bin/stress-ng'),
                                      ['/lib64/ld-linux-x86-64.so.2'], Path(d))
            self.assertIn('stress:x:1000:1000', Path(d, 'passwd').read_text())
            self.assertEqual(Path(d, 'passwd').stat().st_mtime, 0)     # the archive does not change
        lines = lst.splitlines()
        self.assertIn('dir /lib64 0755 0 0', lines)
        self.assertIn('dir /tmp 1777 0 0', lines)
        self.assertIn('file /init /i 0755 0 0', lines)
        self.assertLess(lines.index('dir /usr 0755 0 0'), lines.index('dir /usr/bin 0755 0 0'))


class LineMap(unittest.TestCase):
    DIFF = ('diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -10 +10,2 @@ x\n-\ta = 1;\n+\tb(&a,\n+\t  1);\n'
            '@@ -20,0 +22 @@ y\n+\tc();\n')

    def test_map(self):
        m = line_mapper(self.DIFF)
        self.assertEqual([m('f.c:9'), m('f.c:10'), m('f.c:11'), m('f.c:20'), m('f.c:21')],
                         ['f.c:9', 'f.c:10', 'f.c:12', 'f.c:21', 'f.c:23'])
        self.assertEqual(m('g.c:10'), 'g.c:10')


if __name__ == '__main__':
    unittest.main()
