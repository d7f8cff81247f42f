/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_dump - write a synthetic `kubectl get -A -o yaml` dump to stdout.
 *
 * Usage: gen_dump [--json] [--full] [--overlap] [--managed-fields] [--seed S] N
 *
 * The output is one `apiVersion: v1, kind: List` document of exactly N
 * objects, laid out as kubectl prints it: keys sorted (kubectl turns JSON
 * into YAML through a map), two-space block style, sequence items not
 * indented under their key, plain values longer than a line folded as
 * go-yaml folds them (one app in ten runs a long java command), and the
 * items grouped by kind as
 * `kubectl get pods,services,...,poddisruptionbudgets -A -o yaml` groups
 * them. --json prints what `-o json` would instead.
 *
 * The cluster is built from "apps": a Deployment (or StatefulSet or
 * DaemonSet) with its ReplicaSets, Pods, Service, PodDisruptionBudget,
 * HorizontalPodAutoscaler and ConfigMaps, about 200 objects per namespace.
 * Owner references, selectors and uids agree with each other, so relation
 * code does real work on this input.
 *
 * By default objects are compact and printed as kubectl prints them
 * since v1.21 (kubernetes/kubernetes#96878), without managedFields: about
 * 1.5 KB on average (100,000 make 147 MB). --managed-fields adds one
 * managedFields entry an object, as `--show-managed-fields` or a kubectl
 * before v1.21 prints it, about 1.9 KB (193 MB); every other byte is the
 * same. They cannot be much smaller and still look like kubectl output:
 * a running Pod with its owner reference and status is 1.5 KB. --full
 * adds status managers, probes, tolerations, service account volumes and
 * Helm's version labels. Real dumps are larger still (8.5 KB per
 * Deployment in the corpus's harvester dump).
 *
 * --overlap makes the findings-heavy dump: what `kubectl get
 * deploy,sts,ds,svc,pdb,hpa -A -o yaml` prints for a cluster where 80% of
 * the apps select their pods by a release label that six apps share
 * (app.kubernetes.io/instance alone), with a topology spread constraint
 * and a preferred anti-affinity term on that selector. Overlapping
 * workload selectors, PDBs and Services and foreign pods in the spreading
 * terms make about 2 findings per object (202,000 for 100,000 objects),
 * each naming a few related objects.
 *
 * The same arguments always give the same bytes: every value comes from a
 * PRNG seeded from the seed and the object's place in the cluster, never
 * from the clock, and no object's values depend on the objects before it.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define JAVA_COMMAND "exec java -server -Xms256m -Xmx1g -XX:+UseG1GC " \
	"-XX:MaxGCPauseMillis=200 -Djava.security.egd=file:/dev/urandom " \
	"-jar /app/server.jar"

enum {
	NS_OBJECTS = 200,	/* objects per namespace, roughly */
	EM_MAX_DEPTH = 32,
	STR_MAX = 256,
	DS_NODES = 3,		/* nodes in the pool a DaemonSet runs on */
	SHARED_GROUP = 6,	/* --overlap: apps installed by one release */
	/* apps whose containers carry a value longer than a line, which
	 * kubectl's YAML writer folds over lines (one object in about 40 of
	 * the corpus's kubectl dump has one) */
	JAVA_COMMAND_PERCENT = 10,
};

/* 2024-01-01T00:00:00Z: every timestamp is an offset from here. */
#define EPOCH_BASE 1704067200L

/* ------------------------------------------------------------------ */
/* PRNG */

struct rng {
	uint64_t state;
};

/* splitmix64: tiny, fast, and plenty for synthetic data. */
static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rng_below(struct rng *r, unsigned int n)
{
	return (unsigned int)(rng_next(r) % n);
}

/*
 * A stream of its own for (seed, a, b), so that an object's values depend
 * only on where it is in the cluster.
 */
static struct rng rng_for(uint64_t seed, uint64_t a, uint64_t b)
{
	struct rng r = {
		seed ^ (a * 0xd6e8feb86659fd93ULL) ^ (b * 0xa0761d6478bd642fULL)
	};

	rng_next(&r);
	return r;
}

/* ------------------------------------------------------------------ */
/* Emitter: one description of an object, printed as YAML or JSON */

enum em_kind { EM_MAP, EM_SEQ };

struct em_level {
	enum em_kind kind;
	unsigned int n;		/* entries written so far */
	int indent;		/* YAML: column of this collection's entries */
	bool keyed;		/* YAML: opened after "key:", so the first entry
				 * starts a new line */
	bool inline_first;	/* YAML: opened after "-", so the first entry
				 * follows the dash on its line */
};

struct emitter {
	FILE *fp;
	bool json;
	int depth;
	struct em_level lv[EM_MAX_DEPTH];
};

static void put_indent(FILE *fp, int n)
{
	static const char spaces[] = "                                ";
	const int chunk = (int)sizeof(spaces) - 1;

	while (n > 0) {
		int k = n < chunk ? n : chunk;

		fwrite(spaces, 1, (size_t)k, fp);
		n -= k;
	}
}

/* JSON string escapes are also valid in a YAML double-quoted scalar. */
static void put_quoted(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			putc('\\', fp);
			putc(c, fp);
		} else if (c == '\n') {
			fputs("\\n", fp);
		} else if (c < 0x20) {
			fprintf(fp, "\\u%04x", c);
		} else {
			putc(c, fp);
		}
	}
	putc('"', fp);
}

/*
 * Numbers and timestamps resolve to non-strings in YAML, so go-yaml (which
 * kubectl prints with) quotes them: "1", "2024-01-01T00:00:00Z". An IP
 * address or "25%" stays plain.
 */
static bool looks_numeric(const char *s)
{
	char *end;

	if (!strchr("0123456789+-.", s[0]))
		return false;
	if (strlen(s) >= 5 && s[4] == '-' && strspn(s, "0123456789") == 4)
		return true;
	errno = 0;
	(void)strtol(s, &end, 0);
	if (*end == '\0')
		return true;
	(void)strtod(s, &end);
	return *end == '\0';
}

static bool yaml_plain_ok(const char *s)
{
	static const char *const non_strings[] = {
		"~", "null", "Null", "NULL", "true", "True", "TRUE", "false",
		"False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on",
		"On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
	};
	size_t len = strlen(s);
	size_t i;

	if (!len || strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) ||
	    s[len - 1] == ' ' || s[len - 1] == ':')
		return false;
	if (strstr(s, ": ") || strstr(s, " #") || strpbrk(s, "\n\t"))
		return false;
	for (i = 0; i < sizeof(non_strings) / sizeof(non_strings[0]); i++)
		if (!strcmp(s, non_strings[i]))
			return false;
	return !looks_numeric(s);
}

static void put_string(struct emitter *em, const char *s)
{
	if (!em->json && yaml_plain_ok(s))
		fputs(s, em->fp);
	else
		put_quoted(em->fp, s);
}

/*
 * Write what comes before a value: in YAML the indentation and "key:" or
 * "-", in JSON the separator, the indentation and "key": .
 */
static void em_entry(struct emitter *em, const char *key)
{
	struct em_level *lv = &em->lv[em->depth];
	FILE *fp = em->fp;

	if (em->json) {
		fputs(lv->n ? ",\n" : "\n", fp);
		put_indent(fp, 4 * (em->depth + 1));
		if (lv->kind == EM_MAP) {
			put_quoted(fp, key);
			fputs(": ", fp);
		}
	} else {
		if (lv->n == 0 && lv->keyed)
			putc('\n', fp);
		if (lv->n == 0 && lv->inline_first)
			putc(' ', fp);
		else
			put_indent(fp, lv->indent);
		if (lv->kind == EM_MAP) {
			put_string(em, key);
			putc(':', fp);
		} else {
			putc('-', fp);
		}
	}
	lv->n++;
}

