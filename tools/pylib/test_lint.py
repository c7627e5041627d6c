# SPDX-License-Identifier: GPL-2.0
"""Tests for lint.py: each gate's verdict on captured tool output, the
kbuild output cutter, the base/patched warning comparison and the stamps."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

import lint

CHECKPATCH_CLEAN = """total: 0 errors, 0 warnings, 0 checks, 93 lines checked

x.patch has no obvious style problems and is ready for submission.
"""

CHECKPATCH_CHECK = """CHECK: spinlock_t definition without comment
#95: FILE: lib/atomic_from_ptr_kcsan_kunit.c:30:
+	spinlock_t lock;

total: 0 errors, 0 warnings, 1 checks, 290 lines checked
"""


class CheckpatchTest(unittest.TestCase):
    def test_clean(self):
        self.assertEqual(lint.checkpatch_verdict(0, CHECKPATCH_CLEAN),
                         (True, '0 errors, 0 warnings, 0 checks'))

    def test_a_check_fails_and_is_located(self):
        ok, detail = lint.checkpatch_verdict(1, CHECKPATCH_CHECK)
        self.assertFalse(ok)
        self.assertEqual(detail, '0 errors, 0 warnings, 1 checks; first: CHECK: spinlock_t '
                                 'definition without comment (lib/atomic_from_ptr_kcsan_kunit.c:30)')

    def test_no_summary_or_bad_status_or_no_dictionary_fails(self):
        self.assertFalse(lint.checkpatch_verdict(2, 'Global symbol "$x" requires ...\n')[0])
        self.assertFalse(lint.checkpatch_verdict(1, CHECKPATCH_CLEAN)[0])
        self.assertFalse(lint.checkpatch_verdict(
            0, "No codespell typos will be found - file '/usr/share/codespell/dictionary.txt': "
               "No such file or directory\n" + CHECKPATCH_CLEAN)[0])

    def test_summary_without_checks_field_fails(self):
        # checkpatch prints 'N checks' only under --strict: without it no
        # CHECK-level message was looked for.
        ok, detail = lint.checkpatch_verdict(0, 'total: 0 errors, 0 warnings, 12 lines checked\n')
        self.assertFalse(ok)
        self.assertIn('--strict was not in effect', detail)


class CheckpatchConfTest(unittest.TestCase):
    def test_the_projects_conf_is_fit(self):
        conf = Path(lint.__file__).resolve().parents[2] / '.checkpatch.conf'
        self.assertEqual(lint.checkpatch_conf_problems(conf.read_text()), [])

    def test_no_strict_fails(self):
        self.assertEqual(lint.checkpatch_conf_problems('--codespell\n'),
                         ['no --strict line: checkpatch would not report CHECK-level messages'])

    def test_an_ignore_without_a_reason_fails(self):
        text = '--strict\n# MACRO_ARG_REUSE: argued here.\n--ignore MACRO_ARG_REUSE\n\n--ignore LONG_LINE\n'
        self.assertEqual(lint.checkpatch_conf_problems(text),
                         ['line 5 (--ignore LONG_LINE): no comment above it saying why'])

    def test_a_bad_conf_fails_the_gate_without_running_checkpatch(self):
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            (root / '.checkpatch.conf').write_text('--ignore LONG_LINE\n')
            ctx = type('Ctx', (), {'src': root, 'root': root, 'results': root / 'results'})()
            rs = lint.gate_checkpatch(ctx, [root / 'x.patch'])
        self.assertEqual([(r.target, r.status) for r in rs], [('.checkpatch.conf', 'FAIL')])
        self.assertIn('no --strict line', rs[0].detail)
        self.assertIn('line 1 (--ignore LONG_LINE): no comment above it', rs[0].detail)


class KernelDocTest(unittest.TestCase):
    def test_verdicts(self):
        self.assertEqual(lint.kerneldoc_verdict(0, ''), (True, 'no warnings'))
        ok, detail = lint.kerneldoc_verdict(
            1, "x.h:12: warning: Function parameter or member 'p' not described in 'f'\n"
               "1 warnings as Errors\n")
        self.assertFalse(ok)
        self.assertIn("1 warnings; first: x.h:12: warning: Function parameter", detail)
        self.assertFalse(lint.kerneldoc_verdict(0, 'x.h:3: warning: bad line\n')[0])
        self.assertFalse(lint.kerneldoc_verdict(2, 'Can\'t open x.h\n')[0])


PATCH = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Subject: [PATCH 1/1] lib: a thing

Message line.
---
 lib/x.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/lib/x.c b/lib/x.c
--- a/lib/x.c
+++ b/lib/x.c
@@ -1,3 +1,3 @@ static int teh_func(void)
 context line
-removed line
+added line
--
2.39.5
"""


