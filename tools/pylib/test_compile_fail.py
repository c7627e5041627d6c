# SPDX-License-Identifier: GPL-2.0
"""Tests for compile_fail.py: case-line parsing, the verdict on one compile
and the configure steps it shares with lint."""

import unittest
from pathlib import Path

import compile_fail as cf
from afp import kbuild

SRC = '''/* CASE a_fail FAIL:"acc(): *p is const" only=i386 */
/* CASE b_ok OK not=i386,arm64 */
/* CASE c_ok OK */
/* CASE d_sparse SPARSE:"address space" */
'''


class ParseTest(unittest.TestCase):
    def test_parse(self):
        a, b, c, d = cf.parse_cases(SRC)
        self.assertTrue(d.sparse and not a.sparse)
        self.assertEqual(d.expect, 'address space')
        self.assertEqual((a.name, a.expect, a.only, a.never), ('a_fail', 'acc(): *p is const', ['i386'], []))
        self.assertEqual((b.expect, b.only, b.never), (None, [], ['i386', 'arm64']))
        self.assertTrue(a.applies('i386') and not a.applies('x86_64'))
        self.assertTrue(b.applies('x86_64') and not b.applies('arm64'))
        self.assertTrue(c.applies('arm64'))

    def test_bad_line_and_duplicates_are_errors(self):
        with self.assertRaises(SystemExit):
            cf.parse_cases('/* CASE x MAYBE */\n')
        with self.assertRaises(SystemExit):
            cf.parse_cases('/* CASE x OK */\n/* CASE x OK */\n')


class JudgeTest(unittest.TestCase):
    # not 'fail': that would hide TestCase.fail(), which reports a mismatch
    must_fail = cf.Case('f', 'acc(): rule', [], [])
    must_compile = cf.Case('o', None, [], [])

    def test_fail_case_needs_failure_and_text(self):
        self.assertEqual(cf.judge(self.must_fail, 2, 'x.c:1:2: error: static assertion failed: "acc(): rule"'),
                         (True, 'x.c:1:2: error: static assertion failed: "acc(): rule"'))
        self.assertFalse(cf.judge(self.must_fail, 2, 'x.c:1:2: error: something else')[0])
        self.assertFalse(cf.judge(self.must_fail, 0, 'acc(): rule')[0])

    def test_ok_case_needs_success_without_warnings(self):
        self.assertTrue(cf.judge(self.must_compile, 0, '')[0])
        self.assertFalse(cf.judge(self.must_compile, 0, 'x.c:3:1: warning: unused variable')[0])
        self.assertFalse(cf.judge(self.must_compile, 2, '')[0])

    def test_sparse_case_needs_clean_compile_and_warning(self):
        sp = cf.Case('s', 'address space', [], [], True)
        self.assertTrue(cf.judge(sp, 0, 'x.c:1:1: warning: cast removes address space')[0])
        self.assertFalse(cf.judge(sp, 0, '')[0])
        self.assertFalse(cf.judge(sp, 2, 'cast removes address space')[0])

    def test_make_failure_names_its_reason(self):
        # A .cmd file read half-written by a concurrent make: no compiler
        # line, only make's own '***' line (seen in CI, exit status 2).
        out = ("x/.case_b.o.cmd:5: *** unterminated call to function 'wildcard': missing ')'.  Stop.\n"
               'make: *** [Makefile:2065: x] Error 2\n')
        sp = cf.Case('s', 'address space', [], [], True)
        self.assertEqual(cf.judge(sp, 2, out),
                         (False, 'exit status 2: ' + out.splitlines()[0]))
        self.assertEqual(cf.judge(self.must_compile, 2, 'x.c:1:1: error: e\nmake: *** Error 1\n')[1],
                         'exit status 2: x.c:1:1: error: e')
        self.assertEqual(cf.judge(self.must_fail, 2, '')[1],
                         'failed without the expected text; exit status 2')

    def test_short_drops_directories(self):
        self.assertEqual(cf.short('/a/b/case_x.c:4:5: error: e'), 'case_x.c:4:5: error: e')


class ConfigStepsTest(unittest.TestCase):
    def test_base_then_merge_then_olddefconfig(self):
        make = ['make', '-C', '/k', 'O=/o']
        steps = kbuild.config_steps(make, '/k', Path('/o'), 'frag.config')
        self.assertEqual(steps, [make + ['tinyconfig'],
                                 ['/k/scripts/kconfig/merge_config.sh', '-m', '-O', '/o',
                                  '/o/.config', 'frag.config'],
                                 make + ['olddefconfig']])
        self.assertEqual(kbuild.config_steps(make, '/k', Path('/o'), 'f', 'defconfig')[0][-1], 'defconfig')


if __name__ == '__main__':
    unittest.main()
