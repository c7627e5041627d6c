// SPDX-License-Identifier: GPL-2.0
/*
 * A store followed by a read-modify-write of the same field of the same
 * object (kernel/sched/fair.c post_init_entity_util_avg()): the first value
 * is an intermediate one; nothing in the update is converted, all of it is
 * reported as multi-step. The same field of another object is converted.
 */
struct avg {
	unsigned long util;
};

unsigned long avg_util(struct avg *a)
{
	return READ_ONCE(a->util);
}

void avg_init(struct avg *sa, struct avg *other, unsigned long w, unsigned long cap)
{
	sa->util = w * 3;
	sa->util /= (w + 1);
	if (sa->util > cap)
		sa->util = cap;
	other->util = cap;
}
