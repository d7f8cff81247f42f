#!/usr/bin/env bash
# The include layers of src/: every #include "folder/file.h" must be of
# the including file's own folder or one that tests/layers.txt allows it,
# and neither the folders nor the headers may include each other in a
# circle. Prints each problem as file:line and exits 1 if there is one.
# Usage: layers.sh TABLE SRC_DIR
#        layers.sh --self-test TABLE: check that a tree with an upward
#        include, a circle and an include without a folder fails.
set -u
if [ "${1-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/base" "$tmp/model"
	echo '#include "model/b.h"' > "$tmp/base/a.h"
	echo '#include "base/a.h"' > "$tmp/model/b.h"
	echo '#include "c.h"' > "$tmp/model/c.c"
	echo 'struct cel_value v;' > "$tmp/model/d.h"
	out=$(bash "$0" "$2" "$tmp") && { echo "passed a bad tree"; exit 1; }
	for want in 'base/a.h:1: #include "model/b.h": base/ may include only' \
		    'model/c.c:1: #include "c.h" names no folder' \
		    'model/d.h:1: a CEL type in a header of model/' \
		    'folders include each other in a circle: base model' \
		    'headers include each other in a circle: base/a.h model/b.h'; do
		case $out in
		*"$want"*) ;;
		*) printf 'missing "%s" in:\n%s\n' "$want" "$out"; exit 1 ;;
		esac
	done
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
# model/ is plain C for any caller: no type of the CEL engine in its
# headers (the bindings of rules/ turn model values into CEL values)
if [ -d model ]; then
	while IFS=: read -r f n _; do
		echo "$f:$n: a CEL type in a header of model/"
		bad=1
	done < <(grep -nE '\bcel_[a-z_]+' model/*.h 2>/dev/null)
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
[ $bad = 0 ] && echo "no include goes against tests/layers.txt, and none closes a circle"
exit $bad
