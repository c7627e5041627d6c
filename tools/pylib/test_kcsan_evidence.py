# SPDX-License-Identifier: GPL-2.0
"""kcsan_evidence.py's readers of tools/convert's sites.tsv and of
stress-ng's --metrics-brief lines, each with a line that must not match.
Does not: build or boot (make kcsan-evidence does)."""

import contextlib
import io
import tempfile
import unittest
import unittest.mock
from pathlib import Path

import kcsan_evidence as ke
from afp import kcsan_report as kr


class Verdicts(unittest.TestCase):
    def conv(self, rows):
        d = tempfile.mkdtemp()
        Path(d, 'sites.tsv').write_text('#kind\tstruct\tfield\tfile:line\twhy\n' + ''.join(
            '\t'.join(r) + '\n' for r in rows))
        Path(d, 'fields.tsv').write_text('#definition\tstruct\tfield\tverdict\treaders\nx.h:1\tfile\tf_mode\tok\ta.c:1\n')
        return ke.Conversion(Path(d))

    def test_kinds(self):
        c = self.conv([['store', 'file', 'f_flags', 'fs/fcntl.c:74', 'filp->f_lock (spin_lock())'],
                       ['left:init', 'rq', 'clock', 'k/c.c:9', ''],
                       ['rmw', 'rq', 'nr', 'k/c.c:20', ''],
                       ['skip-store:unrelated', 'hrtimer_clock_base', 'running', 'k/h.c:5', '']])
        self.assertEqual(c.verdict('fs/fcntl.c:74', ['f_flags'])[0], 'converted')
        self.assertIn('filp->f_lock', c.verdict('fs/fcntl.c:74', [])[1])
        # a statement that goes on for two more lines
        self.assertEqual(c.verdict('fs/fcntl.c:76', [])[0], 'converted')
        self.assertEqual(c.verdict('fs/fcntl.c:77', [])[0], 'not found')
        self.assertEqual(c.verdict('k/c.c:9', []), ('left plain', 'rq.clock: init'))
        self.assertEqual(c.verdict('k/c.c:20', [])[0], 'reported')
        self.assertIn('no marked read', c.verdict('k/h.c:5', [])[1])
        self.assertIn('store not matched', c.verdict('z.c:1', ['f_mode'])[1])
        self.assertIn('no lockless reader', c.verdict('z.c:1', ['g'])[1])
        self.assertEqual(c.verdict('include/linux/list.h:75', ['prev'])[0], 'not in scope')
        self.assertEqual(c.converted(), ['fs/fcntl.c:74'])


class Metrics(unittest.TestCase):
    def test_bogo_ops(self):
        with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
            f.write('stress-ng: metrc: [34] stressor       bogo ops real time  usr time\n'
                    'stress-ng: metrc: [34] fcntl               389     30.80      0.06\n'
                    'stress-ng: metrc: [45] hrtimers            2306.28 hrtimer signals per sec\n'
                    'stress-ng: metrc: [51] sock                 10     30.00      0.06\n'
                    'stress-ng: metrc: [52] sock                 12     30.00      0.06\n')
            f.flush()
            self.assertEqual(ke.bogo_ops(Path(f.name)),
                             {'fcntl': (389, 30.8), 'sock': (10, 30.0), 'sock #2': (12, 30.0)})

    def test_slug(self):
        self.assertEqual(ke.slug(''), 'default')
        self.assertEqual(ke.slug(' kcsan.skip_watch=1000 kcsan.udelay_task=400'),
                         'kcsan.skip_watch=1000_kcsan.udelay_task=400')

    def test_kcsan_args(self):
        # make exports KCSAN_ARGS empty when unset: that is the default;
        # "none" is no parameters, the config's own defaults.
        with unittest.mock.patch.dict(ke.os.environ, {'KCSAN_ARGS': ''}):
            self.assertEqual(ke.parse_args([]).kcsan_args, ke.DEFAULT_KCSAN_ARGS)
        with unittest.mock.patch.dict(ke.os.environ, {'KCSAN_ARGS': 'kcsan.skip_watch=9'}):
            self.assertEqual(ke.parse_args([]).kcsan_args, 'kcsan.skip_watch=9')
        self.assertEqual(ke.parse_args(['--kcsan-args', 'none']).kcsan_args, '')


def access(type_, where):
    a = kr.Access(type_, 4, ['f+0x1/0x2'])
    a.where = where
    return a


def race(store, read, read_type='read (marked)'):
    return kr.Report('data-race', 't', [access('write', store), access(read_type, read)])