static void em_open(struct emitter *em, const char *key, enum em_kind kind)
{
	struct em_level *parent = &em->lv[em->depth];
	struct em_level *lv;

	em_entry(em, key);
	if (em->json)
		putc(kind == EM_MAP ? '{' : '[', em->fp);
	assert(em->depth + 1 < EM_MAX_DEPTH);
	lv = &em->lv[++em->depth];
	lv->kind = kind;
	lv->n = 0;
	lv->keyed = parent->kind == EM_MAP;
	lv->inline_first = parent->kind == EM_SEQ;
	/* kubectl does not indent a sequence under its key */
	if (lv->keyed && kind == EM_SEQ)
		lv->indent = parent->indent;
	else
		lv->indent = parent->indent + 2;
}

/* @key is ignored inside a sequence; pass NULL there. */
static void em_map(struct emitter *em, const char *key)
{
	em_open(em, key, EM_MAP);
}

static void em_seq(struct emitter *em, const char *key)
{
	em_open(em, key, EM_SEQ);
}

static void em_end(struct emitter *em)
{
	struct em_level *lv = &em->lv[em->depth];

	assert(em->depth > 0);
	if (em->json) {
		if (lv->n) {
			putc('\n', em->fp);
			put_indent(em->fp, 4 * em->depth);
		}
		putc(lv->kind == EM_MAP ? '}' : ']', em->fp);
	} else if (lv->n == 0) {
		fputs(lv->kind == EM_MAP ? " {}\n" : " []\n", em->fp);
	}
	em->depth--;
}

/* An empty mapping: what every leaf of a managedFields fieldsV1 set is. */
static void em_leaf(struct emitter *em, const char *key)
{
	em_map(em, key);
	em_end(em);
}

/*
 * A multi-line string as go-yaml prints it: a literal block scalar, "|-"
 * when there is no final line break to keep.
 */
static void put_literal(struct emitter *em, const char *s)
{
	int indent = em->lv[em->depth].indent + 2;
	size_t len = strlen(s);

	fputs(len && s[len - 1] == '\n' ? " |\n" : " |-\n", em->fp);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (n)
			put_indent(em->fp, indent);
		fwrite(s, 1, n, em->fp);
		putc('\n', em->fp);
		s += n + (nl != NULL);
	}
}

/*
 * A plain scalar as go-yaml, kubectl's YAML writer, folds it: at the
 * first space of a run past column 80 that is not before another space,
 * the line breaks and goes on at @indent. @col is where it starts.
 */
static void put_plain_folded(FILE *fp, const char *s, int col, int indent)
{
	const char *p;

	for (p = s; *p; p++) {
		if (*p == ' ' && col > 80 && p[1] != ' ' &&
		    (p == s || p[-1] != ' ')) {
			putc('\n', fp);
			put_indent(fp, indent);
			col = indent;
			continue;
		}
		putc(*p, fp);
		col++;
	}
}

static void em_str(struct emitter *em, const char *key, const char *val)
{
	const struct em_level *lv = &em->lv[em->depth];

	em_entry(em, key);
	if (!em->json && strchr(val, '\n')) {
		put_literal(em, val);
		return;
	}
	if (em->json) {
		put_string(em, val);
		return;
	}
	putc(' ', em->fp);
	if (yaml_plain_ok(val))
		put_plain_folded(em->fp, val,
				 lv->indent + (lv->kind == EM_MAP
						       ? (int)strlen(key) + 2
						       : 2),
				 lv->indent + 2);
	else
		put_string(em, val);
	putc('\n', em->fp);
}

/* Numbers, booleans and null: the same text in YAML and JSON. */
static void em_raw(struct emitter *em, const char *key, const char *val)
{
	em_entry(em, key);
	if (!em->json)
		putc(' ', em->fp);
	fputs(val, em->fp);
	if (!em->json)
		putc('\n', em->fp);
}

static void em_int(struct emitter *em, const char *key, long val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%ld", val);
	em_raw(em, key, buf);
}

static void em_bool(struct emitter *em, const char *key, bool val)
{
	em_raw(em, key, val ? "true" : "false");
}

__attribute__((format(printf, 3, 4)))
static void em_strf(struct emitter *em, const char *key, const char *fmt, ...)
{
	char buf[STR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	em_str(em, key, buf);
}

static void em_doc_begin(struct emitter *em)
{
	em->depth = 0;
	em->lv[0] = (struct em_level){ .kind = EM_MAP };
	if (em->json)
		putc('{', em->fp);
}

static void em_doc_end(struct emitter *em)
{
	assert(em->depth == 0);
	if (em->json)
		fputs("\n}\n", em->fp);
}

/* ------------------------------------------------------------------ */
/* The cluster */

static const char *const products[] = {
	"checkout", "search", "billing", "catalog", "identity", "payments",
	"ledger", "notify", "media", "ingest", "reports", "gateway",
	"orders", "inventory", "pricing", "shipping", "fraud", "analytics",
	"profile", "recommend", "auth", "support", "mail", "storage",
};
static const char *const stages[] = { "prod", "staging", "dev", "qa" };
static const char *const name_a[] = {
	"api", "web", "worker", "cache", "broker", "sync", "cron", "proxy",
	"indexer", "scheduler", "exporter", "frontend", "backend", "admin",
	"stream", "router",
};
static const char *const name_b[] = {
	"server", "consumer", "service", "agent", "manager", "controller",
	"engine", "gateway", "store", "relay", "daemon", "handler", "runner",
	"collector", "processor", "writer",
};
static const char *const cpus[] = { "50m", "100m", "250m", "500m", "1" };
static const char *const mems[] = { "64Mi", "128Mi", "256Mi", "512Mi", "1Gi" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Kinds in the order kubectl prints them for `get all` and the rest. */
enum obj_kind {
	K_CONFIGMAP,
	K_POD,
	K_SERVICE,
	K_DAEMONSET,
	K_DEPLOYMENT,
	K_REPLICASET,
	K_STATEFULSET,
	K_HPA,
	K_PDB,
	K_NR
};

enum pdb_mode { PDB_NONE, PDB_MIN_INT, PDB_MIN_PCT, PDB_MAX_INT, PDB_MAX_PCT };

struct slot_range {
	int first;
	int count;
};

/*
 * One workload and everything that goes with it. Its objects are numbered
 * ("slots") workload first, so the last app can be cut short to make
 * exactly N objects and still keep its owners.
 */
struct app {
	unsigned long index;
	uint64_t seed;
	enum obj_kind workload;
	char ns[48];
	const char *product;
	char name[48];
	char image[128];
	char version[16];
	int replicas;
	bool old_rs;
	bool svc;
	enum pdb_mode pdb;
	int pdb_value;
	bool hpa;
	int configmaps;
	const char *cpu;
	const char *mem;
	bool limits;
	int port;
	long created;
	bool shared;		/* --overlap: selects by the release label only */
	bool java_command;	/* its containers' args: a long java command */
	char release[64];	/* ... which is this, shared by a few apps */
	char hash[16];		/* pod-template-hash of the current ReplicaSet */
	char old_hash[16];
	struct slot_range range[K_NR];
	int n_slots;
};

struct gen {
	struct emitter em;
	uint64_t seed;
	unsigned long n;
	bool full;
	bool overlap;
	bool managed;		/* --managed-fields */
	FILE *out;		/* where the dump goes */
	FILE *discard;		/* /dev/null: managedFields without --managed-fields */
	unsigned int saved_n;	/* entries of the metadata before managedFields */
};

/* Where the walk over apps is: namespaces fill up as objects are added. */
struct cursor {
	unsigned long app;
	unsigned long before;	/* objects of the apps before this one */
	unsigned long ns;
	unsigned int in_ns;	/* apps before this one in its namespace */
};

/* The alphabet Kubernetes uses for generated name suffixes. */
static void rand_suffix(struct rng *r, char *buf, int len)
{
	static const char alnum[] = "bcdfghjklmnpqrstvwxz2456789";
	int i;

	for (i = 0; i < len; i++)
		buf[i] = alnum[rng_below(r, sizeof(alnum) - 1)];
	buf[len] = '\0';
}

static void rand_hex(struct rng *r, char *buf, int len)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < len; i++)
		buf[i] = hex[rng_below(r, 16)];
	buf[len] = '\0';
}