class CodespellTest(unittest.TestCase):
    def test_counted_lines(self):
        counted = lint.counted_patch_lines(PATCH)
        lines = PATCH.splitlines()
        self.assertIn(lines.index('Message line.') + 1, counted)
        self.assertIn(lines.index(' lib/x.c | 2 +-') + 1, counted)
        self.assertIn(lines.index('+added line') + 1, counted)
        for text in (' context line', '-removed line', '+++ b/lib/x.c', '--- a/lib/x.c',
                     '@@ -1,3 +1,3 @@ static int teh_func(void)'):
            self.assertNotIn(lines.index(text) + 1, counted, text)

    def test_verdicts(self):
        self.assertEqual(lint.codespell_verdict(0, '', PATCH), (True, 'no typos'))
        msg = PATCH.splitlines().index('Message line.') + 1
        ok, detail = lint.codespell_verdict(65, f'p.patch:{msg}: recieve ==> receive\n', PATCH)
        self.assertEqual((ok, detail), (False, f'1 typos; first: line {msg}: recieve ==> receive'))
        ctx = PATCH.splitlines().index(' context line') + 1
        ok, detail = lint.codespell_verdict(65, f'p.patch:{ctx}: teh ==> the\n', PATCH)
        self.assertTrue(ok)
        self.assertIn('1 on unchanged context lines, not counted', detail)

    def test_tool_trouble_fails(self):
        self.assertFalse(lint.codespell_verdict(2, 'usage: codespell\n', PATCH)[0])
        self.assertFalse(lint.codespell_verdict(65, 'garbage\n', PATCH)[0])


class ShellTest(unittest.TestCase):
    def test_is_shell_script(self):
        self.assertTrue(lint.is_shell_script('run', '#!/usr/bin/env bash\nset -e\n'))
        self.assertTrue(lint.is_shell_script('x', '#!/bin/sh\n'))
        self.assertTrue(lint.is_shell_script('lib.sh', '# SPDX\n'))
        self.assertTrue(lint.is_shell_script('conf', '# SPDX\n# shellcheck shell=bash\n'))
        self.assertFalse(lint.is_shell_script('x.py', '#!/usr/bin/env python3\n'))
        self.assertFalse(lint.is_shell_script('x.c', '// SPDX\n'))
        self.assertFalse(lint.is_shell_script('empty', ''))

    def test_verdicts(self):
        self.assertEqual(lint.shellcheck_verdict(0, ''), (True, 'clean'))
        ok, detail = lint.shellcheck_verdict(
            1, 'x.sh:3:6: note: Double quote to prevent globbing and word splitting. [SC2086]\n')
        self.assertFalse(ok)
        self.assertIn('1 findings; first: x.sh:3:6: note: Double quote', detail)
        self.assertFalse(lint.shellcheck_verdict(2, 'x.sh: does not exist\n')[0])


