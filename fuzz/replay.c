/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A main() for the harnesses outside libFuzzer: run each file named on
 * the command line through LLVMFuzzerTestOneInput() once. Every build
 * (gcc, ASan, UBSan) replays the committed seeds this way (meson test
 * --suite fuzz-replay), so a harness that stops compiling, or an input
 * of fuzz/corpus that crashes again, fails the ordinary test suite.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_load has no initialisation */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;

		if (!fp || fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 ||
		    fseek(fp, 0, SEEK_SET)) {
			perror(argv[i]);
			return 2;
		}
		buf = malloc(len ? (size_t)len : 1);
		if (!buf || fread(buf, 1, (size_t)len, fp) != (size_t)len) {
			perror(argv[i]);
			return 2;
		}
		fclose(fp);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
	}
	printf("%d inputs replayed\n", argc - 1);
	return 0;
}
