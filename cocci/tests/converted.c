// SPDX-License-Identifier: GPL-2.0
/* Already marked stores stay as they are (rerunning changes nothing). */
struct done {
	int v;
};

int done_read(struct done *d)
{
	return atomic_load_relaxed_from_ptr(&d->v);
}

void done_write(struct done *d)
{
	atomic_store_relaxed_from_ptr(&d->v, 1);
	WRITE_ONCE(d->v, 2);
	smp_store_release(&d->v, 3);
}
