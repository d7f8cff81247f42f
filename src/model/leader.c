/* SPDX-License-Identifier: Apache-2.0 */
#include "model/leader.h"

#include <string.h>

/* Flags that switch leader election on (and, with a false value, off). */
static const char *const elect_flags[] = {
	"leader-elect", "enable-leader-election", "leader-election",
};

/* String flags naming the namespace of the election's Lease. */
static const char *const namespace_flags[] = {
	"leader-election-namespace", "leader-elect-resource-namespace",
};

/*
 * Components that elect a leader unless told not to: their --leader-elect
 * defaults to true (kube-controller-manager, kube-scheduler and
 * cluster-autoscaler flags; cert-manager's controller and cainjector).
 */
static const char *const default_on[] = {
	"kube-controller-manager", "kube-scheduler", "cluster-autoscaler",
	"cert-manager-controller", "cert-manager-cainjector",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

const char *kvet_leader_state_name(enum kvet_leader_state state)
{
	switch (state) {
	case KVET_LEADER_ON:
		return "on";
	case KVET_LEADER_OFF:
		return "off";
	default:
		return "unknown";
	}
}

bool kvet_go_bool(struct kvet_slice s, bool *out)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true",
					   "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false",
					  "False" };
	size_t i;

	for (i = 0; i < N_OF(yes); i++) {
		if (kvet_slice_eq0(s, yes[i])) {
			*out = true;
			return true;
		}
		if (kvet_slice_eq0(s, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static struct kvet_slice trim(struct kvet_slice s)
{
	while (s.len && is_space(s.s[0])) {
		s.s++;
		s.len--;
	}
	while (s.len && is_space(s.s[s.len - 1]))
		s.len--;
	return s;
}

struct token {
	struct kvet_slice text;
	const struct kvet_node *item;
};

struct tokens {
	struct token *v;
	size_t n, cap;
};

/* The next token of @item from *@p on, split on white space; false at
 * the end. */
static bool next_token(const struct kvet_node *item, size_t *p,
		       struct kvet_slice *tok)
{
	size_t start;

	while (*p < item->len && is_space(item->u.str[*p]))
		(*p)++;
	start = *p;
	while (*p < item->len && !is_space(item->u.str[*p]))
		(*p)++;
	tok->s = item->u.str + start;
	tok->len = *p - start;
	return tok->len > 0;
}

/*
 * Split every string of @list on white space: a `sh -c "exec /manager
 * --leader-elect"` command carries its flags inside one string.
 */
static int add_tokens(struct kvet_arena *arena, struct tokens *t,
		      const struct kvet_node *list)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++) {
		const struct kvet_node *item = &list->u.items[i];
		struct kvet_slice tok;
		size_t p = 0;

		if (!kvet_node_is_scalar(item) || item->type == KVET_NODE_NULL)
			continue;
		while (next_token(item, &p, &tok)) {
			if (!kvet_arena_grow(arena, &t->v, &t->cap, t->n,
					     sizeof(*t->v)))
				return -1;
			t->v[t->n].text = tok;
			t->v[t->n].item = item;
			t->n++;
		}
	}
	return 0;
}

/* What one container says. */
struct verdict {
	enum kvet_leader_state state;
	enum kvet_leader_source source;
	const struct kvet_node *evidence;
	const struct kvet_object *config_map;
	const char *component;
	struct kvet_slice ns;
	const struct kvet_node *ns_node;
};

static bool name_in(struct kvet_slice name, const char *const *names,
		    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kvet_slice_eq0(name, names[i]))
			return true;
	return false;
}

/* Go flags take one or two leading dashes; the value follows "=". */
static bool split_flag(struct kvet_slice tok, struct kvet_slice *name,
		       struct kvet_slice *value, bool *has_value)
{
	const char *eq;

	if (tok.len < 2 || tok.s[0] != '-')
		return false;
	tok.s++;
	tok.len--;
	if (tok.s[0] == '-') {
		tok.s++;
		tok.len--;
	}
	eq = memchr(tok.s, '=', tok.len);
	*has_value = eq != NULL;
	name->s = tok.s;
	name->len = eq ? (size_t)(eq - tok.s) : tok.len;
	if (eq) {
		value->s = eq + 1;
		value->len = tok.len - name->len - 1;
	}
	return name->len > 0;
}

