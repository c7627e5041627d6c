# SPDX-License-Identifier: GPL-2.0
"""The shared layer under the tools in tools/pylib.

Guarantees: its modules import nothing from the tool modules beside it, so
any tool may import them; each module owns one idea (kbuild: configuring
and preparing a build dir the kernel's own way; codegen: the accepted-type
x accessor table, its generated module source and its disassembly).
Does not: run anything at import time or read the environment.
"""