class Crossing(unittest.TestCase):
    """Conversion.cross() and both_marked(): a plain read the plain-reader
    pass converts counts as marked; one it leaves is plain."""

    def test_plain_read(self):
        d = Path(tempfile.mkdtemp())
        Path(d, 'sites.tsv').write_text('store\ts\tf\ta.c:2\t\nplain-read\ts\tf\tr.c:5\t\n')
        c = ke.Conversion(d)
        both = race('a.c:2', 'r.c:5', 'read')
        self.assertEqual(c.cross(both, ['f']), ('converted', 's.f; its plain read converted too'))
        self.assertTrue(ke.both_marked(both, c))
        one = race('a.c:2', 'r.c:9', 'read')
        self.assertEqual(c.cross(one, ['f'])[1], 's.f; its plain read left plain')
        self.assertFalse(ke.both_marked(one, c))
        marked_store = kr.Report('data-race', 't', [access('write (marked)', 'w.c:1'), access('read', 'r.c:5')])
        self.assertEqual(c.cross(marked_store, [])[0], 'read marked')
        self.assertTrue(ke.both_marked(marked_store, c))
        self.assertFalse(ke.both_marked(race('b.c:1', 'r.c:5'), c))     # a store nobody converted


class Report(unittest.TestCase):
    """report(): each race before checked after the conversion; a converted
    store that still races as a plain store, or a race whose two sides were
    marked seen again, is a failure; a race with a plain side left is not."""

    def setUp(self):
        self.d = Path(tempfile.mkdtemp())
        (self.d / 'src').mkdir()
        (self.d / 'src' / 'a.c').write_text('x\n\tp->f = 1;\n\tp->g = 2;\n')
        Path(self.d, 'sites.tsv').write_text('store\ts\tf\tsrc/a.c:2\t\nstore\ts\tg\tsrc/a.c:3\t\n'
                                            'store\ts\th\tsrc/a.c:40\t\n')
        self.conv = ke.Conversion(self.d)
        self.console = self.d / 'c.log'
        self.console.write_text('')
        self.args = type('A', (), {'smp': 2, 'duration': 1, 'kcsan_args': ''})()
        self.before = ke.Races([race('src/a.c:2', 'r.c:1'), race('src/a.c:3', 'r.c:2'), race('src/a.c:3', 'r.c:2'),
                                race('src/a.c:2', 'r.c:7', 'read')], self.d)

    def run_report(self, after):
        shift = (lambda w: w.replace('a.c:2', 'a.c:12').replace('a.c:3', 'a.c:13'))
        with contextlib.redirect_stdout(io.StringIO()):
            return ke.report(self.args, 'c0ffee', self.before, after, [self.conv, self.conv], ['src'],
                             (self.console, self.console), shift, 1.0)

    def test_gone(self):
        md, failed = self.run_report(ke.Races([], self.d))
        self.assertEqual(failed, 0)
        text = '\n'.join(md)
        self.assertIn('distinct races: 3 (before the conversion)', text)
        self.assertIn('distinct races: 0 (after the conversion)', text)
        self.assertIn('| `src/a.c:2` write | `r.c:1` read (marked) | both sides | gone |', text)
        self.assertIn('| `src/a.c:2` write | `r.c:7` read | the store | not seen again |', text)
        self.assertIn('Races by verdict: marked-read pass: 3 converted; with the plain-reader pass: 3 converted.',
                      text)
        self.assertIn('- `src/a.c:40` s.h', text)       # converted, never seen racing

    def test_still_racing(self):
        md, failed = self.run_report(ke.Races([race('src/a.c:13', 'r.c:2')], self.d))
        self.assertEqual(failed, 1)
        self.assertIn('FAIL: the converted store still races as a plain store', '\n'.join(md))

    def test_plain_side_left(self):
        # The store was converted, its plain read was not: KCSAN may still
        # report the race, now as a marked store against a plain read.
        after = kr.Report('data-race', 't', [access('write (marked)', 'src/a.c:12'), access('read', 'r.c:7')])
        md, failed = self.run_report(ke.Races([after], self.d))
        self.assertEqual(failed, 0)
        self.assertIn('| `src/a.c:2` write | `r.c:7` read | the store | seen again |', '\n'.join(md))


class Console(unittest.TestCase):
    """Each way a boot's console cannot be used is named; a good one passes."""
    GOOD = f'[ 0.8] kcsan: selftest: 4/4 tests passed\n{ke.START}: x\n{ke.END}: 0\n'

    def problem(self, text):
        return ke.console_problem(text, 'before', Path('c.log'), 5, 60)

    def test_console(self):
        self.assertIsNone(self.problem(self.GOOD))
        self.assertIn('did not reach the workload', self.problem('[ 0.1] Kernel panic - not syncing\n'))
        self.assertIn('Kernel panic', self.problem('[ 0.1] Kernel panic - not syncing\n'))
        self.assertIn('no KCSAN boot message', self.problem(self.GOOD.replace('kcsan: selftest', 'x')))
        self.assertIn('did not end within 60 s', self.problem(self.GOOD.split(ke.END)[0]))


if __name__ == '__main__':
    unittest.main()
