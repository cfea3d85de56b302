#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's `swift format` and the checked-in .swift-format, and fails
# when that changed anything (run it before committing; `--fix` leaves the formatted files in place).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.swift' | grep -v '+Generated.swift$' | grep -v '+Rules.swift$')
swift format format --in-place --configuration .swift-format $files
if [ "${1:-}" != "--fix" ] && ! git diff --quiet -- $files; then
  git diff --stat -- $files
  echo "swift format changed the files above: review and commit them" >&2
  exit 1
fi