static void scan_flags(const struct tokens *t, struct verdict *v)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct kvet_slice name, value = { "", 0 };
		bool has_value, b;

		if (!split_flag(t->v[i].text, &name, &value, &has_value))
			continue;
		if (name_in(name, elect_flags, N_OF(elect_flags))) {
			/*
			 * A bool flag takes a value only after "=":
			 * "--leader-elect false" sets it and leaves "false"
			 * as an argument. A bad value stops the program, so
			 * it tells nothing.
			 */
			if (!has_value)
				b = true;
			else if (!kvet_go_bool(value, &b))
				continue;
			v->state = b ? KVET_LEADER_ON : KVET_LEADER_OFF;
			v->source = KVET_LEADER_FROM_FLAG;
			v->evidence = t->v[i].item;
			continue;
		}
		if (name_in(name, namespace_flags, N_OF(namespace_flags))) {
			if (!has_value) {
				if (i + 1 >= t->n)
					continue;
				value = t->v[++i].text;
			}
			v->ns = value;
			v->ns_node = t->v[i].item;
		}
	}
}

/* The value of "<key>:" when @line is that key, trimmed. */
static bool config_line(struct kvet_slice line, const char *key,
			struct kvet_slice *value)
{
	size_t k = strlen(key);

	line = trim(line);
	if (line.len <= k || memcmp(line.s, key, k) != 0 || line.s[k] != ':')
		return false;
	value->s = line.s + k + 1;
	value->len = line.len - k - 1;
	*value = trim(*value);
	if (value->len >= 2 && (value->s[0] == '"' || value->s[0] == '\'') &&
	    value->s[value->len - 1] == value->s[0]) {
		value->s++;
		value->len -= 2;
	}
	return true;
}

/* leaderElect and resourceNamespace lines of one ConfigMap. */
static void scan_config_map(const struct kvet_object *cm, struct verdict *v)
{
	const struct kvet_node *data = kvet_node_get(cm->root, "data");
	uint32_t i;

	for (i = 0; kvet_node_is_map(data) && i < data->len; i++) {
		const struct kvet_node *val = &data->u.pairs[i].value;
		struct kvet_slice text, line, value;
		size_t p = 0, start;

		if (!kvet_node_is_string(val))
			continue;
		text.s = val->u.str;
		text.len = val->len;
		while (p < text.len) {
			start = p;
			while (p < text.len && text.s[p] != '\n')
				p++;
			line.s = text.s + start;
			line.len = p - start;
			p++;
			if (config_line(line, "leaderElect", &value) &&
			    (kvet_slice_eq0(value, "true") ||
			     kvet_slice_eq0(value, "false"))) {
				v->state = kvet_slice_eq0(value, "true") ?
					   KVET_LEADER_ON : KVET_LEADER_OFF;
				v->source = KVET_LEADER_FROM_CONFIG;
				v->evidence = val;
				v->config_map = cm;
			} else if (config_line(line, "resourceNamespace",
					       &value) && value.len &&
				   !v->ns_node) {
				v->ns = value;
				v->ns_node = val;
			}
		}
	}
}

/* Scan the ConfigMap named by @ref ({name: x}) in @wl's namespace. */
static void scan_ref(const struct kvet_graph *g, const struct kvet_workload *wl,
		     const struct kvet_node *ref, struct verdict *v)
{
	const struct kvet_node *name = kvet_node_get(ref, "name");
	const struct kvet_object *cm;
	char buf[256];

	/* object names are at most 253 bytes */
	if (!kvet_node_is_string(name) || name->len >= sizeof(buf))
		return;
	memcpy(buf, name->u.str, name->len);
	buf[name->len] = '\0';
	cm = kvet_graph_find(g, "", "ConfigMap", wl->obj->namespace, buf);
	if (cm)
		scan_config_map(cm, v);
}

/* The ConfigMaps behind the pod volume that mount @name refers to: a
 * configMap volume, or the configMap sources of a projected one. */