class PyflakesTest(unittest.TestCase):
    def test_verdicts(self):
        self.assertEqual(lint.pyflakes_verdict(0, ''), (True, 'clean'))
        ok, detail = lint.pyflakes_verdict(1, "b.py:3:5: undefined name 'cc'\n")
        self.assertFalse(ok)
        self.assertIn("1 finding(s), first: b.py:3:5: undefined name 'cc'", detail)
        self.assertFalse(lint.pyflakes_verdict(2, 'no such file\n')[0])
        self.assertFalse(lint.pyflakes_verdict(0, 'unexpected output\n')[0])

    @unittest.skipUnless(lint.have('pyflakes3'), 'pyflakes3 not installed')
    def test_real_pyflakes_fails_on_an_undefined_name(self):
        # The bug this gate was added for: a name left behind by a refactor.
        with tempfile.TemporaryDirectory() as d:
            Path(d, 'ok.py').write_text('import os\nprint(os.sep)\n')
            rc, out = lint.run(['pyflakes3', d])
            self.assertEqual(lint.pyflakes_verdict(rc, out), (True, 'clean'))
            Path(d, 'bad.py').write_text('def f(a):\n    return cc.split()\n')
            rc, out = lint.run(['pyflakes3', d])
            ok, detail = lint.pyflakes_verdict(rc, out)
            self.assertFalse(ok)
            self.assertIn("undefined name 'cc'", detail)


KBUILD = """make[1]: Entering directory '/b'
  GEN     Makefile
  CHECK   /src/scripts/mod/empty.c
/src/scripts/mod/empty.c:1:1: warning: not ours
  CC      kernel/bounds.s
/src/kernel/bounds.c:2:2: warning: not ours either
  CC      lib/x.o
In file included from /src/lib/x.c:3:
/src/include/linux/y.h:7:5: warning: unused variable 'a' [-Wunused-variable]
    7 |   int a;
      |       ^
/src/lib/x.c:9:1: warning: no previous prototype for 'f' [-Wmissing-prototypes]
  CHECK   /src/lib/x.c
/src/lib/x.c:9:5: warning: symbol 'f' was not declared. Should it be static?
/src/lib/x.c:20:9: error: too long token expansion
make[1]: Leaving directory '/b'
"""


class KbuildOutputTest(unittest.TestCase):
    def test_sections(self):
        secs = lint.sections(KBUILD)
        self.assertEqual([(c, t) for c, t, _ in secs],
                         [('', ''), ('GEN', 'Makefile'), ('CHECK', '/src/scripts/mod/empty.c'),
                          ('CC', 'kernel/bounds.s'), ('CC', 'lib/x.o'), ('CHECK', '/src/lib/x.c')])
        self.assertEqual(lint.sections('  CC [M]  lib/m.o\nw\n')[1][:2], ('CC', 'lib/m.o'))

    def test_target_diagnostics(self):
        sparse = lint.target_diagnostics(KBUILD, 'CHECK', 'lib/x.c')
        self.assertEqual(sparse, ["/src/lib/x.c:9:5: warning: symbol 'f' was not declared. "
                                  "Should it be static?",
                                  '/src/lib/x.c:20:9: error: too long token expansion'])
        gcc = lint.target_diagnostics(KBUILD, 'CC', 'lib/x.o')
        self.assertEqual(len(gcc), 2)
        self.assertIn('y.h:7:5: warning: unused variable', gcc[0])
        self.assertIsNone(lint.target_diagnostics(KBUILD, 'CHECK', 'lib/z.c'))
        self.assertEqual(lint.target_diagnostics('  CC      lib/x.o\n', 'CC', 'lib/x.o'), [])

    def test_strip_tree(self):
        self.assertEqual(lint.strip_tree('/src/lib/x.c:1:2: warning: w', ['/src']),
                         'lib/x.c:1:2: warning: w')
        self.assertEqual(lint.strip_tree('./include/g.h:1: warning: w', ['/src']),
                         'include/g.h:1: warning: w')

    def test_first_error(self):
        self.assertEqual(lint.first_error('  CC x.o\nx.c:1:2: error: boom\nmake: *** Error 2\n'),
                         'x.c:1:2: error: boom')
        self.assertEqual(lint.first_error('make[2]: *** [x] Error 1\n'), 'make[2]: *** [x] Error 1')


