# SPDX-License-Identifier: GPL-2.0
"""Tests of bench.py's reading of the benchmark suite's lines."""

import unittest

import bench

LOG = '''[   1.0] KTAP version 1
[   1.2]     # accessor_vs_twin_bench: atomic_from_ptr_bench load_relaxed: accessor 8000000 ns, twin 7900000 ns for 4000000 accesses (best of 8), ratio 1.012 (sink 0)
[   1.3]     ok 1 load_relaxed
[   1.4]     # accessor_vs_twin_bench: atomic_from_ptr_bench store_release: accessor 9000000 ns, twin 9000000 ns for 4000000 accesses (best of 8), ratio 1.000 (sink 0)
[   1.5] atomic_from_ptr_bench store_relaxed: garbled line without figures
'''


class BenchLines(unittest.TestCase):
    def test_reads_each_figure_line(self):
        got = bench.bench_lines(LOG)
        self.assertEqual(got['load_relaxed'], (8000000, 7900000, 4000000, 8))
        self.assertEqual(got['store_release'], (9000000, 9000000, 4000000, 8))

    def test_line_without_figures_is_not_a_figure(self):
        self.assertNotIn('store_relaxed', bench.bench_lines(LOG))



class KunitSplit(unittest.TestCase):
    def test_last_elapsed_line_counts(self):
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as d:
            log = Path(d, 'kunit.log')
            log.write_text('[1] Elapsed time: 9.000s total, 1.000s configuring, 2.000s building, 6.000s running\n'
                           '[2] Elapsed time: 87.272s total, 2.200s configuring, 24.579s building, 60.444s running\n')
            build, run = bench.kunit_split(log)
            self.assertAlmostEqual(build, 26.779)
            self.assertAlmostEqual(run, 60.444)
            self.assertIsNone(bench.kunit_split(Path(d, 'missing.log')))

    def test_timed_counts_child_cpu(self):
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as d:
            rc, wall, cpu = bench.timed(['python3', '-c', 'sum(range(3000000))'], d, None, Path(d, 'x.log'))
        self.assertEqual(rc, 0)
        self.assertGreater(cpu, 0.0)
        self.assertGreaterEqual(wall, 0.0)


class SelectedTablesTest(unittest.TestCase):
    def test_empty_means_all(self):
        self.assertEqual(bench.selected_tables(''), [1, 2, 3, 4, 5, 6, 7])

    def test_some(self):
        self.assertEqual(bench.selected_tables('5 4 4'), [4, 5])

    def test_bad_number_names_the_fix(self):
        with self.assertRaisesRegex(SystemExit, 'use numbers 1 to 7'):
            bench.selected_tables('4 six')


if __name__ == '__main__':
    unittest.main()