static void fmt_time(char buf[32], long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A version 4 UUID, as the API server assigns. */
static void fmt_uid(char buf[40], uint64_t seed, unsigned int kind, int i)
{
	struct rng r = rng_for(seed, 1000 + kind, (uint64_t)i);
	uint64_t a = rng_next(&r), b = rng_next(&r);

	snprintf(buf, 40, "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64
		 "-%04" PRIx64 "-%012" PRIx64,
		 a >> 32, (a >> 16) & 0xffff, a & 0xfff,
		 (uint64_t)0x8000 | ((b >> 48) & 0x3fff),
		 b & (uint64_t)0xffffffffffff);
}

/* @controllers: no ReplicaSets, Pods or ConfigMaps (--overlap) */
static void plan_slots(struct app *app, bool controllers)
{
	int s = 0;

	memset(app->range, 0, sizeof(app->range));
	app->range[app->workload] = (struct slot_range){ s, 1 };
	s += 1;
	if (app->workload == K_DEPLOYMENT && !controllers) {
		app->range[K_REPLICASET] = (struct slot_range){ s, 1 + app->old_rs };
		s += 1 + app->old_rs;
	}
	if (!controllers) {
		app->range[K_POD] = (struct slot_range){ s, app->replicas };
		s += app->replicas;
	}
	if (app->svc) {
		app->range[K_SERVICE] = (struct slot_range){ s, 1 };
		s += 1;
	}
	if (app->pdb != PDB_NONE) {
		app->range[K_PDB] = (struct slot_range){ s, 1 };
		s += 1;
	}
	if (app->hpa) {
		app->range[K_HPA] = (struct slot_range){ s, 1 };
		s += 1;
	}
	if (!controllers) {
		app->range[K_CONFIGMAP] = (struct slot_range){ s, app->configmaps };
		s += app->configmaps;
	}
	app->n_slots = s;
}

static void plan_app(struct app *app, uint64_t seed, bool overlap,
		     const struct cursor *c)
{
	struct rng r = rng_for(seed, c->app, 0);
	unsigned int ns_name = (unsigned int)(c->ns % NELEM(products));
	unsigned int ns_stage = (unsigned int)(c->ns / NELEM(products));
	unsigned int u;

	memset(app, 0, sizeof(*app));
	app->index = c->app;
	app->seed = rng_next(&r);
	app->product = products[ns_name];
	if (ns_stage < NELEM(stages))
		snprintf(app->ns, sizeof(app->ns), "%s-%s", app->product,
			 stages[ns_stage]);
	else
		snprintf(app->ns, sizeof(app->ns), "%s-%s-%lu", app->product,
			 stages[ns_stage % NELEM(stages)],
			 c->ns / (NELEM(products) * NELEM(stages)));
	/* unique in the namespace for up to 256 apps; there are about 25 */
	snprintf(app->name, sizeof(app->name), "%s-%s",
		 name_a[c->in_ns % NELEM(name_a)],
		 name_b[(c->in_ns / NELEM(name_a) + c->ns) % NELEM(name_b)]);
	snprintf(app->version, sizeof(app->version), "%u.%u.%u",
		 1 + rng_below(&r, 3), rng_below(&r, 20), rng_below(&r, 10));
	snprintf(app->image, sizeof(app->image),
		 "registry.example.com/%s/%s:v%s", app->product, app->name,
		 app->version);

	u = rng_below(&r, 100);
	if (u < 78)
		app->workload = K_DEPLOYMENT;
	else if (u < 92)
		app->workload = K_STATEFULSET;
	else
		app->workload = K_DAEMONSET;

	switch (app->workload) {
	case K_DEPLOYMENT: {
		static const int reps[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 5 };

		app->replicas = reps[rng_below(&r, NELEM(reps))];
		app->old_rs = rng_below(&r, 100) < 40;
		app->svc = rng_below(&r, 100) < 85;
		app->pdb = rng_below(&r, 100) < 50 ? PDB_MIN_INT : PDB_NONE;
		app->hpa = rng_below(&r, 100) < 25;
		app->configmaps = (int)rng_below(&r, 3);
		break;
	}
	case K_STATEFULSET:
		app->replicas = 1 + (int)rng_below(&r, 3);
		app->svc = true;
		app->pdb = rng_below(&r, 100) < 60 ? PDB_MIN_INT : PDB_NONE;
		app->configmaps = 1;
		break;
	default:
		app->replicas = DS_NODES;
		app->svc = rng_below(&r, 100) < 30;
		app->configmaps = 1;
		break;
	}

	/*
	 * PDB shapes: a bare integer, percentages and maxUnavailable, and
	 * some that allow no disruption at all (minAvailable equal to the
	 * replicas), which is what a linter should catch.
	 */
	if (app->pdb != PDB_NONE) {
		u = rng_below(&r, 100);
		if (u < 40) {
			app->pdb = PDB_MIN_INT;
			app->pdb_value = rng_below(&r, 100) < 30 ? app->replicas : 1;
		} else if (u < 65) {
			app->pdb = PDB_MIN_PCT;
			app->pdb_value = rng_below(&r, 2) ? 50 : 100;
		} else if (u < 90) {
			app->pdb = PDB_MAX_INT;
			app->pdb_value = rng_below(&r, 10) ? 1 : 0;
		} else {
			app->pdb = PDB_MAX_PCT;
			app->pdb_value = 25;
		}
	}

	app->cpu = cpus[rng_below(&r, NELEM(cpus))];
	app->mem = mems[rng_below(&r, NELEM(mems))];
	app->limits = rng_below(&r, 100) < 60;
	app->port = rng_below(&r, 2) ? 8080 : 9000 + (int)rng_below(&r, 100);
	app->created = EPOCH_BASE + (long)rng_below(&r, 300 * 86400);
	rand_suffix(&r, app->hash, 10);
	rand_suffix(&r, app->old_hash, 10);
	/* drawn last, so that the default dump keeps its bytes */
	if (overlap)
		app->shared = rng_below(&r, 100) < 80;
	app->java_command = rng_below(&r, 100) < JAVA_COMMAND_PERCENT;
	snprintf(app->release, sizeof(app->release), "%s-%u", app->product,
		 c->in_ns / SHARED_GROUP);
	plan_slots(app, overlap);
}

/* ------------------------------------------------------------------ */
/* Pieces shared by several kinds */

struct owner {
	const char *api;
	const char *kind;
	const char *name;
	const char *uid;
};

/*
 * A shared app selects its pods by the release label alone, as charts
 * that install several components under one release name often do: its
 * selector then matches the other shared apps of its release.
 */
static void selector_labels(struct emitter *em, const struct app *app)
{
	if (app->shared) {
		em_str(em, "app.kubernetes.io/instance", app->release);
		return;
	}
	em_str(em, "app.kubernetes.io/instance", app->product);
	em_str(em, "app.kubernetes.io/name", app->name);
}

static void match_labels(struct emitter *em, const struct app *app,
			 const char *hash)
{
	em_map(em, "selector");
	em_map(em, "matchLabels");
	selector_labels(em, app);
	if (hash)
		em_str(em, "pod-template-hash", hash);
	em_end(em);
	em_end(em);
}

/* The labels Helm charts put on what they install. */
static void helm_labels(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;

	em_map(em, "labels");
	em_str(em, "app.kubernetes.io/instance", app->product);
	em_str(em, "app.kubernetes.io/managed-by", "Helm");
	em_str(em, "app.kubernetes.io/name", app->name);
	if (g->full) {
		em_str(em, "app.kubernetes.io/version", app->version);
		em_strf(em, "helm.sh/chart", "%s-%s", app->name, app->version);
	}
	em_end(em);
}

static void helm_annotations(struct emitter *em, const struct app *app)
{
	em_str(em, "meta.helm.sh/release-name", app->product);
	em_str(em, "meta.helm.sh/release-namespace", app->ns);
}

/* f:metadata of Helm's managedFields entry, matching the two above. */
static void helm_meta_fields(struct gen *g)
{
	struct emitter *em = &g->em;

	em_map(em, "f:metadata");
	em_map(em, "f:annotations");
	em_leaf(em, ".");
	em_leaf(em, "f:meta.helm.sh/release-name");
	em_leaf(em, "f:meta.helm.sh/release-namespace");
	em_end(em);
	em_map(em, "f:labels");
	em_leaf(em, ".");
	em_leaf(em, "f:app.kubernetes.io/instance");
	em_leaf(em, "f:app.kubernetes.io/managed-by");
	em_leaf(em, "f:app.kubernetes.io/name");
	if (g->full) {
		em_leaf(em, "f:app.kubernetes.io/version");
		em_leaf(em, "f:helm.sh/chart");
	}
	em_end(em);
	em_end(em);
}

/*
 * managedFields, between managed_open() and managed_close(). kubectl has
 * not printed them since v1.21 (kubernetes/kubernetes#96878) unless asked
 * with --show-managed-fields, so without --managed-fields they are written
 * to /dev/null: the PRNG draws and so every other byte stay the same, and
 * the entry count of the enclosing metadata is put back, so that JSON
 * commas and YAML line breaks come out as if the key were never there.
 */
static void managed_open(struct gen *g)
{
	if (!g->managed) {
		g->saved_n = g->em.lv[g->em.depth].n;
		g->em.fp = g->discard;
	}
	em_seq(&g->em, "managedFields");
}

static void managed_close(struct gen *g)
{
	em_end(&g->em);
	if (!g->managed) {
		g->em.lv[g->em.depth].n = g->saved_n;
		g->em.fp = g->out;
	}
}

/* Opens a managedFields entry; the caller writes the fieldsV1 keys. */
static void managed_begin(struct emitter *em, const char *api)
{
	em_map(em, NULL);
	em_str(em, "apiVersion", api);
	em_str(em, "fieldsType", "FieldsV1");
	em_map(em, "fieldsV1");
}

static void managed_end(struct emitter *em, const char *manager,
			const char *subresource, long t)
{
	char ts[32];

	fmt_time(ts, t);
	em_end(em);
	em_str(em, "manager", manager);
	em_str(em, "operation", "Update");
	if (subresource)
		em_str(em, "subresource", subresource);
	em_str(em, "time", ts);
	em_end(em);
}

/*
 * name, namespace, ownerReferences, resourceVersion, uid: the tail of
 * every object's metadata, in kubectl's key order.
 */
static void meta_tail(struct emitter *em, const struct app *app,
		      const char *name, const struct owner *owner,
		      struct rng *r, const char *uid)
{
	em_str(em, "name", name);
	em_str(em, "namespace", app->ns);
	if (owner) {
		em_seq(em, "ownerReferences");
		em_map(em, NULL);
		em_str(em, "apiVersion", owner->api);
		em_bool(em, "blockOwnerDeletion", true);
		em_bool(em, "controller", true);
		em_str(em, "kind", owner->kind);
		em_str(em, "name", owner->name);
		em_str(em, "uid", owner->uid);
		em_end(em);
		em_end(em);
	}
	em_strf(em, "resourceVersion", "%u", 1000000 + rng_below(r, 90000000));
	em_str(em, "uid", uid);
}

static void em_time(struct emitter *em, const char *key, long t)
{
	char ts[32];

	fmt_time(ts, t);
	em_str(em, key, ts);
}

static void container_resources(struct emitter *em, const struct app *app)
{
	em_map(em, "resources");
	if (app->limits) {
		em_map(em, "limits");
		em_str(em, "memory", app->mem);
		em_end(em);
	}
	em_map(em, "requests");
	em_str(em, "cpu", app->cpu);
	em_str(em, "memory", app->mem);
	em_end(em);
	em_end(em);
}

static void http_probe(struct emitter *em, const char *key, const char *path)
{
	em_map(em, key);
	em_int(em, "failureThreshold", 3);
	em_map(em, "httpGet");
	em_str(em, "path", path);
	em_str(em, "port", "http");
	em_str(em, "scheme", "HTTP");
	em_end(em);
	em_int(em, "periodSeconds", 10);
	em_int(em, "successThreshold", 1);
	em_int(em, "timeoutSeconds", 1);
	em_end(em);
}

/* Keep replicas apart: a preferred anti-affinity term on its selector. */
static void anti_affinity(struct emitter *em, const struct app *app)
{
	em_map(em, "affinity");
	em_map(em, "podAntiAffinity");
	em_seq(em, "preferredDuringSchedulingIgnoredDuringExecution");
	em_map(em, NULL);
	em_map(em, "podAffinityTerm");
	em_map(em, "labelSelector");
	em_map(em, "matchLabels");
	selector_labels(em, app);
	em_end(em);
	em_end(em);
	em_str(em, "topologyKey", "kubernetes.io/hostname");
	em_end(em);
	em_int(em, "weight", 100);
	em_end(em);
	em_end(em);
	em_end(em);
	em_end(em);
}

/* Zone spreading over the pods its selector matches. */
static void spread_constraint(struct emitter *em, const struct app *app)
{
	em_seq(em, "topologySpreadConstraints");
	em_map(em, NULL);
	em_map(em, "labelSelector");
	em_map(em, "matchLabels");
	selector_labels(em, app);
	em_end(em);
	em_end(em);
	em_int(em, "maxSkew", 1);
	em_str(em, "topologyKey", "topology.kubernetes.io/zone");
	em_str(em, "whenUnsatisfiable", "ScheduleAnyway");
	em_end(em);
	em_end(em);
}

/* A running pod's extra fields; NULL for a pod template. */
struct pod_run {
	const char *node;
	const char *hostname;	/* StatefulSet pods only */
};

static void pod_spec(struct gen *g, const struct app *app,
		     const struct pod_run *run)
{
	struct emitter *em = &g->em;

	em_map(em, "spec");
	if (app->shared)
		anti_affinity(em, app);
	em_seq(em, "containers");
	em_map(em, NULL);
	if (app->java_command) {
		em_seq(em, "args");
		em_str(em, NULL, JAVA_COMMAND);
		em_end(em);
	}
	em_str(em, "image", app->image);
	em_str(em, "imagePullPolicy", "IfNotPresent");
	if (g->full)
		http_probe(em, "livenessProbe", "/healthz");
	em_str(em, "name", app->name);
	em_seq(em, "ports");
	em_map(em, NULL);
	em_int(em, "containerPort", app->port);
	em_str(em, "name", "http");
	em_str(em, "protocol", "TCP");
	em_end(em);
	em_end(em);
	if (g->full)
		http_probe(em, "readinessProbe", "/readyz");
	container_resources(em, app);
	if (g->full) {
		em_str(em, "terminationMessagePath", "/dev/termination-log");
		em_str(em, "terminationMessagePolicy", "File");
	}
	if (run && g->full) {
		em_seq(em, "volumeMounts");
		em_map(em, NULL);
		em_str(em, "mountPath",
		       "/var/run/secrets/kubernetes.io/serviceaccount");
		em_str(em, "name", "kube-api-access");
		em_bool(em, "readOnly", true);
		em_end(em);
		em_end(em);
	}
	em_end(em);
	em_end(em);
	em_str(em, "dnsPolicy", "ClusterFirst");
	if (run && g->full)
		em_bool(em, "enableServiceLinks", true);
	if (run && run->hostname)
		em_str(em, "hostname", run->hostname);
	if (run)
		em_str(em, "nodeName", run->node);
	if (run && g->full) {
		em_str(em, "preemptionPolicy", "PreemptLowerPriority");
		em_int(em, "priority", 0);
	}
	em_str(em, "restartPolicy", "Always");
	if (g->full) {
		em_str(em, "schedulerName", "default-scheduler");
		em_leaf(em, "securityContext");
		em_str(em, "serviceAccount", app->name);
	}
	em_str(em, "serviceAccountName", app->name);
	if (run && run->hostname)
		em_strf(em, "subdomain", "%s-headless", app->name);
	em_int(em, "terminationGracePeriodSeconds", 30);
	if (run && g->full) {
		static const char *const taints[] = {
			"node.kubernetes.io/not-ready",
			"node.kubernetes.io/unreachable",
		};
		size_t i;

		em_seq(em, "tolerations");
		for (i = 0; i < NELEM(taints); i++) {
			em_map(em, NULL);
			em_str(em, "effect", "NoExecute");
			em_str(em, "key", taints[i]);
			em_str(em, "operator", "Exists");
			em_int(em, "tolerationSeconds", 300);
			em_end(em);
		}
		em_end(em);
	}
	if (app->shared)
		spread_constraint(em, app);
	if (run && g->full) {
		em_seq(em, "volumes");
		em_map(em, NULL);
		em_str(em, "name", "kube-api-access");
		em_map(em, "projected");
		em_int(em, "defaultMode", 420);
		em_seq(em, "sources");
		em_map(em, NULL);
		em_map(em, "serviceAccountToken");
		em_int(em, "expirationSeconds", 3607);
		em_str(em, "path", "token");
		em_end(em);
		em_end(em);
		em_end(em);
		em_end(em);
		em_end(em);
		em_end(em);
	}
	em_end(em);
}

/* spec.template of a workload. */
static void pod_template(struct gen *g, const struct app *app,
			 const char *hash)
{
	struct emitter *em = &g->em;

	em_map(em, "template");
	em_map(em, "metadata");
	em_raw(em, "creationTimestamp", "null");
	em_map(em, "labels");
	selector_labels(em, app);
	if (hash)
		em_str(em, "pod-template-hash", hash);
	em_end(em);
	em_end(em);
	pod_spec(g, app, NULL);
	em_end(em);
}

/* f:spec/f:template of a workload's managedFields entry. */
static void template_fields(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	char key[STR_MAX];

	if (!g->full) {
		em_leaf(em, "f:template");
		return;
	}
	em_map(em, "f:template");
	em_map(em, "f:metadata");
	em_map(em, "f:labels");
	em_leaf(em, ".");
	em_leaf(em, "f:app.kubernetes.io/instance");
	em_leaf(em, "f:app.kubernetes.io/name");
	em_end(em);
	em_end(em);
	em_map(em, "f:spec");
	em_map(em, "f:containers");
	snprintf(key, sizeof(key), "k:{\"name\":\"%s\"}", app->name);
	em_map(em, key);
	em_leaf(em, ".");
	em_leaf(em, "f:image");
	em_leaf(em, "f:name");
	em_map(em, "f:ports");
	snprintf(key, sizeof(key),
		 "k:{\"containerPort\":%d,\"protocol\":\"TCP\"}", app->port);
	em_leaf(em, key);
	em_end(em);
	em_leaf(em, "f:resources");
	em_end(em);
	em_end(em);
	em_leaf(em, "f:serviceAccountName");
	em_end(em);
	em_end(em);
}

static void status_condition(struct emitter *em, long t, const char *message,
			     const char *reason, const char *status,
			     const char *type, bool update_time)
{
	em_map(em, NULL);
	em_time(em, "lastTransitionTime", t);
	if (update_time)
		em_time(em, "lastUpdateTime", t);
	if (message)
		em_str(em, "message", message);
	em_str(em, "reason", reason);
	em_str(em, "status", status);
	em_str(em, "type", type);
	em_end(em);
}

/* ------------------------------------------------------------------ */
/* The objects */

static void object_head(struct emitter *em, const char *api, const char *kind)
{
	em_map(em, NULL);
	em_str(em, "apiVersion", api);
	em_str(em, "kind", kind);
}

static void emit_deployment(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_DEPLOYMENT, 0);
	int revision = 1 + app->old_rs;
	char uid[40], msg[STR_MAX];

	fmt_uid(uid, app->seed, K_DEPLOYMENT, 0);
	object_head(em, "apps/v1", "Deployment");
	em_map(em, "metadata");
	em_map(em, "annotations");
	em_strf(em, "deployment.kubernetes.io/revision", "%d", revision);
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	em_int(em, "generation", revision);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "apps/v1");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, "f:replicas");
	em_leaf(em, "f:selector");
	template_fields(g, app);
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	if (g->full) {
		managed_begin(em, "apps/v1");
		em_map(em, "f:status");
		em_leaf(em, "f:availableReplicas");
		em_leaf(em, "f:conditions");
		em_leaf(em, "f:observedGeneration");
		em_leaf(em, "f:readyReplicas");
		em_leaf(em, "f:replicas");
		em_leaf(em, "f:updatedReplicas");
		em_end(em);
		managed_end(em, "kube-controller-manager", "status",
			    app->created + 60);
	}
	managed_close(g);
	meta_tail(em, app, app->name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_int(em, "progressDeadlineSeconds", 600);
	em_int(em, "replicas", app->replicas);
	em_int(em, "revisionHistoryLimit", 10);
	match_labels(em, app, NULL);
	em_map(em, "strategy");
	em_map(em, "rollingUpdate");
	em_str(em, "maxSurge", "25%");
	em_str(em, "maxUnavailable", "25%");
	em_end(em);
	em_str(em, "type", "RollingUpdate");
	em_end(em);
	pod_template(g, app, NULL);
	em_end(em);

	em_map(em, "status");
	em_int(em, "availableReplicas", app->replicas);
	em_seq(em, "conditions");
	status_condition(em, app->created + 30,
			 "Deployment has minimum availability.",
			 "MinimumReplicasAvailable", "True", "Available", true);
	snprintf(msg, sizeof(msg),
		 "ReplicaSet \"%s-%s\" has successfully progressed.",
		 app->name, app->hash);
	status_condition(em, app->created + 5, msg, "NewReplicaSetAvailable",
			 "True", "Progressing", true);
	em_end(em);
	em_int(em, "observedGeneration", revision);
	em_int(em, "readyReplicas", app->replicas);
	em_int(em, "replicas", app->replicas);
	em_int(em, "updatedReplicas", app->replicas);
	em_end(em);
	em_end(em);
}

