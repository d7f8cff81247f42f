#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the command blocks of kvet's documentation and compare their output.

usage: run_docs.py [--update] KVET ROOT [FILE...]

The way jq tests its manual: every fenced code block of README.md,
CONTRIBUTING.md and docs/*.md (docs/rules/ and the corpus pages are
generated and tested apart) is one of

  ```console          run: each line "$ COMMAND" is run by bash, and the
  $ kvet lint ...     lines up to the next "$ " line are its expected
  expected output     output, standard output and error together (a
  ```                 command may go on over lines that end in "\\");

  <!-- illustrative: WHY -->
  ```yaml             not run: a configuration, a CI snippet, a command
  ...                 that needs a cluster or Helm; the comment on the
  ```                 line before says why.

  ```console requires=helm,kubectl
                      run only when those programs are on PATH (charts
                      and kustomizations render with them); skipped,
                      saying so, otherwise.

A block that is neither fails the test, so no command or output can be
added without being run, and none can drift. The commands of a block run
one after another in one bash, so `cd` holds for the rest of the block,
in a fresh temporary directory that holds a copy of examples/ and
testdata/ (ROOT's), with KVET's directory first on PATH, NO_COLOR=1 and
LC_ALL=C. Exit statuses are not compared: write `; echo "exit $?"` to
show one.

--update rewrites the expected output of every console block from what
the commands print now, for review with git diff; never in CI. The output
is TAP.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( *)(```+|~~~+)(.*)$")
MARK = re.compile(r"^<!-- illustrative: .+ -->$")
PROMPT = "$ "
SEP = "@@kvet-docs-test@@"
# generated from the rules and the corpus, and compared by their own tests
SKIP = ("docs/rules/", "docs/corpus-findings.md", "docs/corpus-review.md")


def doc_files(root):
    files = ["README.md", "CONTRIBUTING.md"]
    files += sorted(os.path.join("docs", f)
                    for f in os.listdir(os.path.join(root, "docs"))
                    if f.endswith(".md"))
    return [f for f in files if not f.startswith(SKIP)]


def blocks(lines):
    """(first line, last line, indent, info, marked) of every block."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        j = i + 1
        while j < len(lines):
            e = FENCE.match(lines[j])
            if e and e.group(2).startswith(fence[0] * len(fence)) and \
                    not e.group(3).strip():
                break
            j += 1
        prev = lines[i - 1].strip() if i else ""
        yield i, j, indent, info, bool(MARK.match(prev))
        i = j + 1


def parse_console(body):
    """[(command, expected output lines)] of a console block."""
    cmds = []
    k = 0
    while k < len(body):
        line = body[k]
        if not line.startswith(PROMPT):
            raise ValueError(f"output before any command: {line!r}")
        cmd = line[len(PROMPT):]
        while cmd.endswith("\\") and k + 1 < len(body):
            k += 1
            cmd = cmd[:-1] + "\n" + re.sub(r"^> ", "", body[k])
        k += 1
        out = []
        while k < len(body) and not body[k].startswith(PROMPT):
            out.append(body[k])
            k += 1
        cmds.append((cmd, out))
    return cmds


def run_block(cmds, root, kvet_dir):
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("examples", "testdata"):
            shutil.copytree(os.path.join(root, d), os.path.join(tmp, d),
                            symlinks=True)
        script = []
        for n, (cmd, _out) in enumerate(cmds):
            script.append(f"echo '{SEP}{n}'")
            script.append(cmd)
        env = dict(os.environ, NO_COLOR="1", LC_ALL="C",
                   PATH=kvet_dir + os.pathsep + os.environ.get("PATH", ""))
        env.pop("TERM", None)
        proc = subprocess.run(["bash", "-c", "\n".join(script) + "\n"],
                              cwd=tmp, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=120)
    text = proc.stdout.decode("utf-8", "replace").replace(tmp, "$TMP")
    got = []
    for part in text.split(SEP)[1:]:
        body = part.split("\n", 1)[1] if "\n" in part else ""
        got.append(body.rstrip("\n").split("\n") if body.strip("\n") else [])
    got += [["(not run)"]] * (len(cmds) - len(got))
    return got


def main():
    args = sys.argv[1:]
    update = bool(args) and args[0] == "--update"
    if update:
        args = args[1:]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    kvet, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    # the directory of the binary goes first on PATH, as "kvet"
    kvet_dir = tempfile.mkdtemp()
    os.symlink(kvet, os.path.join(kvet_dir, "kvet"))
    files = args[2:] or doc_files(root)
    n = failed = 0
    try:
        for rel in files:
            path = os.path.join(root, rel)
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            # kvet has no site of its own: no link may point at one
            if re.search(r"https?://kvet\.dev", "\n".join(lines)):
                n += 1
                failed += 1
                print(f"not ok {n} - {rel}: links to kvet.dev, which the "
                      f"project does not own")
            updates = []
            for start, end, indent, info, marked in list(blocks(lines)):
                n += 1
                label = f"{rel}:{start + 1}"
                if info.split()[:1] != ["console"]:
                    if marked:
                        print(f"ok {n} - {label} # SKIP illustrative")
                    else:
                        failed += 1
                        print(f"not ok {n} - {label}: a ```{info} block "
                              f"that is neither console nor marked "
                              f"<!-- illustrative: WHY -->")
                    continue
                needs = [w.split("=", 1)[1].split(",") for w in info.split()[1:]
                         if w.startswith("requires=")]
                missing = [p for ps in needs for p in ps
                           if not shutil.which(p)]
                if missing:
                    print(f"ok {n} - {label} # SKIP not on PATH: "
                          f"{' '.join(missing)} (scripts/test installs them)")
                    continue
                body = [l[len(indent):] for l in lines[start + 1:end]]
                try:
                    cmds = parse_console(body)
                except ValueError as e:
                    failed += 1
                    print(f"not ok {n} - {label}: {e}")
                    continue
                got = run_block(cmds, root, kvet_dir)
                want_all = [l for c in cmds for l in
                            [PROMPT + c[0].replace("\n", "\\\n")] + c[1]]
                have_all = [l for c, g in zip(cmds, got) for l in
                            [PROMPT + c[0].replace("\n", "\\\n")] + g]
                if update:
                    if want_all != have_all:
                        updates.append((start, end, [indent + l if l else l
                                                     for l in have_all]))
                    print(f"ok {n} - {label} # updated")
                    continue
                if want_all == have_all:
                    print(f"ok {n} - {label}")
                    continue
                failed += 1
                print(f"not ok {n} - {label}: output differs")
                for (cmd, want), have in zip(cmds, got):
                    if want != have:
                        print(f"# $ {cmd.splitlines()[0]}")
                        for l in want[:20]:
                            print(f"#   want: {l}")
                        for l in have[:20]:
                            print(f"#   got:  {l}")
                        break
            if updates:
                # from the last block up, so earlier places stay valid
                for start, end, new in reversed(updates):
                    lines[start + 1:end] = new
                with open(path, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
    finally:
        shutil.rmtree(kvet_dir)
    print(f"1..{n}")
    print(f"# {n - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
