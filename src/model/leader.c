/* SPDX-License-Identifier: Apache-2.0 */
#include "model/leader.h"

#include <string.h>

/* Flags that switch leader election on (and, with a false value, off). */
static const char *const elect_flags[] = {
	"leader-elect", "enable-leader-election", "leader-election",
};

/*
 * Flags that tune or name an election, so that their presence shows one
 * (1.13): any other --leader-elect* flag (--leader-elect-lease-duration,
 * --leader-elect-resource-lock), and ingress-nginx's --election-id,
 * which names the Lease of the election its controller always holds.
 */
static bool tunes_election(struct kvet_slice name)
{
	static const char prefix[] = "leader-elect";
	size_t k = sizeof(prefix) - 1;

	return (name.len > k && memcmp(name.s, prefix, k) == 0) ||
	       kvet_slice_eq0(name, "election-id");
}

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
	const char *setting;
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

/* The flags of one container: @v from the switches, @tuned from the
 * flags that tune an election (used only when no switch is given). */
static void scan_flags(const struct tokens *t, struct verdict *v,
		       struct verdict *tuned)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct kvet_slice name, value = { "", 0 };
		bool has_value, b;

		if (!split_flag(t->v[i].text, &name, &value, &has_value))
			continue;
		if (tunes_election(name) &&
		    !name_in(name, elect_flags, N_OF(elect_flags)) &&
		    !tuned->evidence &&
		    !(has_value && kvet_go_bool(value, &b) && !b)) {
			tuned->state = KVET_LEADER_ON;
			tuned->source = KVET_LEADER_FROM_FLAG;
			tuned->evidence = t->v[i].item;
		}
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

/* @s contains @needle, ASCII case-insensitively. */
static bool contains_ci(struct kvet_slice s, const char *needle)
{
	size_t k = strlen(needle), i, j;

	for (i = 0; i + k <= s.len; i++) {
		for (j = 0; j < k; j++) {
			char c = s.s[i + j];

			if (c >= 'a' && c <= 'z')
				c = (char)(c - 'a' + 'A');
			if (c != needle[j])
				break;
		}
		if (j == k)
			return true;
	}
	return false;
}

/*
 * Environment variables (1.13): a *LEADER_ELECT* (or *LEADERELECT*,
 * kube-vip's vip_leaderelection) variable with a boolean value switches
 * election on or off (Vault's injector reads
 * AGENT_INJECT_USE_LEADER_ELECTOR); a *LEADER_ELECTION* or
 * *LEADERELECTION* variable with another value names the election's
 * ConfigMap or Lease (Knative and Tekton components), and one set by
 * valueFrom (LEADER_ELECTION_IDENTITY from the pod's name) is on too:
 * only a false word turns such a variable off. The last wins.
 */
/* The value of an env item's valueFrom.configMapKeyRef when its ConfigMap
 * is in the input: 1 with @out set, 0 when the ConfigMap is there but
 * the key is not (the variable is unset), -1 when kvet cannot know. */
static int config_map_value(const struct kvet_graph *g,
			    const struct kvet_workload *wl,
			    const struct kvet_node *e, struct kvet_slice *out)
{
	const struct kvet_node *ref = kvet_node_path(e, "valueFrom",
						     "configMapKeyRef", NULL);
	const struct kvet_node *name = kvet_node_get(ref, "name");
	const struct kvet_node *key = kvet_node_get(ref, "key");
	const struct kvet_object *cm;
	const struct kvet_node *data;
	uint32_t i;
	char buf[256];

	if (!kvet_node_is_string(name) || !kvet_node_is_string(key) ||
	    name->len >= sizeof(buf))
		return -1;
	memcpy(buf, name->u.str, name->len);
	buf[name->len] = '\0';
	cm = kvet_graph_find(g, "", "ConfigMap", wl->obj->namespace, buf);
	if (!cm)
		return -1;
	data = kvet_node_get(cm->root, "data");
	for (i = 0; kvet_node_is_map(data) && i < data->len; i++) {
		const struct kvet_node *k = &data->u.pairs[i].key;
		const struct kvet_node *val = &data->u.pairs[i].value;

		if (k->len == key->len &&
		    !memcmp(k->u.str, key->u.str, key->len) &&
		    kvet_node_is_scalar(val) && val->type != KVET_NODE_NULL) {
			out->s = val->u.str;
			out->len = val->len;
			return 1;
		}
	}
	return 0;
}

static void scan_env(const struct kvet_graph *g, const struct kvet_workload *wl,
		     const struct kvet_node *c, struct verdict *v)
{
	static const char *const yes[] = { "true", "True", "TRUE", "1",
					   "yes", "on" };
	static const char *const no[] = { "false", "False", "FALSE", "0",
					  "no", "off" };
	const struct kvet_node *env = kvet_node_get(c, "env");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(env) && i < env->len; i++) {
		const struct kvet_node *e = &env->u.items[i];
		const struct kvet_node *val = kvet_node_get(e, "value");
		struct kvet_slice name = kvet_string_of(kvet_node_get(e, "name"));
		struct kvet_slice value;
		bool switched, named;
		int from;

		named = contains_ci(name, "LEADER_ELECTION") ||
			contains_ci(name, "LEADERELECTION");
		if (kvet_node_is_scalar(val) && val->type != KVET_NODE_NULL) {
			value.s = val->u.str;
			value.len = val->len;
		} else if (kvet_node_get(e, "valueFrom")) {
			from = config_map_value(g, wl, e, &value);
			if (from == 0)
				continue;	/* the key is not set */
			if (from < 0) {
				/* set from elsewhere (the pod's name for
				 * LEADER_ELECTION_IDENTITY): no false word */
				if (!named)
					continue;
				v->state = KVET_LEADER_ON;
				v->source = KVET_LEADER_FROM_ENV;
				v->evidence = e;
				continue;
			}
		} else {
			continue;
		}
		if (!value.len)
			continue;
		switched = contains_ci(name, "LEADER_ELECT") ||
			   contains_ci(name, "LEADERELECT");
		if (switched && name_in(value, yes, N_OF(yes)))
			v->state = KVET_LEADER_ON;
		else if (switched && name_in(value, no, N_OF(no)))
			v->state = KVET_LEADER_OFF;
		else if (named)
			v->state = KVET_LEADER_ON;	/* names its object */
		else
			continue;
		v->source = KVET_LEADER_FROM_ENV;
		v->evidence = e;
	}
}