static void scan_volume(const struct kvet_graph *g,
			const struct kvet_workload *wl,
			const struct kvet_node *name, struct verdict *v)
{
	const struct kvet_node *vols = kvet_node_get(wl->pod_spec, "volumes");
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(vols) && i < vols->len; i++) {
		const struct kvet_node *vol = &vols->u.items[i];
		const struct kvet_node *vname = kvet_node_get(vol, "name");
		const struct kvet_node *srcs;

		if (!kvet_node_is_string(vname) || vname->len != name->len ||
		    memcmp(vname->u.str, name->u.str, name->len) != 0)
			continue;
		scan_ref(g, wl, kvet_node_get(vol, "configMap"), v);
		srcs = kvet_node_path(vol, "projected", "sources", NULL);
		for (j = 0; kvet_node_is_seq(srcs) && j < srcs->len; j++)
			scan_ref(g, wl, kvet_node_get(&srcs->u.items[j],
						      "configMap"), v);
		/* volume names are unique within a pod */
		return;
	}
}

/* ConfigMaps mounted into container @c, in mount order. */
static void scan_mounts(const struct kvet_graph *g,
			const struct kvet_workload *wl,
			const struct kvet_node *c, struct verdict *v)
{
	const struct kvet_node *mounts = kvet_node_get(c, "volumeMounts");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(mounts) && i < mounts->len; i++) {
		const struct kvet_node *name =
			kvet_node_get(&mounts->u.items[i], "name");

		if (kvet_node_is_string(name))
			scan_volume(g, wl, name, v);
	}
}

/* The last path element of an image, without tag or digest. */
static struct kvet_slice image_name(const struct kvet_node *image)
{
	struct kvet_slice s = { "", 0 };
	const char *p;
	size_t i;

	if (!kvet_node_is_string(image))
		return s;
	s.s = image->u.str;
	s.len = image->len;
	p = memchr(s.s, '@', s.len);
	if (p)
		s.len = (size_t)(p - s.s);
	for (i = s.len; i > 0; i--) {
		if (s.s[i - 1] == '/') {
			s.s += i;
			s.len -= i;
			break;
		}
	}
	p = memchr(s.s, ':', s.len);
	if (p)
		s.len = (size_t)(p - s.s);
	return s;
}

/* @name is @component, or @component with an architecture suffix. */
static bool names_component(struct kvet_slice name, const char *component)
{
	static const char *const arch[] = { "", "-amd64", "-arm64", "-arm",
					    "-ppc64le", "-s390x" };
	size_t k = strlen(component), i;

	if (name.len < k || memcmp(name.s, component, k) != 0)
		return false;
	name.s += k;
	name.len -= k;
	for (i = 0; i < N_OF(arch); i++)
		if (kvet_slice_eq0(name, arch[i]))
			return true;
	return false;
}

static void scan_component(const struct kvet_node *c, const struct tokens *t,
			   struct verdict *v)
{
	const struct kvet_node *image = kvet_node_get(c, "image");
	const struct kvet_node *cmd = kvet_node_get(c, "command");
	struct kvet_slice prog = { "", 0 };
	size_t i, j;

	if (kvet_node_is_seq(cmd) && cmd->len && t->n &&
	    t->v[0].item == &cmd->u.items[0]) {
		prog = t->v[0].text;
		for (j = prog.len; j > 0; j--) {
			if (prog.s[j - 1] == '/') {
				prog.s += j;
				prog.len -= j;
				break;
			}
		}
	}
	for (i = 0; i < N_OF(default_on); i++) {
		if (names_component(image_name(image), default_on[i])) {
			v->evidence = image;
		} else if (names_component(prog, default_on[i])) {
			v->evidence = &cmd->u.items[0];
		} else {
			continue;
		}
		v->state = KVET_LEADER_ON;
		v->source = KVET_LEADER_FROM_COMPONENT;
		v->component = default_on[i];
		return;
	}
}

static int judge_container(struct kvet_arena *arena, const struct kvet_graph *g,
			   const struct kvet_workload *wl,
			   const struct kvet_node *c, struct verdict *v)
{
	struct tokens t = { NULL, 0, 0 };
	struct verdict flags, config;

	memset(v, 0, sizeof(*v));
	if (add_tokens(arena, &t, kvet_node_get(c, "command")) ||
	    add_tokens(arena, &t, kvet_node_get(c, "args")))
		return -1;
	memset(&flags, 0, sizeof(flags));
	memset(&config, 0, sizeof(config));
	scan_flags(&t, &flags);
	scan_mounts(g, wl, c, &config);
	if (flags.state != KVET_LEADER_UNKNOWN)
		*v = flags;
	else if (config.state != KVET_LEADER_UNKNOWN)
		*v = config;
	else
		scan_component(c, &t, v);
	/* a namespace flag wins over the configuration's */
	v->ns = flags.ns_node ? flags.ns : config.ns;
	v->ns_node = flags.ns_node ? flags.ns_node : config.ns_node;
	return 0;
}