/* @i: 0 is the current ReplicaSet, 1 the one it replaced. */
static void emit_replicaset(struct gen *g, const struct app *app, int i)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_REPLICASET, (uint64_t)i);
	const char *hash = i ? app->old_hash : app->hash;
	int replicas = i ? 0 : app->replicas;
	int revision = i ? 1 : 1 + app->old_rs;
	long created = app->created + (i ? 0 : 86400L * app->old_rs * 7);
	char uid[40], owner_uid[40], name[STR_MAX];
	struct owner owner = { "apps/v1", "Deployment", app->name, owner_uid };

	fmt_uid(uid, app->seed, K_REPLICASET, i);
	fmt_uid(owner_uid, app->seed, K_DEPLOYMENT, 0);
	snprintf(name, sizeof(name), "%s-%s", app->name, hash);
	object_head(em, "apps/v1", "ReplicaSet");
	em_map(em, "metadata");
	em_map(em, "annotations");
	em_strf(em, "deployment.kubernetes.io/desired-replicas", "%d",
		app->replicas);
	em_strf(em, "deployment.kubernetes.io/max-replicas", "%d",
		app->replicas + (app->replicas + 3) / 4);
	em_strf(em, "deployment.kubernetes.io/revision", "%d", revision);
	em_end(em);
	em_time(em, "creationTimestamp", created);
	em_int(em, "generation", 1 + (i ? 1 : 0));
	em_map(em, "labels");
	selector_labels(em, app);
	em_str(em, "pod-template-hash", hash);
	em_end(em);
	managed_open(g);
	managed_begin(em, "apps/v1");
	em_map(em, "f:metadata");
	em_map(em, "f:ownerReferences");
	em_leaf(em, ".");
	snprintf(name, sizeof(name), "k:{\"uid\":\"%s\"}", owner_uid);
	em_leaf(em, name);
	em_end(em);
	em_end(em);
	em_map(em, "f:spec");
	em_leaf(em, "f:replicas");
	em_leaf(em, "f:selector");
	em_leaf(em, "f:template");
	em_end(em);
	managed_end(em, "kube-controller-manager", NULL, created);
	if (g->full) {
		managed_begin(em, "apps/v1");
		em_map(em, "f:status");
		em_leaf(em, "f:availableReplicas");
		em_leaf(em, "f:fullyLabeledReplicas");
		em_leaf(em, "f:observedGeneration");
		em_leaf(em, "f:readyReplicas");
		em_leaf(em, "f:replicas");
		em_end(em);
		managed_end(em, "kube-controller-manager", "status",
			    created + 30);
	}
	managed_close(g);
	snprintf(name, sizeof(name), "%s-%s", app->name, hash);
	meta_tail(em, app, name, &owner, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_int(em, "replicas", replicas);
	match_labels(em, app, hash);
	pod_template(g, app, hash);
	em_end(em);

	em_map(em, "status");
	if (replicas) {
		em_int(em, "availableReplicas", replicas);
		em_int(em, "fullyLabeledReplicas", replicas);
	}
	em_int(em, "observedGeneration", 1 + (i ? 1 : 0));
	if (replicas)
		em_int(em, "readyReplicas", replicas);
	em_int(em, "replicas", replicas);
	em_end(em);
	em_end(em);
}

