// SPDX-License-Identifier: GPL-2.0
/*
 * Read-modify-write under a lock the function holds is converted, the load
 * left plain: x->f = x->f op v (as fs/fcntl.c setfl() and the completion
 * counters). Without a lock, or after it is released, it is reported.
 */
struct ctr {
	unsigned int done;
	unsigned int flags;
	spinlock_t lock;
};

bool ctr_done(struct ctr *x)
{
	return READ_ONCE(x->done) && READ_ONCE(x->flags);
}

void ctr_complete(struct ctr *x, unsigned int set, unsigned int clear)
{
	unsigned long irqflags;

	raw_spin_lock_irqsave(&x->lock, irqflags);
	if (x->done != UINT_MAX)
		x->done++;
	x->flags |= set;
	x->flags &= ~clear;
	x->flags ^= set | clear;
	x->flags = (set & 3) | (x->flags & ~3);
	raw_spin_unlock_irqrestore(&x->lock, irqflags);
	x->done--;
}

int ctr_try(struct ctr *x)
{
	spin_lock(&x->lock);
	if (!x->flags) {
		spin_unlock(&x->lock);
		return 0;
	}
	--x->done;
	spin_unlock(&x->lock);
	return 1;
}

void ctr_held(struct ctr *x)
{
	lockdep_assert_held(&x->lock);
	x->done += 2;
}
