#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pathological drain inputs (issue 22 item 3), written to standard output.

usage: gen_drain.py budget-chart REPLICAS
       gen_drain.py budget-dump NODES PODS
       gen_drain.py terms NODES PODS TERMS
       gen_drain.py distinct-terms NODES TERMS
       gen_drain.py webhook-chain N
       gen_drain.py webhook-ring N

budget-chart   a chart: one Deployment of REPLICAS under a budget of
               maxUnavailable 0 (lint it under --pool: every eviction is
               blocked, and each listed the budget's every pod)
budget-dump    a dump: NODES nodes, a ReplicaSet's PODS Ready pods spread
               over them, a budget of maxUnavailable 0 over them
terms          a dump: NODES nodes, PODS bare pods (no controller: nothing
               shared their terms), each with TERMS required anti-affinity
               terms that are aliases of one anchor (a few bytes each)
distinct-terms a dump: NODES nodes, one bare pod with TERMS required
               anti-affinity terms that all differ (more counts than the
               drain keeps, on 1,000 nodes: refused, saying so)
webhook-chain  a dump: two nodes, N fail-closed webhooks, webhook i
               intercepting the pods labelled chain=i and served by
               ReplicaSet i, whose pod (on the first node) is labelled
               chain=i+1: draining that node, the replacement of backend i
               is refused until backend i+1 is back, so the replacements
               come back one retry pass at a time, the last first
webhook-ring   the chain closed: the last backend's pod is labelled
               chain=0, so that every replacement must pass a webhook of
               the ring, none of which has a backend left: a deadlock of
               N webhooks, each reported once
"""
import sys

w = sys.stdout.write


def budget_chart(replicas):
    w(f"""apiVersion: apps/v1
kind: Deployment
metadata: {{name: web, namespace: shop}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: web
        image: registry.example.com/web:2.0
        resources: {{requests: {{cpu: 1m, memory: 1Mi}}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: web, namespace: shop}}
spec:
  maxUnavailable: 0
  selector: {{matchLabels: {{app: web}}}}
""")


def node(i):
    w(f"""---
apiVersion: v1
kind: Node
metadata:
  name: n{i:05d}
  labels: {{kubernetes.io/hostname: n{i:05d}, topology.kubernetes.io/zone: z{i % 3}}}
status:
  allocatable: {{cpu: "64", memory: 256Gi, pods: "1000"}}
  conditions: [{{type: Ready, status: "True"}}]
""")


def budget_dump(nodes, pods):
    for i in range(nodes):
        node(i)
    w(f"""---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: web-5f6d7, namespace: shop}}
spec:
  replicas: {pods}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers: [{{name: web, image: web:1}}]
status: {{replicas: {pods}, readyReplicas: {pods}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: web, namespace: shop}}
spec:
  maxUnavailable: 0
  selector: {{matchLabels: {{app: web}}}}
""")
    for i in range(pods):
        w(f"""---
apiVersion: v1
kind: Pod
metadata:
  name: web-5f6d7-{i:05d}
  namespace: shop
  labels: {{app: web}}
  ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web-5f6d7, controller: true}}]
spec:
  nodeName: n{i % nodes:05d}
  containers: [{{name: web, image: web:1}}]
status:
  phase: Running
  conditions: [{{type: Ready, status: "True"}}]
""")


def terms(nodes, pods, n):
    for i in range(nodes):
        node(i)
    for p in range(pods):
        w(f"""---
apiVersion: v1
kind: Pod
metadata:
  name: lone-{p}
  namespace: shop
  labels: {{app: lone-{p}}}
spec:
  nodeName: n{p % nodes:05d}
  containers: [{{name: c, image: c:1}}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - &t {{topologyKey: kubernetes.io/hostname, labelSelector: {{matchLabels: {{app: lone-{p}}}}}}}
""")
        for _ in range(n - 1):
            w("      - *t\n")
        w("""status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
""")


def distinct_terms(nodes, n):
    for i in range(nodes):
        node(i)
    w("""---
apiVersion: v1
kind: Pod
metadata: {name: lone, namespace: shop, labels: {app: lone}}
spec:
  nodeName: n00000
  containers: [{name: c, image: c:1}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
""")
    for i in range(n):
        w(f"      - {{topologyKey: kubernetes.io/hostname, labelSelector: {{matchLabels: {{app: a{i}}}}}}}\n")
    w("""status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
""")


def webhook_chain(n, ring=False):
    node(0)
    node(1)
    for i in range(n):
        nxt = (i + 1) % n if ring else i + 1
        w(f"""---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: w{i:05d}}}
webhooks:
- name: w{i:05d}.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig: {{service: {{name: b{i:05d}, namespace: hooks, port: 443}}}}
  objectSelector: {{matchLabels: {{chain: "{i}"}}}}
  rules: [{{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}}]
---
apiVersion: v1
kind: Service
metadata: {{name: b{i:05d}, namespace: hooks}}
spec:
  selector: {{app: b{i:05d}}}
  ports: [{{port: 443}}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: b{i:05d}, namespace: hooks}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: b{i:05d}}}}}
  template:
    metadata: {{labels: {{app: b{i:05d}, chain: "{nxt}"}}}}
    spec:
      containers: [{{name: b, image: b:1}}]
status: {{replicas: 1, readyReplicas: 1}}
---
apiVersion: v1
kind: Pod
metadata:
  name: b{i:05d}-x
  namespace: hooks
  labels: {{app: b{i:05d}, chain: "{nxt}"}}
  ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: b{i:05d}, controller: true}}]
spec:
  nodeName: n00000
  containers: [{{name: b, image: b:1}}]
status:
  phase: Running
  conditions: [{{type: Ready, status: "True"}}]
""")


def webhook_ring(n):
    webhook_chain(n, ring=True)


def main(argv):
    gens = {"budget-chart": (budget_chart, 1), "budget-dump": (budget_dump, 2),
            "terms": (terms, 3), "distinct-terms": (distinct_terms, 2),
            "webhook-chain": (webhook_chain, 1),
            "webhook-ring": (webhook_ring, 1)}
    if len(argv) < 2 or argv[1] not in gens or len(argv) != 2 + gens[argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    f, _ = gens[argv[1]]
    f(*[int(a) for a in argv[2:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
