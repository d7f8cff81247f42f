#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write tests/load/quoted-cases.txt: quoted flow scalars and their text
as PyYAML (a YAML 1.1 loader that follows the spec's folding and
escapes) reads them, the oracle of tests/load/test_quoted.c. Every
combination of up to three pieces of content in each style, and up to two
escapes. Run it by hand after changing the pieces; the file is checked in
so that the suite needs no PyYAML.

One case a line: the quote, a tab, the content between the quotes in hex,
a tab, the text in hex.
"""
import itertools
import os
import sys

import yaml

PIECES = {
    "'": ["a", " ", "\t", "\n", "\r\n", "\n  ", "\n\n", "''", "b c"],
    '"': ["a", " ", "\t", "\n", "\r\n", "\n  ", "\\\n", "\\\r\n  ", "\\t",
          "\\ ", "\\\"", "b c"],
}
ESCAPES = ["\\x41", "\\u00e9", "\\U0001F600", "\\N", "\\_", "\\L", "\\P",
           "\\a\\b\\e\\f\\v\\r", "\\/\\\\", "z"]


def cases():
    for q, pieces in PIECES.items():
        for depth in range(1, 4):
            for t in itertools.product(pieces, repeat=depth):
                yield q, "".join(t)
    for depth in range(1, 3):
        for t in itertools.product(ESCAPES, repeat=depth):
            yield '"', "".join(t)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "quoted-cases.txt")
    n = 0
    with open(out, "w", encoding="ascii") as fp:
        for q, body in cases():
            try:
                text = yaml.safe_load("k: " + q + body + q + "\n")["k"]
            except yaml.YAMLError:
                continue        # refused: kvet's decoder never sees it
            fp.write("%s\t%s\t%s\n" % (q, body.encode().hex(),
                                       text.encode().hex()))
            n += 1
    print("%d cases in %s" % (n, out), file=sys.stderr)


if __name__ == "__main__":
    main()
