#!/usr/bin/env bash
# The include layers of src/: every #include "folder/file.h" must be of
# the including file's own folder or one that tests/layers.txt allows it,
# and neither the folders nor the headers may include each other in a
# circle. No file is over 800 lines, and no binding of rules/ (bind_*.c,
# tables over model/) over 450: a file that grows past them holds two jobs.
# drain/ reads the model, never YAML: it calls no accessor of load/node.h
# (nor model/labels.h's kvet_node_slice) and looks into no node's union.
# Prints each problem as file:line and exits 1 if there is one.
# Usage: layers.sh TABLE SRC_DIR
#        layers.sh --self-test TABLE: check that a tree with an upward
#        include, a circle, an include without a folder and a drain/ file
#        that reads YAML fails.
set -u
if [ "${1-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/base" "$tmp/model" "$tmp/load" "$tmp/drain"
	printf '%s\n' 'bool kvet_node_eq(const struct kvet_node *n, const char *s);' \
		'const struct kvet_node *kvet_node_path(const struct kvet_node *n, ...);' \
		> "$tmp/load/node.h"
	printf '%s\n' 'x = kvet_node_eq(n, "true");' 'y = n->u.str;' \
		'z = kvet_node_path (n, "a", NULL);' 'w = kvet_node_slice(n, &s);' \
		'v = kvet_node_selector_matches(n);' > "$tmp/drain/f.c"
	echo '#include "model/b.h"' > "$tmp/base/a.h"
	echo '#include "base/a.h"' > "$tmp/model/b.h"
	echo '#include "c.h"' > "$tmp/model/c.c"
	echo 'struct cel_value v;' > "$tmp/model/d.h"
	seq 801 > "$tmp/model/e.c"
	out=$(bash "$0" "$2" "$tmp") && { echo "passed a bad tree"; exit 1; }
	for want in 'base/a.h:1: #include "model/b.h": base/ may include only' \
		    'model/c.c:1: #include "c.h" names no folder' \
		    'model/d.h:1: a CEL type in a header of model/' \
		    'model/e.c: 801 lines, over 800' \
		    'drain/f.c:1: drain/ calls the YAML accessor kvet_node_eq' \
		    'drain/f.c:2: drain/ reads a YAML node' \
		    'drain/f.c:3: drain/ calls the YAML accessor kvet_node_path' \
		    'drain/f.c:4: drain/ calls the YAML accessor kvet_node_slice' \
		    'folders include each other in a circle: base model' \
		    'headers include each other in a circle: base/a.h model/b.h'; do
		case $out in
		*"$want"*) ;;
		*) printf 'missing "%s" in:\n%s\n' "$want" "$out"; exit 1 ;;
		esac
	done
	case $out in
	*drain/f.c:5:*) printf 'a model reader counted as YAML:\n%s\n' "$out"; exit 1 ;;
	esac
	echo "a bad tree fails as it should"
	exit 0
fi
table=$1
src=$2
declare -A allowed
while read -r line; do
	line=${line%%#*}
	[[ $line =~ ^[[:space:]]*$ ]] && continue
	folder=${line%%:*}
	allowed[$folder]=" $(echo ${line#*:}) "
done < "$table"

bad=0
folder_edges=$(mktemp)
file_edges=$(mktemp)
trap 'rm -f "$folder_edges" "$file_edges"' EXIT
cd "$src" || exit 1
for f in $(find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort); do
	folder=${f%%/*}
	if [ -z "${allowed[$folder]+set}" ]; then
		echo "$f: folder \"$folder\" has no line in $table"
		bad=1
		continue
	fi
	echo "$f $f" >> "$file_edges"
	while IFS=: read -r n inc; do
		to=${inc%%/*}
		if [ "$to" = "$inc" ]; then
			echo "$f:$n: #include \"$inc\" names no folder"
			bad=1
			continue
		fi
		[ -f "$inc" ] && echo "$f $inc" >> "$file_edges"
		[ "$to" = "$folder" ] && continue
		echo "$folder $to" >> "$folder_edges"
		case ${allowed[$folder]} in
		*" $to "* | *" $inc "*) ;;
		*)
			echo "$f:$n: #include \"$inc\": $folder/ may include only:$(
				)${allowed[$folder]}(tests/layers.txt)"
			bad=1
			;;
		esac
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		 sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done
# one job per file: a long file is two that have not been split yet
while read -r n f; do
	limit=800
	case $f in rules/bind_*.c) limit=450 ;; esac
	if [ "$n" -gt $limit ]; then
		echo "$f: $n lines, over $limit"
		bad=1
	fi
done < <(find . -name '*.[ch]' -exec wc -l {} + | sed 's|\./||' | grep -v ' total$')
# model/ is plain C for any caller: no type of the CEL engine in its
# headers (the bindings of rules/ turn model values into CEL values)
if [ -d model ]; then
	while IFS=: read -r f n _; do
		echo "$f:$n: a CEL type in a header of model/"
		bad=1
	done < <(grep -nE '\bcel_[a-z_]+' model/*.h 2>/dev/null)
fi
# drain/ reads the model, never YAML: the accessors are those load/node.h
# declares, and model/labels.h's kvet_node_slice
if [ -d drain ]; then
	accessors=$({ [ -f load/node.h ] &&
		      grep -o 'kvet_node_[a-z0-9_]*[[:space:]]*(' load/node.h
		      echo 'kvet_node_slice('; } |
		    sed 's/[[:space:]]*($//' | sort -u | paste -sd'|')
	while IFS=: read -r f n line; do
		call=$(printf '%s\n' "$line" |
		       grep -oE "\b($accessors)[[:space:]]*\(" | head -n1 |
		       sed 's/[[:space:]]*($//')
		if [ -n "$call" ]; then
			echo "$f:$n: drain/ calls the YAML accessor $call: read it through a function of model/"
		else
			echo "$f:$n: drain/ reads a YAML node: read it through a function of model/"
		fi
		bad=1
	done < <(grep -nE "\b($accessors)[[:space:]]*\(|(->|\.)u\.(str|items|pairs)\b|\bKVET_NODE_[A-Z_]+\b" \
		 $(find drain -name '*.[ch]' | LC_ALL=C sort) /dev/null |
		 grep -v '^/dev/null')
fi
for what in folders headers; do
	edges=$folder_edges
	[ $what = headers ] && edges=$file_edges
	loop=$(tsort "$edges" 2>&1 >/dev/null | sed -n 's/^tsort: \([^:]*\)$/\1/p' | tr '\n' ' ')
	if [ -n "$loop" ]; then
		echo "$what include each other in a circle: $loop"
		bad=1
	fi
done
[ $bad = 0 ] && echo "no include goes against tests/layers.txt, none closes a circle, no file is too long, drain/ reads no YAML"
exit $bad
