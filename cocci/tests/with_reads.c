// SPDX-License-Identifier: GPL-2.0
/*
 * --with-reads: the READ_ONCE() reads of a field whose write was converted
 * become atomic_load_relaxed_from_ptr(), so the field has one spelling;
 * reads of a field with no converted write, and smp_load_acquire(), stay.
 */
struct job {
	int state;
	int prio;
	int *owner;
};

int job_state(struct job *j)
{
	return READ_ONCE(j->state) + READ_ONCE(j->prio) + *smp_load_acquire(&j->owner);
}

void job_set(struct job *j, int s)
{
	j->state = s;
}

static int __init job_boot(struct job *j)
{
	j->prio = 1;
	return 0;
}
