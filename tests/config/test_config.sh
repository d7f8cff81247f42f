#!/usr/bin/env bash
# Configuration and baseline files written by kvet: the baseline of
# testdata/baseline-reordered/v1.yaml is the checked-in baseline.yaml byte
# for byte (so the golden case's baseline is what kvet writes), writes
# are atomic, and `kvet config init` writes a file kvet reads back.
# Usage: test_config.sh KVET TESTDATA
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
testdata=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case=$testdata/baseline-reordered
(cd "$case" && "$kvet" lint -q --format json="$tmp/report.json" \
	--write-baseline "$tmp/base.yaml" v1.yaml)
rc=$?
[ $rc = 0 ] && ok "--write-baseline exits 0 with findings" ||
	notok "--write-baseline exited $rc"
if cmp -s "$tmp/base.yaml" "$case/baseline.yaml"; then
	ok "the baseline of v1.yaml is baseline.yaml byte for byte"
else
	notok "the baseline of v1.yaml differs from baseline.yaml:"
	diff "$case/baseline.yaml" "$tmp/base.yaml" | sed 's/^/#   /'
fi
(cd "$case" && "$kvet" lint -q --format json="$tmp/report.json" \
	--write-baseline "$tmp/again.yaml" --baseline baseline.yaml v1.yaml)
if cmp -s "$tmp/again.yaml" "$case/baseline.yaml"; then
	ok "rewriting with the baseline loaded keeps the baselined findings"
else
	notok "rewriting with the baseline loaded changed it"
fi
(cd "$case" && "$kvet" lint -q --baseline baseline.yaml v1.yaml >/dev/null)
rc=$?
[ $rc = 0 ] && ok "every finding of v1.yaml is baselined: exit 0" ||
	notok "linting v1.yaml against its own baseline exited $rc"

mkdir "$tmp/ro"
chmod 555 "$tmp/ro"
out=$(cd "$case" && "$kvet" lint -q --format json="$tmp/report.json" \
	--write-baseline /dev/full/base.yaml v1.yaml 2>&1)
rc=$?
[ $rc = 3 ] && ok "an unwritable baseline exits 3" ||
	notok "an unwritable baseline exited $rc: $out"

"$kvet" config init "$tmp/kvet.yaml" && [ -s "$tmp/kvet.yaml" ] &&
	ok "config init writes a file" || notok "config init wrote nothing"
"$kvet" config init "$tmp/kvet.yaml" 2>/dev/null
rc=$?
[ $rc = 3 ] && ok "config init refuses to replace a file" ||
	notok "config init over an existing file exited $rc"
"$kvet" lint -q --config "$tmp/kvet.yaml" "$case/v1.yaml" >/dev/null
rc=$?
[ $rc = 1 ] && ok "the default configuration is read back and changes nothing" ||
	notok "the default configuration gave exit $rc"
sed 's/^# //' "$tmp/kvet.yaml" > "$tmp/uncommented.yaml"
"$kvet" rules --config "$tmp/uncommented.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ok "the uncommented default configuration is valid" ||
	{ notok "the uncommented default configuration is refused:"; sed 's/^/#   /' "$tmp/err"; }

