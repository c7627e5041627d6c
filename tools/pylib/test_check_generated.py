# SPDX-License-Identifier: GPL-2.0
"""Tests for check_generated.py's refusal table and verdict, and how it groups
the patches one command made (no spatch)."""

import unittest

import check_generated as cg


class RefusalTableTest(unittest.TestCase):
    def test_rows_and_comments(self):
        rows = cg.refusals('# schema\n\nskip-store:wide\t8\t--field a.b include/x.h kernel/time\n')
        self.assertEqual(rows, [('skip-store:wide', 8, ['--field', 'a.b', 'include/x.h', 'kernel/time'])])

    def test_bad_row_names_the_line(self):
        with self.assertRaisesRegex(ValueError, r'refused.tsv:2: want KIND'):
            cg.refusals('# c\nskip-store:wide eight --field a.b\n')

    def test_the_project_table_parses(self):
        self.assertTrue(cg.refusals(cg.REFUSED.read_text(), '6.1'))
        self.assertTrue(cg.refusals(cg.REFUSED.read_text(), '6.12'))
        self.assertEqual(cg.refusals('k\t6.1=10,6.12=11\t--field a.b\n', '6.12'), [('k', 11, ['--field', 'a.b'])])
        with self.assertRaises(ValueError):
            cg.refusals('k\t6.1=10\t--field a.b\n', '6.12')


class RefusalVerdictTest(unittest.TestCase):
    KINDS = ['skip-store:wide'] * 8 + ['rmw']

    def test_pass(self):
        self.assertEqual(cg.refusal_verdict('skip-store:wide', 8, {'stores_converted': 0}, self.KINDS), '')

    def test_a_converted_store_fails(self):
        self.assertIn('1 stores would be converted',
                      cg.refusal_verdict('skip-store:wide', 8, {'stores_converted': 1}, self.KINDS))

    def test_a_converted_read_modify_write_fails(self):
        self.assertIn('2 stores would be converted',
                      cg.refusal_verdict('skip-store:wide', 8, {'stores_converted': 0, 'rmw_converted': 2},
                                         self.KINDS))

    def test_a_changed_count_fails(self):
        self.assertIn('8 stores reported as skip-store:wide, the table says 7',
                      cg.refusal_verdict('skip-store:wide', 7, {'stores_converted': 0}, self.KINDS))


if __name__ == '__main__':
    unittest.main()


class FirstOfRunTest(unittest.TestCase):
    def test_one_command_several_commits(self):
        a, b = ['tools/convert', 'x', 'fs'], ['tools/convert', 'y', 'kernel/sched']
        todo = [(7, 'c7', a), (8, 'c8', a), (9, 'c9', b), (10, 'c10', a), (11, 'c11', a)]
        self.assertEqual(cg.first_of_run(todo), {'c7': 'c7', 'c8': 'c7', 'c9': 'c9', 'c10': 'c10', 'c11': 'c10'})

    def test_a_gap_starts_a_new_run(self):
        a = ['tools/convert', 'x']
        self.assertEqual(cg.first_of_run([(7, 'c7', a), (9, 'c9', a)]), {'c7': 'c7', 'c9': 'c9'})