static void emit_statefulset(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_STATEFULSET, 0);
	char uid[40], rev[STR_MAX];

	fmt_uid(uid, app->seed, K_STATEFULSET, 0);
	snprintf(rev, sizeof(rev), "%s-%s", app->name, app->hash);
	object_head(em, "apps/v1", "StatefulSet");
	em_map(em, "metadata");
	em_map(em, "annotations");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	em_int(em, "generation", 1);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "apps/v1");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, "f:replicas");
	em_leaf(em, "f:selector");
	em_leaf(em, "f:serviceName");
	template_fields(g, app);
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	if (g->full) {
		managed_begin(em, "apps/v1");
		em_map(em, "f:status");
		em_leaf(em, "f:availableReplicas");
		em_leaf(em, "f:currentReplicas");
		em_leaf(em, "f:readyReplicas");
		em_leaf(em, "f:replicas");
		em_end(em);
		managed_end(em, "kube-controller-manager", "status",
			    app->created + 60);
	}
	managed_close(g);
	meta_tail(em, app, app->name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_map(em, "persistentVolumeClaimRetentionPolicy");
	em_str(em, "whenDeleted", "Retain");
	em_str(em, "whenScaled", "Retain");
	em_end(em);
	em_str(em, "podManagementPolicy", "OrderedReady");
	em_int(em, "replicas", app->replicas);
	em_int(em, "revisionHistoryLimit", 10);
	match_labels(em, app, NULL);
	em_strf(em, "serviceName", "%s-headless", app->name);
	pod_template(g, app, NULL);
	em_map(em, "updateStrategy");
	em_map(em, "rollingUpdate");
	em_int(em, "partition", 0);
	em_end(em);
	em_str(em, "type", "RollingUpdate");
	em_end(em);
	em_end(em);

	em_map(em, "status");
	em_int(em, "availableReplicas", app->replicas);
	em_int(em, "collisionCount", 0);
	em_int(em, "currentReplicas", app->replicas);
	em_str(em, "currentRevision", rev);
	em_int(em, "observedGeneration", 1);
	em_int(em, "readyReplicas", app->replicas);
	em_int(em, "replicas", app->replicas);
	em_str(em, "updateRevision", rev);
	em_int(em, "updatedReplicas", app->replicas);
	em_end(em);
	em_end(em);
}