static int rank(enum kvet_leader_state state)
{
	return state == KVET_LEADER_ON ? 2 : state == KVET_LEADER_OFF;
}

int kvet_leader_election(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_workload *wl,
			 struct kvet_leader *out)
{
	const struct kvet_node *cs = kvet_node_get(wl->pod_spec, "containers");
	struct verdict best, v;
	const struct kvet_node *best_c = NULL;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	memset(&best, 0, sizeof(best));
	for (i = 0; kvet_node_is_seq(cs) && i < cs->len; i++) {
		if (!kvet_node_is_map(&cs->u.items[i]))
			continue;
		if (judge_container(arena, g, wl, &cs->u.items[i], &v))
			return -1;
		/* ON beats OFF beats UNKNOWN; the first container wins ties */
		if (!best_c || rank(v.state) > rank(best.state)) {
			best = v;
			best_c = &cs->u.items[i];
		}
	}
	out->state = best.state;
	out->source = best.source;
	out->container = best.state != KVET_LEADER_UNKNOWN ? best_c : NULL;
	out->evidence = best.evidence;
	out->config_map = best.config_map;
	out->component = best.component;
	out->namespace = wl->obj->namespace;
	if (best.ns_node) {
		out->namespace = kvet_arena_strndup(arena, best.ns.s,
						    best.ns.len);
		if (!out->namespace)
			return -1;
		out->namespace_node = best.ns_node;
	}
	return 0;
}

struct kvet_slice kvet_leader_flag(const struct kvet_leader *le)
{
	const struct kvet_node *item = le->evidence;
	struct kvet_slice found = { "", 0 }, tok, name, value;
	bool has_value;
	size_t p = 0;

	if (le->source != KVET_LEADER_FROM_FLAG || !kvet_node_is_scalar(item))
		return found;
	while (next_token(item, &p, &tok)) {
		if (split_flag(tok, &name, &value, &has_value) &&
		    name_in(name, elect_flags, N_OF(elect_flags)))
			found = tok;	/* the last one wins */
	}
	return found;
}

struct kvet_slice kvet_leader_config_key(const struct kvet_leader *le)
{
	const struct kvet_node *data;
	struct kvet_slice s = { "", 0 };
	uint32_t i;

	if (le->source != KVET_LEADER_FROM_CONFIG)
		return s;
	data = kvet_node_get(le->config_map->root, "data");
	for (i = 0; kvet_node_is_map(data) && i < data->len; i++)
		if (&data->u.pairs[i].value == le->evidence) {
			s.s = data->u.pairs[i].key.u.str;
			s.len = data->u.pairs[i].key.len;
		}
	return s;
}

/* Does pod volume @vol mount ConfigMap @name, itself or projected? */
static bool mounts_config_map(const struct kvet_node *vol, const char *name)
{
	const struct kvet_node *srcs;
	uint32_t j;

	if (kvet_node_eq(kvet_node_path(vol, "configMap", "name", NULL), name))
		return true;
	srcs = kvet_node_path(vol, "projected", "sources", NULL);
	for (j = 0; kvet_node_is_seq(srcs) && j < srcs->len; j++)
		if (kvet_node_eq(kvet_node_path(&srcs->u.items[j], "configMap",
						"name", NULL), name))
			return true;
	return false;
}

const struct kvet_node *kvet_leader_at(const struct kvet_workload *wl,
				       const struct kvet_leader *le)
{
	const struct kvet_node *vols = kvet_node_get(wl->pod_spec, "volumes");
	uint32_t i;

	if (le->source != KVET_LEADER_FROM_CONFIG)
		return le->evidence;
	for (i = 0; kvet_node_is_seq(vols) && i < vols->len; i++)
		if (mounts_config_map(&vols->u.items[i], le->config_map->name))
			return &vols->u.items[i];
	return NULL;
}

struct kvet_slice kvet_container_name(const struct kvet_node *c)
{
	const struct kvet_node *n = kvet_node_get(c, "name");
	struct kvet_slice s = { "", 0 };

	if (kvet_node_is_string(n)) {
		s.s = n->u.str;
		s.len = n->len;
	}
	return s;
}