# The example configuration of docs/configuration.md is one kvet reads.
docs=$testdata/../docs/configuration.md
awk '/^```yaml$/ { inside = 1; text = ""; next }
	/^```$/ { if (inside && text ~ /^rules:/) { printf "%s", text; exit } inside = 0; next }
	inside { text = text $0 "\n" }' "$docs" > "$tmp/documented.yaml"
if [ -s "$tmp/documented.yaml" ] &&
	"$kvet" rules --config "$tmp/documented.yaml" >/dev/null 2>"$tmp/err"; then
	ok "the example configuration of docs/configuration.md is valid"
else
	notok "the example configuration of docs/configuration.md is refused:"
	sed 's/^/#   /' "$tmp/err"
fi

# requireObjects: a boolean; with it, no object in any input is exit 2
# (the option itself comes with --require-objects)
printf 'requireObjects: true\n' > "$tmp/require.yaml"
"$kvet" lint -q --config "$tmp/require.yaml" "$case/v1.yaml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && ok "requireObjects: true is read; objects found: the usual exit" ||
	{ notok "requireObjects: true with objects exited $rc:"; sed 's/^/#   /' "$tmp/err"; }
printf 'namespace: ops\nrequireObjects: "yes"\n' > "$tmp/require-bad.yaml"
out=$("$kvet" lint -q --config "$tmp/require-bad.yaml" "$case/v1.yaml" 2>&1)
rc=$?
[ $rc = 3 ] && [ "$out" = "$tmp/require-bad.yaml:2:17: error: requireObjects must be true or false" ] &&
	ok "requireObjects of the wrong type is an error at its value" ||
	notok "requireObjects: \"yes\" exited $rc: $out"
if "$kvet" lint --help | grep -q -- --require-objects; then
	mkdir "$tmp/empty"
	"$kvet" lint -q --config "$tmp/require.yaml" "$tmp/empty" >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] && ok "requireObjects: true and no object in the input: exit 2" ||
		notok "requireObjects: true without objects exited $rc"
	printf 'requireObjects: false\n' > "$tmp/lenient.yaml"
	"$kvet" lint -q --config "$tmp/lenient.yaml" "$tmp/empty" >/dev/null 2>&1
	rc=$?
	[ $rc = 0 ] && ok "requireObjects: false and no object: exit 0" ||
		notok "requireObjects: false without objects exited $rc"
else
	echo "# SKIP requireObjects without objects: this kvet has no --require-objects yet"
fi

# maxInputSize: the size limit of each input, as --max-input-size; the
# command line wins over it
cm=$tmp/cm.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n' > "$cm"
size=$(wc -c < "$cm")
printf 'maxInputSize: %d\n' $((size - 1)) > "$tmp/small.yaml"
out=$("$kvet" lint -q --config "$tmp/small.yaml" "$cm" 2>&1)
rc=$?
[ $rc = 2 ] && [ "$out" = "$cm: error: input larger than the limit of $((size - 1)) bytes" ] &&
	ok "maxInputSize one byte under the input refuses it, exit 2" ||
	notok "maxInputSize: $((size - 1)) exited $rc: $out"
printf 'maxInputSize: 1Ki\n' > "$tmp/roomy.yaml"
out=$("$kvet" lint -q --config "$tmp/roomy.yaml" "$cm" 2>&1)
rc=$?
[ $rc = 0 ] && ok "maxInputSize: 1Ki, a quantity, reads the same input" ||
	notok "maxInputSize: 1Ki exited $rc: $out"
out=$("$kvet" lint -q --config "$tmp/small.yaml" --max-input-size 1Ki "$cm" 2>&1)
rc=$?
[ $rc = 0 ] && ok "--max-input-size wins over maxInputSize" ||
	notok "--max-input-size 1Ki over maxInputSize: $((size - 1)) exited $rc: $out"
out=$("$kvet" lint -q --config "$tmp/roomy.yaml" --max-input-size $((size - 1)) "$cm" 2>&1)
rc=$?
[ $rc = 2 ] && ok "...lowering it too" ||
	notok "--max-input-size $((size - 1)) over maxInputSize: 1Ki exited $rc: $out"
printf 'namespace: ops\nmaxInputSize: 0.5Ki\n' > "$tmp/size-ok.yaml"
"$kvet" lint -q --config "$tmp/size-ok.yaml" "$cm" >/dev/null 2>&1
rc=$?
[ $rc = 0 ] && ok "maxInputSize: 0.5Ki is 512 bytes, a whole number" ||
	notok "maxInputSize: 0.5Ki exited $rc"
for bad in 0 -1 100m 2Ti 512MB '[1]'; do
	printf 'namespace: ops\nmaxInputSize: %s\n' "$bad" > "$tmp/size-bad.yaml"
	out=$("$kvet" lint -q --config "$tmp/size-bad.yaml" "$cm" 2>&1)
	rc=$?
	case $bad in
	'[1]') want="$tmp/size-bad.yaml:2:15: error: maxInputSize must be a string, not a sequence" ;;
	*) want="$tmp/size-bad.yaml:2:15: error: maxInputSize must be a size in bytes from 1 to 1Ti, such as 512Mi, 4Gi or 1000000, not \"$bad\"" ;;
	esac
	[ $rc = 3 ] && [ "$out" = "$want" ] &&
		ok "maxInputSize: $bad is an error at its value, exit 3" ||
		notok "maxInputSize: $bad exited $rc: $out"
done

# Type words take their article (issue 22): "not an integer", "not null".
printf 'rules: 5\nnamespace: {a: b}\npool: ~\n' > "$tmp/types.yaml"
out=$("$kvet" lint -q --config "$tmp/types.yaml" "$cm" 2>&1)
want="$tmp/types.yaml:1:8: error: rules must be a mapping, not an integer
$tmp/types.yaml:2:12: error: namespace must be a string, not a mapping
$tmp/types.yaml:3:7: error: pool must be a mapping, not null"
[ "$out" = "$want" ] && ok "configuration type words: an integer, a mapping, null" ||
	notok "configuration type words: $out"
printf 'version: 2\nfindings: [5, true]\n' > "$tmp/types-baseline.yaml"
out=$("$kvet" lint -q --no-config --baseline "$tmp/types-baseline.yaml" "$cm" 2>&1)
want="$tmp/types-baseline.yaml:2:12: error: a baseline entry must be a mapping, not an integer
$tmp/types-baseline.yaml:2:15: error: a baseline entry must be a mapping, not a boolean"
[ "$out" = "$want" ] && ok "baseline type words: an integer, a boolean" ||
	notok "baseline type words: $out"

done_testing