static void emit_daemonset(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_DAEMONSET, 0);
	char uid[40];

	fmt_uid(uid, app->seed, K_DAEMONSET, 0);
	object_head(em, "apps/v1", "DaemonSet");
	em_map(em, "metadata");
	em_map(em, "annotations");
	em_str(em, "deprecated.daemonset.template.generation", "1");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	em_int(em, "generation", 1);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "apps/v1");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, "f:selector");
	template_fields(g, app);
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	managed_close(g);
	meta_tail(em, app, app->name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_int(em, "revisionHistoryLimit", 10);
	match_labels(em, app, NULL);
	pod_template(g, app, NULL);
	em_map(em, "updateStrategy");
	em_map(em, "rollingUpdate");
	em_int(em, "maxSurge", 0);
	em_int(em, "maxUnavailable", 1);
	em_end(em);
	em_str(em, "type", "RollingUpdate");
	em_end(em);
	em_end(em);

	em_map(em, "status");
	em_int(em, "currentNumberScheduled", app->replicas);
	em_int(em, "desiredNumberScheduled", app->replicas);
	em_int(em, "numberAvailable", app->replicas);
	em_int(em, "numberMisscheduled", 0);
	em_int(em, "numberReady", app->replicas);
	em_int(em, "observedGeneration", 1);
	em_int(em, "updatedNumberScheduled", app->replicas);
	em_end(em);
	em_end(em);
}