/* A character that continues a key or a bare word. */
static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/*
 * Is the text at @p of @text @key used as a mapping key, bare or quoted,
 * followed by ':'? Then @value is its scalar, unquoted and trimmed. This
 * reads a key of a YAML block or flow mapping, or of JSON, at any depth,
 * without building the document: an operator's configuration file has
 * no fixed shape, and the key names the setting wherever it sits.
 */
static bool key_at(struct kvet_slice text, size_t p, const char *key,
		   struct kvet_slice *value)
{
	size_t k = strlen(key), q = p, start;
	char quote = 0;

	if (p > 0 && word_char(text.s[p - 1]))
		return false;
	if (q < text.len && (text.s[q] == '"' || text.s[q] == '\''))
		quote = text.s[q++];
	if (text.len - q < k || memcmp(text.s + q, key, k) != 0)
		return false;
	q += k;
	if (quote) {
		if (q >= text.len || text.s[q] != quote)
			return false;
		q++;
	} else if (q < text.len && word_char(text.s[q])) {
		return false;
	}
	while (q < text.len && (text.s[q] == ' ' || text.s[q] == '\t'))
		q++;
	if (q >= text.len || text.s[q] != ':')
		return false;
	q++;
	while (q < text.len && (text.s[q] == ' ' || text.s[q] == '\t'))
		q++;
	quote = 0;
	if (q < text.len && (text.s[q] == '"' || text.s[q] == '\''))
		quote = text.s[q++];
	start = q;
	while (q < text.len && (quote ? text.s[q] != quote :
				!strchr(",}]\n\r#", text.s[q])))
		q++;
	value->s = text.s + start;
	value->len = q - start;
	*value = trim(*value);
	return true;
}

/* The keys that switch an election in a configuration file (1.13):
 * component configs (leaderElection.leaderElect), controller-runtime
 * operator configs and their command-line spellings. */
static const char *const elect_keys[] = {
	"leaderElect", "leader-elect", "enableLeaderElection",
	"enable-leader-election",
};

/* The election keys and resourceNamespace of one ConfigMap's files, in
 * text order: the last switch wins. */
static void scan_config_map(const struct kvet_object *cm, struct verdict *v)
{
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };
	const struct kvet_node *data = kvet_node_get(cm->root, "data");
	uint32_t i;
	size_t p, k;

	for (i = 0; kvet_node_is_map(data) && i < data->len; i++) {
		const struct kvet_node *val = &data->u.pairs[i].value;
		struct kvet_slice text, value;

		if (!kvet_node_is_string(val))
			continue;
		text.s = val->u.str;
		text.len = val->len;
		for (p = 0; p < text.len; p++) {
			for (k = 0; k < N_OF(elect_keys); k++) {
				if (!key_at(text, p, elect_keys[k], &value))
					continue;
				if (name_in(value, yes, N_OF(yes)))
					v->state = KVET_LEADER_ON;
				else if (name_in(value, no, N_OF(no)))
					v->state = KVET_LEADER_OFF;
				else
					continue;
				v->source = KVET_LEADER_FROM_CONFIG;
				v->evidence = val;
				v->config_map = cm;
				v->setting = elect_keys[k];
			}
			if (!v->ns_node &&
			    key_at(text, p, "resourceNamespace", &value) &&
			    value.len) {
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
	struct verdict flags, tuned, config, env;

	memset(v, 0, sizeof(*v));
	if (add_tokens(arena, &t, kvet_node_get(c, "command")) ||
	    add_tokens(arena, &t, kvet_node_get(c, "args")))
		return -1;
	memset(&flags, 0, sizeof(flags));
	memset(&tuned, 0, sizeof(tuned));
	memset(&config, 0, sizeof(config));
	memset(&env, 0, sizeof(env));
	scan_flags(&t, &flags, &tuned);
	scan_mounts(g, wl, c, &config);
	scan_env(g, wl, c, &env);
	/* a switch, then a mounted configuration, then the environment,
	 * then a flag that tunes an election, then a default */
	if (flags.state != KVET_LEADER_UNKNOWN)
		*v = flags;
	else if (config.state != KVET_LEADER_UNKNOWN)
		*v = config;
	else if (env.state != KVET_LEADER_UNKNOWN)
		*v = env;
	else if (tuned.state != KVET_LEADER_UNKNOWN)
		*v = tuned;
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
	out->setting = best.setting;
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
	p = 0;
	while (!found.len && next_token(item, &p, &tok)) {
		if (split_flag(tok, &name, &value, &has_value) &&
		    tunes_election(name))
			found = tok;	/* a flag that tunes one */
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
