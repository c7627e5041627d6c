# SPDX-License-Identifier: GPL-2.0
"""The shared layer under the tools in tools/pylib.

Guarantees: its modules import nothing from the tool modules beside it, so
any tool may import them (tools/pylib/test_layers.py checks both ways); each
module owns one idea: env (the variables the verbs set), arch (an arch of
kunit/arch/), kbuild (configuring and preparing a build dir the kernel's own
way), git (the one git helper), results (counts and tables), series
(patches/ and git format-patch), generated (the command a generated commit
records), spatch (starting spatch), stamp (the one stamp convention), member_kind
(which member types may take a marked store), codegen (the accepted-type x accessor
table, its module source and disassembly).
Does not: run anything at import time.
"""
