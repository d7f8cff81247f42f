// SPDX-License-Identifier: Apache-2.0
/*
 * simdjson_scan - the simdjson side of the JSON parser comparison in
 * docs/performance.md (issue 17): parse FILE with simdjson's DOM parser
 * and walk every value once, counting them, the least any loader built
 * on simdjson would do. It gives no line:column: a kvet loader on it
 * would still have to count lines up to every node it keeps.
 *
 * Not built by meson (kvet has no C++ and no simdjson dependency); with
 * Debian 12's libsimdjson-dev 3.0.1:
 *
 *   g++ -O2 -std=c++17 bench/simdjson_scan.cpp -lsimdjson \
 *       -o build-rel/bench/simdjson_scan
 *   build-rel/bench/measure res -- build-rel/bench/simdjson_scan FILE
 */
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
	using clock = std::chrono::steady_clock;
	simdjson::dom::parser parser;
	simdjson::padded_string json;
	simdjson::dom::element root;
	std::vector<simdjson::dom::element> stack;
	size_t values = 0, bytes = 0;

	if (argc != 2) {
		std::fprintf(stderr, "usage: simdjson_scan FILE\n");
		return 2;
	}
	auto t0 = clock::now();
	if (simdjson::padded_string::load(argv[1]).get(json)) {
		std::fprintf(stderr, "simdjson_scan: cannot read %s\n", argv[1]);
		return 1;
	}
	auto t1 = clock::now();
	auto err = parser.parse(json).get(root);
	if (err) {
		std::fprintf(stderr, "simdjson_scan: %s\n",
			     simdjson::error_message(err));
		return 1;
	}
	auto t2 = clock::now();
	stack.push_back(root);
	while (!stack.empty()) {
		simdjson::dom::element e = stack.back();

		stack.pop_back();
		values++;
		if (e.is_object()) {
			for (auto field : simdjson::dom::object(e)) {
				bytes += field.key.size();
				stack.push_back(field.value);
			}
		} else if (e.is_array()) {
			for (auto item : simdjson::dom::array(e))
				stack.push_back(item);
		} else if (e.is_string()) {
			bytes += std::string_view(e).size();
		}
	}
	auto t3 = clock::now();
	std::printf("read %.3f s, parse %.3f s, walk %.3f s: %zu values, %zu string bytes\n",
		    std::chrono::duration<double>(t1 - t0).count(),
		    std::chrono::duration<double>(t2 - t1).count(),
		    std::chrono::duration<double>(t3 - t2).count(), values,
		    bytes);
	return 0;
}
