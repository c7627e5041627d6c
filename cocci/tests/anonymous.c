// SPDX-License-Identifier: GPL-2.0
/*
 * Members of an anonymous union or struct one level down are members of
 * the outer struct (block/fops.c: struct blkdev_dio's waiter). One in a
 * packed anonymous aggregate may be under-aligned: never converted.
 */
struct dio {
	union {
		struct kiocb *iocb;
		struct task_struct *waiter;
	};
	struct {
		u8 type;
		u32 len;
	} __packed;
	int size;
};

struct task_struct *dio_waiter(struct dio *d)
{
	return READ_ONCE(d->waiter) ? READ_ONCE(d->waiter) : (void *)(long)READ_ONCE(d->len);
}

void dio_complete(struct dio *d, u32 n)
{
	d->waiter = NULL;
	d->len = n;
	d->size = n;
}
