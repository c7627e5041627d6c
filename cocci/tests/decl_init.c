// SPDX-License-Identifier: GPL-2.0
/* Declarations and initializers are not stores to shared memory: untouched. */
struct cfg {
	int mode;
	int *ptr;
};

int cfg_mode(struct cfg *c)
{
	return READ_ONCE(c->mode) + *READ_ONCE(c->ptr);
}

void cfg_init(struct cfg *c)
{
	struct cfg local = { .mode = 1 };
	struct cfg other = { 2, NULL };
	int m = c->mode;

	use(&m);

	use(&local, &other);
}
