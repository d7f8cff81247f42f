/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A main() for the harnesses outside libFuzzer. Two uses:
 *
 *   fuzz-replay-H FILE...
 *     each file through LLVMFuzzerTestOneInput() once: every build (gcc,
 *     ASan, UBSan) replays the committed seeds this way (meson test
 *     --suite fuzz-replay), so a harness that stops compiling, or an
 *     input of fuzz/corpus that crashes again, fails the ordinary suite;
 *
 *   fuzz-replay-H --mutants N --seed S [--dict F] [--max-len L]
 *                 [--artifacts DIR] [--timeout SECONDS] FILE...
 *     the files, then N mutants of them (fuzz/mutate.h): the smoke of
 *     scripts/test. No coverage feedback, so the same arguments run the
 *     same inputs on every machine. Under ASan each input that leaves
 *     more allocations than it found is checked for leaks at once, so a
 *     leak is blamed on the input that made it.
 *
 * Arguments that look like libFuzzer's options (-runs=0) are ignored,
 * so scripts may call either binary alike. A failing input is written
 * to DIR (or the working directory) before the process dies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/read_file.h"
#include "mutate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_load has no initialisation */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* The sanitizers' interface, there only in sanitized builds. */
__attribute__((weak)) int __lsan_do_recoverable_leak_check(void);
__attribute__((weak)) void __sanitizer_set_death_callback(void (*cb)(void));
__attribute__((weak)) int __sanitizer_install_malloc_and_free_hooks(
	void (*malloc_hook)(const volatile void *, size_t),
	void (*free_hook)(const volatile void *));

struct input {
	uint8_t *data;
	size_t len;
};

/* What a signal handler or the sanitizers' death callback needs to
 * save the input that failed: the one process-wide state of this tool,
 * since neither can be handed an argument. */
static struct {
	const uint8_t *data;
	size_t len;
	char path[4096];
	const char *what;
	bool keep;	/* a file already: name it, write nothing */
	atomic_flag saved;
	atomic_size_t mallocs, frees;
	double slowest;		/* seconds, of the input named below */
	char slowest_path[4096];
} cur = { .saved = ATOMIC_FLAG_INIT };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void count_malloc(const volatile void *p, size_t size)
{
	(void)p;
	(void)size;
	atomic_fetch_add_explicit(&cur.mallocs, 1, memory_order_relaxed);
}

static void count_free(const volatile void *p)
{
	if (p)
		atomic_fetch_add_explicit(&cur.frees, 1, memory_order_relaxed);
}

static void say(const char *s)
{
	ssize_t n = write(2, s, strlen(s));

	(void)n;
}

/* Async-signal-safe: open, write and close only. */
static void save_input(void)
{
	bool there = cur.keep;

	if (!cur.data || atomic_flag_test_and_set(&cur.saved))
		return;
	if (!cur.keep) {
		int fd = open(cur.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		size_t done = 0;

		while (fd >= 0 && done < cur.len) {
			ssize_t n = write(fd, cur.data + done, cur.len - done);

			if (n <= 0)
				break;
			done += (size_t)n;
		}
		there = fd >= 0 && done == cur.len;
		if (fd >= 0)
			close(fd);
	}
	say("fuzz-replay: the failing input (");
	say(cur.what);
	say(") is ");
	say(there ? cur.path : "lost: cannot write it");
	say("\n");
}

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		say("fuzz-replay: an input ran past the timeout\n");
	save_input();
	if (sig == SIGALRM)
		_exit(1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_failures(void)
{
	if (__sanitizer_set_death_callback) {
		/* ASan reports crashes itself, then calls back */
		__sanitizer_set_death_callback(save_input);
	} else {
		signal(SIGSEGV, on_signal);
		signal(SIGBUS, on_signal);
		signal(SIGFPE, on_signal);
		signal(SIGILL, on_signal);
	}
	/* the harnesses' own checks abort() */
	signal(SIGABRT, on_signal);
	signal(SIGALRM, on_signal);
	if (__sanitizer_install_malloc_and_free_hooks)
		__sanitizer_install_malloc_and_free_hooks(count_malloc,
							  count_free);
}

/* Inputs are a harness's seeds: far below this. */
#define INPUT_LIMIT ((size_t)1 << 30)

static int read_input(const char *path, struct input *in)
{
	struct kvet_file f = { 0 };

	if (kvet_file_read(path, INPUT_LIMIT, &f) != KVET_FILE_OK) {
		fprintf(stderr, "fuzz-replay: cannot read %s%s%s\n", path,
			f.err ? ": " : "", f.err ? strerror(f.err) : "");
		return -1;
	}
	in->data = (uint8_t *)f.buf;
	in->len = f.len;
	return 0;
}

/*
 * Run one input, armed to save it as @path on failure (or, with @keep,
 * to name the file @path it came from). A leak is a failure of the
 * input that made it, as in libFuzzer: LSan looks when the input left
 * more allocations than it found.
 */
static int run(const uint8_t *data, size_t len, const char *path, bool keep,
	       unsigned timeout)
{
	size_t mallocs, frees;
	double t0, t;

	snprintf(cur.path, sizeof(cur.path), "%s", path);
	cur.data = data;
	cur.len = len;
	cur.keep = keep;
	cur.what = keep ? "a seed" : "a mutant";
	mallocs = atomic_load(&cur.mallocs);
	frees = atomic_load(&cur.frees);
	t0 = now();
	alarm(timeout);
	LLVMFuzzerTestOneInput(data, len);
	alarm(0);
	/* for the log only: what runs, and whether it passes, must not
	 * depend on the clock */
	t = now() - t0;
	if (t > cur.slowest) {
		cur.slowest = t;
		snprintf(cur.slowest_path, sizeof(cur.slowest_path), "%s",
			 path);
	}
	/* counts of this input only: what earlier ones left is theirs */
	if (__lsan_do_recoverable_leak_check &&
	    atomic_load(&cur.mallocs) - mallocs >
		    atomic_load(&cur.frees) - frees &&
	    __lsan_do_recoverable_leak_check()) {
		cur.what = "a leak";
		save_input();
		return -1;
	}
	cur.data = NULL;
	return 0;
}

struct opts {
	size_t mutants, max_len;
	uint64_t seed;
	const char *dict, *artifacts;
	unsigned timeout;
};

static int number(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

/* Our options out of @argv, files moved to its front; their count. */
static int parse(int argc, char **argv, struct opts *o)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t v = 0;
		bool has = i + 1 < argc;

		if (!strcmp(a, "--dict") && has) {
			o->dict = argv[++i];
		} else if (!strcmp(a, "--artifacts") && has) {
			o->artifacts = argv[++i];
		} else if (!strcmp(a, "--mutants") || !strcmp(a, "--seed") ||
			   !strcmp(a, "--max-len") || !strcmp(a, "--timeout")) {
			if (!has || number(argv[++i], &v)) {
				fprintf(stderr, "fuzz-replay: %s takes a number\n", a);
				return -1;
			}
			if (!strcmp(a, "--mutants"))
				o->mutants = (size_t)v;
			else if (!strcmp(a, "--seed"))
				o->seed = v;
			else if (!strcmp(a, "--max-len"))
				o->max_len = (size_t)v;
			else
				o->timeout = (unsigned)v;
		} else if (a[0] == '-' && a[1] && a[1] != '-') {
			continue;	/* a libFuzzer option */
		} else if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "fuzz-replay: unknown option %s\n", a);
			return -1;
		} else {
			argv[n++] = argv[i];
		}
	}
	return n;
}

