/* SPDX-License-Identifier: Apache-2.0 */
/* NodePorts: a host port the pods already on the node hold. */
#include "drain/fit.h"

bool drain_fit_ports(const struct drain_cluster *c, uint32_t p, uint32_t n,
		     struct drain_reasons *r)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t q;
	size_t i, j;

	if (!pod->needs.ports.n)
		return true;
	for (q = c->nodes[n].first_pod; q != DRAIN_NONE; q = c->pods[q].next) {
		const struct drain_pod *other = &c->pods[q];

		if (kvet_pod_phase_terminal(other->phase))
			continue;
		for (i = 0; i < pod->needs.ports.n; i++)
			for (j = 0; j < other->needs.ports.n; j++)
				if (kvet_host_ports_conflict(&pod->needs.ports.v[i],
							     &other->needs.ports.v[j])) {
					drain_reason(r, "node(s) didn't have free ports for the requested pod ports");
					return false;
				}
	}
	return true;
}
