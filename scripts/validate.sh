#!/usr/bin/env bash
# Checks the Swift sources' formatting: runs the toolchain's `swift format` with the checked-in .swift-format
# on copies of the Swift files git knows (tracked, or new and not ignored) and fails, showing the diff, when
# that would change any of them. The working tree is left as it is, so uncommitted edits are neither rewritten
# nor mistaken for formatting changes; `--fix` writes the formatted files back. It needs no build, network or
# stdin, so `make test` runs it first, in a fresh clone too. SWIFT overrides the `swift` command.
#
#   scripts/validate.sh          exit 1 when a file is not formatted
#   scripts/validate.sh --fix    format those files in place
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swift=${SWIFT:-swift}

fix=false
case "${1:-}" in
  "") ;;
  --fix) fix=true ;;
  *) echo "usage: $0 [--fix]" >&2; exit 2 ;;
esac

if ! $swift format --version >/dev/null 2>&1; then
  echo "validate: '$swift format' is not available; it comes with Swift 6 toolchains (swift-format)" >&2
  exit 1
fi
[ -f .swift-format ] || { echo "validate: $root/.swift-format is missing" >&2; exit 1; }

# Files as NUL-separated paths, so no name is split. Without git (an exported tree), every Swift file outside
# build directories.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -d '' listed < <(git ls-files -z --cached --others --exclude-standard --deduplicate -- '*.swift')
else
  mapfile -d '' listed < <(find . -name '*.swift' -type f -not -path './.build*' -not -path './data/*' -printf '%P\0')
fi
files=()
for file in "${listed[@]}"; do
  if [ -f "$file" ]; then files+=("$file"); fi  # not a tracked file deleted in the working tree
done
[ ${#files[@]} -gt 0 ] || { echo "validate: no Swift files found in $root" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
copy=$scratch/tree
mkdir "$copy"
cp --parents -- "${files[@]}" "$copy/"
# Its messages name the copies: show them with the repository's paths.
status=0
(cd "$copy" && $swift format format --in-place --parallel --configuration "$root/.swift-format" -- \
  "${files[@]}") 2>"$scratch/messages" || status=$?
sed "s|$copy/||g" "$scratch/messages" >&2
if [ $status -ne 0 ]; then
  echo "validate: swift format failed (exit $status) on the files named above: do they parse?" >&2
  exit 1
fi

changed=()
for file in "${files[@]}"; do
  cmp -s -- "$file" "$copy/$file" || changed+=("$file")
done
if [ ${#changed[@]} -eq 0 ]; then
  echo "validate: all ${#files[@]} Swift files are formatted"
  exit 0
fi
if $fix; then
  for file in "${changed[@]}"; do cp -- "$copy/$file" "$file"; done
  printf 'formatted %s\n' "${changed[@]}"
  exit 0
fi
# The diff, cut short when it is long (a whole-tree reformat), then the full list of files.
for file in "${changed[@]}"; do
  diff -u --label "a/$file" --label "b/$file" -- "$file" "$copy/$file" || true
done >"$scratch/diff"
head -n 200 "$scratch/diff"
lines=$(wc -l <"$scratch/diff")
[ "$lines" -le 200 ] || echo "... $((lines - 200)) more lines of diff"
echo >&2
printf 'not formatted: %s\n' "${changed[@]}" >&2
echo "validate: swift format would change ${#changed[@]} of ${#files[@]} Swift files (diff above):" \
  "run scripts/validate.sh --fix, review and commit" >&2
exit 1