static int mutate_all(const struct opts *o, const struct input *in, size_t n)
{
	struct fuzz_dict dict = { 0 };
	struct fuzz_rng rng;
	/* every mutant hashed: one number that says two runs tried the
	 * same inputs */
	uint64_t stream = KVET_HASH_SEED;
	uint8_t *buf = malloc(o->max_len ? o->max_len : 1);
	char path[4096];
	size_t k;
	int rc = 0;

	if (!buf || (o->dict && fuzz_dict_load(&dict, o->dict))) {
		free(buf);
		return 2;
	}
	fuzz_rng_seed(&rng, o->seed);
	for (k = 0; k < o->mutants && n && rc == 0; k++) {
		const struct input *a = &in[fuzz_rng_below(&rng, n)];
		const struct input *b = &in[fuzz_rng_below(&rng, n)];
		size_t len = a->len < o->max_len ? a->len : o->max_len;

		memcpy(buf, a->data, len);
		len = fuzz_mutate(&rng, &dict, buf, len, o->max_len, b->data,
				  b->len);
		stream = kvet_hash_bytes(kvet_hash_mix(stream, len), buf, len);
		snprintf(path, sizeof(path), "%s/mutant-%llu-%zu", o->artifacts,
			 (unsigned long long)o->seed, k);
		if (run(buf, len, path, false, o->timeout))
			rc = 1;
	}
	printf("%zu inputs, %zu mutants (seed %llu, stream %016llx): %s\n",
	       n, k, (unsigned long long)o->seed, (unsigned long long)stream,
	       rc ? "FAILED" : "ok");
	fuzz_dict_release(&dict);
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { .max_len = 16384, .artifacts = ".", .timeout = 30 };
	struct input *in;
	int i, n, rc = 0;

	n = parse(argc, argv, &o);
	if (n < 0)
		return 2;
	LLVMFuzzerInitialize(&argc, &argv);
	catch_failures();
	in = calloc((size_t)n + 1, sizeof(*in));
	if (!in)
		return 2;
	for (i = 0; i < n && rc == 0; i++) {
		if (read_input(argv[i], &in[i]))
			rc = 2;
		else if (run(in[i].data, in[i].len, argv[i], true, o.timeout))
			rc = 1;
	}
	if (rc == 0 && o.mutants)
		rc = mutate_all(&o, in, (size_t)n);
	else if (rc == 0)
		printf("%d inputs replayed\n", n);
	for (i = 0; i < n; i++)
		free(in[i].data);
	free(in);
	if (cur.slowest_path[0])
		fprintf(stderr, "fuzz-replay: slowest input %.2f s: %s\n",
			cur.slowest, cur.slowest_path);
	fflush(stdout);
	/* LeakSanitizer has reported what failed; its check at exit would
	 * report it again */
	if (rc)
		_exit(rc);
	return 0;
}
