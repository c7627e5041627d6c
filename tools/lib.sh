# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables are for the verbs that source this
#
# tools/lib.sh - shell functions shared by the tools/ verbs; sourced, never run.
# Guarantees: every verb sees the same paths (ROOT, WORK, SRC, BUILD), the same
# pinned source facts (configs/source.conf) and the same message style.
# Does not: change anything on disk by itself.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SOURCE_CONF=${SOURCE_CONF:-$ROOT/configs/source.conf}
# shellcheck source=configs/source.conf
. "$SOURCE_CONF"
BASE=${BASE:-$BASE_DEFAULT}
case " $BASES " in
*" $BASE "*) ;;
*) printf 'error: BASE=%s is not a base of %s.\n  Pick one of: %s (default %s).\n' \
	"$BASE" "$SOURCE_CONF" "$BASES" "$BASE_DEFAULT" >&2
	exit 1 ;;
esac
export BASE

# Everything generated lives outside the checkout, under WORK; each base
# other than 6.1 has its own WORK_SUBDIR (configs/source.conf). WORK_TOP is
# exported so that a verb run by another verb does not nest the subdir twice.
WORK_TOP=${WORK_TOP:-${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/atomic-from-ptr}}
export WORK_TOP
WORK=$WORK_TOP${WORK_SUBDIR:+/$WORK_SUBDIR}
PATCHES=${PATCHES:-$ROOT/patches${PATCHES_SUBDIR:+/$PATCHES_SUBDIR}}
export PATCHES
SRC=$WORK/src/$SOURCE_TOPDIR
BUILD=$WORK/build
RESULTS=$WORK/results
STAMPS=$WORK/stamps
BRANCH=${BRANCH:-atomic-from-ptr}
BASE_TAG=atomic-from-ptr-base
# One ccache for every base: its keys are the preprocessed sources.
export CCACHE_DIR=${CCACHE_DIR:-$WORK_TOP/ccache}

info() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
	printf 'error: %s\n' "$1" >&2
	shift
	printf '%s\n' "$@" | sed 's/^/  /' >&2
	exit 1
}

case "$WORK/" in
"$ROOT"/*) die "WORK=$WORK is inside the checkout $ROOT." \
	"The kernel tree never enters the repo: set WORK to a directory outside it." ;;
esac

# Fixed identity for commits the tools make, so hashes are reproducible.
with_fixed_ident() {
	GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL \
	GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_NAME=$BASE_IDENT_NAME \
	GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL GIT_COMMITTER_DATE=$BASE_DATE \
		"$@"
}

# git in the work tree, immune to the user's global hooks and signing config.
kgit() {
	git -C "$SRC" -c core.hooksPath=/dev/null -c commit.gpgSign=false \
		-c user.useConfigOnly=false "$@"
}

# True when $SRC is a git tree this project made: its root commit is BASE_COMMIT.
is_our_tree() {
	[ -d "$SRC/.git" ] || return 1
	local root
	root=$(git -C "$SRC" rev-list --max-parents=0 HEAD 2>/dev/null | tail -n 1) || return 1
	[ -n "$BASE_COMMIT" ] && [ "$root" = "$BASE_COMMIT" ]
}

require_our_tree() {
	is_our_tree || die "$SRC is not a tree made by tools/prepare (root commit is not $BASE_COMMIT)." \
		"Run 'make prepare', or point WORK= at the work dir that holds the prepared tree."
}

# Refuse to touch a tree with uncommitted changes to tracked files.
require_clean_tree() {
	local dirty
	dirty=$(git -C "$SRC" status --porcelain --untracked-files=no)
	[ -z "$dirty" ] || die "$SRC has uncommitted changes; nothing was touched:" \
		"$(printf '%s\n' "$dirty" | head -n 5)" \
		"Commit them (and 'make export' if they belong in the series) or stash them, then rerun."
}

# The work tree must be ours and on the series branch (tools/apply done).
require_applied() {
	require_our_tree
	[ "$(kgit symbolic-ref -q --short HEAD || true)" = "$BRANCH" ] ||
		die "$SRC is not on branch $BRANCH." "Run 'make apply' first."
}

# Refuse an arch without a data file in kunit/arch/, naming the ones there.
require_arch() {
	[ -f "$ROOT/kunit/arch/$1" ] || die "unknown arch '$1'." \
		"Pick one of the files in $ROOT/kunit/arch/: $(cd "$ROOT/kunit/arch" && echo *)"
}

# One line for the Python tools (tools/pylib/afp/arch.py parses it): arch,
# make ARCH, CROSS_COMPILE, CC, MAKE_OPTIONS and CF_EXTRA_CONFIGS (space
# separated), from the arch's data file, read in a subshell so nothing leaks
# into the caller.
arch_spec() {
	require_arch "$1"
	# shellcheck disable=SC1090
	(. "$ROOT/kunit/arch/$1" &&
		printf '%s\t%s\t%s\t%s\t%s\t%s' "$1" "$MAKE_ARCH" "$CROSS_COMPILE" "$CC_CMD" \
			"${MAKE_OPTIONS[*]}" "${CF_EXTRA_CONFIGS[*]}")
}

# The arches CHECK uses by default (configs/arch-sets), one a line: for a
# verb's "no ARCH given" case, e.g. mapfile -t args < <(default_arches objects).
default_arches() {
	python3 "$ROOT/tools/pylib/afp/arch_sets.py" "$1" "${ARCHES:-default}"
}
