// SPDX-License-Identifier: GPL-2.0
/* A bit-field has no address: never converted (skip-store:bitfield). */
struct flags {
	unsigned int dirty : 1;
	unsigned int other : 7;
};

int flags_dirty(struct flags *f)
{
	return READ_ONCE(f->dirty);
}

void flags_mark(struct flags *f)
{
	f->dirty = 1;
}
