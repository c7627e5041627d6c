// SPDX-License-Identifier: GPL-2.0
/* The plain-reader pass (--plain-readers): one rule per function group. */
struct sk_like {
	int rcvbuf;
	int mark;
	long hint;
	spinlock_t lock;
};
struct mutex hint_mutex;

/* A writer under lock_sock() and a lockless plain reader: both marked. */
void set_rcvbuf(struct sk_like *sk, int v)
{
	lock_sock(sk);
	sk->rcvbuf = v;
	release_sock(sk);
}

int get_rcvbuf_fast(struct sk_like *sk)
{
	return sk->rcvbuf;
}

/* A reader under the writers' lock stays plain. */
int get_rcvbuf_locked(struct sk_like *sk)
{
	int v;

	lock_sock(sk);
	v = sk->rcvbuf;
	release_sock(sk);
	return v;
}

/* A caller-held lock: __set_mark()'s only caller holds sk->lock. */
static void __set_mark(struct sk_like *sk, int v)
{
	sk->mark = v;
}

void set_mark(struct sk_like *sk, int v)
{
	spin_lock_bh(&sk->lock);
	__set_mark(sk, v);
	spin_unlock_bh(&sk->lock);
}

int peek_mark(struct sk_like *sk)
{
	return sk->mark + 1;
}

/*
 * An ops-table function is assumed to hold nothing, whatever its callers
 * here hold: hint has a writer without a lock, so it is no candidate.
 */
static void hint_store(struct sk_like *sk, long v)
{
	sk->hint = v;
}

long hint_show(struct sk_like *sk)
{
	return sk->hint;
}

void hint_update(struct sk_like *sk, long v)
{
	mutex_lock(&hint_mutex);
	hint_store(sk, v);
	mutex_unlock(&hint_mutex);
}

struct hint_ops {
	void (*store)(struct sk_like *sk, long v);
} hint_ops = {
	.store = hint_store,
};
