// SPDX-License-Identifier: GPL-2.0
/*
 * Type unknown to spatch: an untyped read names only the field, and a store
 * through an expression of unknown type is reported, never converted.
 */
struct known {
	int level;
};

int known_level(struct known *k)
{
	return READ_ONCE(k->level) + READ_ONCE(get_thing()->depth);
}

void set_levels(struct known *k, struct thing *t)
{
	lookup(t)->level = 2;
	t->depth = 3;
	k->level = 1;
}
