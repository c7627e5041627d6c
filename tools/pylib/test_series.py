# SPDX-License-Identifier: GPL-2.0
"""Tests for series.py and kunit_counts.py on small fixtures."""

import json
import tempfile
import unittest
from pathlib import Path

from afp import results as kunit_counts
import kunit_counts as kunit_counts_cli
from afp import series

COVER = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A U Thor <a@example.org>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH 0/2] Lockless accessors that say what they
 guarantee

First paragraph
of the body.

Second paragraph.

A U Thor (2):
  one
  two

 a | 1 +
 1 file changed, 1 insertion(+)


base-commit: dd8064587f92fd8a02549b1ee3eb009b7a1d1877
"""


class SeriesTest(unittest.TestCase):
    def test_cover_description_unfolds_subject_and_stops_at_shortlog(self):
        self.assertEqual(series.cover_description(COVER),
                         'Lockless accessors that say what they guarantee\n\n'
                         'First paragraph\nof the body.\n\nSecond paragraph.')

    def test_rewrite_keeps_header_and_annotations(self):
        old = '# header\n\n# group A\n0001-a.patch\n# group B\n0002-b.patch\n'
        self.assertEqual(series.rewrite_series(old, ['0001-a.patch', '0002-b.patch']), old)

    def test_rewrite_drops_gone_patch_and_appends_new(self):
        old = '# header\n\n# group A\n0001-a.patch\n# group B\n0002-b.patch\n'
        self.assertEqual(series.rewrite_series(old, ['0001-a.patch', '0002-c.patch']),
                         '# header\n\n# group A\n0001-a.patch\n0002-c.patch\n')

    def test_rewrite_of_header_only_file(self):
        self.assertEqual(series.rewrite_series('# header\n', ['0001-a.patch']),
                         '# header\n0001-a.patch\n')

    def test_list_and_fingerprint_follow_content(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            (d / 'series').write_text('# c\n0001-a.patch\n')
            (d / '0001-a.patch').write_text('one\n')
            self.assertEqual(series.read_series(d), ['0001-a.patch'])
            before = series.fingerprint(d)
            (d / '0001-a.patch').write_text('two\n')
            self.assertNotEqual(before, series.fingerprint(d))


class KunitCountsTest(unittest.TestCase):
    def count(self, group):
        with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
            json.dump(group, f)
            f.flush()
            return kunit_counts.load(f.name)

    def test_nested_groups_and_statuses(self):
        c = self.count({'name': 'KUnit Test Group', 'test_cases': [], 'sub_groups': [
            {'name': 'suite', 'sub_groups': [], 'test_cases': [
                {'name': 'a', 'status': 'PASS'}, {'name': 'b', 'status': 'SKIP'},
                {'name': 'c', 'status': 'FAIL'}, {'name': 'd', 'status': 'ERROR'}]}]})
        self.assertEqual((c.passed, c.skipped, c.failed), (1, 1, 2))
        self.assertEqual(c.failures, ['suite.c: FAIL', 'suite.d: ERROR'])

    def test_script_fails_on_empty_and_missing_results(self):
        with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
            json.dump({'name': 'KUnit Test Group', 'test_cases': [], 'sub_groups': []}, f)
            f.flush()
            self.assertEqual(kunit_counts_cli.main(['x', f.name]), 1)
        self.assertEqual(kunit_counts_cli.main(['x', '/nonexistent.json']), 1)


if __name__ == '__main__':
    unittest.main()