class CompareTest(unittest.TestCase):
    base = ['lib/x.c:10:1: warning: old one', 'lib/x.c:30:1: warning: twice']

    def test_moved_warnings_are_not_new(self):
        patched = ['lib/x.c:12:1: warning: old one', 'lib/x.c:33:1: warning: twice']
        self.assertEqual(lint.new_diagnostics(patched, self.base), [])
        self.assertEqual(lint.compare_verdict(patched, self.base),
                         (True, '2 warnings (base 2), 0 new'))

    def test_extra_copy_and_new_message_are_new(self):
        patched = self.base + ['lib/x.c:31:1: warning: twice', 'lib/x.c:5:1: warning: fresh']
        self.assertEqual(lint.new_diagnostics(patched, self.base),
                         ['lib/x.c:31:1: warning: twice', 'lib/x.c:5:1: warning: fresh'])
        ok, detail = lint.compare_verdict(patched, self.base)
        self.assertFalse(ok)
        self.assertEqual(detail, '4 warnings (base 2), 2 new; first: lib/x.c:31:1: warning: twice')

    def test_fixed_warning_does_not_hide_a_new_one(self):
        self.assertFalse(lint.compare_verdict(['lib/x.c:1:1: warning: fresh', self.base[1]],
                                              self.base)[0])

    def test_new_file(self):
        self.assertEqual(lint.compare_verdict([], None), (True, '0 warnings (new file), 0 new'))
        self.assertFalse(lint.compare_verdict(['lib/n.c:1:1: warning: w'], None)[0])


class DecideTest(unittest.TestCase):
    def test_arch_skip(self):
        self.assertIsNone(lint.arch_skip('lib/x.c', 'x86'))
        self.assertIsNone(lint.arch_skip('arch/x86/kernel/y.c', 'x86'))
        self.assertEqual(lint.arch_skip('arch/arm64/kernel/y.c', 'x86'),
                         'arch/arm64 file, not built for x86')

    def test_series_mismatch(self):
        names = ['0001-a.patch', '0002-b.patch']
        same = {'0001-a.patch': b'a', '0002-b.patch': b'b'}
        self.assertEqual(lint.series_mismatch(same, dict(same), names), [])
        self.assertEqual(lint.series_mismatch(same, {'0001-a.patch': b'a', '0002-b.patch': b'B'},
                                              names), ['0002-b.patch'])
        self.assertEqual(lint.series_mismatch({'0001-a.patch': b'a'}, same, names),
                         ['0002-b.patch'])

    def test_parse_args(self):
        self.assertEqual(lint.parse_args([]), (True, lint.GATES))
        self.assertEqual(lint.parse_args(['bisect', '--no-cache', 'checkpatch']),
                         (False, ['checkpatch', 'bisect']))
        with self.assertRaises(SystemExit):
            lint.parse_args(['--fast'])

    def test_table_and_tally(self):
        rs = [lint.Result('checkpatch', 'a.patch', 'PASS', '0 errors', 1.25),
              lint.Result('sparse', 'lib/x.c', 'FAIL', '1 new', 3.0),
              lint.Result('sparse', 'arch/arm64/y.c', 'SKIPPED', 'not built', 0.0)]
        out = lint.table(rs).splitlines()
        self.assertEqual(out[0].split(), ['gate', 'target', 'status', 'time', 'detail'])
        self.assertEqual(out[2].split(), ['checkpatch', 'a.patch', 'PASS', '1.2s', '0', 'errors'])
        self.assertEqual(len(out), 5)
        counts = lint.tally(rs)
        self.assertEqual(counts, {'passed': 1, 'failed': 1, 'skipped': 1})
        self.assertEqual(lint.tally_line(counts), 'lint: 1 passed, 1 failed, 1 skipped')
        self.assertEqual(lint.tally_line({'passed': 3, 'failed': 0, 'skipped': 0}),
                         'lint: 3 passed, 0 failed')


class StampTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = Path(self.tmp.name)
        self.ctx = lint.Ctx(root=t, src=t, tip='t', base='b', work=t, build=t,
                            results=t / 'results', stamps=t / 'stamps', salt='s')

    def tearDown(self):
        self.tmp.cleanup()

    def run_check(self, fn, key='k'):
        with contextlib.redirect_stdout(io.StringIO()):
            return lint.check(self.ctx, 'sparse', 'lib/x.c', key, fn)

    def test_pass_is_cached_fail_is_not(self):
        calls = []

        def passing():
            calls.append(1)
            return True, '0 new', 'log'
        self.assertEqual(self.run_check(passing).status, 'PASS')
        again = self.run_check(passing)
        self.assertEqual((again.status, again.detail, len(calls)), ('PASS', 'cached: 0 new', 1))
        self.assertEqual(self.run_check(passing, key='other').detail, '0 new')  # inputs changed
        self.assertTrue((self.ctx.results / 'lint' / 'sparse--lib_x.c.log').exists())

        def failing():
            raise lint.GateError('does not compile')
        r = self.run_check(failing, key='k2')
        self.assertEqual((r.status, r.detail), ('FAIL', 'does not compile'))
        self.assertEqual(self.run_check(lambda: (None, 'no sparse', ''), key='k2').status,
                         'SKIPPED')

    def test_skip_is_kept_only_when_asked(self):
        calls = []

        def skipping():
            calls.append(1)
            return None, 'not built: same .config', 'log'
        with contextlib.redirect_stdout(io.StringIO()):
            first = lint.check(self.ctx, 'bisect', '0001', 'k', skipping, keep_skip=True)
            again = lint.check(self.ctx, 'bisect', '0001', 'k', skipping, keep_skip=True)
        self.assertEqual((first.status, again.status, again.detail, len(calls)),
                         ('SKIPPED', 'SKIPPED', 'cached: not built: same .config', 1))
        self.run_check(skipping, key='k3')
        self.run_check(skipping, key='k3')
        self.assertEqual(len(calls), 3)  # 'sparse not installed' is asked again

    def test_old_stamp_without_status_is_a_pass(self):
        stamp = self.ctx.stamps / 'lint' / 'sparse--lib_x.c.json'
        stamp.parent.mkdir(parents=True)
        stamp.write_text('{"key": "k", "detail": "0 new"}\n')
        self.assertEqual(self.run_check(lambda: (False, 'ran', '')).status, 'PASS')

    def test_no_cache(self):
        self.run_check(lambda: (True, 'ok', ''))
        self.ctx.use_cache = False
        self.assertEqual(self.run_check(lambda: (False, 'bad', '')).status, 'FAIL')
        self.ctx.use_cache = True
        self.assertEqual(self.run_check(lambda: (False, 'bad', '')).status, 'FAIL')

    def test_key_depends_on_salt_and_parts(self):
        k = self.ctx.key('a', b'b')
        self.assertNotEqual(k, self.ctx.key('a', b'c'))
        self.ctx.salt = 'other'
        self.assertNotEqual(k, self.ctx.key('a', b'b'))


if __name__ == '__main__':
    unittest.main()


