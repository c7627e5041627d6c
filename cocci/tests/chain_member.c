// SPDX-License-Identifier: GPL-2.0
/*
 * One member further: v->arch.mp_state and v->parms->link, where v is a
 * struct vcpu * but the types of members arch and parms are in
 * chain_member.h, which spatch does not read. tools/convert types them from
 * the definitions, and vcpu_state(v)->halted through the return type the
 * header gives vcpu_state(); a member of a packed struct, a wide field and a
 * read-modify-write through a chain are not converted.
 */
int vcpu_read(struct vcpu *v, struct packed_outer *o)
{
	return READ_ONCE(v->arch.mp_state) + READ_ONCE(v->parms->link) +
	       READ_ONCE(o->inner.halted) + (int)READ_ONCE(v->parms->wide);
}

void vcpu_set(struct vcpu *v, int s)
{
	v->arch.mp_state = s;
	v->parms->link = s + 1;
	v->parms->wide = 0;
}

void vcpu_halt(struct vcpu *v, struct packed_outer *o)
{
	v->arch.mp_state++;
	o->inner.halted = 1;
	vcpu_state(v)->halted = 1;
}

int vcpu_halted(struct run_state *rs)
{
	return READ_ONCE(rs->halted);
}