static void emit_pod(struct gen *g, const struct app *app, int i)
{
	static const char *const conditions[] = {
		"Initialized", "Ready", "ContainersReady", "PodScheduled",
	};
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_POD, (uint64_t)i);
	char uid[40], owner_uid[40], name[STR_MAX], owner_name[STR_MAX / 2];
	char node[32], hexid[72], suffix[8];
	struct owner owner = { "apps/v1", NULL, owner_name, owner_uid };
	struct pod_run run = { node, NULL };
	long created = app->created + 86400L * 7 * app->old_rs +
		       (long)rng_below(&r, 86400);
	size_t k;

	fmt_uid(uid, app->seed, K_POD, i);
	rand_suffix(&r, suffix, 5);
	snprintf(node, sizeof(node), "node-%02u", rng_below(&r, 40));
	switch (app->workload) {
	case K_DEPLOYMENT:
		owner.kind = "ReplicaSet";
		fmt_uid(owner_uid, app->seed, K_REPLICASET, 0);
		snprintf(owner_name, sizeof(owner_name), "%s-%s", app->name,
			 app->hash);
		snprintf(name, sizeof(name), "%s-%s", owner_name, suffix);
		break;
	case K_STATEFULSET:
		owner.kind = "StatefulSet";
		fmt_uid(owner_uid, app->seed, K_STATEFULSET, 0);
		snprintf(owner_name, sizeof(owner_name), "%s", app->name);
		snprintf(name, sizeof(name), "%s-%d", app->name, i);
		run.hostname = name;
		break;
	default:
		owner.kind = "DaemonSet";
		fmt_uid(owner_uid, app->seed, K_DAEMONSET, 0);
		snprintf(owner_name, sizeof(owner_name), "%s", app->name);
		snprintf(name, sizeof(name), "%s-%s", app->name, suffix);
		snprintf(node, sizeof(node), "pool-%c-%02d",
			 'a' + (int)(app->index % 3), i);
		break;
	}

	object_head(em, "v1", "Pod");
	em_map(em, "metadata");
	if (app->workload != K_STATEFULSET) {
		em_time(em, "creationTimestamp", created);
		em_strf(em, "generateName", "%.*s-",
			(int)(strlen(name) - strlen(suffix) - 1), name);
	} else {
		em_time(em, "creationTimestamp", created);
	}
	em_map(em, "labels");
	selector_labels(em, app);
	if (app->workload == K_STATEFULSET) {
		em_strf(em, "apps.kubernetes.io/pod-index", "%d", i);
		em_strf(em, "controller-revision-hash", "%s-%s", app->name,
			app->hash);
		em_str(em, "statefulset.kubernetes.io/pod-name", name);
	} else if (app->workload == K_DAEMONSET) {
		em_strf(em, "controller-revision-hash", "%.10s", app->hash);
		em_str(em, "pod-template-generation", "1");
	} else {
		em_str(em, "pod-template-hash", app->hash);
	}
	em_end(em);
	managed_open(g);
	managed_begin(em, "v1");
	em_map(em, "f:status");
	em_leaf(em, "f:conditions");
	em_leaf(em, "f:containerStatuses");
	if (g->full)
		em_leaf(em, "f:hostIP");
	em_leaf(em, "f:phase");
	em_leaf(em, "f:podIP");
	if (g->full)
		em_leaf(em, "f:startTime");
	em_end(em);
	managed_end(em, "kubelet", "status", created + 8);
	if (g->full) {
		managed_begin(em, "v1");
		em_map(em, "f:metadata");
		em_leaf(em, "f:generateName");
		em_leaf(em, "f:labels");
		em_leaf(em, "f:ownerReferences");
		em_end(em);
		em_leaf(em, "f:spec");
		managed_end(em, "kube-controller-manager", NULL, created);
	}
	managed_close(g);
	meta_tail(em, app, name, &owner, &r, uid);
	em_end(em);

	pod_spec(g, app, &run);

	em_map(em, "status");
	em_seq(em, "conditions");
	for (k = 0; k < NELEM(conditions); k++) {
		/* Ready and PodScheduled are the ones anything reads */
		if (!g->full && (k == 0 || k == 2))
			continue;
		em_map(em, NULL);
		em_raw(em, "lastProbeTime", "null");
		em_time(em, "lastTransitionTime", created + (long)k * 2);
		em_str(em, "status", "True");
		em_str(em, "type", conditions[k]);
		em_end(em);
	}
	em_end(em);
	em_seq(em, "containerStatuses");
	em_map(em, NULL);
	rand_hex(&r, hexid, 64);
	em_strf(em, "containerID", "containerd://%s", hexid);
	em_str(em, "image", app->image);
	rand_hex(&r, hexid, 64);
	if (g->full) {
		em_strf(em, "imageID", "registry.example.com/%s/%s@sha256:%s",
			app->product, app->name, hexid);
		em_leaf(em, "lastState");
	}
	em_str(em, "name", app->name);
	em_bool(em, "ready", true);
	em_int(em, "restartCount", rng_below(&r, 10) ? 0 : 1 + rng_below(&r, 5));
	if (g->full)
		em_bool(em, "started", true);
	em_map(em, "state");
	em_map(em, "running");
	em_time(em, "startedAt", created + 5);
	em_end(em);
	em_end(em);
	em_end(em);
	em_end(em);
	if (g->full)
		em_strf(em, "hostIP", "192.168.%u.%u", rng_below(&r, 4),
			10 + rng_below(&r, 200));
	em_str(em, "phase", "Running");
	em_strf(em, "podIP", "10.42.%u.%u", rng_below(&r, 256),
		1 + rng_below(&r, 254));
	em_str(em, "qosClass", "Burstable");
	if (g->full)
		em_time(em, "startTime", created + 1);
	em_end(em);
	em_end(em);
}

static void emit_service(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_SERVICE, 0);
	bool headless = app->workload == K_STATEFULSET;
	char uid[40], name[STR_MAX], ip[32];

	fmt_uid(uid, app->seed, K_SERVICE, 0);
	if (headless)
		snprintf(name, sizeof(name), "%s-headless", app->name);
	else
		snprintf(name, sizeof(name), "%s", app->name);
	if (headless)
		snprintf(ip, sizeof(ip), "None");
	else
		snprintf(ip, sizeof(ip), "10.43.%u.%u", rng_below(&r, 256),
			 1 + rng_below(&r, 254));
	object_head(em, "v1", "Service");
	em_map(em, "metadata");
	em_map(em, "annotations");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "v1");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, "f:ports");
	em_leaf(em, "f:selector");
	em_leaf(em, "f:type");
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	managed_close(g);
	meta_tail(em, app, name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_str(em, "clusterIP", ip);
	em_seq(em, "clusterIPs");
	em_str(em, NULL, ip);
	em_end(em);
	em_str(em, "internalTrafficPolicy", "Cluster");
	em_seq(em, "ipFamilies");
	em_str(em, NULL, "IPv4");
	em_end(em);
	em_str(em, "ipFamilyPolicy", "SingleStack");
	em_seq(em, "ports");
	em_map(em, NULL);
	em_str(em, "name", "http");
	em_int(em, "port", headless ? app->port : 80);
	em_str(em, "protocol", "TCP");
	em_str(em, "targetPort", "http");
	em_end(em);
	em_end(em);
	em_map(em, "selector");
	selector_labels(em, app);
	em_end(em);
	em_str(em, "sessionAffinity", "None");
	em_str(em, "type", "ClusterIP");
	em_end(em);
	em_map(em, "status");
	em_leaf(em, "loadBalancer");
	em_end(em);
	em_end(em);
}

static int ceil_pct(int n, int pct)
{
	return (n * pct + 99) / 100;
}

/*
 * The status the disruption controller would write, so rules comparing
 * spec and status see consistent numbers.
 */
static void emit_pdb(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_PDB, 0);
	int desired, allowed;
	char uid[40];
	long t = app->created + 20;

	fmt_uid(uid, app->seed, K_PDB, 0);
	switch (app->pdb) {
	case PDB_MIN_INT:
		desired = app->pdb_value;
		break;
	case PDB_MIN_PCT:
		desired = ceil_pct(app->replicas, app->pdb_value);
		break;
	case PDB_MAX_INT:
		desired = app->replicas - app->pdb_value;
		break;
	default:
		desired = app->replicas - ceil_pct(app->replicas, app->pdb_value);
		break;
	}
	if (desired < 0)
		desired = 0;
	allowed = app->replicas > desired ? app->replicas - desired : 0;

	object_head(em, "policy/v1", "PodDisruptionBudget");
	em_map(em, "metadata");
	em_map(em, "annotations");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	em_int(em, "generation", 1);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "policy/v1");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, app->pdb <= PDB_MIN_PCT ? "f:minAvailable" :
					      "f:maxUnavailable");
	em_leaf(em, "f:selector");
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	if (g->full) {
		managed_begin(em, "policy/v1");
		em_map(em, "f:status");
		em_leaf(em, "f:conditions");
		em_leaf(em, "f:currentHealthy");
		em_leaf(em, "f:desiredHealthy");
		em_leaf(em, "f:disruptionsAllowed");
		em_leaf(em, "f:expectedPods");
		em_leaf(em, "f:observedGeneration");
		em_end(em);
		managed_end(em, "kube-controller-manager", "status", t);
	}
	managed_close(g);
	meta_tail(em, app, app->name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	switch (app->pdb) {
	case PDB_MIN_INT:
		em_int(em, "minAvailable", app->pdb_value);
		break;
	case PDB_MIN_PCT:
		em_strf(em, "minAvailable", "%d%%", app->pdb_value);
		break;
	case PDB_MAX_INT:
		em_int(em, "maxUnavailable", app->pdb_value);
		break;
	default:
		em_strf(em, "maxUnavailable", "%d%%", app->pdb_value);
		break;
	}
	match_labels(em, app, NULL);
	em_end(em);

	em_map(em, "status");
	em_seq(em, "conditions");
	em_map(em, NULL);
	em_time(em, "lastTransitionTime", t);
	em_str(em, "message", "");
	em_int(em, "observedGeneration", 1);
	em_str(em, "reason", allowed ? "SufficientPods" : "InsufficientPods");
	em_str(em, "status", allowed ? "True" : "False");
	em_str(em, "type", "DisruptionAllowed");
	em_end(em);
	em_end(em);
	em_int(em, "currentHealthy", app->replicas);
	em_int(em, "desiredHealthy", desired);
	em_int(em, "disruptionsAllowed", allowed);
	em_int(em, "expectedPods", app->replicas);
	em_int(em, "observedGeneration", 1);
	em_end(em);
	em_end(em);
}