class CompilationUnitTest(unittest.TestCase):
    def test_included_file_maps_to_its_includer(self):
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as d:
            k = Path(d, 'kernel/sched')
            k.mkdir(parents=True)
            (k / 'Makefile').write_text('obj-y += core.o\nobj-y += build_utility.o\n')
            (k / 'core.c').write_text('int x;\n')
            (k / 'build_utility.c').write_text('#include "completion.c"\n#ifdef X\n# include "schedutil.c"\n#endif\n')
            (k / 'completion.c').write_text('int c;\n')
            (k / 'schedutil.c').write_text('int s;\n')
            (k / 'lonely.c').write_text('int l;\n')
            unit = lambda f: lint.compilation_unit(Path(d), f)  # noqa: E731
            self.assertEqual(unit('kernel/sched/core.c'), 'kernel/sched/core.c')
            self.assertEqual(unit('kernel/sched/completion.c'), 'kernel/sched/build_utility.c')
            self.assertEqual(unit('kernel/sched/schedutil.c'), 'kernel/sched/build_utility.c')
            self.assertEqual(unit('kernel/sched/lonely.c'), 'kernel/sched/lonely.c')


class KconfigInputsTest(unittest.TestCase):
    def test_which_paths_count(self):
        hit = lint.KCONFIG_INPUT_RE.search
        for path in ('Kconfig', 'lib/Kconfig.debug', 'arch/x86/configs/tiny.config',
                     'kernel/configs/tiny.config', 'scripts/kconfig/conf.c',
                     'scripts/cc-version.sh', 'Makefile', 'arch/x86/Makefile'):
            self.assertTrue(hit(path), path)
        for path in ('lib/Makefile', 'lib/atomic_from_ptr_kunit.c', 'include/linux/atomic.h',
                     'Documentation/core-api/index.rst', 'fs/Kconfig_notes.c/x.c'):
            self.assertFalse(hit(path), path)

    def test_digest_changes_only_with_a_kconfig_input(self):
        import subprocess
        import types
        with tempfile.TemporaryDirectory() as d:
            git = ['git', '-C', d, '-c', 'user.name=t', '-c', 'user.email=t@t']

            def commit(path: str, text: str) -> str:
                Path(d, path).parent.mkdir(parents=True, exist_ok=True)
                Path(d, path).write_text(text)
                subprocess.run(git + ['add', '-A'], check=True)
                subprocess.run(git + ['commit', '-q', '-m', path], check=True)
                return subprocess.run(git + ['rev-parse', 'HEAD'], check=True,
                                      capture_output=True, text=True).stdout.strip()

            subprocess.run(['git', 'init', '-q', d], check=True)
            ctx = types.SimpleNamespace(src=Path(d))
            lint._KCONFIG_INPUTS.clear()
            c1 = commit('lib/Kconfig.debug', 'config A\n')
            c2 = commit('lib/a.c', 'int a;\n')
            c3 = commit('lib/Kconfig.debug', 'config A\nconfig B\n')
            digests = [lint.kconfig_inputs(ctx, c) for c in (c1, c2, c3)]
            self.assertEqual(digests[0], digests[1])
            self.assertNotEqual(digests[1], digests[2])
            lint._KCONFIG_INPUTS.clear()
            with self.assertRaises(lint.GateError):
                lint.kconfig_inputs(ctx, '0' * 40)


class BisectRuleTest(unittest.TestCase):
    def test_other_arches_and_kconfig_only(self):
        self.assertEqual(lint.config_only_changes(
            ['arch/Kconfig', 'arch/alpha/Kconfig', 'arch/alpha/include/asm/rwonce.h',
             'arch/arm64/Kconfig', 'arch/arm64/include/asm/rwonce.h'], 'x86'),
            'arch/alpha, arch/arm64, arch/Kconfig, arch/alpha/Kconfig, arch/arm64/Kconfig')
        self.assertEqual(lint.config_only_changes(['lib/Kconfig.debug'], 'x86'), 'lib/Kconfig.debug')

    def test_a_compiled_file_means_build(self):
        self.assertIsNone(lint.config_only_changes(
            ['arch/arm64/include/asm/rwonce.h'], 'arm64'))
        self.assertIsNone(lint.config_only_changes(
            ['arch/arm64/Kconfig', 'include/linux/atomic.h'], 'x86'))
        self.assertIsNone(lint.config_only_changes(['Documentation/x.rst'], 'x86'))
        self.assertIsNone(lint.config_only_changes([], 'x86'))
