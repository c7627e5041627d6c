# SPDX-License-Identifier: GPL-2.0
"""The layering of tools/pylib: no tool module imports another tool module,
and the shared package afp/ imports no tool module at all.

A tool module is a top-level tools/pylib/*.py that is not a test_*.py; its
command is a verb in tools/. Shared code belongs in afp/.
Does not: run any module; imports are read from the source (ast).
"""

import ast
import tempfile
import unittest
from pathlib import Path
from typing import Set

HERE = Path(__file__).resolve().parent
TOOLS = {p.stem for p in HERE.glob('*.py') if not p.name.startswith('test_')}


def imported(path: Path) -> Set[str]:
    """Top-level names of the modules PATH imports (relative imports skipped)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split('.')[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split('.')[0])
    return names


class Layers(unittest.TestCase):
    def test_no_tool_imports_another_tool(self):
        for tool in sorted(TOOLS):
            with self.subTest(tool=tool):
                others = (imported(HERE / f'{tool}.py') & TOOLS) - {tool}
                self.assertEqual(others, set(), f'{tool}.py imports tool modules {sorted(others)}; '
                                 'move what it needs into afp/')

    def test_afp_imports_no_tool(self):
        for path in sorted((HERE / 'afp').glob('*.py')):
            with self.subTest(module=path.name):
                self.assertEqual(imported(path) & TOOLS, set())

    def test_the_check_can_fail(self):
        with tempfile.TemporaryDirectory() as d:
            fake = Path(d, 'fake.py')
            fake.write_text('import lint\nfrom convert import x\nfrom .arch import Arch\nimport os\n')
            self.assertEqual(imported(fake) & TOOLS, {'lint', 'convert'})


if __name__ == '__main__':
    unittest.main()