static void emit_hpa(struct gen *g, const struct app *app)
{
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_HPA, 0);
	char uid[40];
	unsigned int util = 20 + rng_below(&r, 60);

	fmt_uid(uid, app->seed, K_HPA, 0);
	object_head(em, "autoscaling/v2", "HorizontalPodAutoscaler");
	em_map(em, "metadata");
	em_map(em, "annotations");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "autoscaling/v2");
	helm_meta_fields(g);
	em_map(em, "f:spec");
	em_leaf(em, "f:maxReplicas");
	em_leaf(em, "f:metrics");
	em_leaf(em, "f:minReplicas");
	em_leaf(em, "f:scaleTargetRef");
	em_end(em);
	managed_end(em, "helm", NULL, app->created);
	managed_close(g);
	meta_tail(em, app, app->name, NULL, &r, uid);
	em_end(em);

	em_map(em, "spec");
	em_int(em, "maxReplicas", app->replicas * 3);
	em_seq(em, "metrics");
	em_map(em, NULL);
	em_map(em, "resource");
	em_str(em, "name", "cpu");
	em_map(em, "target");
	em_int(em, "averageUtilization", 80);
	em_str(em, "type", "Utilization");
	em_end(em);
	em_end(em);
	em_str(em, "type", "Resource");
	em_end(em);
	em_end(em);
	em_int(em, "minReplicas", app->replicas);
	em_map(em, "scaleTargetRef");
	em_str(em, "apiVersion", "apps/v1");
	em_str(em, "kind", "Deployment");
	em_str(em, "name", app->name);
	em_end(em);
	em_end(em);

	em_map(em, "status");
	em_seq(em, "currentMetrics");
	em_map(em, NULL);
	em_map(em, "resource");
	em_map(em, "current");
	em_int(em, "averageUtilization", util);
	em_end(em);
	em_str(em, "name", "cpu");
	em_end(em);
	em_str(em, "type", "Resource");
	em_end(em);
	em_end(em);
	em_int(em, "currentReplicas", app->replicas);
	em_int(em, "desiredReplicas", app->replicas);
	em_end(em);
	em_end(em);
}

static void emit_configmap(struct gen *g, const struct app *app, int i)
{
	static const char *const levels[] = { "debug", "info", "warn" };
	struct emitter *em = &g->em;
	struct rng r = rng_for(app->seed, K_CONFIGMAP, (uint64_t)i);
	char uid[40], name[STR_MAX];

	fmt_uid(uid, app->seed, K_CONFIGMAP, i);
	snprintf(name, sizeof(name), "%s-%s", app->name, i ? "env" : "config");
	/* kubectl sorts keys, so data comes between apiVersion and kind */
	em_map(em, NULL);
	em_str(em, "apiVersion", "v1");
	em_map(em, "data");
	if (i) {
		em_str(em, "LOG_LEVEL", levels[rng_below(&r, NELEM(levels))]);
		em_strf(em, "PORT", "%d", app->port);
		em_strf(em, "UPSTREAM_URL", "http://%s.%s.svc:80",
			name_a[rng_below(&r, NELEM(name_a))], app->ns);
	} else {
		em_strf(em, "config.yaml",
			"server:\n  port: %d\n  workers: %u\nlog:\n  level: %s\n",
			app->port, 1 + rng_below(&r, 8),
			levels[rng_below(&r, NELEM(levels))]);
	}
	em_end(em);
	em_str(em, "kind", "ConfigMap");
	em_map(em, "metadata");
	em_map(em, "annotations");
	helm_annotations(em, app);
	em_end(em);
	em_time(em, "creationTimestamp", app->created);
	helm_labels(g, app);
	managed_open(g);
	managed_begin(em, "v1");
	em_map(em, "f:data");
	em_leaf(em, ".");
	if (i) {
		em_leaf(em, "f:LOG_LEVEL");
		em_leaf(em, "f:PORT");
		em_leaf(em, "f:UPSTREAM_URL");
	} else {
		em_leaf(em, "f:config.yaml");
	}
	em_end(em);
	helm_meta_fields(g);
	managed_end(em, "helm", NULL, app->created);
	managed_close(g);
	meta_tail(em, app, name, NULL, &r, uid);
	em_end(em);
	em_end(em);
}

static void emit_object(struct gen *g, const struct app *app,
			enum obj_kind kind, int i)
{
	switch (kind) {
	case K_CONFIGMAP:
		emit_configmap(g, app, i);
		break;
	case K_POD:
		emit_pod(g, app, i);
		break;
	case K_SERVICE:
		emit_service(g, app);
		break;
	case K_DAEMONSET:
		emit_daemonset(g, app);
		break;
	case K_DEPLOYMENT:
		emit_deployment(g, app);
		break;
	case K_REPLICASET:
		emit_replicaset(g, app, i);
		break;
	case K_STATEFULSET:
		emit_statefulset(g, app);
		break;
	case K_HPA:
		emit_hpa(g, app);
		break;
	default:
		emit_pdb(g, app);
		break;
	}
}

/*
 * One pass over the apps per kind. Planning an app is a few PRNG draws, so
 * it is redone on every pass instead of keeping N objects' worth of plans.
 */
static void emit_items(struct gen *g)
{
	int kind;

	em_seq(&g->em, "items");
	for (kind = 0; kind < K_NR; kind++) {
		struct cursor c = { 0 };

		while (c.before < g->n) {
			struct app app;
			unsigned long ns = c.before / NS_OBJECTS;
			unsigned long left = g->n - c.before;
			const struct slot_range *sr;
			int j;

			if (ns != c.ns) {
				c.ns = ns;
				c.in_ns = 0;
			}
			plan_app(&app, g->seed, g->overlap, &c);
			sr = &app.range[kind];
			for (j = 0; j < sr->count; j++)
				if ((unsigned long)(sr->first + j) < left)
					emit_object(g, &app, kind, j);
			c.before += (unsigned long)app.n_slots;
			c.app++;
			c.in_ns++;
		}
	}
	em_end(&g->em);
}

static void usage(FILE *fp)
{
	fputs("usage: gen_dump [--json] [--full] [--overlap] [--managed-fields] [--seed S] N\n",
	      fp);
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

int main(int argc, char **argv)
{
	static char obuf[1 << 20];
	static char dbuf[1 << 16];
	struct gen g = { .em.fp = stdout, .out = stdout, .seed = 42 };
	unsigned long seed = 42;
	bool have_n = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			g.em.json = true;
		} else if (!strcmp(argv[i], "--full")) {
			g.full = true;
		} else if (!strcmp(argv[i], "--overlap")) {
			g.overlap = true;
		} else if (!strcmp(argv[i], "--managed-fields")) {
			g.managed = true;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (parse_ulong(argv[++i], &seed) < 0)
				goto bad;
			g.seed = seed;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!have_n && parse_ulong(argv[i], &g.n) == 0) {
			have_n = true;
		} else {
			goto bad;
		}
	}
	if (!have_n)
		goto bad;

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (!g.managed) {
		g.discard = fopen("/dev/null", "w");
		if (!g.discard) {
			perror("gen_dump: /dev/null");
			return 1;
		}
		setvbuf(g.discard, dbuf, _IOFBF, sizeof(dbuf));
	}
	em_doc_begin(&g.em);
	em_str(&g.em, "apiVersion", "v1");
	emit_items(&g);
	em_str(&g.em, "kind", "List");
	em_map(&g.em, "metadata");
	em_str(&g.em, "resourceVersion", "");
	em_end(&g.em);
	em_doc_end(&g.em);
	if (fflush(stdout) || ferror(stdout)) {
		perror("gen_dump: write");
		return 1;
	}
	return 0;
bad:
	usage(stderr);
	return 2;
}
