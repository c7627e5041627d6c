// SPDX-License-Identifier: GPL-2.0
/*
 * The lockless reads of avg.load go through struct queue's member avg
 * only: a store through struct entity's avg (se->avg.load, or sa->load
 * with sa = &se->avg) writes an object those reads never see, and is not a
 * finding. avg.util is also read through a bare struct avg *, so every
 * store to it is converted; so is every store through a bare pointer
 * (sa->load in avg_update(): it may point into a queue). avg.runnable is
 * read through a struct this file defines (spatch types that read itself;
 * its member is kept from the 'member' line).
 */
struct local_queue {
	struct avg avg;
};

int queue_load(struct queue *q, struct local_queue *lq)
{
	return READ_ONCE(q->avg.load) + READ_ONCE(lq->avg.runnable);
}

int avg_util(struct avg *a)
{
	return READ_ONCE(a->util);
}

void entity_set(struct entity *se, int v)
{
	se->avg.load = v;
	se->avg.util = v;
	se->avg.runnable = v;
}

void entity_init(struct entity *se, int v)
{
	struct avg *sa = &se->avg;

	sa->load = v;
}

void queue_set(struct queue *q, struct local_queue *lq, int v)
{
	q->avg.load = v;
	lq->avg.runnable = v;
}

void avg_update(struct avg *sa, int v)
{
	sa->load = v;
}
