// SPDX-License-Identifier: GPL-2.0
/*
 * Stores that cannot race stay plain, each with its reason (afp/races.py):
 * __init/__meminit/__ref, an object this function allocated and has not
 * passed on, a local struct whose address was not taken, a seqcount write
 * section, a function listed in cocci/unpublished.tsv. The store next to
 * each, which can race, is converted.
 */
struct req {
	int state;
	struct req *next;
	seqcount_t seq;
};

int req_state(struct req *r)
{
	return READ_ONCE(r->state);
}

static int __init req_setup(struct req *r)
{
	r->state = 1;
	return 0;
}

void __meminit req_mem(struct req *r)
{
	r->state = 2;
}

struct req *req_new(struct req **head)
{
	struct req *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->state = 3;
	r->next = *head;
	*head = r;
	r->state = 4;
	return r;
}

void req_local(struct req *shared)
{
	struct req tmp;

	tmp.state = 5;
	submit(&tmp);
	tmp.state = 6;
	shared->state = 7;
}

void req_seq(struct req *r)
{
	write_seqcount_begin(&r->seq);
	r->state = 8;
	write_seqcount_end(&r->seq);
	r->state = 9;
}

int sched_fork(unsigned long clone_flags, struct req *p)
{
	p->state = 10;
	return 0;
}
