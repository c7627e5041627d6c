// SPDX-License-Identifier: GPL-2.0
/* e.f forms, and readers via smp_load_acquire()/atomic_load_*_from_ptr(). */
struct slot {
	void *owner;
	bool busy;
	unsigned int gen;
};

static struct slot the_slot;

bool slot_read(void)
{
	return smp_load_acquire(&the_slot.owner) != NULL &&
	       atomic_load_relaxed_from_ptr(&the_slot.busy) &&
	       atomic_load_acquire_from_ptr(&the_slot.gen);
}

void slot_write(struct slot s, void *me)
{
	the_slot.owner = me;
	the_slot.busy = true;
	s.gen = 3;
}
